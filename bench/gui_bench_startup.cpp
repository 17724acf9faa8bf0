// Studio benchmark: cold start to an editable window. The parent starts this program again as a
// child process (`--child`), which creates the QApplication and the MainWindow, shows it, waits
// until the window is exposed and the editor accepts input, and prints "ready"; the parent
// measures from QProcess::start to that line (process creation, dynamic loading, Qt start-up and
// the window all included).
// Run: QT_QPA_PLATFORM=offscreen build-gui/bin/gui_bench_startup
#include <QApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QWindow>
#include <algorithm>
#include <cstdio>

#include "views/widgets/editor_widget.h"
#include "views/widgets/main_window.h"

int main(int argc, char** argv) {
  if (argc > 1 && QByteArray(argv[1]) == "--child") {
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    tirx::views::MainWindow w(nullptr, false);
    w.show();
    QElapsedTimer wait;
    wait.start();
    while (!(w.windowHandle() && w.windowHandle()->isExposed()) && wait.elapsed() < 10000)
      QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    w.editor()->setFocus();
    QCoreApplication::processEvents();
    std::printf("ready %d\n", w.editor()->isVisible() && !w.editor()->isReadOnly());
    std::fflush(stdout);
    return 0;
  }
  QCoreApplication app(argc, argv);
  std::vector<double> samples;
  for (int i = 0; i < 7; ++i) {
    QProcess p;
    QElapsedTimer t;
    t.start();
    p.start(QCoreApplication::applicationFilePath(), {"--child"});
    if (!p.waitForStarted()) return 2;
    QByteArray out;
    while (!out.contains("ready") && p.waitForReadyRead(10000)) out += p.readAllStandardOutput();
    samples.push_back(t.nsecsElapsed() / 1e6);
    p.waitForFinished();
    if (!out.contains("ready 1")) {
      std::printf("child did not become ready: %s\n", out.constData());
      return 1;
    }
  }
  std::sort(samples.begin(), samples.end());
  std::printf(
      "cold start to an editable window: median %.1f ms, min %.1f ms, max %.1f ms (%zu runs)\n",
      samples[samples.size() / 2], samples.front(), samples.back(), samples.size());
  return 0;
}
