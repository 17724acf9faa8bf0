// Private to core/verify: the `--device both` comparison of one kernel call's tensor arguments,
// simulator against GPU, over the elements the two devices define (HostTensor::defined after the
// run: the simulator marks what it stored, the GPU path what two runs with two poison bytes agree
// on). An element neither device defines is not compared (it is poison on both); one that only
// one device defines is a mismatch ("defined on cuda only"); the others are compared by value.
#pragma once

#include <string>
#include <vector>

#include "core/ir/ir.h"
#include "core/ir/values.h"
#include "core/sim/simulator.h"
#include "core/verify/verify.h"

namespace tirx::verify {

/// Appends one "device-compare" Check per tensor argument either device wrote (or defined).
/// When the kernel uses inexact operations (inexactOps), a float16/bfloat16 output may also differ
/// by one unit in the last place of its dtype at the tensor's largest magnitude: the devices'
/// float32 values are within the operations' bounds, 16-bit roundings inside the kernel may land
/// on neighbouring values, and sums of such terms differ at the scale of the terms.
void compareDevices(Report& rep, const std::string& kernel, SourceSpan span,
                    const std::vector<ir::KernelArg>& simArgs,
                    const std::vector<ir::KernelArg>& gpuArgs, const ir::Provenance& prov,
                    const ir::Program& program, const ir::Kernel& k);

/// The operations of `k` (and of the scalar functions it calls or maps with ewise) whose GPU bits
/// the simulator does not reproduce, each once with its first line: approximate PTX spellings
/// (`ex2.approx.ftz.f32 (line 184)`, held to the ISA's bound) and the scalar intrinsics computed
/// with the host's libm against the GPU's libdevice (`T.exp2 (line 71)`).
std::vector<std::string> inexactOps(const ir::Program& program, const ir::Kernel& k);

/// One unit in the last place of `dtype` at the magnitude of `v` (float16 and bfloat16; 0 for
/// other dtypes and for non-finite `v`).
double ulp16(ir::DType dtype, double v);

/// The absolute and relative tolerance of the device comparison (float32 results of the same
/// instructions; the GPU's approximate instructions differ by a few ulp).
inline constexpr double kDeviceRtol = 1e-5, kDeviceAtol = 1e-6;

}  // namespace tirx::verify
