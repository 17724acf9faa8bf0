// The Pipeline dock (issue 10, studio part): the simulator's asynchronous timeline of
// mbarrier_ring.py drawn as rows per warp (waits as bars, arrivals and phase flips as markers), a
// click on a bar selecting its statement's line in the editor, the copy rows of a two-stage
// cp.async pipeline, and the TMA box image of the 128-byte-swizzle example checked cell by cell
// against the hardware's chunk XOR formula (and its painted colours).
#include <QComboBox>
#include <QDockWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QtTest>

#include "views/engine/engine_products.h"
#include "views/engine/job_runner.h"
#include "views/engine/session.h"
#include "views/widgets/editor_widget.h"
#include "views/widgets/main_window.h"
#include "views/widgets/pipeline_panel.h"
#include "views/widgets/pipeline_view.h"
#include "views/widgets/tma_image_view.h"

using namespace tirx;
using namespace tirx::views;

namespace {

QString readFile(const QString& path) {
  QFile f(QStringLiteral(TIRX_SOURCE_DIR) + "/" + path);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
  return QString::fromUtf8(f.readAll());
}

/// Runs `path` on the simulator (as Compile & Verify does) and shows the report in `session`.
bool verifyInto(Session& session, const QString& path) {
  const QString text = readFile(path);
  VerifyRequest req;
  req.source = text.toStdString();
  req.fileName = path.section('/', -1).toStdString();
  req.device = "sim";
  VerifyProducts p = runVerify(req);
  const bool ok = p.engine.passed();
  if (!ok) qWarning("%s", p.summary.c_str());
  session.showRecorded(text, path.section('/', -1), {}, std::move(p));
  return ok;
}

int editorLine(EditorWidget& e) {
  int line = 0, col = 0;
  e.getCursorPosition(&line, &col);
  return line + 1;
}

std::vector<int> itemsOf(const PipelineChart& c, PipelineItem::Category cat, int row) {
  std::vector<int> out;
  for (int i = 0; i < static_cast<int>(c.items.size()); ++i)
    if (c.items[size_t(i)].category == cat && c.items[size_t(i)].row == row) out.push_back(i);
  return out;
}

}  // namespace

