// Kernel arguments for tests that run a kernel directly through an ir::Executor: a 1-D host
// tensor of a dtype from a vector of its C type, element `i` of a tensor argument read back, and
// the bits of a float.
#pragma once

#include <cstring>
#include <vector>

#include "core/ir/values.h"

namespace tirx::testing {

template <class T>
ir::KernelArg tensorOf(ir::DType t, const std::vector<T>& v) {
  ir::KernelArg a;
  a.tensor.dtype = t;
  a.tensor.shape = {static_cast<int64_t>(v.size())};
  a.tensor.data.resize(v.size() * sizeof(T));
  std::memcpy(a.tensor.data.data(), v.data(), a.tensor.data.size());
  return a;
}

inline uint32_t bitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

template <class T>
T at(const ir::KernelArg& a, int i) {
  T v;
  std::memcpy(&v, a.tensor.data.data() + static_cast<size_t>(i) * sizeof(T), sizeof(T));
  return v;
}

}  // namespace tirx::testing
