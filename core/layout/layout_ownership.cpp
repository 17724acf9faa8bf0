// Ownership tables of register layouts (spec §1.6): which thread holds each logical element in
// which slot of its private array, and the reverse. The layout is compiled once
// (compiled_layout.h) and the logical index is walked with its odometer, so the inner loop does
// no division, no map lookups and no allocation. The reverse table is a counting sort when
// (thread, slot) is dense and a stable sort otherwise.
#include <algorithm>

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

OwnershipTable ownership(const TileLayout& layout, std::span<const int64_t> shape) {
  OwnershipTable t;
  t.shape.assign(shape.begin(), shape.end());
  t.slotsPerThread = layout.storageSlots();
  if (!layout.admits(shape)) return t;
  const int64_t n = layout.size();
  t.elementCount = n;
  const CompiledLayout compiled(layout);
  const std::span<const CompiledLayout::Point> deltas = compiled.replicaDeltas();
  const int64_t r = static_cast<int64_t>(deltas.size());
  t.ownersPerElement = r;
  t.ownerList.resize(n * r);
  Owner* out = t.ownerList.data();
  compiled.forEach([&](int64_t, CompiledLayout::Point p) {
    for (const CompiledLayout::Point& d : deltas) *out++ = Owner{p.thread + d.thread, p.m + d.m};
  });
  buildReverse(t);
  return t;
}

}  // namespace tirx
