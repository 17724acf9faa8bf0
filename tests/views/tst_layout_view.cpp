// The layout view: clicking a cell shows its owner (`w l r`) and the script lines touching the
// tile; typed layouts; the per-thread and bank modes; export.
#include <QtTest>

#include "core/layout/layout_parse.h"
#include "studio_test_util.h"
#include "views/engine/job_runner.h"
#include "views/engine/session.h"
#include "views/widgets/layout_canvas.h"
#include "views/widgets/layout_panel.h"

using namespace tirx;
using namespace tirx::views;

/// Generous: CI runs the views tests on a loaded 2-core machine; a passing run never waits this
/// long.
constexpr int kWaitMs = 30000;

class TstLayoutView : public QObject {
  Q_OBJECT
 private slots:
  void clickTypedLayoutCell() {
    JobRunner runner;
    Session session(runner);
    LayoutPanel panel(session);
    panel.resize(900, 900);
    panel.show();
    QSignalSpy ready(&panel, &LayoutPanel::modelReady);
    panel.showLayoutText("S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]");
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, kWaitMs);
    QCOMPARE(panel.model().rows(), int64_t(64));  // (2, 32, 4): 64 rows × 4 columns
    QCOMPARE(panel.model().cols(), int64_t(4));
    QVERIFY2(panel.canvas()->legendText().contains("rows: axis 1 (32) · columns: axis 2 (4)"),
             qPrintable(panel.canvas()->legendText()));
    LayoutCanvas* canvas = panel.canvas();
    canvas->setCellSize(60);
    const int64_t flat = 1 * 128 + 5 * 4 + 2;  // element (1, 5, 2)
    canvas->ensureVisible(flat);
    QPoint centre = canvas->cellRect(flat).center().toPoint();
    QVERIFY(canvas->rect().contains(centre));
    QCOMPARE(canvas->cellAt(centre), flat);
    QTest::mouseClick(canvas, Qt::LeftButton, {}, centre);
    QCOMPARE(canvas->selectedCell(), flat);
    QVERIFY2(panel.infoText().contains("<b>w1 l5 r2</b>"), qPrintable(panel.infoText()));
    QVERIFY(panel.infoText().contains("(1, 5, 2)"));

    // a neighbour in the next lane
    QTest::mouseClick(canvas, Qt::LeftButton, {}, canvas->cellRect(flat + 4).center().toPoint());
    QVERIFY2(panel.infoText().contains("<b>w1 l6 r2</b>"), qPrintable(panel.infoText()));

    // the inverse view of thread 37
    panel.setMode(1);
    panel.setFocusThread(37);
    QVERIFY2(panel.infoText().startsWith("thread 37 (w1 l5): r0→(1, 5, 0)"),
             qPrintable(panel.infoText()));

