// Studio benchmark (issue 22): live diagnostics at real sizes. On the 8192³ warp-specialised GEMM
// (bench/kernels/gemm_bf16_8192_ws.py, or the file given as the first argument):
//  (1) the engine's check alone (checkScript, the call `tirx check` makes), median and worst;
//  (2) the studio's two stages of one text on the worker (decision LIVE-3): stage 1
//      (checkScriptFacts: that same check plus the opcode texts, what the diagnostics wait for) and
//      stage 2 (detailScriptFacts: hover summaries, fragment facts, descriptors, tile images,
//      computed after the diagnostics are shown);
//  (3) keystroke → diagnostic on screen in the whole window (every dock built, the Layout and
//      Tensor cores docks shown): a key breaks the name `STAGES` at its first use, the time runs
//      until the editor has painted the error indicator there (a synchronous repaint of the
//      editor once the indicator is set); the next sample's Backspace fixes it and the time runs
//      until the indicator is gone and painted. With the editor's 150 ms debounce. Medians of the
//      "appears" and "disappears" samples apart, and the worker's check time of each.
//  (4) the 4096³ GEMM (bench/kernels/gemm_bf16_4096_ws.py) opened in the same window, then "00"
//      typed after "M = 4096" (M = 409600: tensors of 1.7·10^9 elements): the time until the new
//      diagnostics are on screen, until the details are in, and the process's peak resident
//      memory (getrusage) before and after — issue 22 saw it grow past 9 GB in 15 s.
// Run: QT_QPA_PLATFORM=offscreen build/bin/gui_bench_live_check [FILE] [SAMPLES]
#include <sys/resource.h>

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QKeyEvent>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "core/sema/sema.h"
#include "views/engine/job_runner.h"
#include "views/engine/script_facts.h"
#include "views/engine/session.h"
#include "views/widgets/editor_widget.h"
#include "views/widgets/main_window.h"

using namespace tirx::views;

namespace {

QString readFile(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    std::fprintf(stderr, "cannot read %s\n", qPrintable(path));
    std::exit(2);
  }
  return QString::fromUtf8(f.readAll());
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}
double worst(const std::vector<double>& v) {
  return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

double peakRssMiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024.0;
}

