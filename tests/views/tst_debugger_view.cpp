// The Debugger dock and the editor's breakpoint margin: a click in the margin sets a breakpoint,
// Start records the bundled 64×64×64 GEMM on the worker, Continue stops at the mma.sync line (the
// editor highlights it), and the grid model holds the accumulator's values — checked against C =
// A·Bᵀ recomputed here through the fragment map in the example's comment (lane, register → row,
// column) — with the colours of the value scale; stepping back shows the mov's zeros, then the
// unwritten registers; run to cursor, another tile, a bad breakpoint, hover text, and the NaN /
// inf colours of a sqrt of negative and infinite inputs. The launch row: on a script with two
// kernels (the second launched twice) the kernel picker lists the front end's kernels, and picking
// shift / launch 1 records that launch (its line and its values, 2x + 1, differ from launch 0's);
// a small trace limit shows W0844 in the dock (and keeps it while stepping); a later first step
// records from there.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QtTest>

#include "views/engine/job_runner.h"
#include "views/engine/session.h"
#include "views/widgets/application_theme.h"
#include "views/widgets/debugger_panel.h"
#include "views/widgets/editor_widget.h"
#include "views/widgets/layout_canvas.h"

using namespace tirx;
using namespace tirx::views;

namespace {

constexpr int kWaitMs = 60000;

QString readSource(const QString& rel) {
  QFile f(QStringLiteral(TIRX_SOURCE_DIR "/") + rel);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(f.fileName()));
  return QString::fromUtf8(f.readAll());
}

/// gemm_ldmatrix_swizzled.py with periodic inputs in its check code instead of the example's
/// random ones, so that C can be recomputed here (cAt).
QString periodicGemm() {
  QString text = readSource("resources/examples/gemm_ldmatrix_swizzled.py");
  const QString a = "a = (torch.floor(torch.rand(4096, device=\"cuda\") * 7) - 3)";
  const QString b = "b = (torch.floor(torch.rand(4096, device=\"cuda\") * 5) - 2)";
  if (!text.contains(a) || !text.contains(b)) qFatal("gemm_ldmatrix_swizzled.py's inputs changed");
  text.replace(a, "a = ((torch.arange(4096, device=\"cuda\") % 7) - 3)");
  text.replace(b, "b = ((torch.arange(4096, device=\"cuda\") % 5) - 2)");
  return text;
}

/// C[i, j] of periodicGemm(): a = (arange(4096) % 7) - 3, b = (arange(4096) % 5) - 2.
double cAt(int64_t i, int64_t j) {
  double s = 0;
  for (int64_t k = 0; k < 64; ++k) s += double((i * 64 + k) % 7 - 3) * double((j * 64 + k) % 5 - 2);
  return s;
}

/// "registers 4n + 2h + q of lane l in warp w: C[16w + l // 4 + 8h, 8n + 2 (l % 4) + q]".
double expectedAcc(const CellValue& v) {
  const int64_t w = v.thread / 32, l = v.thread % 32, n = v.slot / 4, h = v.slot / 2 % 2,
                q = v.slot % 2;
  return cAt(16 * w + l / 4 + 8 * h, 8 * n + 2 * (l % 4) + q);
}

/// Waits for the panel's next delivered view after `action`.
/// A mouse move over `w` at `pos`, delivered to `w` itself (the test's windows overlap).
void hover(QWidget* w, QPoint pos) {
  QMouseEvent e(QEvent::MouseMove, pos, w->mapToGlobal(pos), Qt::NoButton, Qt::NoButton,
                Qt::NoModifier);
  QApplication::sendEvent(w, &e);
}

template <class F>
bool deliver(DebuggerPanel& panel, F action) {
  QSignalSpy spy(&panel, &DebuggerPanel::viewReady);
  action();
  return spy.wait(kWaitMs);
}

}  // namespace

class TstDebuggerView : public QObject {
  Q_OBJECT
 private slots:
  void gemmBreakpointStepAndPaint();
  void nanAndInfColours();
  void kernelAndLaunchPicked();
  void traceLimitWarning();
};

