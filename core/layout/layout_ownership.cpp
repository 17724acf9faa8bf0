// Ownership tables of register layouts (spec §1.6): which thread holds each logical element in
// which slot of its private array, and the reverse. The layout is first reduced to two integer
// linear forms per iter (a linear-thread weight and a slot weight), then the logical index is
// walked with an odometer over the shard extents, so the inner loop does no division, no map
// lookups and no allocation. The reverse table is a counting sort when (thread, slot) is dense and
// a stable sort otherwise.
#include <algorithm>

#include "core/layout/tile_layout.h"

namespace tirx {

namespace {

struct Linear {
  int64_t extent = 1;
  int64_t thread = 0;  // contribution of one step to the linear thread id
  int64_t slot = 0;    // contribution of one step to the register slot
};

Linear linearOf(const Iter& it) {
  const bool mem = axisKind(it.axis) == AxisKind::Memory;
  return Linear{it.extent, threadAxisWeight(it.axis) * it.stride, mem ? it.stride : 0};
}

// Every (thread, slot) displacement of the replica combinations, base (0, 0) first, duplicates
// removed (a zero-stride replica adds no owner).
std::vector<Owner> replicaDeltas(const TileLayout& l) {
  std::vector<Owner> out{Owner{0, 0}};
  for (const Iter& r : l.replica) {
    const Linear lin = linearOf(r);
    std::vector<Owner> next;
    for (const Owner& o : out)
      for (int64_t i = 0; i < std::max<int64_t>(r.extent, 1); ++i)
        next.push_back(Owner{o.thread + i * lin.thread, o.slot + i * lin.slot});
    out = std::move(next);
  }
  std::vector<Owner> unique;
  for (const Owner& o : out)
    if (std::find(unique.begin(), unique.end(), o) == unique.end()) unique.push_back(o);
  return unique;
}

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

  std::vector<Linear> iters;
  for (const Iter& it : layout.shard) iters.push_back(linearOf(it));
  int64_t baseThread = 0, baseSlot = 0;
  for (const auto& [axis, v] : layout.offset) {
    baseThread += threadAxisWeight(axis) * v;
    if (axisKind(axis) == AxisKind::Memory) baseSlot += v;
  }
  const std::vector<Owner> deltas = replicaDeltas(layout);
  const int64_t r = static_cast<int64_t>(deltas.size());

  t.ownersPerElement = r;
  t.ownerList.resize(n * r);
  // Odometer over the shard digits, innermost last; `thread`/`slot` track the running sums.
  std::vector<int64_t> digit(iters.size(), 0);
  int64_t thread = baseThread, slot = baseSlot;
  Owner* out = t.ownerList.data();
  for (int64_t f = 0; f < n; ++f) {
    for (int64_t k = 0; k < r; ++k)
      *out++ = Owner{thread + deltas[k].thread, slot + deltas[k].slot};
    for (size_t k = iters.size(); k-- > 0;) {
      const Linear& it = iters[k];
      if (++digit[k] < it.extent) {
        thread += it.thread;
        slot += it.slot;
        break;
      }
      thread -= (it.extent - 1) * it.thread;
      slot -= (it.extent - 1) * it.slot;
      digit[k] = 0;
    }
  }
  buildReverse(t);
  return t;
}

}  // namespace tirx
