// Golden tests of the TileLayout engine (core/layout/tile_layout.h): every worked example of
// spec/TIRX.md §1.5, size/span, storage, rowMajor, dtype views, ownership tables, and the numeric
// cases of Apache TVM's tests/python/tirx/test_layout.py that apply to the tile subset
// (constructor structure, apply, size/span, storage, pack/unpack). Layouts are built directly from
// iters here so that this file does not depend on the script parser (tst_layout_parse covers it).
#include <QtTest>

#include "core/layout/tile_layout.h"

using namespace tirx;

namespace {

Iter I(int64_t e, int64_t s, const char* axis = "m") {
  return Iter{e, s, axis};
}

TileLayout L(std::vector<Iter> shard, std::vector<Iter> replica = {}, AxisCoord offset = {}) {
  TileLayout l;
  l.shard = std::move(shard);
  l.replica = std::move(replica);
  l.offset = std::move(offset);
  return l;
}

int64_t at(const AxisCoord& c, const std::string& axis) {
  auto it = c.find(axis);
  return it == c.end() ? 0 : it->second;
}

AxisCoord apply2(const TileLayout& l, int64_t i, int64_t j, int64_t s0, int64_t s1) {
  const std::vector<int64_t> c{i, j}, s{s0, s1};
  return l.apply(c, s);
}

// The seed register layout S[(2, 32, 4) : (1@warpid, 1@laneid, 1)].
TileLayout seed() {
  return L({I(2, 1, "warpid"), I(32, 1, "laneid"), I(4, 1)});
}

}  // namespace

class TestLayout : public QObject {
  Q_OBJECT

 private slots:
  void axisRegistry() {
    for (const char* a : {"m", "TLane", "TCol", "P", "F", "Bank"})
      QCOMPARE(axisKind(a), AxisKind::Memory);
    for (const char* a : {"laneid", "warpid", "tx", "wgid", "tid_in_wg", "wid_in_wg", "bx", "by",
                          "bz", "cbx", "cby", "cbz"})
      QCOMPARE(axisKind(a), AxisKind::Thread);
    QCOMPARE(axisKind("foo"), AxisKind::Unknown);
    QCOMPARE(axisFixedExtent("laneid"), int64_t{32});
    QCOMPARE(axisFixedExtent("wid_in_wg"), int64_t{4});
    QCOMPARE(axisFixedExtent("tid_in_wg"), int64_t{128});
    QCOMPARE(axisFixedExtent("warpid"), int64_t{0});
  }

  void threadEquivalences() {
    // tx = 32·warpid + laneid; tid_in_wg = 32·wid_in_wg + laneid; warpid = 4·wgid + wid_in_wg;
    // tx = 128·wgid + tid_in_wg.
    QCOMPARE(linearThread({{"warpid", 3}, {"laneid", 5}}), int64_t{101});
    QCOMPARE(linearThread({{"tx", 101}}), int64_t{101});
    QCOMPARE(linearThread({{"wgid", 1}, {"wid_in_wg", 2}, {"laneid", 7}}), int64_t{128 + 64 + 7});
    QCOMPARE(linearThread({{"wgid", 1}, {"tid_in_wg", 71}}), int64_t{199});
    QCOMPARE(linearThread({{"warpid", 6}, {"laneid", 7}}), int64_t{199});  // warpid 6 = wg 1, wid 2
    QCOMPARE(linearThread({{"m", 9}, {"bx", 4}, {"laneid", 1}}), int64_t{1});
  }

  void threadExtents() {
    QCOMPARE(checkThreadExtents(seed()), std::string());
    QCOMPARE(checkThreadExtents(L({I(8, 4, "laneid"), I(4, 1, "laneid")})), std::string());
    QCOMPARE(checkThreadExtents(L({I(8, 4, "laneid"), I(4, 2, "laneid")})),
             std::string("laneid reaches 34, beyond its extent 32"));
    QCOMPARE(checkThreadExtents(L({I(32, 1, "laneid")}, {}, {{"laneid", 1}})),
             std::string("laneid reaches 32, beyond its extent 32"));
    QCOMPARE(checkThreadExtents(L({I(2, 1, "wid_in_wg")}, {I(2, 3, "wid_in_wg")})),
             std::string("wid_in_wg reaches 4, beyond its extent 4"));
    QCOMPARE(checkThreadExtents(L({I(1024, 1, "tx")})), std::string());
  }