void TstDebuggerView::gemmBreakpointStepAndPaint() {
  JobRunner runner;
  Session session(runner);
  EditorWidget editor(session);
  editor.resize(900, 1400);
  editor.show();
  DebuggerPanel panel(session);
  panel.resize(900, 900);
  panel.show();
  session.loadText(periodicGemm(), "gemm_ldmatrix_swizzled.py");
  QVERIFY(QTest::qWaitForWindowExposed(&editor));
  QVERIFY(QTest::qWaitForWindowExposed(&panel));

  // Click the debugger margin beside line 52 (the mma.sync): a breakpoint.
  const int mmaLine = 52;
  editor.ensureLineVisible(mmaLine - 1);
  const long pos = editor.positionFromLineIndex(mmaLine - 1, 0);
  const int y = int(editor.SendScintilla(QsciScintilla::SCI_POINTYFROMPOSITION, 0UL, pos)) +
                editor.textHeight(mmaLine - 1) / 2;
  const int x = int(editor.SendScintilla(QsciScintilla::SCI_GETMARGINWIDTHN, 0UL)) +
                int(editor.SendScintilla(QsciScintilla::SCI_GETMARGINWIDTHN, 1UL)) + 8;
  QTest::mouseClick(editor.viewport(), Qt::LeftButton, {}, QPoint(x, y));
  QCOMPARE(session.breakpoints(), QList<int>{mmaLine});
  QCOMPARE(editor.markedLines(EditorWidget::BreakpointMarker), QList<int>{mmaLine});

  QVERIFY(deliver(panel, [&] { panel.start(); }));
  QVERIFY(panel.active());
  QCOMPARE(panel.view().buffer, QString("acc"));  // the register tile stored to the checked C
  QCOMPARE(panel.view().stop.index, int64_t{0});

  // Continue: the breakpoint at the mma.sync; the editor marks the line.
  QVERIFY(deliver(panel, [&] { panel.continueForward(); }));
  QVERIFY(panel.view().hit);
  QVERIFY2(panel.statusText().startsWith(
               "gemm_64 launch 0 · step 7 of 9 · collective · after line 52 · mma.sync"),
           qPrintable(panel.statusText()));
  QCOMPARE(session.debugLine(), mmaLine);
  QCOMPARE(editor.markedLines(EditorWidget::DebugLineMarker), QList<int>{mmaLine});
  const LayoutGridModel& m = panel.model();
  QCOMPARE(m.colouring(), LayoutColouring::Values);
  QCOMPARE(m.cellCount(), int64_t{4096});
  QCOMPARE(m.values().size(), size_t{4096});
  double scale = 0;
  for (int64_t f = 0; f < m.cellCount(); ++f) {
    const CellValue& v = m.values()[size_t(f)];
    QVERIFY(!v.uninit && !v.nan && !v.inf);
    QCOMPARE(v.value, expectedAcc(v));
    QVERIFY(v.hasReference);
    QCOMPARE(v.absErr, 0.0);
    scale = std::max(scale, std::fabs(v.value));
  }
  QCOMPARE(m.valueScale(), scale);
  for (int64_t f = 0; f < m.cellCount(); f += 97)
    QCOMPARE(m.colours()[size_t(f)],
             LayoutGridModel::valueColour(m.values()[size_t(f)].value, scale));
  QVERIFY(panel.canvas()->legendText().contains("colour: value"));

  // Hover a cell: its number, reference and owner.
  LayoutCanvas* canvas = panel.canvas();
  canvas->setCellSize(48);
  canvas->ensureVisible(0);
  hover(canvas, canvas->cellRect(0).center().toPoint());
  QTRY_VERIFY2(panel.infoText().startsWith("element (0, 0, 0, 0, 0)"),
               qPrintable(panel.infoText()));
  const QString first = QString::fromStdString(valueText(m.values()[0]));
  QVERIFY2(panel.infoText().contains("value " + first + ", reference " + first + ", error 0"),
           qPrintable(panel.infoText()));
  QVERIFY(panel.infoText().contains("read from thread 0 (w0 l0), register slot 0"));
  QCOMPARE(QString::fromStdString(m.cellLabel(0)), first);

  // Back: the mov's zeros (white), then the registers before the mov (unwritten, grey).
  QVERIFY(deliver(panel, [&] { panel.stepBack(); }));
  QCOMPARE(panel.view().stop.index, int64_t{6});
  QCOMPARE(panel.view().stop.op, std::string("mov.b32"));
  for (int64_t f = 0; f < m.cellCount(); ++f) QCOMPARE(m.values()[size_t(f)].value, 0.0);
  QCOMPARE(m.colours()[0], 0xffffffffu);
  QVERIFY(deliver(panel, [&] { panel.stepBack(); }));
  QCOMPARE(panel.view().stop.index, int64_t{5});
  for (int64_t f = 0; f < m.cellCount(); ++f) QVERIFY(m.values()[size_t(f)].uninit);
  QCOMPARE(m.colours()[0], LayoutGridModel::kUninitColour);
  QCOMPARE(QString::fromStdString(m.cellLabel(0)), QString("uninit"));
  // Forward again: the same values as before.
  QVERIFY(deliver(panel, [&] { panel.stepForward(); }));
  QVERIFY(deliver(panel, [&] { panel.stepForward(); }));
  QCOMPARE(panel.view().stop.index, int64_t{7});
  QCOMPARE(m.values()[100].value, expectedAcc(m.values()[100]));

  // Run to cursor (the store, line 56); then the output tile C, a memory tile.
  session.selectLine(56);
  QVERIFY(deliver(panel, [&] { panel.runToCursor(); }));
  QCOMPARE(panel.view().stop.index, int64_t{8});
  QCOMPARE(session.debugLine(), 56);
  QVERIFY(deliver(panel, [&] { panel.showBuffer("C"); }));
  QVERIFY(m.isMemory());
  for (int64_t f = 0; f < m.cellCount(); f += 61)
    QCOMPARE(m.values()[size_t(f)].value, cAt(f / 64, f % 64));
  QVERIFY(panel.view().summary.contains("max error 0 against the checked reference"));

  // A breakpoint on a line without a tile op: the dock says so.
  QVERIFY(deliver(panel, [&] { session.toggleBreakpoint(40); }));
  QVERIFY2(panel.view().message.contains("E0841 line 40 holds no tile op"),
           qPrintable(panel.view().message));

  if (qEnvironmentVariableIsSet("TIRX_DEBUGGER_SHOT")) {  // docs/screenshots/debugger*.png
    const QString dir = qEnvironmentVariable("TIRX_DEBUGGER_SHOT");
    session.setBreakpoints({mmaLine});
    panel.resize(1280, 760);                 // the legend line whole
    for (const bool dark : {false, true}) {  // debugger*.png and debugger*-dark.png
      const QString suffix = dark ? "-dark.png" : ".png";
      applyApplicationTheme(dark);
      editor.applyTheme(dark);
      if (dark) QVERIFY(deliver(panel, [&] { panel.showBuffer("C"); }));  // back from acc
      QVERIFY(deliver(panel, [&] { panel.goToStep(8); }));
      canvas->fitToView();
      hover(canvas, canvas->cellRect(5 * 64 + 7).center().toPoint());
      QTest::qWait(100);  // the info label's new height
      QVERIFY(panel.grab().save(dir + "/debugger_output" + suffix));
      QVERIFY(deliver(panel, [&] { panel.showBuffer("acc"); }));
      QVERIFY(deliver(panel, [&] { panel.goToStep(7); }));
      canvas->fitToView();
      canvas->setCellSize(46, canvas->cellRect(0).topLeft());
      hover(canvas, canvas->cellRect(9).center().toPoint());
      QTest::qWait(100);
      QVERIFY(panel.grab().save(dir + "/debugger" + suffix));
      QCOMPARE(editor.markedLines(EditorWidget::DebugLineMarker), QList<int>{mmaLine});
      const int top = int(editor.SendScintilla(QsciScintilla::SCI_POINTYFROMPOSITION, 0UL,
                                               editor.positionFromLineIndex(mmaLine - 13, 0)));
      QVERIFY(editor.grab(QRect(0, top, editor.width(), 16 * editor.textHeight(0)))
                  .save(dir + "/debugger_editor" + suffix));
    }
    applyApplicationTheme(false);
    editor.applyTheme(false);
  }
}

