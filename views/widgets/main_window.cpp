// MainWindow: docks, menus, toolbar, file handling, settings and recovery.
#include "views/widgets/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QSaveFile>
#include <QSettings>
#include <QStatusBar>
#include <QStyleFactory>
#include <QTimer>
#include <QToolBar>
#include <QtConcurrent/QtConcurrentRun>

#include "core/driver/device.h"
#include "core/script/summary.h"
#include "views/engine/autosave_manager.h"
#include "views/engine/engine_products.h"
#include "views/engine/job_runner.h"
#include "views/engine/session.h"
#include "views/engine/studio_resources.h"
#include "views/models/editor_zoom.h"
#include "views/models/theme.h"
#include "views/widgets/application_theme.h"
#include "views/widgets/assembly_view.h"
#include "views/widgets/debugger_panel.h"
#include "views/widgets/diff_view.h"
#include "views/widgets/editor_pane.h"
#include "views/widgets/editor_widget.h"
#include "views/widgets/layout_panel.h"
#include "views/widgets/pipeline_panel.h"
#include "views/widgets/problems_panel.h"
#include "views/widgets/profile_view.h"
#include "views/widgets/remote_hosts_dialog.h"
#include "views/widgets/results_view.h"
#include "views/widgets/tensor_core_panel.h"
#include "views/widgets/tune_view.h"

