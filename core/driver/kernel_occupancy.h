// The occupancy of each kernel of a compile (core/toolchain/occupancy.h applied to the compile's
// products): registers per thread from ptxas' allocation (what the SASS uses; the register facts'
// `allocated`) or, with no resource report, the IR estimate's peak for the kernel (marked
// estimated); shared memory per block from ptxas' static bytes plus the launch's dynamic bytes
// (the shared-memory plan); the block size from the kernel's launch. `tirx compile --emit
// resources`, the studio's Resources tab and `tirx profile` show it.
#pragma once

#include <string>
#include <vector>

#include "core/driver/compile.h"
#include "core/toolchain/occupancy.h"

namespace tirx::driver {

struct KernelOccupancy {
  std::string kernel;
  toolchain::OccupancyInput input;
  std::string registerSource;  ///< "ptxas" (allocated, measured) or "estimate"
  toolchain::Occupancy occupancy;
};

/// One entry per compiled kernel of `p.program` (in order) for target sm_`sm`; 0 takes the
/// architecture of `p.target` ("sm_90a" -> 90; 90 when it names none).
std::vector<KernelOccupancy> kernelOccupancy(const CompileProducts& p, int sm = 0);

/// One line per kernel: "NAME: 384 threads, 168 registers (ptxas), 196672 B shared -> 1 blocks/SM
/// ..." (occupancyText), the form the studio's Resources tab shows.
std::string occupancyLines(const std::vector<KernelOccupancy>& rows);

}  // namespace tirx::driver