  // ---- spec §1.5, row by row ----
  void spec_rowMajor4x8() {
    const std::vector<int64_t> shape{4, 8};
    const TileLayout l = TileLayout::rowMajor(shape);
    QCOMPARE(l.shard, (std::vector<Iter>{I(4, 8), I(8, 1)}));
    const AxisCoord r = apply2(l, 1, 2, 4, 8);
    QCOMPARE(r, (AxisCoord{{"m", 10}}));
  }

  void spec_laneAndReg() {
    const TileLayout l = L({I(32, 1, "laneid"), I(4, 1)});
    QCOMPARE(apply2(l, 3, 2, 32, 4), (AxisCoord{{"laneid", 3}, {"m", 2}}));
  }

  void spec_mmaFragment() {
    const TileLayout l = L({I(8, 4, "laneid"), I(1, 2), I(4, 1, "laneid"), I(2, 1)});
    for (int64_t i = 0; i < 8; ++i)
      for (int64_t j = 0; j < 8; ++j) {
        const AxisCoord r = apply2(l, i, j, 8, 8);
        QCOMPARE(at(r, "laneid"), 4 * i + j / 2);
        QCOMPARE(at(r, "m"), j % 2);
        QCOMPARE(r.size(), size_t{2});
      }
  }

  void spec_replicaExample() {
    const TileLayout l = L({I(8, 4, "laneid"), I(2, 1, "warpid"), I(4, 1, "laneid"), I(2, 1)},
                           {I(2, 4, "warpid")}, {{"warpid", 5}});
    for (int64_t i = 0; i < 8; ++i)
      for (int64_t j = 0; j < 16; ++j) {
        const int64_t flat = i * 16 + j;
        const AxisCoord base = apply2(l, i, j, 8, 16);
        QCOMPARE(at(base, "laneid"), 4 * i + (j / 2) % 4);
        QCOMPARE(at(base, "warpid"), j / 8 + 5);
        QCOMPARE(at(base, "m"), j % 2);
        const auto all = l.applyAll(flat);
        QCOMPARE(all.size(), size_t{2});
        QCOMPARE(all[0], base);
        QCOMPARE(at(all[1], "warpid"), j / 8 + 9);
        QCOMPARE(at(all[1], "laneid"), at(base, "laneid"));
        QCOMPARE(at(all[1], "m"), at(base, "m"));
      }
  }

  void spec_seedRegLayout() {
    const TileLayout l = seed();
    const std::vector<int64_t> shape{2, 32, 4};
    for (int64_t w = 0; w < 2; ++w)
      for (int64_t ln = 0; ln < 32; ++ln)
        for (int64_t j = 0; j < 4; ++j) {
          const std::vector<int64_t> c{w, ln, j};
          QCOMPARE(l.apply(c, shape), (AxisCoord{{"warpid", w}, {"laneid", ln}, {"m", j}}));
        }
    QCOMPARE(l.storageSlots(), int64_t{4});
    QCOMPARE(l.storage().toString(), std::string("S[4 : 1]"));
  }

  void spec_localGapped3x4() {
    const TileLayout l = L({I(3, 16), I(4, 2)});
    QCOMPARE(l.storageSlots(), int64_t{39});
    QCOMPARE(at(apply2(l, 2, 3, 3, 4), "m"), int64_t{38});
  }

  void spec_localGapped4x1() {
    const TileLayout l = L({I(4, 2), I(1, 1)});
    QCOMPARE(l.storageSlots(), int64_t{7});
    for (int64_t i = 0; i < 4; ++i) QCOMPARE(at(apply2(l, i, 0, 4, 1), "m"), 2 * i);
    const std::vector<int64_t> shape{4, 1};
    const OwnershipTable t = ownership(l, shape);
    QCOMPARE(t.threadsUsed(), int64_t{1});
    std::vector<int64_t> slotList;
    for (const auto& e : t.entriesOf(0)) slotList.push_back(e.slot);
    QCOMPARE(slotList, (std::vector<int64_t>{0, 2, 4, 6}));
  }

