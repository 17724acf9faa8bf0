// Host value helpers: element counts and the definedness mask of HostTensor.
#include "core/ir/values.h"

#include <cstring>

namespace tirx::ir {

int64_t HostTensor::numel() const {
  int64_t n = 1;
  for (auto e : shape) n *= e;
  return n;
}

int64_t HostTensor::undefinedCount() const {
  int64_t n = 0;
  for (uint8_t d : defined) n += d ? 0 : 1;
  return n;
}

void HostTensor::markAllUndefined() {
  defined.assign(size_t(numel()), 0);
}

void HostTensor::normalizeDefined() {
  for (uint8_t d : defined)
    if (!d) return;
  defined.clear();
}

void HostTensor::poisonUndefined(uint8_t byte) {
  if (defined.empty()) return;
  const size_t eb = size_t(dtypeBytes(dtype));
  for (size_t i = 0; i < defined.size() && (i + 1) * eb <= data.size(); ++i)
    if (!defined[i]) std::memset(data.data() + i * eb, byte, eb);
}

}  // namespace tirx::ir