namespace tirx::views {

MainWindow::MainWindow(QWidget* parent, bool offerRecovery) : QMainWindow(parent) {
  initStudioResources();
  m_runner = new JobRunner(this);
  m_session = new Session(*m_runner, this);
  m_autosave = new AutosaveManager(*m_session, this);
  setWindowIcon(QIcon(":/icons/tirx.svg"));
  setDockNestingEnabled(true);
  createDocks();
  createActions();
  createProfileActions();
  m_busy = new QLabel(this);
  statusBar()->addPermanentWidget(m_busy);
  // Progress of a batch job: shown only once it has run for half a second (a quick compile does
  // not flash a bar), with the elapsed time; the engine's budget has no total to show a fraction
  // of.
  m_progress = new QProgressBar(this);
  m_progress->setRange(0, 0);
  m_progress->setMaximumWidth(220);
  m_progress->setTextVisible(true);
  m_progress->hide();
  statusBar()->addPermanentWidget(m_progress);
  m_progressDelay = new QTimer(this);
  m_progressDelay->setSingleShot(true);
  m_progressDelay->setInterval(500);
  m_progressTick = new QTimer(this);
  m_progressTick->setInterval(100);
  auto showElapsed = [this] {
    double s = (QDateTime::currentMSecsSinceEpoch() - m_batchStartMs) / 1000.0;
    m_progress->setFormat(tr("running %1 s — Esc stops").arg(s, 0, 'f', 1));
    m_busy->setText(m_progress->format());
  };
  connect(m_progressTick, &QTimer::timeout, this, showElapsed);
  connect(m_progressDelay, &QTimer::timeout, this, [this, showElapsed] {
    showElapsed();
    m_progress->show();
    m_progressTick->start();
  });
  connect(m_runner, &JobRunner::batchBusyChanged, this, &MainWindow::onBatchBusy);
  connect(m_session, &Session::staleChanged, this, &MainWindow::updateStaleTitles);
  connect(m_session, &Session::statusMessage, this,
          [this](const QString& m) { statusBar()->showMessage(m, 8000); });
  connect(m_session, &Session::factsChanged, this, [this] {
    auto f = m_session->facts();
    if (!f) return;
    int errors = 0, warnings = 0;
    for (const auto& d : f->frontEnd->diagnostics)
      (d.severity == Severity::Error ? errors : warnings) += d.severity != Severity::Note;
    statusBar()->showMessage(tr("%1 errors, %2 warnings · front end %3 ms")
                                 .arg(errors)
                                 .arg(warnings)
                                 .arg(f->millis, 0, 'f', 2),
                             5000);
  });
  // Open, New, Examples, recovery: every dock forgets the old document (its own reset; the docks
  // drawn from the session's facts, products and report follow the session, which drops them).
  connect(m_session, &Session::textReplaced, this, [this] {
    m_layout->reset();
    m_tensorCores->reset();
    m_pipeline->reset();
    m_diff->reset();
  });
  connect(m_session, &Session::modifiedChanged, this, &MainWindow::updateTitle);
  connect(m_session, &Session::filePathChanged, this, &MainWindow::updateTitle);
  connect(m_session, &Session::templateChanged, this, [this](bool isTemplate) {
    if (!m_bundleView)
      m_editor->setReadOnly(isTemplate);  // an example is edited as the user's copy
    updateTitle();
  });

  QSettings settings;
  resize(1400, 900);
  restoreGeometry(settings.value("window/geometry").toByteArray());
  restoreState(settings.value("window/state").toByteArray());
  setDarkTheme(settings.value("view/dark", false).toBool());
  updateTitle();
  m_session->loadText(QString(), QString());

  if (offerRecovery) offerRecoveryOfOrphan();
}

// A recovery file whose writer is gone (crashed or killed): offer the newest one. Windows that are
// still open hold their files' locks, so another running studio's work is never offered.
void MainWindow::offerRecoveryOfOrphan() {
  const QStringList orphans = AutosaveManager::orphans();
  if (orphans.isEmpty()) return;
  const QString file = orphans.front();
  QString text, original;
  if (!AutosaveManager::readRecovery(file, &text, &original)) return;
  auto answer = QMessageBox::question(
      this, tr("Recover unsaved work?"),
      tr("TIRx Studio did not close cleanly last time. Recover the unsaved script%1?")
          .arg(original.isEmpty() ? QString() : tr(" (%1)").arg(original)));
  if (answer == QMessageBox::Yes) {
    m_session->loadText(text, original, true);
    m_autosave->writeNow();  // now this window's own recovery file
  }
  AutosaveManager::discardRecovery(file);
}

MainWindow::~MainWindow() = default;

void MainWindow::createDocks() {
  auto makeDock = [this](const QString& objectName, const QString& title, QWidget* w,
                         Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(objectName);
    d->setWidget(w);
    addDockWidget(area, d);
    return d;
  };
  m_editor = new EditorWidget(*m_session);
  m_layout = new LayoutPanel(*m_session);
  m_assembly = new AssemblyView(*m_session);
  m_results = new ResultsView(*m_session);
  m_editorPane = new EditorPane(m_editor);  // the editor with its find and go-to-line bars
  auto* e = makeDock("editor", tr("Editor"), m_editorPane, Qt::LeftDockWidgetArea);
  auto* l = makeDock("layout", tr("Layout"), m_layout, Qt::RightDockWidgetArea);
  auto* a = makeDock("assembly", tr("Assembly"), m_assembly, Qt::RightDockWidgetArea);
  auto* r = makeDock("results", tr("Results"), m_results, Qt::BottomDockWidgetArea);
  m_tensorCores = new TensorCorePanel(*m_session);
  auto* tc = makeDock("tensorcores", tr("Tensor cores"), m_tensorCores, Qt::RightDockWidgetArea);
  m_pipeline = new PipelinePanel(*m_session);
  auto* pl = makeDock("pipeline", tr("Pipeline"), m_pipeline, Qt::BottomDockWidgetArea);
  connect(pl, &QDockWidget::visibilityChanged, m_pipeline, [this](bool visible) {
    if (visible) m_pipeline->refreshIfPending();
  });
  m_problems = new ProblemsPanel(*m_session);
  auto* pr = makeDock("problems", tr("Problems"), m_problems, Qt::BottomDockWidgetArea);
  connect(m_problems, &ProblemsPanel::locationActivated, m_editorPane, &EditorPane::goTo);
  connect(m_problems, &ProblemsPanel::countsChanged, pr, [pr](int errors, int warnings) {
    pr->setWindowTitle(errors + warnings ? tr("Problems (%1)").arg(errors + warnings)
                                         : tr("Problems"));
  });
  m_debugger = new DebuggerPanel(*m_session);
  auto* dbg = makeDock("debugger", tr("Debugger"), m_debugger, Qt::RightDockWidgetArea);
  tabifyDockWidget(l, a);
  tabifyDockWidget(a, tc);  // one tab group: Layout, Assembly, Tensor cores, Debugger
  tabifyDockWidget(tc, dbg);
  tabifyDockWidget(r, pl);  // Results, Pipeline and Problems share the bottom
  tabifyDockWidget(pl, pr);
  m_diff = new DiffView(*m_session);
  auto* df = makeDock("diff", tr("Diff"), m_diff, Qt::BottomDockWidgetArea);
  tabifyDockWidget(pr, df);
  createTuneDock(df);
  m_profile = new ProfileView(m_editor, 5);
  tabifyDockWidget(df, makeDock("profile", tr("Profile"), m_profile, Qt::BottomDockWidgetArea));
  l->raise();
  r->raise();
  resizeDocks({e, l}, {700, 700}, Qt::Horizontal);
  resizeDocks({e, r}, {600, 300}, Qt::Vertical);
  // The docks share the whole window: the central widget is hidden, so the layout treats it as
  // empty and every separator (editor | layout, top | Results) can be dragged. (A visible central
  // widget with a 0×0 maximum size used to pin the Results split.)
  auto* centre = new QWidget(this);
  centre->hide();
  setCentralWidget(centre);
}

void MainWindow::createTuneDock(QDockWidget* beside) {
  m_tune = new TuneView(*m_session);
  m_tune->setEditor(m_editor);
  auto* d = new QDockWidget(tr("Tune"), this);
  d->setObjectName("tune");
  d->setWidget(m_tune);
  addDockWidget(Qt::BottomDockWidgetArea, d);
  tabifyDockWidget(beside, d);
}

QDockWidget* MainWindow::dock(const QString& name) const {
  return findChild<QDockWidget*>(name, Qt::FindDirectChildrenOnly);
}

bool MainWindow::isolateDock(const QString& name) {
  QDockWidget* target = dock(name);
  if (!target) return false;
  for (auto* d : findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly))
    if (d != target) d->hide();
  target->show();
  target->raise();
  return true;
}

