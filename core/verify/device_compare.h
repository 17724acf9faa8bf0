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
void compareDevices(Report& rep, const std::string& kernel, SourceSpan span,
                    const std::vector<ir::KernelArg>& simArgs,
                    const std::vector<ir::KernelArg>& gpuArgs, const ir::Provenance& prov,
                    const ir::Kernel& k);

/// The absolute and relative tolerance of the device comparison (float32 results of the same
/// instructions; the GPU's approximate instructions differ by a few ulp).
inline constexpr double kDeviceRtol = 1e-5, kDeviceAtol = 1e-6;

}  // namespace tirx::verify
