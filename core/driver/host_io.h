// Host tensors for the CLI: the input generators of `tirx run --input NAME=GEN` (linspace(a,b),
// zeros, ones, full(v), arange, randn(seed), rand(seed), empty), scalar arguments parsed exactly
// for their dtype, and .npy output (format 1.0, little-endian, C order). Generators compute in
// double and round once to the tensor dtype; a value the dtype cannot hold is an error, never a
// wrap-around or a silent infinity.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/diag/result.h"
#include "core/ir/ir.h"
#include "core/ir/values.h"

namespace tirx::driver {

/// The largest host tensor a generator makes (bytes).
inline constexpr int64_t kMaxHostTensorBytes = int64_t(32) << 30;

/// Fill a tensor of `dtype` and `shape` from a generator spelling. Status{"input", ...} when the
/// spelling is not one of the generators, a value does not fit the dtype (`full(300)` for uint8,
/// `full(1e6)` for float16), or the tensor is over kMaxHostTensorBytes. `empty` gives a tensor
/// whose elements are all undefined (poisoned before a run).
Result<ir::HostTensor> generateTensor(const std::string& generator, ir::DType dtype,
                                      const std::vector<int64_t>& shape);

/// The bits of a scalar argument given as text: integers as Python's int() reads them (exact,
/// and in the dtype's range, else an error that names the range), floats as strtod reads them
/// rounded once to the dtype (an overflow to infinity is an error), bools as true/false/1/0.
Result<uint64_t> scalarArgumentBits(const std::string& text, ir::DType dtype,
                                    const std::string& param);

/// Element `i` of a host tensor as double (floats, ints, float16/bfloat16 decoded).
double tensorValue(const ir::HostTensor& t, int64_t i);

/// Write `t` as a .npy file (float16 as <f2; bfloat16 as <u2 bit patterns).
Status writeNpy(const std::string& path, const ir::HostTensor& t);

/// The default arguments of a kernel: tensors it reads from `linspace(-4, 4)` (`linspace(0, 8)`
/// for unsigned integers), tensors it only writes undefined (`empty`), scalars 0; `inputs`
/// (NAME=GEN pairs) override by parameter name.
Result<std::vector<ir::KernelArg>> makeArguments(
    const ir::Kernel& kernel, const std::vector<std::pair<std::string, std::string>>& inputs);

}  // namespace tirx::driver
