// The studio at real sizes inside a 4 GiB address space (issue 22, decisions LIVE-1 and LIVE-3).
// This suite caps its own process with setrlimit(RLIMIT_AS, 4 GiB) in main(), before QApplication
// exists, so every allocation of the studio — the GUI thread, the job runner's workers, the engine,
// the simulator — counts against one limit. An allocation past it throws std::bad_alloc, which no
// engine path catches: a missing cap aborts this suite (or the job never delivers and the wait
// times out). The cap is on the test process rather than on a child `tirx-studio` under prlimit so
// that the test can click and type into the real widgets (the Layout dock's field, the editor) and
// read their state; Qt's offscreen platform maps no GPU or X memory, so the limit is about the
// studio's own allocations (the suite needs about 1 GiB here).
//
// Each test would fail without a cap: the 65536 × 65536 tensors and views of
// tests/data/bounded/huge_tensor.py (2^32 elements) tabulated whole need 2^32 owner entries (over
// 32 GiB) in the Layout dock and in the hover summaries; the typed S[(65536, 65536) : (65536, 1)]
// the same; seeded 16 GiB arguments of the huge kernel would be built by the simulator.
#include <sys/resource.h>

#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QStandardPaths>
#include <QtTest>

#include "studio_test_util.h"
#include "views/engine/job_runner.h"
#include "views/engine/session.h"
#include "views/widgets/editor_widget.h"
#include "views/widgets/layout_panel.h"
#include "views/widgets/main_window.h"
#include "views/widgets/tensor_core_panel.h"

using namespace tirx;
using namespace tirx::views;

namespace {

constexpr rlim_t kAddressSpace = rlim_t(4) << 30;
constexpr int kWaitMs = 120000;

/// The window's analysis of its current text is complete (both stages) and nothing is running.
bool settled(MainWindow& w) {
  auto f = w.session().facts();
  return f && f->detailed && f->source == w.session().text().toStdString() && w.runner().isIdle();
}

}  // namespace

