// Studio benchmark: keystroke-to-squiggle latency. Types one character that breaks a name in an
// test kernel (tests/data/kernels) and measures until the error indicator is drawn, (a) with the
// editor's 150 ms debounce and (b) with the debounce at 0 (the work itself: front end on the worker
// + delivery + drawing). Also the worker-side front-end time alone. Each sample alternately breaks
// the name (`R` → `Rx`) and fixes it, so every keystroke changes whether the squiggle is there.
// Run: QT_QPA_PLATFORM=offscreen build-gui/bin/gui_bench_squiggle
#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QKeyEvent>
#include <algorithm>
#include <cstdio>

#include "views/engine/job_runner.h"
#include "views/engine/session.h"
#include "views/widgets/editor_widget.h"

using namespace tirx::views;

static double medianMs(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QFile f(QStringLiteral(TIRX_SOURCE_DIR) + "/tests/data/kernels/two_kernels.py");
  if (!f.open(QIODevice::ReadOnly)) return 2;
  const QString script = QString::fromUtf8(f.readAll());
  JobRunner runner;
  Session session(runner);
  EditorWidget editor(session);
  editor.resize(1000, 800);
  editor.show();
  session.loadText(script, QString());
  while (!session.facts()) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);

  // the use of `R` as the ld.shared destination (second kernel)
  const int line0 = [&] {
    for (int l = 0; l < editor.lines(); ++l)
      if (editor.text(l).contains("ld.shared.v4.b32")) return l;
    return -1;
  }();
  const int col = editor.text(line0).indexOf("R, sv");
  const int pos = editor.positionFromLineIndex(line0, col);
  for (int debounce : {150, 0}) {
    session.setDebounceMs(debounce);
    std::vector<double> samples, worker;
    for (int i = 0; i < 40; ++i) {
      bool broken = i % 2 == 0;  // alternate break and fix so each keystroke changes the state
      // break: type "x" after `R` ("Rx" is an unknown name); fix: Backspace after that "x".
      // (The caret must be after the inserted character for the fix: at col + 1 Backspace
      // deleted the `R` and left the unknown name "x", so the squiggle never went away.)
      editor.setCursorPosition(line0, broken ? col + 1 : col + 2);
      QElapsedTimer t;
      t.start();
      QKeyEvent press(QEvent::KeyPress, broken ? Qt::Key_X : Qt::Key_Backspace, Qt::NoModifier,
                      broken ? QStringLiteral("x") : QString());
      QCoreApplication::sendEvent(&editor, &press);
      while (editor.indicatorAt(EditorWidget::ErrorIndicator, pos) != broken) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
        if (t.elapsed() > 5000) {
          std::printf("timeout waiting for the squiggle (i=%d): line '%s'\n", i,
                      qPrintable(editor.text(line0)));
          for (const auto& d : session.facts()->frontEnd->diagnostics)
            std::printf("  %s %d:%d off %d len %d: %s\n", d.code.c_str(), d.span.line, d.span.col,
                        d.span.offset, d.span.length, d.message.c_str());
          std::printf("  pos %d, facts for current text: %d\n", pos,
                      session.facts()->source == editor.text().toStdString());
          return 1;
        }
      }
      samples.push_back(t.nsecsElapsed() / 1e6);
      worker.push_back(session.facts()->millis);
    }
    std::printf(
        "debounce %3d ms: keystroke → squiggle %7.2f ms median (max %.2f); worker front end %.3f "
        "ms median\n",
        debounce, medianMs(samples), *std::max_element(samples.begin(), samples.end()),
        medianMs(worker));
  }
  return 0;
}
