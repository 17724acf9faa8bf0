// The tensor-core views (issue 9, studio part): the fragment drawing of an mma operand as the
// instruction sees it (labels checked against core/ptx/fragments.h and, independently, against
// spec/tc-verify/verify.cu's formulas), the warning outline on exactly the cells a wrong layout
// misplaces (read back from the painted pixels), the bank image of a 128B-swizzled tile (banks by
// the XOR formula of spec TC §9, painted colours), the per-instruction bank counts of the tile
// after Compile & Verify on the simulator, and the fragment picture an opcode hover shows.
#include <QApplication>
#include <QComboBox>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest>

#include "core/ptx/fragments.h"
#include "studio_test_util.h"
#include "views/engine/job_runner.h"
#include "views/engine/script_facts.h"
#include "views/engine/session.h"
#include "views/widgets/bank_image_view.h"
#include "views/widgets/editor_widget.h"
#include "views/widgets/fragment_view.h"
#include "views/widgets/opcode_hover.h"
#include "views/widgets/tensor_core_panel.h"

using namespace tirx;
using namespace tirx::views;

namespace {

constexpr int kWaitMs = 60000;

QString readExample(const QString& name) {
  QFile f(QStringLiteral(TIRX_SOURCE_DIR) + "/resources/examples/" + name);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(name));
  return QString::fromUtf8(f.readAll());
}

std::shared_ptr<const ScriptFacts> analyze(const QString& text) {
  return std::make_shared<const ScriptFacts>(analyzeScript(text.toStdString(), "t.py", 90));
}

int factIndex(const ScriptFacts& facts, const std::string& opcodePrefix, const std::string& role) {
  for (int i = 0; i < static_cast<int>(facts.fragments.size()); ++i)
    if (facts.fragments[size_t(i)].opcode.rfind(opcodePrefix, 0) == 0 &&
        facts.fragments[size_t(i)].role == role)
      return i;
  return -1;
}

int tileIndex(const ScriptFacts& facts, const std::string& name) {
  for (int i = 0; i < static_cast<int>(facts.sharedTiles.size()); ++i)
    if (facts.sharedTiles[size_t(i)].name == name) return i;
  return -1;
}

int lineOf(const QString& text, const QString& needle) {
  const int at = text.indexOf(needle);
  return at < 0 ? -1 : text.left(at).count('\n') + 1;
}

QString withWrongA(QString text) {
  // word (r, c) to lane r % 8 + 8 (c % 4); the map needs 4 (r % 8) + c % 4
  const QString good = "S[(2, 8, 2, 4) : (1, 4 @ laneid, 2, 1 @ laneid)]";
  if (!text.contains(good)) qFatal("the example's A layout changed");
  return text.replace(good, "S[(2, 8, 2, 4) : (1, 1 @ laneid, 2, 8 @ laneid)]");
}

}  // namespace

class TstTensorCoreViews : public QObject {
  Q_OBJECT