/// The toolbar's device, sanitizer and target pickers, wired to the session.
void MainWindow::createPickers(QToolBar* tb) {
  tb->addWidget(new QLabel(tr(" Device: "), this));
  m_devices = new QComboBox(this);
  fillDevices();
  tb->addWidget(m_devices);
  m_sanitize = new QComboBox(this);
  m_sanitize->setObjectName("sanitizePicker");
  m_sanitize->setToolTip(
      tr("Run GPU kernels under NVIDIA compute-sanitizer: its findings appear at script lines "
         "(local GPUs only)"));
  m_sanitize->addItem(tr("no sanitizer"), QString());
  for (const char* t : {"memcheck", "racecheck", "initcheck", "synccheck"})
    m_sanitize->addItem(t, QString(t));
  m_sanitize->setEnabled(false);
  connect(m_sanitize, &QComboBox::currentIndexChanged, this,
          [this](int) { m_session->setSanitize(m_sanitize->currentData().toString()); });
  connect(m_devices, &QComboBox::currentIndexChanged, this, [this](int) {
    const QString device = m_devices->currentData().toString();
    m_session->setDevice(device);
    const auto spec = driver::parseDevice(device.toStdString());
    m_sanitize->setEnabled(spec && spec->kind == driver::DeviceKind::Cuda);
  });
  tb->addWidget(m_sanitize);
  tb->addWidget(new QLabel(tr(" Target: "), this));
  m_arch = new QComboBox(this);
  m_arch->setObjectName("archPicker");
  m_arch->setToolTip(
      tr("Target architecture: what sema checks against (e.g. three-input max.f32 "
         "needs sm_100), what NVRTC compiles for and what the simulator runs"));
  for (int sm : {80, 86, 89, 90, 100}) m_arch->addItem(QString("sm_%1").arg(sm), sm);
  {
    int saved = QSettings().value("build/sm", 90).toInt();
    int index = m_arch->findData(saved);
    m_arch->setCurrentIndex(index >= 0 ? index : m_arch->findData(90));
    m_session->setSm(m_arch->currentData().toInt());
  }
  connect(m_arch, &QComboBox::currentIndexChanged, this, [this](int) {
    m_session->setSm(m_arch->currentData().toInt());
    QSettings().setValue("build/sm", m_session->sm());
  });
  tb->addWidget(m_arch);
}

