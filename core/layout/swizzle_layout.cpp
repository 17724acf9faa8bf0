// Swizzles and ComposeLayout (spec/TIRX.md §1.10; spec/TIRX-TENSOR-CORES.md §9): the XOR map,
// well-formedness, the printer, the correspondence with the hardware modes of §9.2 (TMA
// CU_TENSOR_MAP_SWIZZLE_*, wgmma descriptor bits 62–63, CuTe Swizzle<B,4,3>), the constraints of
// §9.3 (element width, base alignment), and the (row, 16-byte chunk) image.
#include "core/layout/swizzle_layout.h"

#include "core/layout/compiled_layout.h"

namespace tirx {

namespace {

constexpr int64_t kMaxImageChunks = int64_t{1} << 22;

int log2Exact(int64_t v) {
  if (v <= 0 || (v & (v - 1)) != 0) return -1;
  int k = 0;
  while ((int64_t{1} << k) < v) ++k;
  return k;
}

}  // namespace

int64_t Swizzle::apply(int64_t m) const noexcept {
  if (len <= 0 || m < 0) return m;
  const int64_t low = m & ((int64_t{1} << perElement) - 1);
  const int64_t x = m >> perElement;
  const int64_t mask = (int64_t{1} << len) - 1;
  const int64_t f = inner ? x ^ ((x >> atom) & mask) : x ^ ((x & mask) << atom);
  return (f << perElement) | low;
}

int64_t Swizzle::periodElements() const {
  return len <= 0 ? 1 : int64_t{1} << (perElement + len + atom);
}

std::string checkSwizzle(const Swizzle& s) {
  if (s.perElement < 0)
    return "per_element must not be negative, found " + std::to_string(s.perElement);
  if (s.len < 0) return "swizzle_len must not be negative, found " + std::to_string(s.len);
  if (s.atom < s.len)
    return "atom_len (" + std::to_string(s.atom) + ") must be at least swizzle_len (" +
           std::to_string(s.len) + ")";
  if (s.perElement + s.len + s.atom > 40)
    return "per_element + swizzle_len + atom_len must be at most 40, found " +
           std::to_string(s.perElement + s.len + s.atom);
  return {};
}

std::string checkComposeTile(const TileLayout& tile) {
  auto bad = [](const std::string& axis) {
    return "the tile layout of a ComposeLayout must map to the memory axis m only, found " + axis;
  };
  for (const Iter& it : tile.shard)
    if (it.axis != "m") return bad(it.axis);
  for (const auto& [axis, v] : tile.offset)
    if (axis != "m") return bad(axis);
  if (!tile.replica.empty())
    return "the tile layout of a ComposeLayout cannot have a replica (R[...]) term";
  return {};
}

int64_t ComposeLayout::storageSpan() const {
  const auto off = tile.offset.find("m");
  const int64_t extent = tile.span("m") + (off == tile.offset.end() ? 0 : off->second);
  if (swizzle.isIdentity()) return extent;
  // The inner form rewrites unit bits [0, B), the outer form bits [S, S+B): an offset moves only
  // inside its aligned group of 2^(M+B) (inner) or 2^(M+S+B) (outer) elements.
  const int bits = swizzle.perElement + swizzle.len + (swizzle.inner ? 0 : swizzle.atom);
  const int64_t group = int64_t{1} << bits;
  return (extent + group - 1) / group * group;
}

AxisCoord ComposeLayout::applyFlat(int64_t flat) const {
  AxisCoord c = tile.applyFlat(flat);
  c["m"] = swizzle.apply(c["m"]);
  return c;
}

AxisCoord ComposeLayout::apply(std::span<const int64_t> coord,
                               std::span<const int64_t> shape) const {
  return applyFlat(flatten(coord, shape));
}

std::string ComposeLayout::toString() const {
  std::string s = "ComposeLayout(" + std::to_string(swizzle.perElement) + ", " +
                  std::to_string(swizzle.len) + ", " + std::to_string(swizzle.atom) +
                  ", TileLayout(" + tile.toString() + ")";
  if (!swizzle.inner) s += ", swizzle_inner=False";
  return s + ")";
}

const TileLayout& tileOf(const LayoutValue& v) {
  if (const auto* c = std::get_if<ComposeLayout>(&v)) return c->tile;
  return std::get<TileLayout>(v);
}

Swizzle swizzleOf(const LayoutValue& v) {
  if (const auto* c = std::get_if<ComposeLayout>(&v)) return c->swizzle;
  return Swizzle{};
}

std::string toString(const LayoutValue& v) {
  if (const auto* c = std::get_if<ComposeLayout>(&v)) return c->toString();
  return std::get<TileLayout>(v).toString();
}

// ---- hardware modes ---------------------------------------------------------------------------

int swizzleModeBytes(SwizzleMode m) {
  switch (m) {
    case SwizzleMode::B32:
      return 32;
    case SwizzleMode::B64:
      return 64;
    case SwizzleMode::B128:
      return 128;
    default:
      return 0;
  }
}

int swizzleModeTirx(SwizzleMode m) {
  return static_cast<int>(m);
}

int swizzleModeDescriptor(SwizzleMode m) {
  switch (m) {
    case SwizzleMode::B128:
      return 1;
    case SwizzleMode::B64:
      return 2;
    case SwizzleMode::B32:
      return 3;
    default:
      return 0;
  }
}

std::optional<SwizzleMode> swizzleModeFromDescriptor(int field) {
  switch (field) {
    case 0:
      return SwizzleMode::None;
    case 1:
      return SwizzleMode::B128;
    case 2:
      return SwizzleMode::B64;
    case 3:
      return SwizzleMode::B32;
    default:
      return std::nullopt;
  }
}

const char* swizzleModeName(SwizzleMode m) {
  switch (m) {
    case SwizzleMode::B32:
      return "32B";
    case SwizzleMode::B64:
      return "64B";
    case SwizzleMode::B128:
      return "128B";
    default:
      return "none";
  }
}

Swizzle swizzleForMode(SwizzleMode m, int elemBytes) {
  const int M = elemBytes > 0 && elemBytes <= 16 ? log2Exact(16 / elemBytes) : 0;
  return Swizzle{M < 0 ? 0 : M, static_cast<int>(m), 3, true};
}

std::optional<SwizzleMode> hardwareSwizzleMode(const Swizzle& s, int elemBytes, std::string* why) {
  auto fail = [&](std::string msg) -> std::optional<SwizzleMode> {
    if (why) *why = std::move(msg);
    return std::nullopt;
  };
  if (const std::string w = checkSwizzle(s); !w.empty()) return fail(w);
  if (s.len == 0) return SwizzleMode::None;
  if (!s.inner)
    return fail(
        "swizzle_inner=False has no hardware swizzle mode: TMA and wgmma swizzle only the "
        "inner direction");
  if (s.len > 3)
    return fail("swizzle_len " + std::to_string(s.len) +
                " has no sm_90 swizzle mode (1, 2, 3 = 32B, 64B, 128B)");
  if (s.atom != 3)
    return fail("atom_len " + std::to_string(s.atom) +
                " has no hardware swizzle mode: TMA and wgmma swizzle 16-byte chunks within "
                "128-byte lines (atom_len=3)");
  if (const std::string w =
          checkSwizzleElementWidth(s, elemBytes, std::to_string(elemBytes * 8) + "-bit elements");
      !w.empty())
    return fail(w);
  return static_cast<SwizzleMode>(s.len);
}

std::string checkSwizzleElementWidth(const Swizzle& s, int elemBytes,
                                     const std::string& dtypeName) {
  if (s.isIdentity()) return {};
  if (elemBytes <= 0 || elemBytes > 16 || 16 % elemBytes != 0)
    return "a swizzled layout needs elements of 1, 2, 4, 8 or 16 bytes, found " + dtypeName;
  const int want = log2Exact(16 / elemBytes);
  if (s.perElement == want) return {};
  const int64_t unitElems = int64_t{1} << s.perElement;
  return "ComposeLayout per_element=" + std::to_string(s.perElement) + " swizzles " +
         std::to_string(unitElems) + "-element units (" + std::to_string(unitElems * elemBytes) +
         " bytes of " + dtypeName + "); a 16-byte chunk of " + dtypeName +
         " is per_element=" + std::to_string(want);
}

int64_t swizzlePatternBytes(const Swizzle& s, int elemBytes) {
  if (s.isIdentity()) return 0;
  return s.periodElements() * elemBytes;
}

std::string checkSwizzleBaseAlignment(const Swizzle& s, int elemBytes, int64_t baseAlignBytes) {
  const int64_t period = swizzlePatternBytes(s, elemBytes);
  if (period <= 1 || (baseAlignBytes > 0 && baseAlignBytes % period == 0)) return {};
  std::string name = std::to_string(int64_t{16} << s.len) + "B";
  return "a " + name + " swizzle repeats every " + std::to_string(period) +
         " bytes; the buffer is only known to be " + std::to_string(baseAlignBytes) +
         "-byte aligned (declare align=" + std::to_string(period) + ")";
}

// ---- chunk image ------------------------------------------------------------------------------

std::optional<ChunkImage> chunkImage(const LayoutValue& v, std::span<const int64_t> shape,
                                     int elemBytes, int64_t maxRows, std::string* why) {
  auto fail = [&](std::string msg) -> std::optional<ChunkImage> {
    if (why) *why = std::move(msg);
    return std::nullopt;
  };
  const TileLayout& tile = tileOf(v);
  if (shape.empty() || !tile.admits(shape)) return fail("the layout does not admit the shape");
  if (elemBytes <= 0 || elemBytes > 16 || 16 % elemBytes != 0)
    return fail("element size must be 1, 2, 4, 8 or 16 bytes");
  const int64_t rowElems = shape.back();
  ChunkImage img;
  img.elemBytes = elemBytes;
  img.rows = tile.size() / rowElems;
  if (img.rows > maxRows)
    return fail("the layout has " + std::to_string(img.rows) + " rows, more than " +
                std::to_string(maxRows));
  const int64_t chunkElems = 16 / elemBytes;
  img.chunksPerRow = (rowElems + chunkElems - 1) / chunkElems;
  if (img.rows * img.chunksPerRow > kMaxImageChunks)
    return fail("the layout has " + std::to_string(img.rows * img.chunksPerRow) +
                " chunks, more than " + std::to_string(kMaxImageChunks));
  const CompiledLayout c(v);
  const CompiledLayout plain(tile);
  if (img.rows > 1) {
    const int64_t pitch = (plain.applyFlat(rowElems).m - plain.applyFlat(0).m) * elemBytes;
    img.physRowChunks = pitch > 0 && pitch % 16 == 0 ? pitch / 16 : 0;
  } else {
    img.physRowChunks = img.chunksPerRow;
  }
  img.physical.assign(static_cast<size_t>(img.rows * img.chunksPerRow), -1);
  for (int64_t r = 0; r < img.rows; ++r)
    for (int64_t k = 0; k < img.chunksPerRow; ++k) {
      const int64_t first = r * rowElems + k * chunkElems;
      const int64_t count = std::min(chunkElems, rowElems - k * chunkElems);
      const int64_t m0 = c.applyFlat(first).m;
      bool contiguous = (m0 * elemBytes) % 16 == 0;
      for (int64_t i = 1; i < count && contiguous; ++i)
        contiguous = c.applyFlat(first + i).m == m0 + i;
      if (contiguous) img.physical[r * img.chunksPerRow + k] = m0 * elemBytes / 16;
    }
  return img;
}

}  // namespace tirx
