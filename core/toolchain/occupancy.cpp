// The occupancy calculator (occupancy.h): blocks per SM from each resource, the limiter, and the
// register budget that keeps the same number of blocks.
#include "core/toolchain/occupancy.h"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace tirx::toolchain {

namespace {

int64_t roundUp(int64_t v, int64_t unit) {
  return unit <= 0 ? v : (v + unit - 1) / unit * unit;
}

int blocksByRegisters(int registers, int warpsPerBlock, const SmLimits& l) {
  if (registers <= 0) return std::numeric_limits<int>::max();  // unknown: no limit
  const int64_t perWarp = roundUp(int64_t(registers) * 32, l.registerUnit);
  const int64_t warps = l.registersPerSm / perWarp;
  return int(warps / warpsPerBlock);
}

}  // namespace

SmLimits smLimits(int sm) {
  SmLimits l;
  l.sm = sm;
  if (sm >= 90) return l;  // sm_90, sm_100: the defaults
  if (sm == 80 || sm == 87) {
    l.sharedPerSm = 164 * 1024;
    l.maxSharedPerBlock = 163 * 1024;
  } else if (sm == 86 || sm == 89) {
    l.sharedPerSm = 100 * 1024;
    l.maxSharedPerBlock = 99 * 1024;
    l.maxThreadsPerSm = 1536;
    l.maxWarpsPerSm = 48;
    l.maxBlocksPerSm = sm == 89 ? 24 : 16;
  } else if (sm == 75) {
    l.sharedPerSm = 64 * 1024;
    l.maxSharedPerBlock = 64 * 1024;
    l.reservedSharedPerBlock = 0;
    l.sharedUnit = 256;
    l.maxThreadsPerSm = 1024;
    l.maxWarpsPerSm = 32;
    l.maxBlocksPerSm = 16;
  } else if (sm == 70 || sm == 72) {
    l.sharedPerSm = 96 * 1024;
    l.maxSharedPerBlock = 96 * 1024;
    l.reservedSharedPerBlock = 0;
    l.sharedUnit = 256;
  }
  return l;
}

std::string occupancyLimiterName(OccupancyLimiter l) {
  switch (l) {
    case OccupancyLimiter::Registers:
      return "registers";
    case OccupancyLimiter::SharedMemory:
      return "shared memory";
    case OccupancyLimiter::Threads:
      return "threads";
    case OccupancyLimiter::Blocks:
      return "blocks";
    case OccupancyLimiter::None:
      break;
  }
  return "none";
}

Occupancy computeOccupancy(const OccupancyInput& in, const SmLimits& l) {
  Occupancy o;
  o.registersEstimated = in.registersEstimated;
  if (in.threadsPerBlock <= 0 || in.threadsPerBlock > l.maxThreadsPerBlock) {
    o.error = std::to_string(in.threadsPerBlock) + " threads per block (1.." +
              std::to_string(l.maxThreadsPerBlock) + " allowed)";
    return o;
  }
  if (in.registersPerThread > l.maxRegistersPerThread) {
    o.error = std::to_string(in.registersPerThread) + " registers per thread (at most " +
              std::to_string(l.maxRegistersPerThread) + ")";
    return o;
  }
  if (in.sharedBytesPerBlock > l.maxSharedPerBlock) {
    o.error = std::to_string(in.sharedBytesPerBlock) +
              " bytes of shared memory per block (at most " + std::to_string(l.maxSharedPerBlock) +
              ")";
    return o;
  }
  o.warpsPerBlock = (in.threadsPerBlock + 31) / 32;
  o.registersPerWarp = in.registersPerThread > 0
                           ? int(roundUp(int64_t(in.registersPerThread) * 32, l.registerUnit))
                           : 0;
  o.sharedPerBlock = roundUp(in.sharedBytesPerBlock, l.sharedUnit) + l.reservedSharedPerBlock;
  o.byRegisters = blocksByRegisters(in.registersPerThread, o.warpsPerBlock, l);
  o.bySharedMemory =
      o.sharedPerBlock > 0 ? int(l.sharedPerSm / o.sharedPerBlock) : l.maxBlocksPerSm;
  o.byThreads =
      std::min(l.maxThreadsPerSm / (o.warpsPerBlock * 32), l.maxWarpsPerSm / o.warpsPerBlock);
  o.byBlocks = l.maxBlocksPerSm;
  o.blocksPerSm = std::min({o.byRegisters, o.bySharedMemory, o.byThreads, o.byBlocks});
  const std::pair<int, OccupancyLimiter> each[] = {
      {o.byRegisters, OccupancyLimiter::Registers},
      {o.bySharedMemory, OccupancyLimiter::SharedMemory},
      {o.byThreads, OccupancyLimiter::Threads},
      {o.byBlocks, OccupancyLimiter::Blocks}};
  for (const auto& [blocks, which] : each)
    if (blocks == o.blocksPerSm) o.limiters.push_back(which);
  if (in.registersPerThread <= 0) o.byRegisters = -1;
  o.limiter = o.limiters.front();
  o.warpsPerSm = o.blocksPerSm * o.warpsPerBlock;
  o.occupancy = double(o.warpsPerSm) / l.maxWarpsPerSm;
  o.valid = o.blocksPerSm > 0;
  if (!o.valid) o.error = "no block fits on an SM";
  const int keep = std::max(o.blocksPerSm, 1);
  for (int r = l.maxRegistersPerThread; r >= 1; --r)
    if (blocksByRegisters(r, o.warpsPerBlock, l) >= keep) {
      o.registerBudget = r;
      break;
    }
  return o;
}

std::string occupancyText(const Occupancy& o) {
  if (!o.valid) return "does not fit: " + o.error;
  char pct[16];
  std::snprintf(pct, sizeof pct, "%.1f%%", o.occupancy * 100);
  std::string limiters;
  for (OccupancyLimiter l : o.limiters)
    limiters += (limiters.empty() ? "" : " and ") + occupancyLimiterName(l);
  const std::string tilde = o.registersEstimated ? "~" : "";
  return tilde + std::to_string(o.blocksPerSm) + " blocks/SM (" + std::to_string(o.warpsPerSm) +
         " warps, " + tilde + pct + "), limited by " + limiters +
         "; <= " + std::to_string(o.registerBudget) + " registers/thread keep " +
         std::to_string(o.blocksPerSm) + (o.blocksPerSm == 1 ? " block" : " blocks");
}

}  // namespace tirx::toolchain
