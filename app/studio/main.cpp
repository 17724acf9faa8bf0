// tirx-studio: parses the command line and starts the main window (or the screenshot mode).
//   tirx-studio [FILE]
//   tirx-studio --screenshot out.png [FILE] [--dock editor|layout|assembly|results] [--line N]
#include <QApplication>
#include <QCommandLineParser>

#include "views/main_window.h"
#include "views/screenshot_runner.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName("TIRx");
  QApplication::setApplicationName("TIRx Studio");
  QApplication::setApplicationVersion("0.1.0");

  QCommandLineParser parser;
  parser.setApplicationDescription("TIRx Studio: an IDE for TIRx CUDA tile kernels");
  parser.addHelpOption();
  parser.addVersionOption();
  QCommandLineOption shot("screenshot", "Render the window to PNG FILE and exit.", "png");
  QCommandLineOption dock("dock", "With --screenshot: show only this dock.", "name");
  parser.addOption(shot);
  QCommandLineOption line("line", "With --screenshot: select this script line first.", "n");
  parser.addOption(dock);
  parser.addOption(line);
  parser.addPositionalArgument("file", "A script to open.", "[FILE]");
  parser.process(app);
  const QString file = parser.positionalArguments().value(0);

  const bool screenshot = parser.isSet(shot);
  tirx::views::MainWindow window(nullptr, /*offerRecovery=*/!screenshot);
  if (screenshot) {
    window.resize(1600, 1000);
    window.show();
    tirx::views::ScreenshotRunner runner(window, parser.value(shot), file, parser.value(dock));
    runner.setLine(parser.value(line).toInt());
    runner.start();
    return app.exec();
  }
  window.show();
  if (!file.isEmpty()) window.openFile(file);
  return app.exec();
}