  // ---- size / span ----
  void sizeSpan() {
    QCOMPARE(L({I(8, 8), I(8, 1)}).size(), int64_t{64});
    QCOMPARE(L({I(8, 8), I(8, 1)}).span(), int64_t{64});
    QCOMPARE(L({I(8, 8), I(6, 1)}).span(), int64_t{62});
    const TileLayout frag = L({I(8, 4, "laneid"), I(1, 2), I(4, 1, "laneid"), I(2, 1)});
    QCOMPARE(frag.span(), int64_t{2});
    QCOMPARE(frag.span("laneid"), int64_t{32});
    QCOMPARE(frag.size("laneid"), int64_t{32});
    QCOMPARE(frag.size("m"), int64_t{2});
    QCOMPARE(frag.size("warpid"), int64_t{1});
    // TVM trainium cases: size/span per memory axis P/F.
    const TileLayout pf = L({I(8, 64, "F"), I(8, 1, "P"), I(8, 1, "F")});
    QCOMPARE(pf.size("P"), int64_t{8});
    QCOMPARE(pf.size("F"), int64_t{64});
    QCOMPARE(pf.span("F"), int64_t{456});
    QCOMPARE(L({I(8, 1, "P")}).size("F"), int64_t{1});
    QCOMPARE(L({}).size(), int64_t{1});
  }

  void admits() {
    const TileLayout l = seed();
    QVERIFY(l.admits(std::vector<int64_t>{2, 32, 4}));
    QVERIFY(l.admits(std::vector<int64_t>{64, 4}));
    QVERIFY(l.admits(std::vector<int64_t>{2, 32, 4, 1}));
    QVERIFY(!l.admits(std::vector<int64_t>{2, 32, 2}));
    QVERIFY(!l.admits(std::vector<int64_t>{-2, -32, 4}));
  }

  void reshapeViewReusesLayout() {
    // §1.8: S.view(2,32,4) on a (64,4) default shared tensor maps (w,l,j) -> 128w + 4l + j.
    const TileLayout l = TileLayout::rowMajor(std::vector<int64_t>{64, 4});
    const std::vector<int64_t> shape{2, 32, 4};
    const std::vector<int64_t> c{1, 3, 2};
    QCOMPARE(at(l.apply(c, shape), "m"), int64_t{128 + 12 + 2});
  }

  void rowMajor() {
    QCOMPARE(TileLayout::rowMajor(std::vector<int64_t>{2, 3, 4}).shard,
             (std::vector<Iter>{I(2, 12), I(3, 4), I(4, 1)}));
    QCOMPARE(TileLayout::rowMajor(std::vector<int64_t>{7}).shard, (std::vector<Iter>{I(7, 1)}));
    QVERIFY(TileLayout::rowMajor(std::vector<int64_t>{}).shard.empty());
  }

  void storage() {
    // TVM test_storage case1/case2.
    const TileLayout a = L({I(8, 8), I(8, 1)});
    QCOMPARE(a.storage(), a);
    const TileLayout b = L({I(8, 4, "laneid"), I(4, 1, "laneid"), I(2, 1)});
    QCOMPARE(b.storage(), L({I(2, 1)}));
    const TileLayout c =
        L({I(8, 4, "laneid"), I(2, 1)}, {I(2, 1, "warpid"), I(3, 4)}, {{"laneid", 1}, {"m", 3}});
    QCOMPARE(c.storage(), L({I(2, 1)}, {I(3, 4)}, {{"m", 3}}));
    QCOMPARE(c.storageSlots(), int64_t{1 + 1 + 8 + 3});
    QVERIFY(c.hasThreadAxes());
    QVERIFY(!c.storage().hasThreadAxes());
  }

