// Tests of the fast layout evaluator (core/layout/compiled_layout.h) against the reference
// TileLayout::applyFlat (std::map result): every worked example of spec/TIRX.md §1.5, replicas,
// offsets on every thread axis, unregistered axis names, extents that are and are not powers of
// two, indices past the outermost extent (not reduced) and negative indices (floor division, as
// TVM's floordiv/floormod and the simulator), the odometer walk, per-axis results, and the
// ownership table built on it.
#include <QtTest>

#include "core/layout/compiled_layout.h"
#include "core/layout/layout_parse.h"

using namespace tirx;

namespace {

TileLayout parse(const char* text) {
  Diagnostics d;
  auto l = parseLayoutText(text, d);
  if (!l) qFatal("cannot parse %s", text);
  return *l;
}

// The reference: Σ memory components and the linear thread of TileLayout::applyFlat.
CompiledLayout::Point reference(const TileLayout& l, int64_t flat) {
  const AxisCoord c = l.applyFlat(flat);
  CompiledLayout::Point p;
  for (const auto& [axis, v] : c)
    if (axisKind(axis) == AxisKind::Memory) p.m += v;
  p.thread = linearThread(c);
  return p;
}

const char* kLayouts[] = {
    "S[4, 8]",
    "S[(32, 4) : (1@laneid, 1)]",
    "S[(8, 1, 4, 2) : (4@laneid, 2, 1@laneid, 1)]",
    "S[(8, 2, 4, 2) : (4@laneid, 1@warpid, 1@laneid, 1)] + R[2 : 4@warpid] + 5@warpid",
    "S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]",
    "S[(3, 4) : (16, 2)]",
    "S[(4, 1) : (2, 1)]",
    "S[(3, 5, 7) : (1@tx, 9, 1)] + 17",
    "S[(2, 4, 32, 3) : (1@wgid, 1@wid_in_wg, 1@laneid, 5)] + 2@tid_in_wg + 3",
    "S[(6, 10) : (1@warpid, 1@TCol)] + R[(3, 2) : (1@tx, 0)] + 1@bx",
    "S[(4, 2, 8, 8, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]",
    "S[()]",
};

}  // namespace

class TestLayoutCompiled : public QObject {
  Q_OBJECT

 private slots:
  // Every registered axis has its hover line (the editor's axis tooltips), naming its kind; an
  // unregistered name has none.
  void everyRegisteredAxisIsDescribed() {
    for (AxisId id = 0; id < kRegisteredAxes; ++id) {
      const std::string name(registeredAxisName(id));
      const std::string d = axisDescription(name);
      QVERIFY2(d.rfind(name + " — ", 0) == 0, name.c_str());
      const bool memory = axisKindOf(id) == AxisKind::Memory;
      QVERIFY2(d.find(memory ? "memory axis" : "axis") != std::string::npos, d.c_str());
      if (threadAxisWeightOf(id) > 0)
        QVERIFY2(d.find("weight " + std::to_string(threadAxisWeightOf(id))) != std::string::npos,
                 d.c_str());
    }
    QVERIFY(axisDescription("my_axis").empty());
  }

  void registry() {
    QCOMPARE(registeredAxisId("m"), std::optional<AxisId>(axis::m));
    QCOMPARE(registeredAxisId("laneid"), std::optional<AxisId>(axis::laneid));
    QCOMPARE(registeredAxisId("cbz"), std::optional<AxisId>(axis::cbz));
    QCOMPARE(registeredAxisId("lane"), std::optional<AxisId>());
    for (AxisId id = 0; id < kRegisteredAxes; ++id) {
      const std::string name(registeredAxisName(id));
      QCOMPARE(registeredAxisId(name), std::optional<AxisId>(id));
      QCOMPARE(axisKindOf(id), axisKind(name));
      QCOMPARE(threadAxisWeightOf(id), threadAxisWeight(name));
    }
    QCOMPARE(axisKindOf(kRegisteredAxes), AxisKind::Unknown);
  }