class TstPipelineView : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("TIRx-test");
    QCoreApplication::setApplicationName("tst_pipeline_view");
  }

  void mbarrierRingRowsAndClick() {
    JobRunner runner;
    Session session(runner);
    EditorWidget editor(session);
    PipelinePanel panel(session);
    panel.resize(1200, 400);
    panel.show();
    QVERIFY(verifyInto(session, "resources/examples/mbarrier_ring.py"));
    QCOMPARE(panel.runPicker()->count(), 1);
    QVERIFY(panel.runPicker()->currentText().startsWith("mbarrier_ring"));
    const PipelineChart& c = panel.view()->chart();
    QCOMPARE(c.rows.size(), size_t(2));
    QCOMPARE(c.rows[0].label, QString("warp 0 · sync"));
    QCOMPARE(c.rows[1].label, QString("warp 1 · sync"));
    // eight rounds: every warp waits eight times and arrives eight times; each arrival of a
    // warp completes a phase of the barrier it arrives on
    for (int row : {0, 1}) {
      QCOMPARE(itemsOf(c, PipelineItem::Category::Wait, row).size(), size_t(8));
      QCOMPARE(itemsOf(c, PipelineItem::Category::Arrive, row).size(), size_t(8));
      QCOMPARE(itemsOf(c, PipelineItem::Category::Phase, row).size(), size_t(8));
    }
    const auto waits0 = itemsOf(c, PipelineItem::Category::Wait, 0);
    const PipelineItem& first = c.items[size_t(waits0[0])];
    QCOMPARE(first.label, QString("full[0] p0"));
    QVERIFY(first.bar);
    QVERIFY2(first.tooltip.contains("mbarrier.wait full[0] parity 0"), qPrintable(first.tooltip));
    QVERIFY(first.end > first.start);  // the consumer waits for the producer's arrivals
    // The consumer's first wait ends where the producer's arrivals complete full[0]'s phase 0.
    const auto flips1 = itemsOf(c, PipelineItem::Category::Phase, 1);
    const PipelineItem& flip = c.items[size_t(flips1[0])];
    QCOMPARE(flip.end, first.end);
    QVERIFY(std::abs(panel.view()->itemRect(flips1[0]).center().x() -
                     panel.view()->itemRect(waits0[0]).right()) < 1.5);
    // the producer's waits on empty pass at once: zero-length bars
    const auto waits1 = itemsOf(c, PipelineItem::Category::Wait, 1);
    QVERIFY(c.items[size_t(waits1[0])].label.startsWith("empty[0]"));
    // Click the consumer's wait: the editor goes to its line (the mbarrier_wait on full).
    QCOMPARE(panel.view()->itemAt(panel.view()->itemRect(waits0[0]).center()), waits0[0]);
    QTest::mouseClick(panel.view(), Qt::LeftButton, {},
                      panel.view()->itemRect(waits0[0]).center().toPoint());
    QCOMPARE(panel.view()->selected(), waits0[0]);
    QCOMPARE(session.selectedLine(), 35);
    QCOMPARE(editorLine(editor), 35);
    QVERIFY(editor.text(34).contains("mbarrier_wait(full.ptr_to([s]), phase)"));
    // Click the phase flip: the producer's arrive on full.
    QTest::mouseClick(panel.view(), Qt::LeftButton, {},
                      panel.view()->itemRect(flips1[0]).center().toPoint());
    QCOMPARE(editorLine(editor), 33);
    QVERIFY(editor.text(32).contains("mbarrier.arrive.shared.b64(full.ptr_to([s]))"));
    QVERIFY(panel.summaryText().startsWith("52 events in cta 0"));
  }

  void simulateOneCtaAloneFromTheDock() {
    // The benchmark's d128 attention kernel: 4096 CTAs, too many to simulate whole. Pick CTA 5,
    // click "Simulate CTA alone": the dock shows that CTA's timeline (its 32 K/V blocks through
    // the ring), and the report says the check code was not run.
    JobRunner runner;
    Session session(runner);
    PipelinePanel panel(session);
    panel.resize(1200, 400);
    panel.show();
    QSignalSpy reported(&session, &Session::reportChanged);
    session.loadText(readFile("bench/kernels/attention_fwd_bf16_d128.py"), QString());
    reported.clear();  // a new document resets the report
    panel.aloneCtaPicker()->setValue(5);
    QTest::mouseClick(panel.aloneButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(reported.count() >= 1, 180000);
    const auto r = session.report();
    QVERIFY(r);
    QVERIFY2(r->engine.passed(), r->summary.c_str());
    QCOMPARE(r->engine.checks.size(), size_t(1));
    QVERIFY2(r->engine.checks[0].name.find("CTA 5 of 4096 alone on sim") != std::string::npos,
             r->engine.checks[0].name.c_str());
    QCOMPARE(panel.runPicker()->count(), 1);
    QCOMPARE(panel.ctaPicker()->value(), 5);
    QVERIFY2(panel.summaryText().contains(" events in cta 5 "), qPrintable(panel.summaryText()));
    // The producer warp (warp 0) and the eight consumer warps have rows; the producer waits on
    // both split empty barriers of the stages.
    const PipelineChart& c = panel.view()->chart();
    QVERIFY(c.rows.size() >= 9);
    bool emptyk = false, emptyv = false;
    for (const PipelineItem& it : c.items) {
      emptyk = emptyk || it.label.startsWith("emptyk[");
      emptyv = emptyv || it.label.startsWith("emptyv[");
    }
    QVERIFY(emptyk && emptyv);
  }

  void dockSaysOutOfDateAfterAnEdit() {
    QSettings().clear();
    MainWindow w(nullptr, false);
    QCOMPARE(w.dock("pipeline")->windowTitle(), QString("Pipeline"));
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(verifyInto(w.session(), "resources/examples/mbarrier_ring.py"));
    // the dock sits behind Results: it refreshes when it is shown, not before
    QCOMPARE(w.pipelinePanel()->runPicker()->count(), 0);
    w.dock("pipeline")->raise();
    QTRY_COMPARE(w.pipelinePanel()->runPicker()->count(), 1);
    w.session().setText(w.session().text() + "\n# edited\n");
    QCOMPARE(w.dock("pipeline")->windowTitle(), QString("Pipeline (out of date)"));
    QSettings().clear();
  }

  void cpAsyncCopiesStack() {
    JobRunner runner;
    Session session(runner);
    PipelinePanel panel(session);
    panel.resize(1000, 300);
    panel.show();
    QVERIFY(verifyInto(session, "tests/data/sim_timeline/cp_async_2stage.py"));
    const PipelineChart& c = panel.view()->chart();
    QCOMPARE(c.rows.size(), size_t(2));
    QCOMPARE(c.rows[1].label, QString("warp 0 · copies"));
    QCOMPARE(c.rows[1].tracks, 2);  // two stages in flight at once
    const auto copies = itemsOf(c, PipelineItem::Category::Copy, 1);
    QCOMPARE(copies.size(), size_t(4));
    QCOMPARE(c.items[size_t(copies[0])].label, QString("buf[0]"));
    QCOMPARE(c.items[size_t(copies[1])].label, QString("buf[1]"));
    QCOMPARE(c.items[size_t(copies[0])].track, 0);
    QCOMPARE(c.items[size_t(copies[1])].track, 1);
    // the wait_group bars name the group they wait for
    const auto waits = itemsOf(c, PipelineItem::Category::Wait, 0);
    QCOMPARE(waits.size(), size_t(4));
    QCOMPARE(c.items[size_t(waits[0])].label, QString("group 0"));
    QCOMPARE(c.items[size_t(waits[3])].label, QString("group 3"));
    QTest::mouseClick(panel.view(), Qt::LeftButton, {},
                      panel.view()->itemRect(copies[1]).center().toPoint());
    QCOMPARE(session.selectedLine(), 17);  // the cp.async inside the loop
  }

  void tmaImageOf128BSwizzle() {
    JobRunner runner;
    Session session(runner);
    PipelinePanel panel(session);
    panel.resize(900, 700);
    panel.show();
    QVERIFY(verifyInto(session, "resources/examples/tma_copy_128b.py"));
    QCOMPARE(panel.imagePicker()->count(), 2);  // one box per CTA
    // Clicking CTA 1's TMA load bar shows that CTA's box image.
    panel.ctaPicker()->setValue(1);
    const PipelineChart& c = panel.view()->chart();
    QCOMPARE(c.cta, 1);
    int load = -1;
    for (int i = 0; i < static_cast<int>(c.items.size()); ++i)
      if (c.items[size_t(i)].tooltip.contains("tma.load")) load = i;
    QVERIFY(load >= 0);
    QTest::mouseClick(panel.view(), Qt::LeftButton, {},
                      panel.view()->itemRect(load).center().toPoint());
    QCOMPARE(session.selectedLine(), 27);
    QCOMPARE(panel.imagePicker()->currentIndex(), 1);
    QVERIFY(panel.pick("TMA box image"));
    TmaImageView* v = panel.imageView();
    QVERIFY(v->hasImage());
    QVERIFY2(v->caption().contains("128-byte swizzle"), qPrintable(v->caption()));
    QCOMPARE(v->elementsPerCell(), int64_t{8});
    QCOMPARE(v->cellsPerRow(), int64_t{8});
    QTest::qWait(0);
    const QImage shot = v->grab().toImage();
    for (int64_t r = 0; r < 32; ++r)
      for (int64_t k = 0; k < 8; ++k) {
        // SWIZZLE_128B: shared chunk k of row r holds global chunk k ^ (r % 8) of row 32 + r
        const int64_t chunk = k ^ (r % 8);
        QCOMPARE(v->cellSource(r, k), std::make_pair(int32_t(32 + r), int32_t(chunk * 8)));
        QCOMPARE(v->cellText(r, k), QString::number(chunk));
        const QRectF rc = v->cellRect(r, k);
        const QPoint probe = (rc.topLeft() + QPointF(1.5, 1.5)).toPoint() * v->devicePixelRatio();
        QCOMPARE(shot.pixelColor(probe).rgb(), v->cellColor(r, k).rgb());
      }
    // the colours follow the source chunk: equal on a diagonal of the XOR pattern
    QCOMPARE(v->cellColor(1, 0), v->cellColor(0, 1));
    QVERIFY(v->cellColor(0, 0) != v->cellColor(0, 1));
  }
};

QTEST_MAIN(TstPipelineView)
#include "tst_pipeline_view.moc"
