// The shared-memory plan of shared_memory.h and the per-architecture block limits.
#include "core/ir/shared_memory.h"

#include <algorithm>

namespace tirx::ir {

int64_t sharedBufferBytes(const Buffer& b) {
  int64_t elems = b.storageElems;  // as codegen sizes the array
  if (elems <= 0) elems = b.layout.storageSlots();
  return std::max<int64_t>(elems, 1) * dtypeBytes(b.dtype);
}

SharedMemoryPlan planSharedMemory(const Kernel& k) {
  SharedMemoryPlan p;
  p.offset.assign(k.buffers.size(), -1);
  for (size_t i = 0; i < k.buffers.size(); ++i) {
    const Buffer& b = k.buffers[i];
    if (b.scope != MemScope::Shared) continue;
    const int64_t al = std::max<int64_t>(b.alignBytes, 16);
    p.alignment = std::max(p.alignment, al);
    p.tileBytes = (p.tileBytes + al - 1) / al * al;
    p.offset[i] = p.tileBytes;
    p.tileBytes += sharedBufferBytes(b);
  }
  p.dynamic = p.tileBytes > kStaticSharedLimit;
  p.launchDynamicBytes =
      (p.dynamic ? p.tileBytes : 0) + std::max<int64_t>(k.launch.dynamicSmemBytes, 0);
  return p;
}

int64_t sharedMemoryLimit(int sm) {
  if (sm >= 120) return 99 * 1024;
  if (sm >= 100 || sm == 90) return 227 * 1024;
  if (sm == 80 || sm == 87) return 163 * 1024;
  if (sm >= 86) return 99 * 1024;
  if (sm == 75) return 64 * 1024;
  if (sm >= 70) return 96 * 1024;
  return 48 * 1024;
}

}  // namespace tirx::ir