void MainWindow::createActions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  auto* actNew = file->addAction(tr("&New"), QKeySequence::New, this, &MainWindow::newFile);
  auto* actOpen = file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] {
    if (!maybeSave()) return;
    QString path = QFileDialog::getOpenFileName(this, tr("Open script"), QString(),
                                                tr("TIRx scripts (*.py);;All files (*)"));
    if (!path.isEmpty()) openFile(path);
  });
  m_recentMenu = file->addMenu(tr("Open &Recent"));
  QMenu* examples = file->addMenu(tr("&Examples"));
  createExamplesMenu(examples);
  file->addSeparator();
  auto* actSave = file->addAction(tr("&Save"), QKeySequence::Save, this, [this] { save(); });
  // explicit keys: QKeySequence::SaveAs is empty on some platforms (no shortcut at all)
  file->addAction(tr("Save &As…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), this,
                  [this] { saveAs(); });
  file->addSeparator();
  file->addAction(tr("Open &Bundle…"), this, [this] {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open kernel bundle"), QString(), tr("Kernel bundles (*.tirxb);;All files (*)"));
    if (!path.isEmpty()) openBundle(path);
  });
  file->addAction(tr("&Export Bundle…"), this, [this] {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export kernel bundle"),
        QFileInfo(m_session->displayName()).completeBaseName() + ".tirxb",
        tr("Kernel bundles (*.tirxb)"));
    if (!path.isEmpty()) exportBundleTo(path);
  });
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addAction(tr("&Undo"), QKeySequence::Undo, m_editor, [this] { m_editor->undo(); });
  edit->addAction(tr("&Redo"), QKeySequence::Redo, m_editor, [this] { m_editor->redo(); });
  edit->addSeparator();
  edit->addActions(m_editorPane->editActions());  // Find, Replace, Find Next/Previous, Go to Line
  edit->addSeparator();
  edit->addAction(m_editor->goToDefinitionAction());  // F12 (the editor's own: one action per key)
  edit->addAction(tr("&Complete"), QKeySequence(Qt::CTRL | Qt::Key_Space), m_editor,
                  [this] { m_editor->showCompletions(true); });

  QMenu* run = menuBar()->addMenu(tr("&Run"));
  auto* actRun = run->addAction(tr("Compile && &Verify"), QKeySequence(Qt::CTRL | Qt::Key_Return),
                                this, &MainWindow::compileAndVerify);
  run->addAction(tr("&Compile Only"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B), this,
                 [this] { m_session->requestCompile(); });
  actRun->setIcon(runIcon());
  actRun->setObjectName("runAction");
  m_stop = run->addAction(tr("&Stop"), QKeySequence(Qt::Key_Escape), this, &MainWindow::stopRun);
  m_stop->setIcon(stopIcon());
  m_stop->setToolTip(tr("Stop the running compile or verify (Esc)"));
  m_stop->setShortcutContext(Qt::WindowShortcut);
  m_stop->setEnabled(false);
  run->addSeparator();
  run->addAction(tr("Compare with &Saved"), this, [this] {
    dock("diff")->show();
    dock("diff")->raise();
    m_diff->compareWithSaved();
  });
  run->addAction(tr("Compare with &File or Bundle…"), this, [this] {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Compare with"), QString(),
                                     tr("Scripts and bundles (*.py *.tirxb);;All files (*)"));
    if (path.isEmpty()) return;
    dock("diff")->show();
    dock("diff")->raise();
    m_diff->compareWithFile(path);
  });
  run->addSeparator();
  run->addAction(tr("Remote &Hosts…"), this, &MainWindow::editRemoteHosts);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  for (auto* d : findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly))
    view->addAction(d->toggleViewAction());
  view->addSeparator();
  // Zoom the text view that has the focus (the Assembly panes, else the editor). A focused editor
  // or pane takes the keys itself (editor_zoom.h); these shortcuts serve the other docks' focus.
  auto zoomAction = [this, view](const QString& text, ZoomKey key, QList<QKeySequence> keys) {
    QAction* a = view->addAction(text, this, [this, key] {
      QWidget* focus = QApplication::focusWidget();
      if (focus && m_assembly->isAncestorOf(focus))
        m_assembly->applyZoom(key);
      else
        m_editor->applyZoom(key);
    });
    a->setShortcuts(keys);
    return a;
  };
  zoomAction(tr("Zoom &In"), ZoomKey::In,
             {QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence(Qt::CTRL | Qt::Key_Plus)});
  zoomAction(tr("Zoom &Out"), ZoomKey::Out, {QKeySequence(Qt::CTRL | Qt::Key_Minus)});
  zoomAction(tr("&Reset Zoom"), ZoomKey::Reset, {QKeySequence(Qt::CTRL | Qt::Key_0)});
  view->addSeparator();
  auto* dark = view->addAction(tr("&Dark Theme"));
  dark->setCheckable(true);
  dark->setChecked(QSettings().value("view/dark", false).toBool());
  connect(dark, &QAction::toggled, this, &MainWindow::setDarkTheme);

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About TIRx Studio"), this, [this] {
    QMessageBox::about(this, tr("About TIRx Studio"),
                       tr("TIRx Studio — an IDE for TIRx CUDA tile kernels."));
  });

  QToolBar* tb = addToolBar(tr("Main"));
  tb->setObjectName("mainToolbar");
  actNew->setIcon(style()->standardIcon(QStyle::SP_FileIcon));
  actOpen->setIcon(style()->standardIcon(QStyle::SP_DialogOpenButton));
  actSave->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
  tb->addAction(actNew);
  tb->addAction(actOpen);
  tb->addAction(actSave);
  tb->addSeparator();
  createPickers(tb);
  tb->addAction(actRun);
  tb->addAction(m_stop);
  rebuildRecentMenu();
}

