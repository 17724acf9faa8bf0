// Occupancy and the register budget of a kernel, before any run: from the registers per thread
// (ptxas' allocation, or an estimate), the shared memory per block and the block size, how many
// blocks of the kernel fit on one SM, which resource stops the next block (the limiter), and how
// many registers per thread the kernel may use without losing a block. Pure arithmetic over the
// per-architecture limits of the CUDA occupancy calculator (CUDA C++ Programming Guide, "Technical
// Specifications per Compute Capability"); `tirx compile --emit resources`, the studio's Resources
// tab and `tirx profile` print it. No GPU and no toolchain needed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tirx::toolchain {

/// The per-SM limits of an architecture.
struct SmLimits {
  int sm = 90;
  int registersPerSm = 65536;
  int maxRegistersPerThread = 255;
  int registerUnit = 256;  ///< registers are allocated per warp in units of this many
  int64_t sharedPerSm = 228 * 1024;
  int64_t maxSharedPerBlock = 227 * 1024;
  int64_t reservedSharedPerBlock = 1024;  ///< the system's share of every block
  int sharedUnit = 128;  ///< shared memory is allocated in units of this many bytes
  int maxThreadsPerSm = 2048;
  int maxThreadsPerBlock = 1024;
  int maxBlocksPerSm = 32;
  int maxWarpsPerSm = 64;
};

/// The limits of sm_XX: sm_90 (H100/H200) exactly; other architectures get their register file,
/// shared memory and thread/block limits from the same table (sm_80: 164 KiB, sm_86/89: 100 KiB,
/// 1536 threads, 16 blocks; sm_100: as sm_90).
SmLimits smLimits(int sm);

enum class OccupancyLimiter { None, Registers, SharedMemory, Threads, Blocks };
/// "registers", "shared memory", "threads", "blocks", "none".
std::string occupancyLimiterName(OccupancyLimiter l);

struct OccupancyInput {
  int threadsPerBlock = 0;
  int registersPerThread = 0;  ///< 0: unknown, no register limit applied
  int64_t sharedBytesPerBlock = 0;
  bool registersEstimated = false;  ///< carried into the result's text
};

struct Occupancy {
  bool valid = false;
  std::string error;  ///< why no block fits (too many threads, registers or shared bytes)
  int warpsPerBlock = 0;
  int registersPerWarp = 0;    ///< allocated: registers × 32 rounded up to the unit
  int64_t sharedPerBlock = 0;  ///< allocated: rounded up to the unit, plus the reserved KiB
  int byRegisters = 0, bySharedMemory = 0, byThreads = 0,
      byBlocks = 0;  ///< blocks/SM each allows (-1: registers unknown)
  int blocksPerSm = 0;
  int warpsPerSm = 0;
  double occupancy = 0;                               ///< active warps / maximum warps per SM
  OccupancyLimiter limiter = OccupancyLimiter::None;  ///< the first of the tied minima
  std::vector<OccupancyLimiter> limiters;             ///< every resource at the minimum
  /// The most registers per thread that keep `blocksPerSm` (>= the input's when it fits).
  int registerBudget = 0;
  bool registersEstimated = false;
};

Occupancy computeOccupancy(const OccupancyInput& in, const SmLimits& limits);

/// "2 blocks/SM (16 warps, 25%), limited by registers; <= 128 registers/thread keep 2 blocks",
/// with "~" before estimated register figures; the error when nothing fits.
std::string occupancyText(const Occupancy& o);

}  // namespace tirx::toolchain
