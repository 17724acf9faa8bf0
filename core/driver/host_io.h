// Host tensors for the CLI: the input generators of `tirx run --input NAME=GEN` (linspace(a,b),
// zeros, ones, full(v), arange, randn(seed), rand(seed)) and .npy output (format 1.0,
// little-endian, C order). Generators compute in double and round once to the tensor dtype.
#pragma once

#include <string>
#include <vector>

#include "core/diag/result.h"
#include "core/ir/ir.h"
#include "core/ir/values.h"

namespace tirx::driver {

/// Fill a tensor of `dtype` and `shape` from a generator spelling. Status{"input", ...} when the
/// spelling is not one of the generators.
Result<ir::HostTensor> generateTensor(const std::string& generator, ir::DType dtype,
                                      const std::vector<int64_t>& shape);

/// Element `i` of a host tensor as double (floats, ints, float16/bfloat16 decoded).
double tensorValue(const ir::HostTensor& t, int64_t i);

/// Write `t` as a .npy file (float16 as <f2; bfloat16 as <u2 bit patterns).
Status writeNpy(const std::string& path, const ir::HostTensor& t);

/// The default arguments of a kernel: read tensors from `linspace(-4, 4)`, write-only tensors
/// zeros, scalars 0; `inputs` (NAME=GEN pairs) override by parameter name.
Result<std::vector<ir::KernelArg>> makeArguments(
    const ir::Kernel& kernel, const std::vector<std::pair<std::string, std::string>>& inputs);

}  // namespace tirx::driver