void MainWindow::editRemoteHosts() {
  RemoteHostsDialog dialog(RemoteHostsDialog::savedHosts(), this);
  if (dialog.exec() != QDialog::Accepted) return;
  RemoteHostsDialog::saveHosts(dialog.hosts());
  fillDevices();
}

void MainWindow::exportBundleTo(const QString& path) {
  emit m_session->statusMessage(
      tr("exporting a bundle of %1 on %2…").arg(m_session->displayName(), m_session->device()));
  const VerifyRequest req = m_session->verifyRequest();
  m_runner->submitCancellable<BundleExport>(
      JobKind::Verify, [req](const CancelTokenPtr& cancel) { return runExportBundle(req, cancel); },
      this,
      [this, path](BundleExport b) {
        QString message = QString::fromStdString(b.summary);
        bool ok = b.ok;
        if (ok) {
          QSaveFile f(path);
          ok = f.open(QIODevice::WriteOnly) &&
               f.write(b.json.data(), qint64(b.json.size())) == qint64(b.json.size()) && f.commit();
          message = ok ? tr("wrote %1: %2").arg(path, message)
                       : tr("cannot write %1: %2").arg(path, f.errorString());
        }
        statusBar()->showMessage(message, 10000);
        emit bundleExported(path, ok, message);
      });
}

void MainWindow::openBundle(const QString& path) {
  using Watcher = QFutureWatcher<OpenedBundle>;
  auto* watcher = new Watcher(this);
  const int columns = m_session->plotColumns();
  connect(watcher, &Watcher::finished, this, [this, watcher, path] {
    const OpenedBundle b = watcher->result();
    watcher->deleteLater();
    if (!b.ok) {
      const QString why = QString::fromStdString(b.error);
      statusBar()->showMessage(why, 10000);
      emit bundleOpened(nullptr, why);
      return;
    }
    // A window of its own: the document open here, saved or not, is left alone.
    auto* w = new MainWindow(nullptr, false);
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->showBundle(path, b);
    w->show();
    emit bundleOpened(w, QString::fromStdString(b.summary));
  });
  watcher->setFuture(
      QtConcurrent::run([path, columns] { return loadBundleFile(path.toStdString(), columns); }));
}

void MainWindow::showBundle(const QString& path, const OpenedBundle& b) {
  m_bundleView = true;
  m_session->showRecorded(QString::fromStdString(b.script), QString::fromStdString(b.scriptFile),
                          b.products, b.report);
  m_editor->setReadOnly(true);
  setWindowTitle(tr("%1 — %2 (bundle, read-only) — TIRx Studio")
                     .arg(QString::fromStdString(b.scriptFile), QFileInfo(path).fileName()));
  statusBar()->showMessage(QString::fromStdString(b.summary));
  if (b.profile) {  // the recorded GPU profile: table, roofline and the heat margin
    m_profile->setProfile(*b.profile);
    dock("profile")->show();
    dock("profile")->raise();
  }
}

