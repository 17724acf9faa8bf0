// Private to core/sim: the byte images of a TMA box (spec TC §5.4, §9.2), as pure functions the
// executor (tma_exec.cpp) and the golden tests share. A load reads every box element of the
// tensor map's view at `coords + idx` (out-of-bounds elements are filled with zero, or the dtype's
// canonical NaN with `oobNan`) and writes it at shared byte `swizzle(dense offset)`; a store reads
// the same positions and writes only the in-bounds elements. The swizzle is the ComposeLayout of
// the shared tile, which equals the hardware's SWIZZLE_32B/64B/128B when the box starts at a
// multiple of the swizzle period (sema E0294; verified on the H200: tc-verify).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/ir/ir.h"

namespace tirx::sim {

/// One box element: where it lives in global memory (byte offset from the map's base, −1 when
/// out of bounds) and in shared memory (byte offset from the box start, after the swizzle).
struct TmaElement {
  int64_t globalByte = -1;
  int64_t sharedByte = 0;
};

/// Calls `f` for every element of the box at `coords` (outer to inner, as the script writes them),
/// in dense (row-major) order. `swizzle` is the shared tile's, in elements of `map.dtype`.
void forEachTmaElement(const ir::TensorMap& map, const std::vector<int64_t>& coords,
                       const Swizzle& swizzle, const std::function<void(const TmaElement&)>& f);

/// The fill bytes of an out-of-bounds element: zero, or the canonical NaN of a float dtype
/// (f16/bf16 0x7fff, f32 0x7fffffff, f64 0x7fff...f) — decision TC-T6.
void tmaFillBytes(ir::DType t, bool oobNan, uint8_t* out);

/// The shared image of a load: `globalBase` holds the map's view from its base (`globalBytes`
/// bytes; elements beyond it read as fill, the caller guarantees in-bounds elements fit). The
/// image covers the box's shared bytes from the box start (size: the largest written byte + 1).
std::vector<uint8_t> tmaLoadImage(const ir::TensorMap& map, const std::vector<int64_t>& coords,
                                  const Swizzle& swizzle, const uint8_t* globalBase,
                                  int64_t globalBytes);

/// The 16-byte-aligned shared byte ranges [begin, end) the box covers, relative to its start,
/// merged and sorted (the bytes an async write makes pending, or an async read reads).
std::vector<std::pair<int64_t, int64_t>> tmaSharedRanges(const ir::TensorMap& map,
                                                         const Swizzle& swizzle);

}  // namespace tirx::sim