 private slots:
  void fragmentLabelsOfMmaA() {
    auto facts = analyze(readExample("mma_single_warp.py"));
    QVERIFY(facts->frontEnd->ok());
    const int a = factIndex(*facts, "mma", "a");
    QVERIFY(a >= 0);
    FragmentView view;
    view.resize(900, 800);
    view.setFact(facts, a);
    QVERIFY(view.labelsShown());
    // the golden cells
    QVERIFY2(view.cellLabel(0, 0, 0).startsWith("T0 r0\n"), qPrintable(view.cellLabel(0, 0, 0)));
    QVERIFY2(view.cellLabel(0, 8, 0).startsWith("T0 r1\n"), qPrintable(view.cellLabel(0, 8, 0)));
    QCOMPARE(view.cellLabel(0, 8, 0), QString("T0 r1\na2 lo"));
    QCOMPARE(view.cellLabel(0, 0, 1), QString("T0 r0\na1 hi"));
    // every cell against the engine's element map and against verify.cu's k_mma16816 formula
    const frag::FragmentMap map =
        frag::mmaFragment(frag::MmaShape::M16N8K16, frag::MmaOperand::A, frag::Units::Elements);
    for (int r = 0; r < 16; ++r)
      for (int c = 0; c < 16; ++c) {
        const frag::Holder& h = map.at(r, c);
        QCOMPARE(view.cellLabel(0, r, c).section('\n', 0, 0),
                 QString("T%1 r%2").arg(h.thread).arg(h.reg));
      }
    for (int l = 0; l < 32; ++l)
      for (int i = 0; i < 8; ++i) {
        const int row = (l >> 2) + 8 * ((i / 2) % 2), col = 2 * (l & 3) + (i & 1) + 8 * (i >= 4);
        QCOMPARE(view.cellLabel(0, row, col),
                 QString("T%1 r%2\na%3 %4").arg(l).arg(i / 2).arg(i).arg(i & 1 ? "hi" : "lo"));
      }
    // painted: the cell's fill is its lane's colour, no warning outline anywhere
    const QImage img = view.grab().toImage();
    const QRectF c0 = view.cellRect(0, 0, 0);
    QCOMPARE(img.pixel(int(c0.left()) + 3, int(c0.top()) + 3), FragmentView::laneColor(0).rgb());
    const QRectF c9 = view.cellRect(0, 8, 3);  // lane 1 (a3)
    QCOMPARE(img.pixel(int(c9.left()) + 3, int(c9.top()) + 3), FragmentView::laneColor(1).rgb());
    for (int r = 0; r < 16; ++r)
      for (int c = 0; c < 16; ++c) {
        const QRectF cr = view.cellRect(0, r, c);
        QVERIFY(img.pixel(int(cr.left()) + 1, int(cr.center().y())) !=
                FragmentView::warningColor().rgb());
      }
  }

  void wrongLayoutOutlinesExactlyTheMismatchingCells() {
    auto facts = analyze(withWrongA(readExample("mma_single_warp.py")));
    QVERIFY(!facts->frontEnd->ok());  // E0263
    const int a = factIndex(*facts, "mma", "a");
    QVERIFY(a >= 0);
    FragmentView view;
    view.resize(900, 800);
    view.setFact(facts, a);
    const QImage img = view.grab().toImage();
    int outlined = 0;
    for (int r = 0; r < 16; ++r)
      for (int c = 0; c < 16; ++c) {
        const int wc = c / 2;
        const bool wrong = r % 8 + 8 * (wc % 4) != 4 * (r % 8) + wc % 4;
        const QRectF cr = view.cellRect(0, r, c);
        const bool painted = img.pixel(int(cr.left()) + 1, int(cr.center().y())) ==
                             FragmentView::warningColor().rgb();
        QVERIFY2(painted == wrong, qPrintable(QString("cell (%1, %2)").arg(r).arg(c)));
        outlined += painted;
      }
    QCOMPARE(outlined, 256 - 16);
  }

  void bankImageOf128BSwizzle() {
    auto facts = analyze(readExample("gemm_ldmatrix_swizzled.py"));
    QVERIFY(facts->frontEnd->ok());
    const int as = tileIndex(*facts, "As");
    QVERIFY(as >= 0);
    const SharedTileImage& tile = facts->sharedTiles[size_t(as)];
    QVERIFY(tile.ok && tile.swizzled);
    QCOMPARE(QString::fromStdString(tile.swizzleMode), QString("128B"));
    // 128B swizzle of bf16 rows of 128 bytes: chunk' = chunk ^ (row % 8); bank = 4 chunk' + word
    for (int r = 0; r < 64; ++r)
      for (int c = 0; c < 64; ++c) {
        const int want = 4 * ((c / 8) ^ (r % 8)) + (c % 8) / 2;
        QCOMPARE(elementBank(tile, r, c), want);
        QCOMPARE(elementByte(tile, r, c),
                 int64_t(128 * r + 16 * ((c / 8) ^ (r % 8)) + 2 * (c % 8)));
      }
    BankImageView view;
    view.resize(1400, 1500);
    view.setTile(facts, as);
    QVERIFY(view.elementMode());
    const QImage img = view.grab().toImage();
    for (auto [r, c] : {std::pair{0, 0}, {1, 0}, {7, 9}, {3, 63}, {63, 17}}) {
      const QRectF cr = view.elementRect(r, c);
      QCOMPARE(img.pixel(int(cr.left()) + 2, int(cr.top()) + 2),
               BankImageView::bankColor(4 * ((c / 8) ^ (r % 8)) + (c % 8) / 2).rgb());
    }
    // a narrow view draws chunks: same colours at the chunk's first element
    view.resize(500, 700);
    QVERIFY(!view.elementMode());
    const QImage small = view.grab().toImage();
    const QRectF cr = view.elementRect(5, 8);
    QCOMPARE(small.pixel(int(cr.left()) + 1, int(cr.top()) + 1),
             BankImageView::bankColor(4 * (1 ^ 5)).rgb());
  }

