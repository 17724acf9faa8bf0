// LayoutGridModel: the layout view's algorithm without painting — grid folding, owner labels,
// the per-thread inverse, colours and shared-memory bank conflicts.
#include <QtTest>

#include "core/layout/layout_parse.h"
#include "views/models/layout_grid_model.h"

using namespace tirx;
using tirx::views::LayoutColouring;
using tirx::views::LayoutGridModel;

static TileLayout parse(const char* text) {
  Diagnostics d;
  auto l = parseLayoutText(text, d);
  if (!l) qFatal("layout did not parse: %s", text);
  return *l;
}

class TstLayoutGridModel : public QObject {
  Q_OBJECT
 private slots:
  void registerTileOwners() {
    LayoutGridModel m;
    m.setLayout(parse("S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]"), {2, 32, 4});
    // the logical shape as it is: the last axis as columns, the one before as rows, the outer
    // axis as two labelled blocks of 32 rows (it used to wrap into 16 × 16)
    QCOMPARE(m.rows(), int64_t(64));
    QCOMPARE(m.cols(), int64_t(4));
    QCOMPARE(m.blockRows(), int64_t(32));
    QCOMPARE(m.blockCount(), int64_t(2));
    QCOMPARE(QString::fromStdString(m.blockLabel(1)), QString("[1, :, :]"));
    QCOMPARE(m.rowRulerValue(37), int64_t(5));  // row 37 is lane 5 of block 1
    QCOMPARE(QString::fromStdString(m.axesText()),
             QString("rows: axis 1 (32) · columns: axis 2 (4) · blocks: axis 0 (2)"));
    // one thread's four registers stay on one row
    QCOMPARE(m.flatAt(37, 0), int64_t(148));
    QCOMPARE(QString::fromStdString(m.cellLabel(m.flatAt(37, 3))), QString("w1 l5 r3"));
    QCOMPARE(m.cellCount(), int64_t(256));
    // element (1, 5, 2): warp 1, lane 5, register 2
    const int64_t flat = 1 * 128 + 5 * 4 + 2;
    QCOMPARE(QString::fromStdString(m.cellLabel(flat)), QString("w1 l5 r2"));
    QCOMPARE(QString::fromStdString(m.coordText(flat)), QString("(1, 5, 2)"));
    QCOMPARE(m.table().threadsUsed(), int64_t(64));
    QCOMPARE(m.cellsOfThread(37), (std::vector<int64_t>{148, 149, 150, 151}));
    QVERIFY(QString::fromStdString(m.cellDetails(flat)).contains("thread 37, register slot 2"));
    QVERIFY(
        QString::fromStdString(m.threadDetails(37)).startsWith("thread 37 (w1 l5): r0→(1, 5, 0)"));
  }

  void coloursFollowWarpAndLane() {
    LayoutGridModel m;
    m.setLayout(parse("S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]"), {2, 32, 4});
    const auto& c = m.colours();
    QCOMPARE(c[0], c[3]);     // one thread's four registers share a colour
    QVERIFY(c[0] != c[4]);    // lane 0 vs lane 1: another shade
    QVERIFY(c[0] != c[128]);  // warp 0 vs warp 1: another hue
    QCOMPARE(c[0], LayoutGridModel::ownerColour(0));
    QCOMPARE(c[128], LayoutGridModel::ownerColour(32));
    m.setFocusThread(1);
    QCOMPARE(m.colours()[4], LayoutGridModel::ownerColour(1));   // thread 1 keeps its colour
    QVERIFY(m.colours()[0] != LayoutGridModel::ownerColour(0));  // the others are greyed
  }

  void replicatedOwners() {
    LayoutGridModel m;
    m.setLayout(parse("S[(4,) : (1@laneid,)] + R[(2,) : (16@laneid,)]"), {4});
    QCOMPARE(QString::fromStdString(m.cellLabel(1)), QString("w0 l1 r0 +1"));
    QVERIFY(QString::fromStdString(m.cellDetails(1)).contains("w0 l17 r0"));
  }

  void bankConflicts() {
    LayoutGridModel m;
    m.setLayout(parse("S[(32, 32) : (32, 1)]"), {32, 32});  // row-major: one row = 32 banks
    m.setColouring(LayoutColouring::Banks);
    auto ok = m.bankStats();
    QCOMPARE(ok.accesses, int64_t(32));
    QCOMPARE(ok.conflicted, int64_t(0));
    QCOMPARE(ok.maxDegree, 1);
    QCOMPARE(m.bankOf(33), 1);
    QCOMPARE(QString::fromStdString(m.cellLabel(33)), QString("b1"));

    m.setLayout(parse("S[(32, 32) : (1, 32)]"), {32, 32});  // column-major: a row hits one bank
    auto bad = m.bankStats();
    QCOMPARE(bad.conflicted, int64_t(32));
    QCOMPARE(bad.maxDegree, 32);
    QCOMPARE(bad.extraWavefronts, int64_t(32 * 31));

    m.setLayout(parse("S[(32, 32) : (33, 1)]"), {32, 32});  // padded rows: still conflict-free
    QCOMPARE(m.bankStats().conflicted, int64_t(0));
    m.setLayout(parse("S[(32, 32) : (1, 33)]"), {32, 32});  // padded columns fix the transpose
    QCOMPARE(m.bankStats().conflicted, int64_t(0));
  }