void TstDebuggerView::nanAndInfColours() {
  JobRunner runner;
  Session session(runner);
  DebuggerPanel panel(session);
  panel.resize(600, 500);
  session.loadText(readSource("tests/data/debug/sqrt_nan.py"), "sqrt_nan.py");
  QVERIFY(deliver(panel, [&] { panel.start(); }));
  QCOMPARE(panel.view().buffer, QString("a"));
  panel.setWatchCondition("nan(a)");
  QVERIFY(deliver(panel, [&] { panel.continueForward(); }));
  QCOMPARE(panel.view().stop.op, std::string("sqrt.rn.f32"));
  const LayoutGridModel& m = panel.model();
  QVERIFY(m.values()[1].nan);
  QCOMPARE(m.colours()[1], LayoutGridModel::kNanColour);
  QVERIFY(m.values()[2].inf);
  QCOMPARE(m.colours()[2], LayoutGridModel::kInfColour);
  QCOMPARE(QString::fromStdString(m.cellLabel(1)), QString("nan"));
  QCOMPARE(QString::fromStdString(m.cellLabel(2)), QString("inf"));
  QCOMPARE(m.values()[3].value, 3.0);
  QCOMPARE(m.valueScale(), 3.0);  // finite values only
  QVERIFY(panel.view().summary.contains("1 NaN · 1 inf"));
}

