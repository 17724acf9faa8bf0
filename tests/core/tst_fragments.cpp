// Golden tests of the tensor-core fragment maps (core/ptx/fragments.h) against what the H200
// verified (spec/tc-verify/verify.cu with 0 mismatches, its log): ldmatrix/stmatrix x1/x2/x4 with
// and without .trans (address lanes, holders, 16-bit halves; the words lane 5 read on the GPU),
// mma.sync m16n8k8/m16n8k16 A, B, C/D in element and word units, wgmma m64nNk16 D and A. Each
// expected value is recomputed here from verify.cu's own kernel formulas. Then every TileLayout
// expression of spec §6.2/§7.2/§8.4 is parsed and evaluated with the layout engine's apply and
// must reproduce its table exactly; that is the comparison the checker makes, and its message
// ("element (3, 5) is in lane 7, the instruction needs lane 12") is checked too.
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

#include "../shared_corpus.h"
#include "core/layout/compiled_layout.h"
#include "core/layout/layout_parse.h"
#include "core/ptx/fragments.h"

using namespace tirx;
using namespace tirx::frag;

namespace {

QString readLog() {
  QFile f(QStringLiteral(TIRX_SHARED_DIR) + "/spec/tc-verify/h200_verify_and_perf.log");
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(f.readAll());
}

// The words ldmatrix puts in lane `lane` when the stored b16 value is 64·matrix + 8·row + col
// (verify.cu k_ldmatrix), computed through the fragment map.
uint32_t loadedWord(MatrixShape s, int lane, int reg) {
  uint32_t w = 0;
  for (int half = 0; half < 2; ++half) {
    const MatrixElement e = ldmatrixSource(s, lane, reg, half);
    w |= static_cast<uint32_t>(64 * e.matrix + 8 * e.row + e.col) << (16 * half);
  }
  return w;
}

// Owner (thread, slot) of every atom element through a layout expression and the engine's apply.
std::function<std::pair<int64_t, int64_t>(int, int)> ownerThrough(const std::string& text,
                                                                  int cols) {
  Diagnostics d;
  auto l = parseLayoutText(text, d);
  if (!l) qFatal("cannot parse %s", text.c_str());
  auto c = std::make_shared<CompiledLayout>(*l);
  return [c, cols](int r, int col) {
    const CompiledLayout::Point p = c->applyFlat(int64_t{r} * cols + col);
    return std::pair<int64_t, int64_t>{p.thread, p.m};
  };
}

void checkLayoutReproducesTable(const FragmentMap& f) {
  QVERIFY2(!f.holders.empty(), f.name.c_str());
  for (const Holder& h : f.holders)
    QVERIFY2(h.thread >= 0, (f.name + ": an element has no holder").c_str());
  const auto mismatch = firstMismatch(f, ownerThrough(f.layout, f.cols));
  QVERIFY2(!mismatch, (f.name + ": " + (mismatch ? describeMismatch(f, *mismatch) : "")).c_str());
  // Every (thread, slot) holds exactly one element: the table is a bijection.
  std::vector<int> seen(static_cast<size_t>(f.threads * f.slotCount), 0);
  for (int r = 0; r < f.rows; ++r)
    for (int c = 0; c < f.cols; ++c)
      ++seen[static_cast<size_t>(f.at(r, c).thread * f.slotCount + f.slotAt(r, c))];
  for (int n : seen) QCOMPARE(n, 1);
}

}  // namespace

class TestFragments : public QObject {
  Q_OBJECT