  void matchesReference() {
    for (const char* text : kLayouts) {
      const TileLayout l = parse(text);
      const CompiledLayout c(l);
      QCOMPARE(c.size(), l.size());
      // Past the outermost extent the outermost component keeps counting.
      for (int64_t f = 0; f < 3 * l.size() + 5; ++f) {
        if (c.applyFlat(f) != reference(l, f)) qFatal("%s: flat %lld differs", text, (long long)f);
      }
    }
  }

  void negativeIndicesUseFloorDivision() {
    // (-1) over S[(3, 4) : (16, 2)]: floormod(-1, 4) = 3, floordiv = -1 -> m = -16 + 6.
    const CompiledLayout c(parse("S[(3, 4) : (16, 2)]"));
    QCOMPARE(c.applyFlat(-1).m, int64_t{-16 + 6});
    const CompiledLayout p(parse("S[(3, 4, 8) : (100, 10, 1)]"));  // 4 and 8: the mask path
    QCOMPARE(p.applyFlat(-1).m, int64_t{-100 + 30 + 7});
    const CompiledLayout q(parse("S[(3, 5, 6) : (100, 10, 1)]"));  // the division path
    QCOMPARE(q.applyFlat(-1).m, int64_t{-100 + 40 + 5});
  }

  void divisionPathIsExact() {
    // Extents that are not powers of two split with a fastdiv multiplier for indices below 2^32
    // and with % and / beyond; both must equal floor division.
    for (int64_t e : std::vector<int64_t>{3, 5, 6, 7, 10, 120, 1000003, 65537, 4294967295LL}) {
      TileLayout l;
      l.shard = {{1 << 20, 1 << 20, "m"}, {e, 1, "m"}};
      const CompiledLayout c(l);
      std::vector<int64_t> flats = {
          0,  1,  e - 1, e, e + 1, 2 * e - 1, 0xFFFFFFFFLL, 0x100000000LL, 0x123456789LL,
          -1, -e, -e - 1};
      for (uint64_t x = 88172645463325252ull, i = 0; i < 2000; ++i) {  // xorshift samples
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        flats.push_back(static_cast<int64_t>(x % 0x200000000ull));
      }
      for (int64_t f : flats) {
        int64_t q = f / e, r = f % e;
        if (r < 0) {
          r += e;
          q -= 1;
        }
        if (c.applyFlat(f).m != q * (1 << 20) + r)
          qFatal("extent %lld, flat %lld: %lld", (long long)e, (long long)f,
                 (long long)c.applyFlat(f).m);
      }
    }
  }

  void coordinatesAndShapes() {
    const TileLayout l = parse("S[(8, 2, 4, 2) : (4@laneid, 1@warpid, 1@laneid, 1)]");
    const CompiledLayout c(l);
    const std::vector<int64_t> shape{8, 16};
    for (int64_t i = 0; i < 8; ++i)
      for (int64_t j = 0; j < 16; ++j) {
        const std::vector<int64_t> coord{i, j};
        const CompiledLayout::Point p = c.apply(coord, shape);
        QCOMPARE(p.thread, 32 * (j / 8) + 4 * i + (j / 2) % 4);
        QCOMPARE(p.m, j % 2);
      }
  }

  void applyAxesSeparatesAxes() {
    const TileLayout l =
        parse("S[(8, 2, 4, 2) : (4@laneid, 1@warpid, 1@laneid, 1)] + 5@warpid + 3@TCol");
    const CompiledLayout c(l);
    std::vector<int64_t> out(c.axisCount());
    for (int64_t f = 0; f < l.size(); ++f) {
      c.applyAxes(f, out);
      const AxisCoord ref = l.applyFlat(f);
      for (AxisId id = 0; id < c.axisCount(); ++id) {
        auto it = ref.find(c.axisName(id));
        QCOMPARE(out[id], it == ref.end() ? int64_t{0} : it->second);
      }
    }
  }