void MainWindow::fillDevices() {
  const QString current = m_devices->currentData().toString();
  m_devices->clear();
  m_devices->addItem(tr("Simulator (CPU, exact)"), "sim");
  for (const QString& host : RemoteHostsDialog::savedHosts())
    m_devices->addItem(host + tr(" (remote)"), host);
  if (const int i = m_devices->findData(current); i >= 0) m_devices->setCurrentIndex(i);
  m_devices->setToolTip(tr("Looking for CUDA GPUs…"));
  // Enumerating GPUs dlopens libcuda and calls cuInit, which can take a while on a machine with a
  // driver: do it on a pool thread and add the GPUs when the answer comes (the simulator is usable
  // at once). The watcher is a child of the window, so a late answer after close is dropped.
  using Watcher = QFutureWatcher<std::vector<std::pair<std::string, std::string>>>;
  auto* watcher = new Watcher(this);
  connect(watcher, &Watcher::finished, this, [this, watcher] {
    int at = 1;  // after the simulator, before the remote hosts
    for (const auto& [id, name] : watcher->result())
      m_devices->insertItem(at++, QString::fromStdString(id + " — " + name),
                            QString::fromStdString(id));
    m_devices->setToolTip(m_devices->count() == 1 + RemoteHostsDialog::savedHosts().size()
                              ? tr("No CUDA GPU found: the simulator runs every kernel")
                              : tr("Where Compile & Verify runs the kernels"));
    watcher->deleteLater();
  });
  watcher->setFuture(QtConcurrent::run([] { return availableDevices(); }));
}

void MainWindow::createProfileActions() {
  const QList<QAction*> menus = menuBar()->actions();
  QMenu* file = menus.isEmpty() ? nullptr : menus.front()->menu();
  if (!file) return;
  auto* open = new QAction(tr("Open &Profile…"), this);
  open->setObjectName("open_profile");
  open->setStatusTip(tr("Open a saved tirx profile (REPORT.json of tirx profile)"));
  connect(open, &QAction::triggered, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Profile"), QString(),
                                                      tr("tirx profiles (*.json)"));
    if (!path.isEmpty()) openProfile(path);
  });
  file->insertAction(file->actions().isEmpty() ? nullptr : file->actions().back(), open);
}

bool MainWindow::openProfile(const QString& path) {
  QString why;
  if (!m_profile->openFile(path, why)) {
    statusBar()->showMessage(why, 8000);
    return false;
  }
  dock("profile")->show();
  dock("profile")->raise();
  return true;
}

void MainWindow::createExamplesMenu(QMenu* menu) {
  QDirIterator it(":/examples", {"*.py"}, QDir::Files);
  QStringList files;
  while (it.hasNext()) files << it.next();
  files.sort();
  menu->setToolTipsVisible(true);
  for (const QString& path : files) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) continue;
    const QByteArray source = f.readAll();
    const std::string_view view(source.constData(), size_t(source.size()));
    // the one-line description is the engine's summary of the example's header comment
    const QString line = QString::fromStdString(scriptSummary(view, 90));
    const QString name = QFileInfo(path).fileName();
    QAction* a = menu->addAction(line.isEmpty() ? name : name + QStringLiteral(" — ") + line);
    a->setData(name);
    a->setToolTip(QString::fromStdString(scriptSummary(view, 600)));
    connect(a, &QAction::triggered, this, [this, path] { openExample(path); });
  }
  if (files.isEmpty()) menu->addAction(tr("(no examples in this build)"))->setEnabled(false);
}

bool MainWindow::openExample(const QString& resourcePath) {
  if (!maybeSave()) return false;
  QFile f(resourcePath);
  if (!f.open(QIODevice::ReadOnly)) return false;
  m_session->loadTemplate(QString::fromUtf8(f.readAll()), QFileInfo(resourcePath).fileName());
  statusBar()->showMessage(
      tr("%1 is a template: Save As (Ctrl+Shift+S) makes your own copy to edit")
          .arg(m_session->displayName()),
      10000);
  return true;
}

void MainWindow::rebuildRecentMenu() {
  m_recentMenu->clear();
  const QStringList recent = QSettings().value("files/recent").toStringList();
  for (const QString& path : recent)
    m_recentMenu->addAction(path, this, [this, path] {
      if (maybeSave()) openFile(path);
    });
  m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::addRecent(const QString& path) {
  QSettings s;
  QStringList recent = s.value("files/recent").toStringList();
  recent.removeAll(path);
  recent.prepend(path);
  while (recent.size() > 10) recent.removeLast();
  s.setValue("files/recent", recent);
  rebuildRecentMenu();
}

bool MainWindow::openFile(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    QMessageBox::warning(this, tr("Open"), tr("Cannot read %1: %2").arg(path, f.errorString()));
    return false;
  }
  m_session->loadText(QString::fromUtf8(f.readAll()), QFileInfo(path).absoluteFilePath());
  addRecent(QFileInfo(path).absoluteFilePath());
  return true;
}