    QTemporaryDir dir;
    QVERIFY(canvas->exportPng(dir.filePath("grid.png")));
    QVERIFY(canvas->exportSvg(dir.filePath("grid.svg")));
    QImage png(dir.filePath("grid.png"));
    QVERIFY(png.width() > 4 * 4 && png.height() > 64 * 4);
  }

  // Atom outlines (merged boundary segments) are drawn exactly at atom boundaries: between
  // elements 3|4 of a row and between rows, never between elements 1|2 of one atom.
  void atomOutlinesAtBoundaries() {
    Diagnostics d;
    auto layout = parseLayoutText("S[(4, 32, 32, 8) : (1@warpid, 8, 1@laneid, 1)]", d);
    QVERIFY(layout);
    LayoutGridModel model;
    model.setLayout(*layout, {128, 256}, 4);
    model.setAtom(4);
    LayoutCanvas canvas;
    canvas.resize(800, 600);
    canvas.setModel(&model);
    canvas.setCellSize(12);
    canvas.ensureVisible(0);
    QImage img(canvas.size(), QImage::Format_ARGB32);
    canvas.render(&img);
    auto darkNear = [&](QPointF at, bool vertical) {
      for (int k = -2; k <= 2; ++k) {
        QPoint q = (at + (vertical ? QPointF(k, 0) : QPointF(0, k))).toPoint();
        QColor c = img.pixelColor(q);
        if (c.red() < 40 && c.green() < 40 && c.blue() < 40) return true;
      }
      return false;
    };
    const qint64 cols = model.cols();
    QRectF c4 = canvas.cellRect(4), c2 = canvas.cellRect(2), below = canvas.cellRect(cols + 1);
    QVERIFY(canvas.rect().contains(c4.toAlignedRect()) &&
            canvas.rect().contains(below.toAlignedRect()));
    QVERIFY(darkNear(QPointF(c4.left(), c4.center().y()), true));        // atoms 0 | 1
    QVERIFY(!darkNear(QPointF(c2.left(), c2.center().y()), true));       // inside atom 0
    QVERIFY(darkNear(QPointF(below.center().x(), below.top()), false));  // row 0 / row 1
  }

  void badTypedLayoutSaysWhy() {
    JobRunner runner;
    Session session(runner);
    LayoutPanel panel(session);
    panel.show();
    panel.showLayoutText("S[(2, 32, 4) : (1@warpid, 1@laneid)]");
    QTRY_VERIFY_WITH_TIMEOUT(panel.infoText().contains("layout error"), kWaitMs);
  }

  void scriptSymbolCellShowsLines() {
    JobRunner runner;
    Session session(runner);
    LayoutPanel panel(session);
    panel.resize(900, 900);
    panel.show();
    QSignalSpy ready(&panel, &LayoutPanel::modelReady);
    session.loadText(readTestData("kernels/affine_relu.py"), QString());
    QTRY_VERIFY_WITH_TIMEOUT(session.facts() != nullptr, kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() >= 1, kWaitMs);
    QVERIFY(panel.showSymbol("registers"));
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() >= 2, kWaitMs);
    QCOMPARE(panel.model().cellCount(), int64_t(256));
    panel.selectCell(0);
    QString info = panel.infoText();
    QVERIFY2(info.contains("<b>w0 l0 r0</b>"), qPrintable(info));
    // `registers` is defined on line 14 and used by the loads/stores on lines 15, 16 and 21
    QVERIFY2(info.contains("line:14") && info.contains("line:15") && info.contains("line:21"),
             qPrintable(info));
    // the atom-outline choices are the engine's tile-op uses of this buffer (views included),
    // found by buffer id (ir::tileOpUses), not every tile op of the kernel
    QCOMPARE(panel.tileOpTexts(),
             QStringList({"no atom outline", "line 15: ld.global.v4.b32 · writes (atom 4)",
                          "line 17: fma.rn.f32 · writes (atom 1)",
                          "line 17: fma.rn.f32 · reads (atom 1)",
                          "line 20: max.f32 · writes (atom 1)", "line 20: max.f32 · reads (atom 1)",
                          "line 21: st.global.v4.b32 · reads (atom 4)"}));
    QVERIFY(panel.showSymbol("A"));
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() >= 3, kWaitMs);
    QCOMPARE(panel.tileOpTexts(),
             QStringList({"no atom outline", "line 15: ld.global.v4.b32 · reads (atom 4)"}));
  }

  // A shared tile's cell names the threads and registers of each ld/st tile op on its element,
  // from the engine (ir::elementTouches): S row 33, column 2 of shared_affine.py.
  void memoryCellShowsWhichThreadsTouchIt() {
    JobRunner runner;
    Session session(runner);
    LayoutPanel panel(session);
    panel.resize(900, 900);
    panel.show();
    QSignalSpy ready(&panel, &LayoutPanel::modelReady);
    QFile f(TIRX_SOURCE_DIR "/resources/examples/shared_affine.py");
    QVERIFY(f.open(QIODevice::ReadOnly));
    session.loadText(QString::fromUtf8(f.readAll()), QString());
    QTRY_VERIFY_WITH_TIMEOUT(session.facts() != nullptr, kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() >= 1, kWaitMs);
    QVERIFY(panel.showSymbol("S"));
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() >= 2, kWaitMs);
    QVERIFY(panel.model().isMemory());
    panel.selectCell(33 * 4 + 2);
    const QString info = panel.infoText();
    QVERIFY2(
        info.contains("line 28 ld.shared.v4.b32 reads it into thread 33 (warp 1, lane 1) R slot 2"),
        qPrintable(info));
    QVERIFY2(info.contains(
                 "line 30 st.shared.v4.b32 writes it from thread 33 (warp 1, lane 1) R slot 2"),
             qPrintable(info));
  }
};

QTEST_MAIN(TstLayoutView)
#include "tst_layout_view.moc"