  void unregisteredAxesAreInterned() {
    TileLayout l;
    l.shard = {{4, 1, "lane2"}, {8, 3, "m"}, {2, 7, "other"}};
    l.offset = {{"other", 1}};
    const CompiledLayout c(l);
    QCOMPARE(c.axisCount(), int(kRegisteredAxes) + 2);
    const AxisId lane2 = *c.axisId("lane2"), other = *c.axisId("other");
    QCOMPARE(c.axisName(lane2), std::string("lane2"));
    QVERIFY(lane2 != other);
    std::vector<int64_t> out(c.axisCount());
    c.applyAxes(13, out);  // 13 = (0, 6, 1)
    QCOMPARE(out[other], int64_t{7 + 1});
    QCOMPARE(out[axis::m], int64_t{18});
    QCOMPARE(c.applyFlat(13), (CompiledLayout::Point{18, 0}));  // unknown axes weigh nothing
  }

  void forEachWalksRowMajor() {
    for (const char* text : kLayouts) {
      const TileLayout l = parse(text);
      const CompiledLayout c(l);
      int64_t expected = 0;
      c.forEach([&](int64_t f, CompiledLayout::Point p) {
        QCOMPARE(f, expected++);
        QCOMPARE(p, c.applyFlat(f));
      });
      QCOMPARE(expected, l.size());
    }
  }

  void threadAxesAreThoseThatNameAThread() {
    QVERIFY(CompiledLayout(parse("S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]")).hasThreadAxes());
    QVERIFY(CompiledLayout(parse("S[4 : 1] + 2@tx")).hasThreadAxes());
    QVERIFY(!CompiledLayout(parse("S[(4, 8) : (8, 1)]")).hasThreadAxes());
    // Block indices do not name a thread inside the CTA (weight 0), as linearThread.
    QVERIFY(!CompiledLayout(parse("S[(4, 8) : (1@bx, 1)]")).hasThreadAxes());
  }

  void replicaDeltas() {
    const CompiledLayout c(parse("S[4 : 1] + R[(2, 3, 2) : (4@warpid, 1@laneid, 0)]"));
    const auto d = c.replicaDeltas();
    QCOMPARE(d.size(), size_t{6});  // the zero-stride iter adds no owner
    QCOMPARE(d[0], (CompiledLayout::Point{0, 0}));
    QCOMPARE(d[1], (CompiledLayout::Point{0, 1}));
    QCOMPARE(d[3], (CompiledLayout::Point{0, 128}));
  }

  void swizzleAppliesToM() {
    Diagnostics d;
    const auto v = parseLayoutValueText("ComposeLayout(3, 3, 3, S[(64, 64) : (64, 1)] + 4096)", d);
    QVERIFY(v);
    const CompiledLayout c(*v);
    QVERIFY(c.isSwizzled());
    for (int64_t f = 0; f < 4096; ++f)
      QCOMPARE(c.applyFlat(f).m, std::get<ComposeLayout>(*v).applyFlat(f).at("m"));
    c.forEach([&](int64_t f, CompiledLayout::Point p) { QCOMPARE(p.m, c.applyFlat(f).m); });
  }

  void ownershipUsesTheEvaluator() {
    // The ownership table must agree with applyAll element by element (both directions).
    for (const char* text : kLayouts) {
      const TileLayout l = parse(text);
      const std::vector<int64_t> shape{l.size()};
      const OwnershipTable t = ownership(l, shape);
      QCOMPARE(t.elementCount, l.size());
      for (int64_t f = 0; f < l.size(); ++f) {
        std::vector<Owner> want;
        for (const AxisCoord& c : l.applyAll(f)) {
          Owner o{linearThread(c), 0};
          for (const auto& [axis, v] : c)
            if (axisKind(axis) == AxisKind::Memory) o.slot += v;
          if (std::find(want.begin(), want.end(), o) == want.end()) want.push_back(o);
        }
        const auto got = t.ownersOf(f);
        QCOMPARE(std::vector<Owner>(got.begin(), got.end()), want);
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestLayoutCompiled)
#include "tst_layout_compiled.moc"
