// Ownership tables of register layouts (spec §1.6): which thread holds each logical element in
// which slot of its private array, and the reverse. The layout is compiled once
// (compiled_layout.h) and the logical index is walked with its odometer, so the inner loop does
// no division, no map lookups and no allocation. The reverse table is a counting sort when
// (thread, slot) is dense and a stable sort otherwise. Every table is capped at
// kMaxOwnershipEntries owner entries: a larger tile is tabulated a window at a time
// (ownershipWindow, each cell through the allocation-free applyFlat) or summarised from its thread
// axes alone (ownershipSummary).
#include <algorithm>
#include <limits>

#include "core/layout/compiled_layout.h"
#include "core/layout/tile_layout.h"

namespace tirx {

namespace {

void buildReverse(OwnershipTable& t) {
  const int64_t total = static_cast<int64_t>(t.ownerList.size());
  const int64_t r = std::max<int64_t>(t.ownersPerElement, 1);
  t.byThread.resize(total);
  int64_t minThread = 0, maxThread = -1, minSlot = 0, maxSlot = 0;
  for (int64_t i = 0; i < total; ++i) {
    const Owner& o = t.ownerList[i];
    if (i == 0 || o.thread < minThread) minThread = o.thread;
    if (i == 0 || o.thread > maxThread) maxThread = o.thread;
    if (i == 0 || o.slot < minSlot) minSlot = o.slot;
    if (i == 0 || o.slot > maxSlot) maxSlot = o.slot;
  }
  t.threadCount = total ? maxThread + 1 : 0;
  if (total == 0) return;
  const int64_t slotRange = maxSlot - minSlot + 1;
  const int64_t threadRange = maxThread - minThread + 1;
  // Element index of every owner entry, in ownerList order (flat ascending).
  auto flatOf = [&](int64_t f, int64_t i) {
    return OwnershipTable::Entry{t.ownerList[i].thread, t.ownerList[i].slot, f};
  };
  const bool dense = threadRange <= (int64_t{1} << 24) && slotRange <= (int64_t{1} << 24) &&
                     threadRange * slotRange <= 8 * total + 4096;
  if (dense) {
    // Counting sort on key (thread, slot); flats arrive ascending, so each bucket stays sorted.
    const int64_t keys = threadRange * slotRange;
    std::vector<int64_t> start(keys + 1, 0);
    auto key = [&](const Owner& o) {
      return (o.thread - minThread) * slotRange + (o.slot - minSlot);
    };
    for (const Owner& o : t.ownerList) ++start[key(o) + 1];
    for (int64_t k = 0; k < keys; ++k) start[k + 1] += start[k];
    for (int64_t i = 0; i < total; ++i) t.byThread[start[key(t.ownerList[i])]++] = flatOf(i / r, i);
  } else {
    for (int64_t i = 0; i < total; ++i) t.byThread[i] = flatOf(i / r, i);
    std::stable_sort(t.byThread.begin(), t.byThread.end(), [](const auto& a, const auto& b) {
      return a.thread != b.thread ? a.thread < b.thread : a.slot < b.slot;
    });
  }
  // Distinct threads and the most distinct slots on one thread.
  for (size_t i = 0; i < t.byThread.size();) {
    size_t j = i;
    int64_t distinct = 0;
    while (j < t.byThread.size() && t.byThread[j].thread == t.byThread[i].thread) {
      if (j == i || t.byThread[j].slot != t.byThread[j - 1].slot) ++distinct;
      ++j;
    }
    t.threads.push_back(t.byThread[i].thread);
    t.maxSlotsUsed = std::max(t.maxSlotsUsed, distinct);
    i = j;
  }
}

}  // namespace

std::span<const Owner> OwnershipTable::ownersOf(int64_t flat) const {
  if (flat < 0 || flat >= elementCount) return {};
  return std::span<const Owner>(ownerList.data() + flat * ownersPerElement,
                                static_cast<size_t>(ownersPerElement));
}

std::span<const OwnershipTable::Entry> OwnershipTable::entriesOf(int64_t thread) const {
  auto lo = std::lower_bound(byThread.begin(), byThread.end(), thread,
                             [](const Entry& e, int64_t t) { return e.thread < t; });
  auto hi = std::upper_bound(lo, byThread.end(), thread,
                             [](int64_t t, const Entry& e) { return t < e.thread; });
  return std::span<const Entry>(byThread.data() + (lo - byThread.begin()),
                                static_cast<size_t>(hi - lo));
}

namespace {

/// elements × owners, saturating at INT64_MAX.
int64_t entriesOf(int64_t elements, int64_t owners) {
  if (owners > 0 && elements > std::numeric_limits<int64_t>::max() / owners)
    return std::numeric_limits<int64_t>::max();
  return elements * owners;
}

}  // namespace

OwnershipTable ownership(const TileLayout& layout, std::span<const int64_t> shape,
                         int64_t maxEntries) {
  OwnershipTable t;
  t.shape.assign(shape.begin(), shape.end());
  t.slotsPerThread = layout.storageSlots();
  if (!layout.admits(shape)) return t;
  const int64_t n = layout.size();
  const CompiledLayout compiled(layout);
  const std::span<const CompiledLayout::Point> deltas = compiled.replicaDeltas();
  const int64_t r = static_cast<int64_t>(deltas.size());
  t.ownersPerElement = r;
  t.totalEntries = entriesOf(n, r);
  if (t.totalEntries > maxEntries) {
    t.tooLarge = true;
    return t;
  }
  t.elementCount = n;
  t.ownerList.resize(n * r);
  Owner* out = t.ownerList.data();
  compiled.forEach([&](int64_t, CompiledLayout::Point p) {
    for (const CompiledLayout::Point& d : deltas) *out++ = Owner{p.thread + d.thread, p.m + d.m};
  });
  buildReverse(t);
  return t;
}

OwnershipTable ownershipWindow(const TileLayout& layout, std::span<const int64_t> shape,
                               TableWindow w, int64_t maxEntries) {
  OwnershipTable t;
  t.shape.assign(shape.begin(), shape.end());
  t.slotsPerThread = layout.storageSlots();
  t.windowed = true;
  if (!layout.admits(shape)) return t;
  const int64_t n = layout.size();
  if (w.foldCols <= 0 || n % w.foldCols != 0) return t;
  const CompiledLayout compiled(layout);
  const std::span<const CompiledLayout::Point> deltas = compiled.replicaDeltas();
  const int64_t r = static_cast<int64_t>(deltas.size());
  t.ownersPerElement = r;
  t.totalEntries = entriesOf(n, r);
  // Clamp the window to the fold, then to the cap: fewer rows first, then fewer columns.
  const int64_t foldRows = n / w.foldCols;
  w.row0 = std::clamp<int64_t>(w.row0, 0, foldRows - 1);
  w.col0 = std::clamp<int64_t>(w.col0, 0, w.foldCols - 1);
  w.rows = std::clamp<int64_t>(w.rows, 1, foldRows - w.row0);
  w.cols = std::clamp<int64_t>(w.cols, 1, w.foldCols - w.col0);
  const int64_t perCell = std::max<int64_t>(1, r);
  const int64_t maxCells = std::max<int64_t>(1, maxEntries / perCell);
  w.cols = std::min(w.cols, maxCells);
  w.rows = std::min(w.rows, std::max<int64_t>(1, maxCells / w.cols));
  t.window = w;
  const int64_t cells = w.cells();
  t.elementCount = cells;
  t.ownerList.resize(cells * r);
  Owner* out = t.ownerList.data();
  for (int64_t i = 0; i < cells; ++i) {
    const CompiledLayout::Point p = compiled.applyFlat(w.flatOf(i));
    for (const CompiledLayout::Point& d : deltas) *out++ = Owner{p.thread + d.thread, p.m + d.m};
  }
  buildReverse(t);
  return t;
}

OwnershipSummary ownershipSummary(const TileLayout& layout, std::span<const int64_t> shape) {
  OwnershipSummary s;
  s.slotsPerThread = layout.storageSlots();
  if (!layout.admits(shape)) return s;
  const OwnershipTable t = ownership(layout, shape);
  s.elements = layout.size();
  s.ownersPerElement = std::max<int64_t>(1, t.ownersPerElement);
  if (!t.tooLarge) {
    s.threadsUsed = t.threadsUsed();
    s.maxSlotsUsed = t.maxSlotsUsed;
    s.tabulated = true;
    return s;
  }
  // Too large for a table: the owning threads depend on the thread-moving digits and the
  // replicas alone, so enumerate those combinations when they are few enough.
  const CompiledLayout compiled(layout);
  std::vector<CompiledLayout::Digit> digits;
  int64_t combos = static_cast<int64_t>(compiled.replicaDeltas().size());
  for (const CompiledLayout::Digit& d : compiled.digits()) {
    if (d.threadStride == 0 || d.extent <= 1) continue;
    digits.push_back(d);
    combos = entriesOf(combos, d.extent);
  }
  if (combos > kMaxOwnershipEntries) return s;
  std::vector<int64_t> threads{compiled.offsetThread()};
  for (const CompiledLayout::Digit& d : digits) {
    std::vector<int64_t> next;
    next.reserve(threads.size() * size_t(d.extent));
    for (int64_t base : threads)
      for (int64_t c = 0; c < d.extent; ++c) next.push_back(base + c * d.threadStride);
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    threads = std::move(next);
  }
  std::vector<int64_t> owned;
  for (int64_t base : threads)
    for (const CompiledLayout::Point& d : compiled.replicaDeltas())
      owned.push_back(base + d.thread);
  std::sort(owned.begin(), owned.end());
  s.threadsUsed = static_cast<int64_t>(std::unique(owned.begin(), owned.end()) - owned.begin());
  return s;
}

}  // namespace tirx
