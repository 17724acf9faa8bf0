// Private to core/conform's scalar conformance: the dtypes a generated kernel computes in, their
// variable and tensor names, and the per-thread input values (shared by the generator,
// scalar_gen.cpp, and the runner, scalar_run.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/conform/scalar_conform.h"

namespace tirx::conform::scalar {

/// Inputs per dtype and thread (variables `<short>_0`, `<short>_1`, `<short>_2`).
inline constexpr int kVars = 3;

struct DTypeInfo {
  ir::DType type;
  const char* name;       ///< "float32"
  const char* shortName;  ///< "f32": variable prefix
};
const std::vector<DTypeInfo>& dtypes();

/// The input bits of kernel `kernel` for dtype `t`: kScalarThreads × kVars values, row-major.
std::vector<uint64_t> inputs(uint64_t seed, int kernel, ir::DType t);

}  // namespace tirx::conform::scalar