  void toStringSurface() {
    QCOMPARE(seed().toString(), std::string("S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]"));
    QCOMPARE(L({I(8, 4, "laneid")}, {I(4, 1, "laneid")}).toString(),
             std::string("S[8 : 4@laneid] + R[4 : 1@laneid]"));
    QCOMPARE(L({I(8, 4, "laneid")}, {}, {{"laneid", 1}, {"warpid", 2}, {"m", 64}}).toString(),
             std::string("S[8 : 4@laneid] + 1@laneid + 64 + 2@warpid"));
    QCOMPARE(L({I(2, 1, "my axis")}).toString(), std::string("S[2 : (1, \"my axis\")]"));
    QCOMPARE(L({}).toString(), std::string("S[()]"));
    QCOMPARE(L({}, {I(32, 1, "laneid")}).toString(), std::string("R[32 : 1@laneid]"));
  }

  // ---- TVM test_apply numeric cases ----
  void tvmApply() {
    const TileLayout a = L({I(8, 8), I(8, 1)});
    const TileLayout b = L({I(8, 10), I(8, 1)});
    for (int64_t i = 0; i < 8; ++i)
      for (int64_t j = 0; j < 8; ++j) {
        QCOMPARE(at(a.applyFlat(i * 8 + j), "m"), i * 8 + j);
        QCOMPARE(at(apply2(a, i, j, 8, 8), "m"), i * 8 + j);
        QCOMPARE(at(b.applyFlat(i * 8 + j), "m"), i * 10 + j);
        QCOMPARE(at(apply2(b, i, j, 8, 8), "m"), i * 10 + j);
      }
    const TileLayout c = L({I(2, 1), I(3, 2), I(4, 12), I(2, 6), I(2, 48)});
    for (int64_t i0 = 0; i0 < 6; ++i0)
      for (int64_t i1 = 0; i1 < 16; ++i1) {
        const int64_t want =
            (i0 / 3) * 1 + (i0 % 3) * 2 + (i1 / 4) * 12 + ((i1 % 4) / 2) * 6 + (i1 % 2) * 48;
        QCOMPARE(at(apply2(c, i0, i1, 6, 16), "m"), want);
        QCOMPARE(at(c.applyFlat(i0 * 16 + i1), "m"), want);
      }
    const TileLayout f = L({I(8, 8, "F"), I(8, 1, "P")});
    const TileLayout g =
        L({I(2, 1, "F"), I(6, 1, "P"), I(4, 12, "F"), I(2, 6, "P"), I(2, 48, "F")});
    for (int64_t i = 0; i < 8; ++i)
      for (int64_t j = 0; j < 8; ++j) {
        QCOMPARE(at(apply2(f, i, j, 8, 8), "P"), j);
        QCOMPARE(at(apply2(f, i, j, 8, 8), "F"), i * 8);
      }
    for (int64_t i0 = 0; i0 < 12; ++i0)
      for (int64_t i1 = 0; i1 < 16; ++i1) {
        const AxisCoord r = apply2(g, i0, i1, 12, 16);
        QCOMPARE(at(r, "P"), i0 % 6 + ((i1 % 4) / 2) * 6);
        QCOMPARE(at(r, "F"), (i0 / 6) + (i1 / 4) * 12 + (i1 % 2) * 48);
      }
  }

  void outermostNotReduced() {
    // Past the size, the outermost component keeps growing (spec §1.4 step 2).
    const TileLayout a = L({I(8, 8), I(8, 1)});
    QCOMPARE(at(a.applyFlat(64 * 3 + 9), "m"), int64_t{3 * 64 + 9});
    const TileLayout b = L({I(8, 10), I(8, 1)});
    QCOMPARE(at(b.applyFlat(70), "m"), int64_t{8 * 10 + 6});
  }

  void offsetsAdd() {
    const TileLayout l = L({I(8, 4, "laneid")}, {}, {{"laneid", 1}, {"warpid", 2}, {"m", 64}});
    QCOMPARE(l.applyFlat(3), (AxisCoord{{"laneid", 13}, {"warpid", 2}, {"m", 64}}));
  }

  // ---- dtype views (§1.8, OPEN-6) ----
  void dtypeSameWidth() {
    std::string why;
    const auto v = dtypeView(seed(), 16, 16, &why);  // float16 -> uint16
    QVERIFY(v.has_value());
    QCOMPARE(*v, seed());
    QCOMPARE(*dtypeView(seed(), 32, 32), seed());  // float32 -> uint32
  }