  void panelShowsConflictsOfEachInstruction() {
    JobRunner runner;
    Session session(runner);
    TensorCorePanel panel(session);
    panel.resize(900, 900);
    panel.show();
    session.loadText(readExample("gemm_ldmatrix_swizzled.py"), QString());
    QTRY_VERIFY_WITH_TIMEOUT(session.facts() != nullptr && panel.picker()->count() > 0, kWaitMs);
    // the first choice is an A operand
    QVERIFY2(panel.picker()->currentText().contains(" · a ("),
             qPrintable(panel.picker()->currentText()));
    QVERIFY(panel.pick("tile As"));
    QCOMPARE(panel.bankView()->tile()->name, std::string("As"));
    QSignalSpy reported(&session, &Session::reportChanged);
    session.requestCompileAndVerify();
    QTRY_VERIFY_WITH_TIMEOUT(reported.count() >= 1, 240000);
    QVERIFY2(session.report()->engine.passed(), session.report()->summary.c_str());
    QTableWidget* t = panel.accessTable();
    QCOMPARE(t->rowCount(), 2);  // st.shared.v4 (line 39) and ldmatrix.x4 (line 51)
    bool sawLd = false;
    for (int r = 0; r < t->rowCount(); ++r) {
      const QString op = t->item(r, 1)->text();
      if (op.startsWith("ldmatrix")) {
        sawLd = true;
        QCOMPARE(t->item(r, 3)->text().toLongLong(), 4 * t->item(r, 2)->text().toLongLong());
        QCOMPARE(t->item(r, 4)->text(), t->item(r, 3)->text());
        QCOMPARE(t->item(r, 5)->text(), QString("none"));
      }
    }
    QVERIFY(sawLd);
    // Bs: its own store and ldmatrix, not As's
    QVERIFY(panel.pick("tile Bs"));
    QCOMPARE(t->rowCount(), 2);
    for (int r = 0; r < t->rowCount(); ++r) QVERIFY(t->item(r, 1)->text().contains("Bs"));
  }