void MainWindow::newFile() {
  if (maybeSave()) m_session->loadText(QString(), QString());
}

bool MainWindow::save() {
  return m_session->filePath().isEmpty() ? saveAs() : saveTo(m_session->filePath());
}

bool MainWindow::saveAs() {
  // a template (an example) is offered under its own name in the last folder saved to
  const QString suggested =
      m_session->filePath().isEmpty()
          ? QDir(QSettings().value("files/lastDir", QDir::homePath()).toString())
                .filePath(m_session->displayName())
          : m_session->filePath();
  QString path =
      QFileDialog::getSaveFileName(this, tr("Save script"), suggested, tr("TIRx scripts (*.py)"));
  return !path.isEmpty() && saveTo(path);
}

bool MainWindow::saveTo(const QString& path) {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly) || f.write(m_session->text().toUtf8()) < 0 || !f.commit()) {
    QMessageBox::warning(this, tr("Save"), tr("Cannot write %1: %2").arg(path, f.errorString()));
    return false;
  }
  m_session->setFilePath(QFileInfo(path).absoluteFilePath());  // a template becomes the user's file
  m_session->setModified(false);
  QSettings().setValue("files/lastDir", QFileInfo(path).absolutePath());
  addRecent(QFileInfo(path).absoluteFilePath());
  statusBar()->showMessage(tr("saved %1").arg(path), 4000);
  return true;
}

bool MainWindow::maybeSave() {
  if (!m_session->isModified()) return true;
  auto answer =
      QMessageBox::warning(this, tr("Unsaved changes"),
                           tr("%1 has unsaved changes. Save them?").arg(m_session->displayName()),
                           QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
  if (answer == QMessageBox::Save) return save();
  return answer == QMessageBox::Discard;
}

void MainWindow::updateTitle() {
  if (m_bundleView) return;  // showBundle's title stays
  if (m_session->isTemplate()) {
    setWindowTitle(
        tr("%1 (example, read-only: Save As to edit) — TIRx Studio").arg(m_session->displayName()));
    return;
  }
  setWindowTitle(QString("%1%2 — TIRx Studio")
                     .arg(m_session->displayName(), m_session->isModified() ? "*" : ""));
}

void MainWindow::compileAndVerify() {
  m_session->requestCompileAndVerify();
}

void MainWindow::stopRun() {
  m_session->stop();
}

void MainWindow::onBatchBusy(bool busy) {
  m_stop->setEnabled(busy);
  if (busy) {
    m_batchStartMs = QDateTime::currentMSecsSinceEpoch();
    m_progressDelay->start();
  } else {
    m_progressDelay->stop();
    m_progressTick->stop();
    m_progress->hide();
    m_busy->clear();
  }
}

void MainWindow::updateStaleTitles() {
  dock("results")->setWindowTitle(m_session->reportStale() ? tr("Results (out of date)")
                                                           : tr("Results"));
  dock("assembly")
      ->setWindowTitle(m_session->productsStale() ? tr("Assembly (out of date)") : tr("Assembly"));
  // the timeline's lines point into the text it ran: after an edit they may point elsewhere
  dock("pipeline")
      ->setWindowTitle(m_session->reportStale() ? tr("Pipeline (out of date)") : tr("Pipeline"));
}

void MainWindow::setDarkTheme(bool dark) {
  m_dark = dark;
  applyApplicationTheme(dark);
  m_editor->applyTheme(dark);
  m_assembly->setDark(dark);
  m_results->setDark(dark);
  if (m_persistTheme) QSettings().setValue("view/dark", dark);
}

void MainWindow::closeEvent(QCloseEvent* e) {
  if (!maybeSave()) {
    e->ignore();
    return;
  }
  QSettings s;
  s.setValue("window/geometry", saveGeometry());
  s.setValue("window/state", saveState());
  m_autosave->discard();  // a clean exit leaves nothing to recover (other windows keep theirs)
  e->accept();
}

}  // namespace tirx::views
