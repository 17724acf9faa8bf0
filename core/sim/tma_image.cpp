// TMA box images (tma_image.h): coordinates are evaluated per dimension against the map's view
// (dims and strides innermost first), the dense offset of a box element is its row-major index,
// and the shared position is the tile's swizzle of it.
#include "core/sim/tma_image.h"

#include <algorithm>
#include <cstring>

namespace tirx::sim {

void forEachTmaElement(const ir::TensorMap& map, const std::vector<int64_t>& coords,
                       const Swizzle& swizzle, const std::function<void(const TmaElement&)>& f) {
  const size_t rank = map.dims.size();
  const int64_t eb = ir::dtypeBytes(map.dtype);
  std::vector<int64_t> stride(rank, eb);  // bytes, innermost first
  for (size_t d = 1; d < rank; ++d) stride[d] = map.strideBytes[d - 1];
  std::vector<int64_t> idx(rank, 0);  // innermost first
  int64_t total = 1;
  for (int64_t b : map.box) total *= b;
  for (int64_t dense = 0; dense < total; ++dense) {
    TmaElement e;
    bool inBounds = true;
    int64_t g = 0;
    for (size_t d = 0; d < rank; ++d) {
      const int64_t c = coords[rank - 1 - d] + idx[d];
      if (c < 0 || c >= map.dims[d]) inBounds = false;
      g += c * stride[d];
    }
    e.globalByte = inBounds ? g : -1;
    e.sharedByte = swizzle.apply(dense) * eb;
    f(e);
    for (size_t d = 0; d < rank; ++d) {  // next index, innermost fastest
      if (++idx[d] < map.box[d]) break;
      idx[d] = 0;
    }
  }
}

void tmaFillBytes(ir::DType t, bool oobNan, uint8_t* out) {
  const int eb = ir::dtypeBytes(t);
  std::memset(out, 0, size_t(eb));
  if (!oobNan || !ir::isFloat(t)) return;
  std::memset(out, 0xff, size_t(eb));
  out[eb - 1] = 0x7f;  // little-endian: the sign bit clear, every other bit set
}

std::vector<uint8_t> tmaLoadImage(const ir::TensorMap& map, const std::vector<int64_t>& coords,
                                  const Swizzle& swizzle, const uint8_t* globalBase,
                                  int64_t globalBytes) {
  const int64_t eb = ir::dtypeBytes(map.dtype);
  std::vector<uint8_t> image;
  uint8_t fill[8];
  tmaFillBytes(map.dtype, map.oobNan, fill);
  forEachTmaElement(map, coords, swizzle, [&](const TmaElement& e) {
    if (size_t(e.sharedByte + eb) > image.size()) image.resize(size_t(e.sharedByte + eb), 0);
    const bool readable = e.globalByte >= 0 && e.globalByte + eb <= globalBytes;
    std::memcpy(image.data() + e.sharedByte, readable ? globalBase + e.globalByte : fill,
                size_t(eb));
  });
  return image;
}

std::vector<std::pair<int64_t, int64_t>> tmaSharedRanges(const ir::TensorMap& map,
                                                         const Swizzle& swizzle) {
  std::vector<int64_t> chunks;
  forEachTmaElement(map, std::vector<int64_t>(map.dims.size(), 0), swizzle,
                    [&](const TmaElement& e) { chunks.push_back(e.sharedByte / 16); });
  std::sort(chunks.begin(), chunks.end());
  chunks.erase(std::unique(chunks.begin(), chunks.end()), chunks.end());
  std::vector<std::pair<int64_t, int64_t>> out;
  for (int64_t c : chunks) {
    if (!out.empty() && out.back().second == c * 16)
      out.back().second += 16;
    else
      out.push_back({c * 16, c * 16 + 16});
  }
  return out;
}

}  // namespace tirx::sim