class TstStudio4GiB : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    rlimit lim{};
    QCOMPARE(getrlimit(RLIMIT_AS, &lim), 0);
    QCOMPARE(lim.rlim_cur, kAddressSpace);  // main() set it
  }

  void hugeScriptOpensShowsEditsAndVerifies() {
    MainWindow w(nullptr, false);
    w.resize(1400, 900);
    w.show();
    for (const char* dock : {"layout", "tensorcores"})
      if (QDockWidget* d = w.dock(dock)) d->show(), d->raise();
    const QString text = readTestData("bounded/huge_tensor.py");
    w.session().loadText(text, TIRX_SOURCE_DIR "/tests/data/bounded/huge_tensor.py");
    QTRY_VERIFY_WITH_TIMEOUT(settled(w), kWaitMs);
    QVERIFY(w.session().facts()->frontEnd->ok());

    // shows: the Layout dock tabulates a region of the 4194304 × 8 × 32 × 4 view
    LayoutPanel* layout = w.layoutPanel();
    QSignalSpy ready(layout, &LayoutPanel::modelReady);
    QVERIFY(layout->showSymbol("Av"));
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() >= 1 && layout->model().bounded(), kWaitMs);
    QVERIFY2(layout->boundedText().contains("too large to tabulate: (4194304, 8, 32, 4)"),
             qPrintable(layout->boundedText()));
    QVERIFY(layout->model().cellCount() <= kMaxOwnershipEntries);
    // the hover of the huge tensor counts its bytes without a table
    EditorWidget* editor = w.editor();
    const int a = byteOffsetOf(text, "A: T.Tensor((65536");
    QVERIFY(a > 0);
    QVERIFY2(
        editor->hoverTextAt(a).contains("4294967296 elements · global memory, 17179869184 bytes"),
        qPrintable(editor->hoverTextAt(a)));

    // edits: break the huge kernel's view (an unknown name), see the error, fix it
    int line = -1;
    for (int l = 0; l < editor->lines() && line < 0; ++l)
      if (editor->text(l).contains("Bv = B.view(")) line = l;
    QVERIFY(line >= 0);
    const int col = editor->text(line).indexOf("B.view") + 1;  // after "B"
    const int pos = editor->positionFromLineIndex(line, col - 1);
    editor->setCursorPosition(line, col);
    QTest::keyClicks(editor, "x");
    QTRY_VERIFY_WITH_TIMEOUT(editor->indicatorAt(EditorWidget::ErrorIndicator, pos), kWaitMs);
    QVERIFY(!w.session().facts()->frontEnd->ok());
    QTest::keyClick(editor, Qt::Key_Backspace);
    QTRY_VERIFY_WITH_TIMEOUT(!editor->indicatorAt(EditorWidget::ErrorIndicator, pos), kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(settled(w), kWaitMs);
    QCOMPARE(w.session().text(), text);
    QVERIFY(w.session().facts()->frontEnd->ok());

    // verifies: the small kernel on the simulator (the huge one is never launched)
    w.session().setDevice("sim");
    QSignalSpy report(&w.session(), &Session::reportChanged);
    w.compileAndVerify();
    QTRY_VERIFY_WITH_TIMEOUT(w.session().report() && !w.session().batchRunning(), kWaitMs);
    const VerifyProducts& r = *w.session().report();
    QVERIFY2(r.engine.passed(), r.summary.c_str());
    QCOMPARE(int(r.engine.runs.size()), 1);
    QCOMPARE(r.engine.runs[0].kernel, std::string("small"));
  }

  void grownGemmStaysBounded() {
    // issue 22: typing "00" after "M = 4096" in the 4096³ GEMM grew the studio past 9 GB
    MainWindow w(nullptr, false);
    w.resize(1400, 900);
    w.show();
    for (const char* dock : {"layout", "tensorcores"})
      if (QDockWidget* d = w.dock(dock)) d->show(), d->raise();
    const QString path = TIRX_SOURCE_DIR "/bench/kernels/gemm_bf16_4096_ws.py";
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    w.session().loadText(QString::fromUtf8(f.readAll()), path);
    QTRY_VERIFY_WITH_TIMEOUT(settled(w), kWaitMs);
    QVERIFY(!w.session().facts()->fragments.empty());
    EditorWidget* editor = w.editor();
    int line = -1;
    for (int l = 0; l < editor->lines() && line < 0; ++l)
      if (editor->text(l).startsWith("M = 4096")) line = l;
    QVERIFY(line >= 0);
    editor->setCursorPosition(line, 8);
    QTest::keyClicks(editor, "00");
    QVERIFY(w.session().text().contains("\nM = 409600\n"));
    QTRY_VERIFY_WITH_TIMEOUT(settled(w), kWaitMs);
    QVERIFY(w.session().facts()->source.find("M = 409600") != std::string::npos);
  }

  void typedHugeLayoutShowsTheBoundedState() {
    MainWindow w(nullptr, false);
    w.resize(1400, 900);
    w.show();
    QDockWidget* dock = w.dock("layout");
    QVERIFY(dock);
    dock->show();
    dock->raise();
    LayoutPanel* panel = w.layoutPanel();
    QSignalSpy ready(panel, &LayoutPanel::modelReady);
    auto* field = panel->findChild<QLineEdit*>("typedLayout");
    QVERIFY(field && field->isVisible());
    field->setFocus();
    QTest::keyClicks(field, "S[(65536, 65536) : (65536, 1)]");
    QTest::keyClick(field, Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() >= 1 && panel->model().bounded(), kWaitMs);
    QVERIFY2(panel->boundedText().startsWith(
                 "too large to tabulate: (65536, 65536) is 4294967296 elements"),
             qPrintable(panel->boundedText()));
    QVERIFY(panel->findChild<QLabel*>("boundedState")->isVisible());
    QVERIFY(panel->model().cellCount() <= kMaxOwnershipEntries);
    // the window keeps working: its editor checks a script as usual afterwards
    w.session().loadText(readTestData("bounded/huge_tensor.py"), QString());
    QTRY_VERIFY_WITH_TIMEOUT(settled(w), kWaitMs);
  }
};

int main(int argc, char** argv) {
  // Before anything is allocated: the whole process, every thread included, lives in 4 GiB.
  rlimit lim{kAddressSpace, kAddressSpace};
  if (setrlimit(RLIMIT_AS, &lim) != 0) {
    std::perror("setrlimit(RLIMIT_AS)");
    return 1;
  }
  QApplication app(argc, argv);
  TstStudio4GiB test;
  return QTest::qExec(&test, argc, argv);
}

#include "tst_studio_4gib.moc"
