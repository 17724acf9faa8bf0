// Where a kernel's shared tiles live: one plan used by sema (the target's per-block limit), codegen
// (static `__shared__` arrays up to 48 KiB, else one `extern __shared__` byte array) and the GPU
// runner (the launch's dynamic shared-memory bytes and the opt-in attribute). The simulator places
// tiles by the same rule (offsets aligned to each tile's alignment, at least 16 bytes).
#pragma once

#include <cstdint>
#include <vector>

#include "core/ir/ir.h"

namespace tirx::ir {

/// Static shared memory a kernel may declare on every architecture; above it a kernel must use
/// dynamic shared memory and opt in (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES).
inline constexpr int64_t kStaticSharedLimit = 48 * 1024;

struct SharedMemoryPlan {
  std::vector<int64_t> offset;  ///< per buffer: byte offset of a shared tile, -1 for the others
  int64_t tileBytes = 0;        ///< end of the last shared tile
  int64_t alignment = 16;       ///< the largest alignment of a shared tile
  bool dynamic = false;         ///< tileBytes > kStaticSharedLimit: tiles in `extern __shared__`
  int64_t launchDynamicBytes =
      0;  ///< passed at launch: the tiles when dynamic, + dynamic_smem_bytes
  /// Shared memory one block of the kernel needs: tiles + dynamic_smem_bytes.
  int64_t totalBytes(const Kernel& k) const { return tileBytes + k.launch.dynamicSmemBytes; }
};

/// Bytes of one shared buffer (storage elements × element size).
int64_t sharedBufferBytes(const Buffer& b);

SharedMemoryPlan planSharedMemory(const Kernel& k);

/// The most shared memory one block may use on sm_XX (opt-in maximum, CUDA C++ Programming Guide,
/// "Technical Specifications per Compute Capability"): 227 KiB on sm_90/sm_100, 163 KiB on
/// sm_80/87, 99 KiB on sm_86/89/120, 96 KiB on sm_70/72, 64 KiB on sm_75, 48 KiB before sm_70.
int64_t sharedMemoryLimit(int sm);

}  // namespace tirx::ir