  // Selecting a row of the conflict table draws its statement's instructions of one warp on the
  // tile. shared_affine.py's `S[tid, j] = A[tid, j]`: warp 0 stores rows 0..31 (every column) and
  // every one of those elements is 4-way conflicted (lane l stores (l, j) at word 4l + j: lanes l,
  // l + 8, l + 16 and l + 24 hit bank (4l + j) % 32); warp 1 rows 32..63. Its st.shared.v4.b32
  // touches the same rows without any conflict. The canvas must frame exactly those cells red.
  void selectedRowMarksConflictingCells() {
    JobRunner runner;
    Session session(runner);
    TensorCorePanel panel(session);
    panel.resize(900, 900);
    panel.show();
    const QString text = readExample("shared_affine.py");
    session.loadText(text, QString());
    QTRY_VERIFY_WITH_TIMEOUT(session.facts() != nullptr && panel.picker()->count() > 0, kWaitMs);
    QVERIFY(panel.pick("tile S"));
    QSignalSpy reported(&session, &Session::reportChanged);
    session.requestCompileAndVerify();
    QTRY_VERIFY_WITH_TIMEOUT(reported.count() >= 1, 240000);
    QVERIFY2(session.report()->engine.passed(), session.report()->summary.c_str());
    QTableWidget* t = panel.accessTable();
    BankImageView* view = panel.bankView();
    QVERIFY(!view->bankMap());
    int storeRow = -1, vectorRow = -1;
    for (int r = 0; r < t->rowCount(); ++r) {
      if (t->item(r, 0)->text().toInt() == lineOf(text, "S[tid, j] = A[tid, j]") &&
          t->item(r, 1)->text().startsWith("store S"))
        storeRow = r;
      if (t->item(r, 1)->text().startsWith("st.shared.v4.b32")) vectorRow = r;
    }
    QVERIFY(storeRow >= 0 && vectorRow >= 0);
    const SharedTileImage* tile = view->tile();
    QCOMPARE(tile->image.rows, int64_t(64));
    QCOMPARE(tile->cols, int64_t(4));

    // the cells touched are exactly rows [lo, hi), framed red exactly when `conflicts`, on screen
    // too
    auto expectRows = [&](int lo, int hi, bool conflicts) {
      QApplication::processEvents();
      const QImage img = view->grab().toImage();
      for (int r = 0; r < 64; ++r)
        for (int c = 0; c < 4; ++c) {
          const bool inside = r >= lo && r < hi;
          if (view->isHighlighted(r, c) != inside ||
              view->isConflicting(r, c) != (inside && conflicts))
            return QString("cell (%1, %2): touched %3, conflicting %4")
                .arg(r)
                .arg(c)
                .arg(view->isHighlighted(r, c))
                .arg(view->isConflicting(r, c));
          const QRect e = view->elementRect(r, c).toAlignedRect();
          const bool red = img.pixelColor(e.left() + BankImageView::kConflictFrame,
                                          e.center().y()) == BankImageView::conflictColor();
          if (red != (inside && conflicts))
            return QString("cell (%1, %2) is %3 on screen")
                .arg(r)
                .arg(c)
                .arg(red ? "red" : "not red");
        }
      return QString();
    };

    // a click on the store row: warp 0
    QTest::mouseClick(t->viewport(), Qt::LeftButton, {},
                      t->visualItemRect(t->item(storeRow, 1)).center());
    QTRY_VERIFY_WITH_TIMEOUT(view->bankMap() != nullptr, kWaitMs);
    QCOMPARE(panel.warpBox()->value(), 0);
    QVERIFY(panel.warpBox()->isVisible());
    QCOMPARE(panel.warpBox()->maximum(), 1);
    QCOMPARE(view->highlightedCount(), int64_t(128));
    QCOMPARE(view->conflictingCount(), int64_t(128));
    QString bad = expectRows(0, 32, true);
    QVERIFY2(bad.isEmpty(), qPrintable(bad));
    QVERIFY2(view->cellText(1, 2).contains("<b>bank 6, 4-way</b>: with (9,2),(17,2),(25,2)"),
             qPrintable(view->cellText(1, 2)));
    QVERIFY2(view->cellText(0, 0).contains("lane 0: bank 0, wavefront 1"),
             qPrintable(view->cellText(0, 0)));
    QVERIFY2(view->cellText(24, 0).contains("wavefront 4"), qPrintable(view->cellText(24, 0)));
    QVERIFY2(panel.summary().contains(
                 "warp 0: 4 warp instructions, 16 wavefronts (4 without conflicts)"),
             qPrintable(panel.summary()));
    QVERIFY(panel.summary().contains("128 in bank conflicts"));
    // the click selected the line but kept the tile (no jump to another operand)
    QCOMPARE(session.selectedLine(), lineOf(text, "S[tid, j] = A[tid, j]"));
    QVERIFY(panel.picker()->currentText().startsWith("tile S"));

    // warp 1: rows 32..63; (33, 1) is word 133, bank 5
    panel.warpBox()->setValue(1);
    QTRY_VERIFY_WITH_TIMEOUT(view->bankMap() && view->isConflicting(33, 1), kWaitMs);
    bad = expectRows(32, 64, true);
    QVERIFY2(bad.isEmpty(), qPrintable(bad));
    QVERIFY2(view->cellText(33, 1).contains("<b>bank 5, 4-way</b>: with (41,1),(49,1),(57,1)"),
             qPrintable(view->cellText(33, 1)));
    QVERIFY(view->cellText(0, 0).contains("not touched"));

    // the vector store: the same rows, no conflict
    t->setCurrentCell(vectorRow, 1);
    QTRY_VERIFY_WITH_TIMEOUT(view->bankMap() && view->bankMap()->maxWays == 1, kWaitMs);
    QCOMPARE(view->conflictingCount(), int64_t(0));
    bad = expectRows(32, 64, false);
    QVERIFY2(bad.isEmpty(), qPrintable(bad));
    QVERIFY(view->cellText(40, 3).contains("no conflict"));
    QVERIFY(panel.summary().contains("no bank conflict"));
  }