  void dtypeUnpack() {
    // float32 -> uint16 on the seed layout: memory strides ×2 and an inner (2, 1, m); thread
    // strides untouched (OPEN-6).
    const auto v = dtypeView(seed(), 32, 16);
    QVERIFY(v.has_value());
    QCOMPARE(*v, L({I(2, 1, "warpid"), I(32, 1, "laneid"), I(4, 2), I(2, 1)}));
    QCOMPARE(v->storageSlots(), int64_t{8});
    // TVM test_unpack case1: S[(8,8):(8,1)].unpack(2) ≡ S[(8,16):(16,1)] elementwise.
    const auto u = dtypeView(L({I(8, 8), I(8, 1)}), 32, 16);
    QVERIFY(u.has_value());
    const TileLayout want = L({I(8, 16), I(16, 1)});
    QCOMPARE(u->size(), want.size());
    for (int64_t f = 0; f < want.size(); ++f) QCOMPARE(u->applyFlat(f), want.applyFlat(f));
    // memory offsets scale too
    const auto o = dtypeView(L({I(4, 1)}, {}, {{"m", 3}, {"laneid", 1}}), 32, 8);
    QCOMPARE(o->offset, (AxisCoord{{"laneid", 1}, {"m", 12}}));
  }

  void dtypePack() {
    // uint16 -> uint32: TVM test_pack case1 S[(8,16):(16,1)].pack(2) = S[(8,8):(8,1)].
    const auto p = dtypeView(L({I(8, 16), I(16, 1)}), 16, 32);
    QVERIFY(p.has_value());
    QCOMPARE(*p, L({I(8, 8), I(8, 1)}));
    // The unpacked seed packs back to the seed.
    QCOMPARE(*dtypeView(*dtypeView(seed(), 32, 16), 16, 32),
             L({I(2, 1, "warpid"), I(32, 1, "laneid"), I(4, 1), I(1, 1)}));
    // Thread strides are not divided.
    QCOMPARE(*dtypeView(L({I(32, 1, "laneid"), I(4, 1)}), 16, 32),
             L({I(32, 1, "laneid"), I(2, 1)}));
  }

  void dtypeIllegal() {
    std::string why;
    QVERIFY(!dtypeView(L({I(8, 1), I(3, 1)}), 16, 32, &why).has_value());
    QCOMPARE(why, std::string("packing by 2 needs an innermost extent divisible by 2, found 3"));
    QVERIFY(!dtypeView(L({I(8, 1), I(4, 2)}), 16, 32, &why).has_value());
    QCOMPARE(why, std::string("packing by 2 needs an innermost memory iter of stride 1, found 2"));
    QVERIFY(!dtypeView(L({I(8, 1, "laneid")}), 16, 32, &why).has_value());
    QCOMPARE(why, std::string(
                      "packing by 2 needs an innermost memory iter of stride 1, found 1@laneid"));
    QVERIFY(!dtypeView(L({I(8, 3), I(4, 1)}), 16, 32, &why).has_value());
    QCOMPARE(why, std::string("packing by 2 needs memory strides divisible by 2, found 3"));
    QVERIFY(!dtypeView(L({I(8, 1)}), 16, 24, &why).has_value());
    QVERIFY(!dtypeView(L({}), 16, 32, &why).has_value());
  }

  // ---- ownership ----
  void ownershipSeed() {
    const std::vector<int64_t> shape{2, 32, 4};
    const OwnershipTable t = ownership(seed(), shape);
    QCOMPARE(t.elementCount, int64_t{256});
    QCOMPARE(t.threadsUsed(), int64_t{64});
    QCOMPARE(t.threadCount, int64_t{64});
    QCOMPARE(t.slotsPerThread, int64_t{4});
    QCOMPARE(t.maxSlotsUsed, int64_t{4});
    for (int64_t w = 0; w < 2; ++w)
      for (int64_t l = 0; l < 32; ++l)
        for (int64_t j = 0; j < 4; ++j) {
          const auto o = t.ownersOf((w * 32 + l) * 4 + j);
          QCOMPARE(o.size(), size_t{1});
          QCOMPARE(o[0], (Owner{32 * w + l, j}));
        }
    const auto e = t.entriesOf(37);
    QCOMPARE(e.size(), size_t{4});
    for (int64_t j = 0; j < 4; ++j) QCOMPARE(e[j], (OwnershipTable::Entry{37, j, 37 * 4 + j}));
    QVERIFY(t.entriesOf(64).empty());
    QVERIFY(t.ownersOf(256).empty());
  }

