// Host value helpers.
#include "core/ir/values.h"

namespace tirx::ir {

int64_t HostTensor::numel() const {
  int64_t n = 1;
  for (auto e : shape) n *= e;
  return n;
}

}  // namespace tirx::ir
