// Benchmark of the layout engine: ownership tabulation (core/layout ownership(), built on the
// compiled evaluator) of 64K-element register layouts (256×256 over 8 warps, an mma-style
// fragment tiling, a replicated layout and a sparse-thread layout that takes the sort path), and
// the forward map per element three ways: TileLayout::applyFlat (std::map result, the reference),
// CompiledLayout::applyFlat (interned axes, allocation-free) and CompiledLayout::forEach (the
// odometer), on register layouts and a 128B-swizzled shared tile. Prints ns per element (best of
// several runs); figures are recorded in docs/benchmarks.md, "Layout".
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>

#include "core/layout/compiled_layout.h"
#include "core/layout/tile_layout.h"

using namespace tirx;

namespace {

double bestNs(const std::function<void()>& body, int reps) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    body();
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count());
  }
  return best;
}

void benchOwnership(const char* name, const TileLayout& l, const std::vector<int64_t>& shape) {
  int64_t sink = 0;
  const double ns = bestNs(
      [&] {
        const OwnershipTable t = ownership(l, shape);
        sink += t.threadsUsed() + t.maxSlotsUsed;
      },
      20);
  const OwnershipTable t = ownership(l, shape);
  const double n = static_cast<double>(t.elementCount);
  std::printf(
      "%-34s %8lld elems %6lld threads %5lld slots/thr  ownership %8.3f ms  %6.2f ns/elem  "
      "(%lld)\n",
      name, static_cast<long long>(t.elementCount), static_cast<long long>(t.threadsUsed()),
      static_cast<long long>(t.slotsPerThread), ns / 1e6, ns / n,
      static_cast<long long>(sink % 10));
}

void benchApply(const char* name, const TileLayout& l, const Swizzle& swz = {}) {
  int64_t sink = 0;
  const int64_t n = l.size();
  const double mapNs = swz.isIdentity() ? bestNs(
                                              [&] {
                                                for (int64_t f = 0; f < n; ++f)
                                                  sink += l.applyFlat(f).size();
                                              },
                                              5)
                                        : 0.0;
  const CompiledLayout c(l, swz);
  const double compiledNs = bestNs(
      [&] {
        for (int64_t f = 0; f < n; ++f) {
          const CompiledLayout::Point p = c.applyFlat(f);
          sink += p.m ^ p.thread;
        }
      },
      20);
  const double walkNs = bestNs(
      [&] { c.forEach([&](int64_t, CompiledLayout::Point p) { sink += p.m ^ p.thread; }); }, 20);
  const double compileNs = bestNs([&] { sink += CompiledLayout(l, swz).size(); }, 50);
  const double dn = static_cast<double>(n);
  std::printf(
      "%-34s %8lld elems  std::map %7.2f ns/elem  compiled %5.2f ns/elem  forEach %5.2f "
      "ns/elem  compile %6.0f ns  (%lld)\n",
      name, static_cast<long long>(n), mapNs / dn, compiledNs / dn, walkNs / dn, compileNs,
      static_cast<long long>(sink % 10));
}

}  // namespace

int main() {
  // 256×256 fp32 tile over 8 warps (256 threads): each thread owns one row of 256 registers split
  // as rows (8 warps × 32 lanes) × 256 columns.
  TileLayout rows;
  rows.shard = {{8, 1, "warpid"}, {32, 1, "laneid"}, {256, 1, "m"}};
  // mma-style: 256×256 as (2 × 8 × 16 × 4 × 8 × 2) with warps tiling rows and columns.
  TileLayout mma;
  mma.shard = {{4, 2, "warpid"}, {8, 4, "laneid"}, {8, 16, "m"}, {2, 1, "warpid"},
               {16, 1, "m"},     {4, 1, "laneid"}, {2, 128, "m"}};
  TileLayout rep = rows;  // the same tile replicated over two CTAs' worth of warp groups
  rep.replica = {{2, 256, "tx"}};
  TileLayout sparse;  // thread ids far apart: exercises the sort fallback
  sparse.shard = {{256, 4096, "tx"}, {256, 1, "m"}};
  TileLayout odd;  // extents that are not powers of two: the division path
  odd.shard = {{6, 1, "warpid"}, {30, 1, "laneid"}, {3, 120, "m"}, {120, 1, "m"}};
  const TileLayout shared = TileLayout::rowMajor(std::vector<int64_t>{256, 256});

  const std::vector<int64_t> shape{256, 256};
  // Cold: glibc maps every multi-MB table freshly, so each call pays its page faults (expensive on
  // a virtual machine). Warm: a raised mmap threshold lets the heap reuse the memory, which is what
  // a long-running studio session sees.
  for (const bool warm : {false, true}) {
    if (warm) {
      mallopt(M_MMAP_THRESHOLD, 256 << 20);
      mallopt(M_TRIM_THRESHOLD, 512 << 20);
    }
    std::printf("layout engine benchmark, %s memory (best of runs)\n", warm ? "warm" : "cold");
    benchOwnership("rows 8 warps x 32 lanes x 256", rows, shape);
    benchOwnership("mma-style fragment tiling", mma, shape);
    benchOwnership("rows + R[2 : 256@tx] (2 owners)", rep, shape);
    benchOwnership("sparse threads (sort path)", sparse, shape);
  }
  std::printf("forward map per element\n");
  benchApply("rows 8 warps x 32 lanes x 256", rows);
  benchApply("mma-style fragment tiling", mma);
  benchApply("6 x 30 x 3 x 120 (not powers of 2)", odd);
  benchApply("shared 256x256, 128B swizzle", shared, Swizzle{3, 3, 3, true});
  return 0;
}