  void wrongLayoutIsTheFirstChoiceInThePanel() {
    JobRunner runner;
    Session session(runner);
    TensorCorePanel panel(session);
    panel.resize(900, 900);
    panel.show();
    session.loadText(withWrongA(readExample("mma_single_warp.py")), QString());
    QTRY_VERIFY_WITH_TIMEOUT(session.facts() != nullptr && panel.picker()->count() > 0, kWaitMs);
    QVERIFY(panel.picker()->currentText().contains("240 wrong"));
    QVERIFY2(panel.summary().contains("240 elements are in the wrong lane"),
             qPrintable(panel.summary()));
  }

  void opcodeHoverShowsFragmentPicture() {
    JobRunner runner;
    Session session(runner);
    EditorWidget editor(session);
    editor.resize(1000, 800);
    editor.show();
    const QString text = readExample("mma_single_warp.py");
    session.loadText(text, QString());
    QTRY_VERIFY_WITH_TIMEOUT(session.facts() != nullptr, kWaitMs);
    const int pos = byteOffsetOf(text, "mma.sync.aligned.m16n8k16") + 4;
    QVERIFY(pos > 4);
    editor.hoverAt(pos);
    OpcodeHoverPopup* popup = editor.opcodePopup();
    QVERIFY(popup);
    QVERIFY(popup->isVisible());
    QVERIFY(popup->caption().contains("mma"));
    const QImage& pic = popup->picture();
    QVERIFY(!pic.isNull());
    // the tables behind it: A, B, C/D with lane 0 holding a0 at (0, 0) and a2 at (8, 0)
    auto facts = session.facts();
    const int site = opcodeAt(facts->opcodes, pos);
    QVERIFY(site >= 0);
    const auto& tables = facts->opcodes[size_t(site)].fragments;
    QCOMPARE(int(tables.size()), 3);
    QCOMPARE(tables[0].rows, 16);
    QCOMPARE(tables[0].cols, 16);
    QCOMPARE(tables[0].lane(0, 0), 0);
    QCOMPARE(tables[0].label(0, 0), std::string("a0"));
    QCOMPARE(tables[0].lane(8, 0), 0);
    QCOMPARE(tables[0].label(8, 0), std::string("a2"));
    QCOMPARE(tables[1].rows, 16);  // B as k×n
    QCOMPARE(tables[1].cols, 8);
    QCOMPARE(tables[1].lane(9, 2),
             8 + 0);  // b: k = 2t + (i&1) + 8(i≥2), n = g → (9, 2): g 2, t 0, b3
    QCOMPARE(tables[1].label(9, 2), std::string("b3"));
    QCOMPARE(tables[2].lane(8, 7),
             3 + 0);  // c: row g + 8(i≥2), col 2t + (i&1) → (8, 7): g 0, t 3, c3
    QCOMPARE(tables[2].label(8, 7), std::string("c3"));
    // the picture paints those tables: A's first cell in lane 0's colour, same size as rendered
    const QImage again = renderFragmentTables(tables);
    QCOMPARE(pic.size(), again.size());
    QCOMPARE(pic.pixel(8 + 3, 8 + 18 + 3), FragmentView::laneColor(0).rgb());
    // an ordinary opcode keeps the text tooltip
    const int ld = byteOffsetOf(text, "ld.global.b32") + 2;
    QVERIFY(opcodeAt(facts->opcodes, ld) >= 0);
    QVERIFY(facts->opcodes[size_t(opcodeAt(facts->opcodes, ld))].fragments.empty());
    // ldmatrix: one 8×8 table per matrix, lane 4r + c/2 holds (r, c) in r_m
    const auto ldm =
        opcodeFragmentTables(*parsePtxOpcode("ldmatrix.sync.aligned.m8n8.x4.shared.b16"));
    QCOMPARE(int(ldm.size()), 4);
    QCOMPARE(ldm[2].lane(5, 3), 21);
    QCOMPARE(ldm[2].label(5, 3), std::string("r2.hi"));
  }
};

QTEST_MAIN(TstTensorCoreViews)
#include "tst_tensor_core_views.moc"
