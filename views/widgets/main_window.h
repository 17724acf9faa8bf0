// The studio's main window: the docks (editor, layout, assembly, tensor cores, results, pipeline,
// diff) around one Session, menus and a toolbar that follow desktop conventions (New/Open/Save/Save
// As/recent, Examples, device picker, themes, Compile & Verify on Ctrl+Return), the dock
// arrangement and preferences in QSettings, autosave to a recovery file and the offer to recover
// after a crash.
#pragma once

#include <QMainWindow>
#include <QPointer>

class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QTimer;
class QToolBar;

namespace tirx::views {

struct OpenedBundle;
class AssemblyView;
class AutosaveManager;
class DiffView;
class EditorPane;
class ProfileView;
class EditorWidget;
class JobRunner;
class LayoutPanel;
class PipelinePanel;
class DebuggerPanel;
class ProblemsPanel;
class ResultsView;
class Session;
class TensorCorePanel;
class TuneView;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  /// `offerRecovery` false skips the crash-recovery prompt (tests, screenshots).
  explicit MainWindow(QWidget* parent = nullptr, bool offerRecovery = true);
  ~MainWindow() override;

  Session& session() { return *m_session; }
  JobRunner& runner() { return *m_runner; }
  EditorWidget* editor() const { return m_editor; }
  ProfileView* profileView() const { return m_profile; }
  /// Opens a saved `tirx profile` summary (REPORT.json) in the Profile dock and the editor's
  /// heat gutter; false (and the reason in the status bar) when it cannot be read.
  bool openProfile(const QString& path);
  /// The Editor dock's content: the editor, its find/replace and go-to-line bars.
  EditorPane* editorPane() const { return m_editorPane; }
  ProblemsPanel* problemsPanel() const { return m_problems; }
  LayoutPanel* layoutPanel() const { return m_layout; }
  AssemblyView* assemblyView() const { return m_assembly; }
  ResultsView* resultsView() const { return m_results; }
  TensorCorePanel* tensorCorePanel() const { return m_tensorCores; }
  PipelinePanel* pipelinePanel() const { return m_pipeline; }
  DiffView* diffView() const { return m_diff; }
  DebuggerPanel* debuggerPanel() const { return m_debugger; }
  TuneView* tuneView() const { return m_tune; }
  /// The dock called "editor", "layout", "assembly", "results", "tensorcores", "pipeline",
  /// "problems", "diff", "debugger" or "tune" (null otherwise).
  QDockWidget* dock(const QString& name) const;
  /// Show only that dock (the others hidden) — for screenshots of one dock.
  bool isolateDock(const QString& name);

  /// Open a file into the session; false (and a message) when it cannot be read.
  bool openFile(const QString& path);
  /// Save to the current path (Save As when there is none). False when cancelled or failed.
  bool save();
  bool saveAs();
  bool saveTo(const QString& path);
  void newFile();
  /// File > Examples: open the embedded example (":/examples/NAME.py") as a read-only template
  /// under its real name; Save As makes the user's copy. False when cancelled or unreadable.
  bool openExample(const QString& resourcePath);
  AutosaveManager* autosave() const { return m_autosave; }
  void compileAndVerify();
  /// Stop the running compile/verify (the Stop button and Esc).
  void stopRun();
  void setDarkTheme(bool dark);
  /// Whether setDarkTheme() saves the choice (off for --screenshot --theme).
  void setPersistTheme(bool persist) { m_persistTheme = persist; }
  /// The Stop action (enabled while a batch job runs) and the progress bar shown for runs longer
  /// than half a second (for tests).
  QAction* stopAction() const { return m_stop; }
  QProgressBar* progressBar() const { return m_progress; }
  QComboBox* archPicker() const { return m_arch; }
  QComboBox* devicePicker() const { return m_devices; }
  QComboBox* sanitizePicker() const { return m_sanitize; }

  /// File > Export Bundle: verify on the current device with every launch recorded (on the batch
  /// lane) and write the bundle to `path` (QSaveFile); bundleExported() says how it went.
  void exportBundleTo(const QString& path);
  /// File > Open Bundle: read the bundle on a worker and show it read-only in a NEW window (this
  /// window's document and unsaved edits stay as they are); bundleOpened() gives that window, or
  /// null with the reason.
  void openBundle(const QString& path);
  /// Fill this window with an opened bundle: the script read-only, the recorded docks.
  void showBundle(const QString& path, const OpenedBundle& bundle);
  bool isBundleView() const { return m_bundleView; }
  /// Refill the device picker (simulator, GPUs, the remote hosts of the settings).
  void fillDevices();

 signals:
  void bundleExported(const QString& path, bool ok, const QString& message);
  void bundleOpened(MainWindow* window, const QString& message);

 protected:
  void closeEvent(QCloseEvent* e) override;

 private:
  void createDocks();
  /// The Tune dock (tabbed with Diff at the bottom), its editor hooked up for Apply.
  void createTuneDock(QDockWidget* beside);
  void createActions();
  void createPickers(QToolBar* tb);
  void createExamplesMenu(QMenu* menu);
  /// File > Open Profile… (kept out of createActions).
  void createProfileActions();
  void offerRecoveryOfOrphan();
  void rebuildRecentMenu();
  void addRecent(const QString& path);
  bool maybeSave();
  void updateTitle();
  void onBatchBusy(bool busy);
  void editRemoteHosts();
  void updateStaleTitles();

  JobRunner* m_runner = nullptr;
  Session* m_session = nullptr;
  AutosaveManager* m_autosave = nullptr;
  EditorWidget* m_editor = nullptr;
  EditorPane* m_editorPane = nullptr;
  ProblemsPanel* m_problems = nullptr;
  LayoutPanel* m_layout = nullptr;
  AssemblyView* m_assembly = nullptr;
  ResultsView* m_results = nullptr;
  TensorCorePanel* m_tensorCores = nullptr;
  PipelinePanel* m_pipeline = nullptr;
  DiffView* m_diff = nullptr;
  DebuggerPanel* m_debugger = nullptr;
  TuneView* m_tune = nullptr;
  ProfileView* m_profile = nullptr;
  QMenu* m_recentMenu = nullptr;
  QComboBox* m_devices = nullptr;
  QComboBox* m_arch = nullptr;
  QComboBox* m_sanitize = nullptr;
  bool m_bundleView = false;
  QAction* m_stop = nullptr;
  QProgressBar* m_progress = nullptr;
  QTimer* m_progressDelay = nullptr;
  QTimer* m_progressTick = nullptr;
  qint64 m_batchStartMs = 0;
  QLabel* m_busy = nullptr;
  bool m_dark = false;
  bool m_persistTheme = true;
};

}  // namespace tirx::views
