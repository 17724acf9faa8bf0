// Occupancy per kernel from the compile products (kernel_occupancy.h).
#include "core/driver/kernel_occupancy.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "core/ir/shared_memory.h"

namespace tirx::driver {

std::vector<KernelOccupancy> kernelOccupancy(const CompileProducts& p, int sm) {
  std::vector<KernelOccupancy> out;
  if (sm <= 0) {
    sm = 90;
    if (p.target.rfind("sm_", 0) == 0 && p.target.size() > 3 && std::isdigit(p.target[3]))
      sm = std::atoi(p.target.c_str() + 3);
  }
  const toolchain::SmLimits limits = toolchain::smLimits(sm);
  for (const ir::Kernel& k : p.program.kernels) {
    if (!p.kernels.empty() &&
        std::find(p.kernels.begin(), p.kernels.end(), k.name) == p.kernels.end())
      continue;
    KernelOccupancy ko;
    ko.kernel = k.name;
    ko.input.threadsPerBlock = int(k.launch.threads());
    const ir::SharedMemoryPlan plan = ir::planSharedMemory(k);
    const toolchain::KernelResources* res = nullptr;
    for (const auto& r : p.resources)
      if (r.kernel == k.name) res = &r;
    if (res && res->registers > 0) {
      ko.input.registersPerThread = res->registers;
      ko.registerSource = "ptxas";
      ko.input.sharedBytesPerBlock =
          std::max<int64_t>(res->sharedBytes, 0) + plan.launchDynamicBytes;
    } else {
      int peak = 0;
      for (const auto& l : p.registers.lines)
        if (l.kernel == k.name) peak = std::max(peak, l.maxLive);
      ko.input.registersPerThread = peak;
      ko.input.registersEstimated = true;
      ko.registerSource = "estimate";
      ko.input.sharedBytesPerBlock = plan.totalBytes(k);
    }
    ko.occupancy = toolchain::computeOccupancy(ko.input, limits);
    out.push_back(std::move(ko));
  }
  return out;
}

std::string occupancyLines(const std::vector<KernelOccupancy>& rows) {
  std::string out;
  for (const KernelOccupancy& r : rows)
    out += r.kernel + ": " + std::to_string(r.input.threadsPerBlock) + " threads, " +
           (r.input.registersEstimated ? "~" : "") + std::to_string(r.input.registersPerThread) +
           " registers (" + r.registerSource + "), " + std::to_string(r.input.sharedBytesPerBlock) +
           " B shared -> " + toolchain::occupancyText(r.occupancy) + "\n";
  return out;
}

}  // namespace tirx::driver
