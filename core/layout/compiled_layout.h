// The fast layout evaluator: a layout (TileLayout or ComposeLayout) compiled once into interned
// axis ids and integer digits, so that the forward map is a few multiply-adds per shard iter with
// no allocation, no string and no std::map. One evaluator for the whole engine: the ownership
// table uses it; sema (ownership checks against fragment maps), codegen (closed-form offsets) and
// the simulator (per-access resolution) are meant to switch to it from their own copies
// (docs/layout.md, "Compiled layouts").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/layout/swizzle_layout.h"
#include "core/layout/tile_layout.h"

namespace tirx {

/// Interned axis: the registered axes of spec §1.1 have fixed ids below kRegisteredAxes; a
/// compiled layout numbers any other axis name it meets from kRegisteredAxes up (its own table).
using AxisId = uint16_t;

namespace axis {
inline constexpr AxisId m = 0, TLane = 1, TCol = 2, P = 3, F = 4, Bank = 5, laneid = 6, warpid = 7,
                        tx = 8, wgid = 9, tid_in_wg = 10, wid_in_wg = 11, bx = 12, by = 13, bz = 14,
                        cbx = 15, cby = 16, cbz = 17;
}  // namespace axis
inline constexpr AxisId kRegisteredAxes = 18;

/// The id of a registered axis name, nullopt for any other name.
std::optional<AxisId> registeredAxisId(std::string_view name);
/// The name of a registered axis id ("" past the registry).
std::string_view registeredAxisName(AxisId id);
/// Kind and linear-thread weight of a registered id (Unknown / 0 past the registry).
AxisKind axisKindOf(AxisId id);
int64_t threadAxisWeightOf(AxisId id);

/// A layout compiled for evaluation. Cheap to copy; immutable after construction. Point results
/// reduce the physical coordinate to what every consumer needs: `m` = the sum of the memory-axis
/// components (element offset of a shared/global tensor, register slot of a local one), swizzled
/// for a ComposeLayout, and `thread` = the linear thread id in the CTA (spec §1.1 equivalences).
class CompiledLayout {
 public:
  struct Point {
    int64_t m = 0;
    int64_t thread = 0;
    bool operator==(const Point&) const = default;
  };
  /// One shard iter, outermost first. `mStride`/`threadStride` are its contribution to Point per
  /// step; `mask`/`shift` are set when the extent is a power of two, `magic` (⌈2^64 / extent⌉)
  /// when it is not and fits 32 bits: a division-free split (Lemire's fastdiv, exact for indices
  /// in [0, 2^32)).
  struct Digit {
    int64_t extent = 1;
    int64_t stride = 0;
    AxisId axis = axis::m;
    int64_t mStride = 0;
    int64_t threadStride = 0;
    int64_t mask = -1;  ///< extent − 1 when a power of two, −1 otherwise
    int shift = 0;
    uint64_t magic = 0;
  };

  CompiledLayout() = default;
  explicit CompiledLayout(const TileLayout& layout, const Swizzle& swizzle = {});
  explicit CompiledLayout(const LayoutValue& value);

  /// Forward map of the row-major flat logical index (spec §1.4): split over the shard extents
  /// innermost first with floor division (the outermost component keeps the rest), accumulate,
  /// add offsets, then swizzle `m`. Allocation-free.
  Point applyFlat(int64_t flat) const noexcept {
    int64_t m = m_offsetM, thread = m_offsetThread;
    for (size_t k = m_digits.size(); k-- > 1;) {
      const Digit& d = m_digits[k];
      int64_t c;
      if (d.mask >= 0) {
        c = flat & d.mask;
        flat >>= d.shift;  // arithmetic shift: floor division for negative indices too
      } else if (d.magic != 0 && static_cast<uint64_t>(flat) <= 0xFFFFFFFFu) {
        const auto q = static_cast<int64_t>(
            (static_cast<unsigned __int128>(d.magic) * static_cast<uint64_t>(flat)) >> 64);
        c = flat - q * d.extent;
        flat = q;
      } else {
        c = flat % d.extent;
        if (c < 0) c += d.extent;
        flat = (flat - c) / d.extent;
      }
      m += c * d.mStride;
      thread += c * d.threadStride;
    }
    if (!m_digits.empty()) {
      m += flat * m_digits[0].mStride;
      thread += flat * m_digits[0].threadStride;
    }
    return Point{m_swizzled ? m_swizzle.apply(m) : m, thread};
  }
  /// applyFlat(flatten(coord, shape)); coord and shape must have the same length.
  Point apply(std::span<const int64_t> coord, std::span<const int64_t> shape) const noexcept;