  void ownershipReplica() {
    const TileLayout l = L({I(8, 4, "laneid"), I(2, 1, "warpid"), I(4, 1, "laneid"), I(2, 1)},
                           {I(2, 4, "warpid")}, {{"warpid", 5}});
    const std::vector<int64_t> shape{8, 16};
    const OwnershipTable t = ownership(l, shape);
    QCOMPARE(t.elementCount, int64_t{128});
    QCOMPARE(t.ownerList.size(), size_t{256});
    for (int64_t i = 0; i < 8; ++i)
      for (int64_t j = 0; j < 16; ++j) {
        const auto o = t.ownersOf(i * 16 + j);
        QCOMPARE(o.size(), size_t{2});
        const int64_t lane = 4 * i + (j / 2) % 4;
        QCOMPARE(o[0], (Owner{32 * (j / 8 + 5) + lane, j % 2}));
        QCOMPARE(o[1], (Owner{32 * (j / 8 + 9) + lane, j % 2}));
      }
    // Warps 5, 6, 9, 10 hold 2 slots on each of 32 lanes.
    QCOMPARE(t.threadsUsed(), int64_t{128});
    QCOMPARE(t.threadCount, int64_t{32 * 11});
    QCOMPARE(t.maxSlotsUsed, int64_t{2});
    QCOMPARE(t.entriesOf(32 * 5).size(), size_t{2});
    QVERIFY(t.entriesOf(32 * 7).empty());
  }

  void ownershipSparseFallback() {
    // A layout whose thread ids are far apart uses the sort path; the result is the same shape.
    const TileLayout l = L({I(4, 100000, "tx"), I(3, 1)});
    const std::vector<int64_t> shape{12};
    const OwnershipTable t = ownership(l, shape);
    QCOMPARE(t.threads, (std::vector<int64_t>{0, 100000, 200000, 300000}));
    QCOMPARE(t.entriesOf(200000)[2], (OwnershipTable::Entry{200000, 2, 8}));
    QCOMPARE(t.threadCount, int64_t{300001});
  }

  void ownershipNoThreadAxes() {
    const TileLayout l = L({I(3, 16), I(4, 2)});
    const OwnershipTable t = ownership(l, std::vector<int64_t>{3, 4});
    QCOMPARE(t.threadsUsed(), int64_t{1});
    QCOMPARE(t.slotsPerThread, int64_t{39});
    QCOMPARE(t.ownersOf(11)[0], (Owner{0, 38}));
  }

  void ownershipNotAdmitted() {
    const OwnershipTable t = ownership(seed(), std::vector<int64_t>{3, 3});
    QCOMPARE(t.elementCount, int64_t{0});
    QVERIFY(t.byThread.empty());
  }

  void ownershipMatchesApplyAll() {
    // Cross-check the odometer against applyAll on a mixed layout with every thread axis kind.
    const TileLayout l = L({I(2, 1, "wgid"), I(2, 2, "wid_in_wg"), I(4, 3), I(8, 4, "laneid"),
                            I(2, 1, "wid_in_wg"), I(4, 1, "laneid")},
                           {I(2, 1, "m")}, {{"m", 1}});
    const std::vector<int64_t> shape{4, 4, 64};
    const OwnershipTable t = ownership(l, shape);
    for (int64_t f = 0; f < l.size(); ++f) {
      const auto all = l.applyAll(f);
      const auto o = t.ownersOf(f);
      QCOMPARE(o.size(), all.size());
      for (size_t k = 0; k < all.size(); ++k) {
        QCOMPARE(o[k].thread, linearThread(all[k]));
        QCOMPARE(o[k].slot, at(all[k], "m"));
      }
    }
    QCOMPARE(t.threadsUsed(), int64_t{256});
  }
};

QTEST_APPLESS_MAIN(TestLayout)
#include "tst_layout.moc"