  void halfPrecisionSharesWords() {
    LayoutGridModel m;
    m.setLayout(parse("S[(64,) : (1,)]"), {64}, 2);  // 2-byte elements: two per bank word
    QCOMPARE(m.bankOf(0), 0);
    QCOMPARE(m.bankOf(1), 0);
    QCOMPARE(m.bankOf(2), 1);
    QCOMPARE(m.bankStats().maxDegree, 1);  // same word twice is a broadcast, not a conflict
  }

  // 8- and 16-byte elements are served in half- and quarter-warp phases of 128 bytes, as the
  // simulator counts them (core/layout/bank_model.h): contiguous float64 or 16-byte vectors are
  // conflict-free. The view's own model used to put all 32 lanes in one phase and reported lanes 0
  // and 16 (8 bytes) or 0, 8, 16, 24 (16 bytes) as conflicting on bank 0.
  void wideElementsUseTheSimulatorsPhases() {
    LayoutGridModel m;
    m.setLayout(parse("S[(32,) : (1,)]"), {32}, 16);
    views::BankStats s = m.bankStats();
    QCOMPARE(s.accesses, int64_t(1));
    QCOMPARE(s.conflicted, int64_t(0));
    QCOMPARE(s.maxDegree, 1);
    m.setLayout(parse("S[(32,) : (1,)]"), {32}, 8);
    QCOMPARE(m.bankStats().conflicted, int64_t(0));
    // Stride 2 of 16 bytes: each quarter-warp phase spans 256 bytes, two words per bank.
    m.setLayout(parse("S[(32,) : (2,)]"), {32}, 16);
    s = m.bankStats();
    QCOMPARE(s.conflicted, int64_t(1));
    QCOMPARE(s.maxDegree, 2);
    QCOMPARE(s.extraWavefronts, int64_t(4));  // 4 phases × 2 wavefronts − 4 ideal
  }

  void atoms() {
    LayoutGridModel m;
    m.setLayout(parse("S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]"), {2, 32, 4});
    m.setAtom(4);
    QCOMPARE(m.atomOf(3), int64_t(0));
    QCOMPARE(m.atomOf(4), int64_t(1));
  }

  void unadmittedShapeFallsBackTo1D() {
    LayoutGridModel m;
    m.setLayout(parse("S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]"), {3, 3});
    QCOMPARE(m.rows(), int64_t(16));  // 1-D: wrapped near 1.6 : 1
    QCOMPARE(m.cols(), int64_t(16));
    QCOMPARE(m.shape(), (std::vector<int64_t>{256}));
  }

  void folding() {
    QCOMPARE(LayoutGridModel::foldColumns({128, 256}, 128 * 256), int64_t(256));
    QCOMPARE(LayoutGridModel::foldColumns({64}, 64), int64_t(8));
    QCOMPARE(LayoutGridModel::foldColumns({2, 32, 4}, 256), int64_t(4));
    QCOMPARE(LayoutGridModel::foldColumns({2, 32, 3, 4}, 768), int64_t(4));
    QCOMPARE(LayoutGridModel::foldColumns({3, 5, 7}, 105), int64_t(7));
  }

  void fourDimensionalShapeKeepsRegistersOnARow() {
    // (2, 32, 3, 4) was drawn as 24 × 32, splitting one thread's registers across rows
    LayoutGridModel m;
    m.setLayout(parse("S[(2, 32, 3, 4) : (1@warpid, 1@laneid, 4, 1)]"), {2, 32, 3, 4});
    QCOMPARE(m.cols(), int64_t(4));
    QCOMPARE(m.rows(), int64_t(192));
    QCOMPARE(m.blockRows(), int64_t(3));
    QCOMPARE(QString::fromStdString(m.blockLabel(33)), QString("[1, 1, :, :]"));
    for (int64_t c = 0; c < 4; ++c)  // row 5 = block (0, 1), its rows hold lane 1's registers
      QVERIFY(QString::fromStdString(m.cellLabel(m.flatAt(5, c))).startsWith("w0 l1 "));
  }

  void memoryTensorIsMemory() {
    LayoutGridModel m;
    m.setMemory(true);
    m.setLayout(parse("S[(64, 4) : (4, 1)]"), {64, 4}, 4);
    QCOMPARE(QString::fromStdString(m.cellLabel(m.flatAt(2, 1))), QString("+36 B"));
    const QString d = QString::fromStdString(m.cellDetails(m.flatAt(2, 1)));
    QVERIFY2(d.contains("byte offset 36, word 9, bank 9"), qPrintable(d));
    QVERIFY(!d.contains("register"));
  }
};

QTEST_MAIN(TstLayoutGridModel)
#include "tst_layout_grid_model.moc"