void TstDebuggerView::kernelAndLaunchPicked() {
  JobRunner runner;
  Session session(runner);
  DebuggerPanel panel(session);
  panel.resize(900, 600);
  panel.show();
  session.loadText(readSource("tests/data/debug/two_kernels.py"), "two_kernels.py");
  // The picker lists the kernels the front end found: first-launched, scale, shift.
  QTRY_COMPARE_WITH_TIMEOUT(panel.kernelChoices(), (QStringList{"", "scale", "shift"}), kWaitMs);
  auto* kernel = panel.findChild<QComboBox*>("kernel");
  auto* launch = panel.findChild<QSpinBox*>("launch");
  QVERIFY(kernel && launch);
  QCOMPARE(kernel->itemText(2), QString("shift"));

  // Default: the first launched kernel, scale.
  QVERIFY(deliver(panel, [&] { panel.start(); }));
  QCOMPARE(panel.view().kernel, QString("scale"));
  QCOMPARE(panel.view().buffer, QString("a"));

  // shift, its second launch (input: scale's output 2x): stopped at its fma, b = 2x + 1.
  // (a breakpoint set while debugging refreshes the stop: wait for that answer first)
  QVERIFY(deliver(panel, [&] { session.setBreakpoints({20}); }));
  kernel->setCurrentIndex(2);
  launch->setValue(1);
  QVERIFY(deliver(panel, [&] { panel.start(); }));
  QCOMPARE(panel.view().kernel, QString("shift"));
  QCOMPARE(panel.view().launch, 1);
  QCOMPARE(panel.view().buffer, QString("b"));
  QVERIFY(deliver(panel, [&] { panel.continueForward(); }));
  QVERIFY(panel.view().hit);
  QCOMPARE(panel.view().stop.span.line, 20);
  QCOMPARE(panel.view().stop.op, std::string("fma.rn.f32"));
  QVERIFY2(panel.statusText().startsWith("shift launch 1 · step 1 of 3 · tile-op · after line 20"),
           qPrintable(panel.statusText()));
  QCOMPARE(session.debugLine(), 20);
  const LayoutGridModel& m = panel.model();
  QCOMPARE(m.cellCount(), int64_t{4});
  for (int i = 0; i < 4; ++i) {
    QCOMPARE(m.values()[size_t(i)].value, 2.0 * (i + 1) + 1);
    QCOMPARE(m.values()[size_t(i)].absErr, 0.0);  // against the third check's reference
  }
  // Its first launch (input x): b = x + 1.
  launch->setValue(0);
  QVERIFY(deliver(panel, [&] { panel.start(); }));
  QVERIFY(deliver(panel, [&] { panel.continueForward(); }));
  QCOMPARE(panel.view().stop.span.line, 20);
  for (int i = 0; i < 4; ++i) QCOMPARE(m.values()[size_t(i)].value, double(i + 1) + 1);
  // A launch the script never makes: E0843 in the dock, nothing to step.
  launch->setValue(2);
  QVERIFY(deliver(panel, [&] { panel.start(); }));
  QVERIFY(!panel.active());
  QVERIFY2(panel.view().message.contains("E0843 the script never ran kernel 'shift' 3 times"),
           qPrintable(panel.view().message));
}

void TstDebuggerView::traceLimitWarning() {
  JobRunner runner;
  Session session(runner);
  DebuggerPanel panel(session);
  panel.resize(900, 600);
  panel.show();
  session.loadText(readSource("resources/examples/gemm_ldmatrix_swizzled.py"),
                   "gemm_ldmatrix_swizzled.py");
  auto* limit = panel.findChild<QDoubleSpinBox*>("traceMib");
  QVERIFY(limit);
  QCOMPARE(limit->value(), 256.0);
  limit->setValue(0.2);  // the base image and one step
  QVERIFY(deliver(panel, [&] { panel.start(); }));
  QVERIFY(panel.active());
  QVERIFY(panel.view().truncated);
  QCOMPARE(panel.view().last, int64_t{1});
  QVERIFY2(panel.view().message.contains("W0844 the debug trace reached its limit of 0.2 MiB at "
                                         "step 1 of 9"),
           qPrintable(panel.view().message));
  // Stepping keeps the warning in the dock; the step stays within the recording.
  QVERIFY(deliver(panel, [&] { panel.stepForward(); }));
  QCOMPARE(panel.view().stop.index, int64_t{1});
  QVERIFY(panel.view().message.contains("W0844"));
  QVERIFY(deliver(panel, [&] { panel.stepForward(); }));
  QCOMPARE(panel.view().stop.index, int64_t{1});
  // Record from step 5: the window starts there, at the first ldmatrix of B (line 48).
  panel.findChild<QSpinBox*>("firstStep")->setValue(5);
  limit->setValue(256);
  QVERIFY(deliver(panel, [&] { panel.start(); }));
  QCOMPARE(panel.view().first, int64_t{5});
  QCOMPARE(panel.view().stop.index, int64_t{5});
  QCOMPARE(panel.view().stop.span.line, 48);
  QVERIFY(!panel.view().truncated);
  QVERIFY(!panel.view().message.contains("W0844"));
}

QTEST_MAIN(TstDebuggerView)
#include "tst_debugger_view.moc"
