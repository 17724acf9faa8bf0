// Compilation of a layout into the fast evaluator of compiled_layout.h: axis names are interned
// once (fixed ids for the registry of spec §1.1, per-layout ids for any other name), each shard
// iter becomes a digit with its contribution to the element offset / register slot and to the
// linear thread id, power-of-two extents get a mask and a shift (others a fastdiv multiplier),
// and the replica combinations are reduced to a list of distinct (m, thread) displacements.
#include "core/layout/compiled_layout.h"

#include <algorithm>

namespace tirx {

namespace {

constexpr std::array<std::string_view, kRegisteredAxes> kNames = {
    "m",    "TLane",     "TCol",      "P",  "F",  "Bank", "laneid", "warpid", "tx",
    "wgid", "tid_in_wg", "wid_in_wg", "bx", "by", "bz",   "cbx",    "cby",    "cbz"};

}  // namespace

std::optional<AxisId> registeredAxisId(std::string_view name) {
  for (AxisId i = 0; i < kRegisteredAxes; ++i)
    if (kNames[i] == name) return i;
  return std::nullopt;
}

std::string_view registeredAxisName(AxisId id) {
  return id < kRegisteredAxes ? kNames[id] : std::string_view();
}

AxisKind axisKindOf(AxisId id) {
  if (id <= axis::Bank) return AxisKind::Memory;
  if (id < kRegisteredAxes) return AxisKind::Thread;
  return AxisKind::Unknown;
}

int64_t threadAxisWeightOf(AxisId id) {
  switch (id) {
    case axis::tx:
    case axis::laneid:
    case axis::tid_in_wg:
      return 1;
    case axis::warpid:
    case axis::wid_in_wg:
      return 32;
    case axis::wgid:
      return 128;
    default:
      return 0;
  }
}

AxisId CompiledLayout::intern(const std::string& name) {
  if (auto id = registeredAxisId(name)) return *id;
  for (size_t i = 0; i < m_extraAxes.size(); ++i)
    if (m_extraAxes[i] == name) return static_cast<AxisId>(kRegisteredAxes + i);
  m_extraAxes.push_back(name);
  return static_cast<AxisId>(kRegisteredAxes + m_extraAxes.size() - 1);
}

CompiledLayout::CompiledLayout(const LayoutValue& value)
    : CompiledLayout(tileOf(value), swizzleOf(value)) {}

CompiledLayout::CompiledLayout(const TileLayout& layout, const Swizzle& swizzle)
    : m_swizzle(swizzle), m_swizzled(!swizzle.isIdentity()) {
  auto contribution = [&](AxisId id, int64_t stride, int64_t& mOut, int64_t& threadOut) {
    mOut = axisKindOf(id) == AxisKind::Memory ? stride : 0;
    threadOut = threadAxisWeightOf(id) * stride;
    if (threadOut != 0) m_hasThread = true;
  };
  for (const Iter& it : layout.shard) {
    Digit d;
    d.extent = std::max<int64_t>(it.extent, 1);
    d.stride = it.stride;
    d.axis = intern(it.axis);
    contribution(d.axis, it.stride, d.mStride, d.threadStride);
    if ((d.extent & (d.extent - 1)) == 0) {
      d.mask = d.extent - 1;
      while ((int64_t{1} << d.shift) < d.extent) ++d.shift;
    } else if (d.extent <= 0xFFFFFFFF) {
      d.magic = UINT64_C(0xFFFFFFFFFFFFFFFF) / static_cast<uint64_t>(d.extent) + 1;
    }
    m_size = it.extent > 0 ? m_size * it.extent : 0;  // size() of the TileLayout
    m_digits.push_back(d);
  }
  for (const auto& [name, v] : layout.offset) {
    const AxisId id = intern(name);
    int64_t dm = 0, dt = 0;
    contribution(id, v, dm, dt);
    m_offsetM += dm;
    m_offsetThread += dt;
    m_offsets.emplace_back(id, v);
  }
  // Replica combinations, row-major over the replica iters, deduplicated (a zero-stride replica
  // or two iters that cancel add no owner).
  for (const Iter& r : layout.replica) {
    const AxisId id = intern(r.axis);
    int64_t dm = 0, dt = 0;
    contribution(id, r.stride, dm, dt);
    std::vector<Point> next;
    for (const Point& p : m_replicaDeltas)
      for (int64_t i = 0; i < std::max<int64_t>(r.extent, 1); ++i)
        next.push_back(Point{p.m + i * dm, p.thread + i * dt});
    m_replicaDeltas.clear();
    for (const Point& p : next)
      if (std::find(m_replicaDeltas.begin(), m_replicaDeltas.end(), p) == m_replicaDeltas.end())
        m_replicaDeltas.push_back(p);
  }
}

CompiledLayout::Point CompiledLayout::apply(std::span<const int64_t> coord,
                                            std::span<const int64_t> shape) const noexcept {
  int64_t flat = 0;
  const size_t n = std::min(coord.size(), shape.size());
  for (size_t d = 0; d < n; ++d) flat = flat * shape[d] + coord[d];
  return applyFlat(flat);
}

void CompiledLayout::applyAxes(int64_t flat, std::span<int64_t> out) const noexcept {
  std::fill(out.begin(), out.end(), 0);
  auto add = [&](AxisId id, int64_t v) {
    if (id < out.size()) out[id] += v;
  };
  for (size_t k = m_digits.size(); k-- > 0;) {
    const Digit& d = m_digits[k];
    int64_t c = flat;
    if (k > 0) {
      c = flat % d.extent;
      if (c < 0) c += d.extent;
      flat = (flat - c) / d.extent;
    }
    add(d.axis, c * d.stride);
  }
  for (const auto& [id, v] : m_offsets) add(id, v);
  if (m_swizzled && axis::m < out.size()) out[axis::m] = m_swizzle.apply(out[axis::m]);
}

std::string CompiledLayout::axisName(AxisId id) const {
  if (id < kRegisteredAxes) return std::string(kNames[id]);
  const size_t i = id - kRegisteredAxes;
  return i < m_extraAxes.size() ? m_extraAxes[i] : std::string();
}

std::optional<AxisId> CompiledLayout::axisId(std::string_view name) const {
  if (auto id = registeredAxisId(name)) return id;
  for (size_t i = 0; i < m_extraAxes.size(); ++i)
    if (m_extraAxes[i] == name) return static_cast<AxisId>(kRegisteredAxes + i);
  return std::nullopt;
}

}  // namespace tirx