template <class F>
bool waitFor(F done, int ms) {
  QElapsedTimer t;
  t.start();
  while (!done()) {
    if (t.elapsed() > ms) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
  }
  return true;
}

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  const QString path = argc > 1 && argv[1][0] ? QString::fromLocal8Bit(argv[1])
                                              : TIRX_SOURCE_DIR
                           "/bench/kernels/gemm_bf16_8192_ws.py";
  const int samples = argc > 2 ? std::max(2, std::atoi(argv[2])) : 20;
  const QString script = readFile(path);
  const std::string source = script.toStdString();

  // (1) the engine's check, as `tirx check` runs it
  std::vector<double> engine, stage1, stage2;
  for (int i = 0; i < samples; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const tirx::FrontEndResult fe = tirx::checkScript(source, "gemm.py");
    engine.push_back(msSince(t0));
    if (!fe.ok()) {
      std::printf("the script does not check: %s\n", fe.diagnostics.front().message.c_str());
      return 1;
    }
  }
  // (2) the studio's two stages of one text on the worker
  for (int i = 0; i < samples; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    const ScriptFacts checked = checkScriptFacts(source, "gemm.py", 90);
    stage1.push_back(msSince(t0));
    t0 = std::chrono::steady_clock::now();
    const ScriptFacts detailed = detailScriptFacts(checked);
    stage2.push_back(msSince(t0));
    if (!detailed.detailed || detailed.fragments.empty()) {
      std::printf("stage 2 gave no fragment facts\n");
      return 1;
    }
  }
  std::printf("engine check (checkScript): %.1f ms median, %.1f ms worst over %d\n", median(engine),
              worst(engine), samples);
  std::printf("studio stage 1 (checkScriptFacts, the diagnostics): %.1f ms median, %.1f ms worst\n",
              median(stage1), worst(stage1));
  std::printf("studio stage 2 (detailScriptFacts, after them): %.1f ms median, %.1f ms worst\n",
              median(stage2), worst(stage2));
  std::printf("peak RSS after (1)+(2): %.0f MiB\n", peakRssMiB());

  // (3) keystroke → diagnostic on screen, in the whole window
  MainWindow w(nullptr, false);
  w.resize(1400, 900);
  w.show();
  for (const char* dock : {"layout", "tensorcores"})
    if (QDockWidget* d = w.dock(dock)) d->show(), d->raise();
  w.session().loadText(script, path);
  if (!waitFor([&] { return w.session().facts() && w.runner().isIdle(); }, 120000)) {
    std::printf("the first analysis did not arrive in 120 s\n");
    return 1;
  }
  EditorWidget* editor = w.editor();
  int line = -1, col = -1;
  for (int l = 0; l < editor->lines() && line < 0; ++l) {
    const QString t = editor->text(l);
    if (t.startsWith("SW_A")) line = l, col = t.indexOf("STAGES") + 6;  // after the name
  }
  if (line < 0) {
    std::printf("no `SW_A = …STAGES…` line in %s\n", qPrintable(path));
    return 1;
  }
  const int pos = editor->positionFromLineIndex(line, col - 1);
  std::vector<double> appear, disappear, worker;
  for (int i = 0; i < samples; ++i) {
    const bool broken = i % 2 == 0;  // "STAGESx" is an unknown name; Backspace fixes it
    editor->setCursorPosition(line, broken ? col : col + 1);
    QElapsedTimer t;
    t.start();
    QKeyEvent press(QEvent::KeyPress, broken ? Qt::Key_X : Qt::Key_Backspace, Qt::NoModifier,
                    broken ? QStringLiteral("x") : QString());
    QCoreApplication::sendEvent(editor, &press);
    if (!waitFor([&] { return editor->indicatorAt(EditorWidget::ErrorIndicator, pos) == broken; },
                 60000)) {
      std::printf("sample %d: the diagnostic did not change in 60 s\n", i);
      return 1;
    }
    editor->viewport()->repaint();  // painted: on screen
    (broken ? appear : disappear).push_back(t.nsecsElapsed() / 1e6);
    worker.push_back(w.session().facts()->checkMillis);
    // the next keystroke comes while the details of this text are being computed, as in typing
  }
  std::printf(
      "keystroke → diagnostic on screen (debounce 150 ms): appears %.1f ms median (worst %.1f), "
      "disappears %.1f ms median (worst %.1f), over %d samples; the worker's checkScript %.1f ms "
      "median\n",
      median(appear), worst(appear), median(disappear), worst(disappear), samples, median(worker));

  // (4) the 4096³ GEMM, M = 4096 → M = 409600: tensors of 1.7·10^9 elements
  const QString path4096 = TIRX_SOURCE_DIR "/bench/kernels/gemm_bf16_4096_ws.py";
  w.session().loadText(readFile(path4096), path4096);
  if (!waitFor(
          [&] {
            return w.session().facts() && w.session().facts()->detailed && w.runner().isIdle();
          },
          120000)) {
    std::printf("the 4096 GEMM was not analysed in 120 s\n");
    return 1;
  }
  const double rssBefore = peakRssMiB();
  int mLine = -1;
  for (int l = 0; l < editor->lines() && mLine < 0; ++l)
    if (editor->text(l).startsWith("M = 4096")) mLine = l;
  if (mLine < 0) {
    std::printf("no `M = 4096` line in %s\n", qPrintable(path4096));
    return 1;
  }
  editor->setCursorPosition(mLine, int(strlen("M = 4096")));
  QElapsedTimer t;
  t.start();
  for (const char c : {'0', '0'}) {
    QKeyEvent press(QEvent::KeyPress, Qt::Key_0, Qt::NoModifier, QString(QChar(c)));
    QCoreApplication::sendEvent(editor, &press);
  }
  const std::string grown = editor->text().toStdString();
  double shownMs = -1;
  const bool ok = waitFor(
      [&] {
        auto f = w.session().facts();
        if (!f || f->source != grown) return false;
        if (shownMs < 0) shownMs = t.nsecsElapsed() / 1e6;
        return f->detailed && w.runner().isIdle();
      },
      120000);
  std::printf(
      "4096 GEMM, typing \"00\" after \"M = 4096\": diagnostics shown after %.0f ms, details in "
      "after %.0f ms (%s); peak RSS %.0f MiB before, %.0f MiB after\n",
      shownMs, t.nsecsElapsed() / 1e6, ok ? "done" : "NOT done in 120 s", rssBefore, peakRssMiB());
  return ok ? 0 : 1;
}
