// tirx-studio: parses the command line and starts the main window (or the screenshot mode).
//   tirx-studio [FILE]
//   tirx-studio --screenshot out.png [FILE]
//               [--dock editor|layout|assembly|results|problems|tensorcores|pipeline|diff]
//               [--diff OTHER] [--profile REPORT.json]
//               [--line N] [--theme light|dark] [--arch sm_N] [--pick TEXT] [--hover LINE:COL]
//               [--find TEXT] [--complete LINE:COL]
#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <cstdio>

#include "views/widgets/main_window.h"
#include "views/widgets/screenshot_runner.h"

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
  QCommandLineOption theme("theme", "With --screenshot: light or dark (not saved).", "name");
  QCommandLineOption arch("arch", "Target architecture, e.g. sm_100.", "sm");
  parser.addOption(dock);
  parser.addOption(line);
  parser.addOption(theme);
  parser.addOption(arch);
  QCommandLineOption pick(
      "pick", "With --screenshot: pick this Tensor cores item (text it contains).", "text");
  QCommandLineOption hover("hover", "With --screenshot: hover the editor at LINE:COL first.",
                           "line:col");
  QCommandLineOption find("find", "With --screenshot: open the find bar on this pattern.", "text");
  QCommandLineOption complete(
      "complete", "With --screenshot: open the completion list at LINE:COL.", "line:col");
  QCommandLineOption diffWith(
      "diff", "With --screenshot: compare FILE with this script or bundle in the Diff dock.",
      "path");
  parser.addOption(pick);
  parser.addOption(hover);
  parser.addOption(find);
  parser.addOption(complete);
  parser.addOption(diffWith);
  QCommandLineOption profile(
      "profile", "With --screenshot: open this tirx profile REPORT.json in the Profile dock.",
      "path");
  parser.addOption(profile);
  QCommandLineOption compileOnly(
      "compile-only", "With --screenshot: compile, do not run the check code (benchmark sizes).");
  parser.addOption(compileOnly);
  parser.addPositionalArgument("file", "A script to open.", "[FILE]");
  parser.process(app);
  const QString file = parser.positionalArguments().value(0);

  const bool screenshot = parser.isSet(shot);
  tirx::views::MainWindow window(nullptr, /*offerRecovery=*/!screenshot);
  if (parser.isSet(arch)) {
    const int index = window.archPicker()->findText(parser.value(arch));
    if (index < 0) {
      std::fprintf(stderr, "tirx-studio: unknown --arch %s\n", qPrintable(parser.value(arch)));
      return 2;
    }
    window.archPicker()->setCurrentIndex(index);
  }
  if (screenshot && parser.isSet(theme)) {
    window.setPersistTheme(false);
    window.setDarkTheme(parser.value(theme) == "dark");
  }
  if (screenshot) {
    window.resize(1600, 1000);
    window.show();
    tirx::views::ScreenshotRunner runner(window, parser.value(shot), file, parser.value(dock));
    runner.setLine(parser.value(line).toInt());
    runner.setPick(parser.value(pick));
    const QStringList at = parser.value(hover).split(':');
    if (at.size() == 2) runner.setHover(at[0].toInt(), at[1].toInt());
    runner.setFind(parser.value(find));
    runner.setDiff(parser.value(diffWith));
    runner.setProfile(parser.value(profile));
    runner.setCompileOnly(parser.isSet(compileOnly));
    const QStringList completeAt = parser.value(complete).split(':');
    if (completeAt.size() == 2) runner.setComplete(completeAt[0].toInt(), completeAt[1].toInt());
    runner.start();
    return app.exec();
  }
  window.show();
  if (!file.isEmpty()) window.openFile(file);
  return app.exec();
}