 private slots:
  void ldmatrixLane5MeasuredOnH200() {
    // "lane5 regs: 000b000a 004b004a 008b008a 00cb00ca" (row 1, columns 2-3 of each matrix).
    TIRX_NEED_SHARED("spec/tc-verify/h200_verify_and_perf.log");
    const QString log = readLog();
    QVERIFY2(!log.isEmpty(), "tc-verify/h200_verify_and_perf.log not found");
    const auto m =
        QRegularExpression("lane5 regs: ([0-9a-f]{8}) ([0-9a-f]{8}) ([0-9a-f]{8}) ([0-9a-f]{8})")
            .match(log);
    QVERIFY(m.hasMatch());
    for (int reg = 0; reg < 4; ++reg)
      QCOMPARE(loadedWord({4, false}, 5, reg), m.captured(reg + 1).toUInt(nullptr, 16));
    QVERIFY(log.contains(
        "[PASS] ldmatrix.x4: lane l reg i = M_i[l/4][2(l%4)+{0,1}]: 0/128 mismatches"));
    QVERIFY(log.contains(
        "[PASS] ldmatrix.x4.trans: lane l reg i = M_i[2(l%4)+{0,1}][l/4]: 0/128 mismatches"));
    QVERIFY(log.contains("[PASS] stmatrix.x4 (inverse of ldmatrix map): 0/256 mismatches"));
    QVERIFY(
        log.contains("[PASS] stmatrix.x4.trans (inverse of ldmatrix.trans map): 0/256 mismatches"));
  }

  void ldmatrixMaps_data() {
    QTest::addColumn<int>("count");
    QTest::addColumn<bool>("trans");
    for (int count : {1, 2, 4})
      for (bool trans : {false, true})
        QTest::addRow("x%d%s", count, trans ? ".trans" : "") << count << trans;
  }

