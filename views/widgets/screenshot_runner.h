// `tirx-studio --screenshot out.png [FILE] [--dock NAME] [--line N] [--pick TEXT] [--hover L:C]
// [--diff OTHER] [--profile REPORT.json]`: open FILE, let the front end run, Compile & Verify when
// the engine has it, wait until every job has been delivered, optionally isolate one dock, render
// the window to a PNG and quit with 0 (1 when writing failed, 2 when the file could not be opened,
// 3 on a timeout, 4 when the isolated dock rendered empty: nothing of what it is for is on screen —
// see dockContent).
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

namespace tirx::views {

class MainWindow;

/// What the dock `name` of `window` shows, in a few words ("12 lines of text", "4096 cells"), or
/// an empty string when it shows nothing of what it is for: no script text in the editor, no
/// tabulated cells in the Layout dock, no CUDA/PTX/SASS text in Assembly, no checks or faults in
/// Results, no operand to pick in Tensor cores, no run or TMA image in Pipeline, no rows in
/// Problems, no comparison in Diff, no recording in Debugger.
QString dockContent(MainWindow& window, const QString& name);

class ScreenshotRunner : public QObject {
  Q_OBJECT
 public:
  ScreenshotRunner(MainWindow& window, QString outPath, QString file, QString dock,
                   QObject* parent = nullptr);
  /// Start; the application exits (QCoreApplication::exit) with the status above when done.
  void start();
  /// Seconds to wait for the engine before giving up (default 300).
  void setTimeoutSeconds(int s) { m_timeoutMs = s * 1000; }
  /// Select this 1-based script line before capturing (editor caret, assembly highlights).
  void setLine(int line) { m_line = line; }
  /// Pick this item of the Tensor cores dock (text contained in the item) before capturing; with
  /// the dock "pipeline", the Pipeline tab or TMA image whose title contains it; with the dock
  /// "assembly", the tab (cuda, ptx, sass, resources); with the dock
  /// "results", the plot tab ("grid": the output grid). With a shared tile picked and `--line`,
  /// the conflict-table row of that line is selected too (its warp-0 bank map drawn).
  void setPick(const QString& text) { m_pick = text; }
  /// Hover the editor at (1-based line, column) before capturing; an opcode's fragment picture
  /// is drawn into the shot where its popup stands.
  void setHover(int line, int col) { m_hoverLine = line, m_hoverCol = col; }
  /// After Compile & Verify, compare the file with this script or bundle in the Diff dock (A =
  /// `path`, B = the file) and wait for it; with the dock "diff", `--pick` names the section of
  /// the panes to show (script, cuda, ptx, sass).
  void setDiff(const QString& path) { m_diff = path; }
  /// After Compile & Verify, open this `tirx profile` REPORT.json in the Profile dock (the
  /// editor's heat gutter marks the file's lines); a report that cannot be read exits 2.
  void setProfile(const QString& path) { m_profile = path; }
  /// Compile only (Build > Compile), without running the check code: shots of kernels at
  /// benchmark sizes, which the simulator would run for minutes before stopping at its budget.
  void setCompileOnly(bool on) { m_compileOnly = on; }
  /// Open the find bar on this pattern before capturing (every match highlighted).
  void setFind(const QString& pattern) { m_find = pattern; }
  /// Put the caret at (1-based line, column) and open the completion list there; the list and
  /// the description beside it are drawn into the shot.
  void setComplete(int line, int col) { m_completeLine = line, m_completeCol = col; }

 private:
  void poll();
  void capture();
  /// Capture once every job has been delivered (a bank map computed after the selection).
  void captureWhenIdle();

  MainWindow& m_window;
  QString m_out, m_file, m_dock, m_find, m_diff, m_profile;
  bool m_diffRequested = false, m_profileOpened = false;
  int m_completeLine = 0, m_completeCol = 0;
  QTimer m_poll;
  int m_waitedMs = 0;
  int m_timeoutMs = 300000;
  int m_idleTicks = 0;
  bool m_compileRequested = false;
  bool m_compileOnly = false;
  int m_line = 0;
  QString m_pick;
  bool m_resultsPicked = false;
  int m_hoverLine = 0, m_hoverCol = 0;
};

}  // namespace tirx::views