  /// Every axis the layout names, per axis id: out[id] for id < axisCount() (caller-sized),
  /// zeros elsewhere. The base copy (no replicas); `m` is not swizzled here except for a
  /// ComposeLayout, whose only axis is `m`.
  void applyAxes(int64_t flat, std::span<int64_t> out) const noexcept;

  /// Calls fn(flat, Point) for every element 0..size()−1 in row-major order, walking the shard
  /// digits with an odometer (no division at all).
  template <class Fn>
  void forEach(Fn&& fn) const;

  /// Distinct (m, thread) displacements of the replica combinations, base {0, 0} first. Replica
  /// displacements are added after the swizzle (a ComposeLayout has no replica).
  std::span<const Point> replicaDeltas() const { return m_replicaDeltas; }

  int64_t size() const { return m_size; }
  /// True when some iter or offset moves the linear thread id (block and cluster axes, weight 0,
  /// do not; TileLayout::hasThreadAxes counts them).
  bool hasThreadAxes() const { return m_hasThread; }
  bool isSwizzled() const { return m_swizzled; }
  const Swizzle& swizzle() const { return m_swizzle; }
  std::span<const Digit> digits() const { return m_digits; }
  int64_t offsetM() const { return m_offsetM; }
  int64_t offsetThread() const { return m_offsetThread; }
  /// Axis ids in use run below axisCount() (kRegisteredAxes + the layout's unregistered names).
  int axisCount() const { return kRegisteredAxes + static_cast<int>(m_extraAxes.size()); }
  std::string axisName(AxisId id) const;
  /// The id this layout gives `name`, nullopt when the layout does not know it.
  std::optional<AxisId> axisId(std::string_view name) const;

 private:
  AxisId intern(const std::string& name);

  std::vector<Digit> m_digits;
  std::vector<std::pair<AxisId, int64_t>> m_offsets;  ///< per-axis offsets (applyAxes)
  std::vector<Point> m_replicaDeltas{Point{}};
  std::vector<std::string> m_extraAxes;
  Swizzle m_swizzle;
  int64_t m_offsetM = 0, m_offsetThread = 0, m_size = 1;
  bool m_swizzled = false, m_hasThread = false;
};

template <class Fn>
void CompiledLayout::forEach(Fn&& fn) const {
  const size_t n = m_digits.size();
  std::array<int64_t, 16> small{};
  std::vector<int64_t> big;
  int64_t* digit = small.data();
  if (n > small.size()) {
    big.assign(n, 0);
    digit = big.data();
  }
  int64_t m = m_offsetM, thread = m_offsetThread;
  for (int64_t f = 0; f < m_size; ++f) {
    fn(f, Point{m_swizzled ? m_swizzle.apply(m) : m, thread});
    for (size_t k = n; k-- > 0;) {
      const Digit& d = m_digits[k];
      if (++digit[k] < d.extent) {
        m += d.mStride;
        thread += d.threadStride;
        break;
      }
      m -= (d.extent - 1) * d.mStride;
      thread -= (d.extent - 1) * d.threadStride;
      digit[k] = 0;
    }
  }
}

}  // namespace tirx