  void ldmatrixMaps() {
    QFETCH(int, count);
    QFETCH(bool, trans);
    const MatrixShape s{count, trans};
    for (int lane = 0; lane < 32; ++lane) {
      // Address providers: lane 8·matrix + row; the others are ignored.
      const auto row = addressRowOfLane(s, lane);
      QCOMPARE(row.has_value(), lane < 8 * count);
      if (row) QCOMPARE(addressLane(row->row, row->col), lane);
      for (int i = 0; i < count; ++i) {
        // verify.cu test_ldst_matrix: elo, ehi of lane l, register i.
        const uint16_t elo = trans ? i * 64 + (2 * (lane % 4)) * 8 + lane / 4
                                   : i * 64 + (lane / 4) * 8 + 2 * (lane % 4);
        const uint16_t ehi = trans ? i * 64 + (2 * (lane % 4) + 1) * 8 + lane / 4 : elo + 1;
        QCOMPARE(loadedWord(s, lane, i), uint32_t(elo) | (uint32_t(ehi) << 16));
      }
    }
    // stmatrix: verify.cu k_stmatrix stores r[i] = pack2((i·32 + lane)·2, ... + 1) and finds
    // M_i[r][c] = (i·32 + lane)·2 + half with lane = trans ? 4c + r/2 : 4r + c/2, half = trans ?
    // r%2 : c%2.
    for (int i = 0; i < count; ++i)
      for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 8; ++c) {
          const Holder want{trans ? 4 * c + r / 2 : 4 * r + c / 2, i, trans ? r % 2 : c % 2};
          const Holder h = ldmatrixHolder(s, {i, r, c});
          QCOMPARE(h, want);
          QCOMPARE(ldmatrixSource(s, h.thread, h.reg, h.half), (MatrixElement{i, r, c}));
        }
    checkLayoutReproducesTable(ldmatrixFragment(count));
  }

  void mmaElementMaps() {
    // verify.cu k_mma16816 / k_mma1688: the loops that load A, B, C and store D.
    for (int lane = 0; lane < 32; ++lane) {
      const int g = lane >> 2, t = lane & 3;
      for (int i = 0; i < 8; ++i)
        QCOMPARE(mmaElement(MmaShape::M16N8K16, MmaOperand::A, lane, i),
                 (Coord{g + 8 * ((i / 2) % 2), 2 * t + (i & 1) + 8 * (i >= 4)}));
      for (int i = 0; i < 4; ++i)
        QCOMPARE(mmaElement(MmaShape::M16N8K16, MmaOperand::B, lane, i),
                 (Coord{2 * t + (i & 1) + 8 * (i >= 2), g}));
      for (int i = 0; i < 4; ++i)
        for (MmaShape s : {MmaShape::M16N8K16, MmaShape::M16N8K8})
          QCOMPARE(mmaElement(s, MmaOperand::C, lane, i),
                   (Coord{g + 8 * (i >= 2), 2 * t + (i & 1)}));
      for (int i = 0; i < 4; ++i)
        QCOMPARE(mmaElement(MmaShape::M16N8K8, MmaOperand::A, lane, i),
                 (Coord{g + 8 * (i >= 2), 2 * t + (i & 1)}));
      for (int i = 0; i < 2; ++i)
        QCOMPARE(mmaElement(MmaShape::M16N8K8, MmaOperand::B, lane, i), (Coord{2 * t + i, g}));
    }
    TIRX_NEED_SHARED("spec/tc-verify/h200_verify_and_perf.log");
    const QString log = readLog();
    for (const char* line :
         {"[PASS] mma.sync m16n8k16 f16->f32 PTX fragment maps: 0/128 mismatches",
          "[PASS] mma.sync m16n8k16 bf16->f32 PTX fragment maps: 0/128 mismatches",
          "[PASS] mma.sync m16n8k8 f16->f32 PTX fragment maps: 0/128 mismatches"})
      QVERIFY2(log.contains(line), line);
  }

  void mmaWordsAreElementPairs() {
    // The G2 word table (§7.1) is the element table with register j = elements {2j, 2j+1}, the
    // low half the lower K (A: pack2(a[2j], a[2j+1]) in verify.cu).
    for (MmaShape s : {MmaShape::M16N8K8, MmaShape::M16N8K16})
      for (MmaOperand op : {MmaOperand::A, MmaOperand::B})
        for (int lane = 0; lane < 32; ++lane)
          for (int reg = 0; reg < mmaRegisters(s, op); ++reg) {
            const Coord lo = mmaElement(s, op, lane, 2 * reg),
                        hi = mmaElement(s, op, lane, 2 * reg + 1);
            const Coord w = mmaWord(s, op, lane, reg);
            if (op == MmaOperand::A) {
              QCOMPARE(lo.row, w.row);
              QCOMPARE(lo.col, 2 * w.col);
              QCOMPARE(hi.col, lo.col + 1);
            } else {  // B words are [n][k-word], elements [k][n]
              QCOMPARE(lo.col, w.row);
              QCOMPARE(lo.row, 2 * w.col);
              QCOMPARE(hi.row, lo.row + 1);
            }
          }
    QCOMPARE(mmaRegisters(MmaShape::M16N8K16, MmaOperand::A), 4);
    QCOMPARE(mmaRegisters(MmaShape::M16N8K8, MmaOperand::A), 2);
    QCOMPARE(mmaRegisters(MmaShape::M16N8K16, MmaOperand::B), 2);
    QCOMPARE(mmaRegisters(MmaShape::M16N8K8, MmaOperand::B), 1);
    QCOMPARE(mmaRegisters(MmaShape::M16N8K8, MmaOperand::C), 4);
    QCOMPARE(mmaWordShape(MmaShape::M16N8K16, MmaOperand::B), (Coord{8, 8}));
    QCOMPARE(mmaElementShape(MmaShape::M16N8K8, MmaOperand::B), (Coord{8, 8}));
  }

  void mmaLayoutsReproduceTables() {
    for (MmaShape s : {MmaShape::M16N8K8, MmaShape::M16N8K16})
      for (MmaOperand op : {MmaOperand::A, MmaOperand::B, MmaOperand::C})
        for (Units u : {Units::Elements, Units::Words})
          checkLayoutReproducesTable(mmaFragment(s, op, u));
    // The spec's expressions, verbatim (§7.2).
    QCOMPARE(mmaFragment(MmaShape::M16N8K16, MmaOperand::C, Units::Elements).layout,
             std::string("S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]"));
    QCOMPARE(mmaFragment(MmaShape::M16N8K16, MmaOperand::A, Units::Elements).layout,
             std::string("S[(2, 8, 2, 4, 2) : (2, 4@laneid, 4, 1@laneid, 1)]"));
    QCOMPARE(mmaFragment(MmaShape::M16N8K16, MmaOperand::B, Units::Elements).layout,
             std::string("S[(2, 4, 2, 8) : (2, 1@laneid, 1, 4@laneid)]"));
  }

  void wgmmaMaps() {
    // verify.cu k_wgmma: D stored with row = 16w + g + 8((i>>1)&1), col = 8(i>>2) + 2t + (i&1);
    // A (rs) loaded with row = 16w + g + 8((i/2)%2), col = 2t + (i&1) + 8(i>=4).
    for (int n : {8, 64, 256}) {
      QVERIFY(wgmmaValidN(n));
      for (int th = 0; th < 128; ++th) {
        const int w = th / 32, l = th % 32, g = l >> 2, t = l & 3;
        for (int i = 0; i < n / 2; ++i)
          QCOMPARE(wgmmaAccumulator(n, th, i),
                   (Coord{16 * w + g + 8 * ((i >> 1) & 1), 8 * (i >> 2) + 2 * t + (i & 1)}));
        for (int i = 0; i < 8; ++i)
          QCOMPARE(wgmmaAElement(th, i),
                   (Coord{16 * w + g + 8 * ((i / 2) % 2), 2 * t + (i & 1) + 8 * (i >= 4)}));
      }
      const FragmentMap d = wgmmaAccumulatorFragment(n);
      QCOMPARE(d.slotCount, n / 2);
      checkLayoutReproducesTable(d);
    }
    QVERIFY(!wgmmaValidN(0) && !wgmmaValidN(12) && !wgmmaValidN(264));
    QVERIFY(wgmmaAccumulatorFragment(12).holders.empty());
    QCOMPARE(wgmmaAccumulatorFragment(64).layout,
             std::string("S[(4, 2, 8, 8, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]"));
    checkLayoutReproducesTable(wgmmaAFragment(Units::Elements));
    checkLayoutReproducesTable(wgmmaAFragment(Units::Words));
    QCOMPARE(wgmmaAFragment(Units::Elements).layout,
             std::string("S[(4, 2, 8, 2, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]"));
    TIRX_NEED_SHARED("spec/tc-verify/h200_verify_and_perf.log");
    const QString log = readLog();
    QVERIFY(
        log.contains("[PASS] wgmma RS m64n64k16: A regs = m16n8k16 A map per warp (+16*warp rows) "
                     "+ D map: 0/4096 mismatches"));
  }

  void checkerMessages() {
    // A row-major (16, 8) f32 layout over one warp: 4 consecutive elements per lane. It is not
    // the C/D fragment; the checker names the first element and both lanes.
    const FragmentMap cd = mmaFragment(MmaShape::M16N8K16, MmaOperand::C, Units::Elements);
    auto mismatch = firstMismatch(cd, ownerThrough("S[(32, 4) : (1@laneid, 1)]", cd.cols));
    QVERIFY(mismatch);
    QCOMPARE(mismatch->element, (Coord{0, 2}));
    QCOMPARE(describeMismatch(cd, *mismatch),
             std::string("element (0, 2) is in lane 0, the instruction needs lane 1"));
    // Right lanes, wrong registers.
    mismatch =
        firstMismatch(cd, ownerThrough("S[(2, 8, 4, 2) : (1, 4@laneid, 1@laneid, 2)]", cd.cols));
    QVERIFY(mismatch);
    QCOMPARE(
        describeMismatch(cd, *mismatch),
        std::string("element (0, 1) is in register 2 of lane 0, the instruction needs register 1"));
    // Element units name halves; warpgroup fragments name warp and lane.
    const FragmentMap a = mmaFragment(MmaShape::M16N8K16, MmaOperand::A, Units::Elements);
    mismatch = firstMismatch(
        a, ownerThrough("S[(2, 8, 2, 4, 2) : (2, 4@laneid, 4, 1@laneid, 0)]", a.cols));
    QVERIFY(mismatch);
    QCOMPARE(describeMismatch(a, *mismatch),
             std::string("element (0, 1) is in register 0 (low half) of lane 0, the instruction "
                         "needs register 0 (high half)"));
    const FragmentMap d = wgmmaAccumulatorFragment(16);
    mismatch = firstMismatch(d, ownerThrough("S[(64, 8, 2) : (1@tid_in_wg, 2, 1)]", d.cols));
    QVERIFY(mismatch);
    QCOMPARE(describeMismatch(d, *mismatch),
             std::string("element (0, 2) is in thread 0 (warp 0, lane 0), the instruction needs "
                         "thread 1 (warp 0, lane 1)"));
  }
};

QTEST_APPLESS_MAIN(TestFragments)
#include "tst_fragments.moc"
