// ScreenshotRunner: a polling state machine on the GUI thread (the jobs themselves run on the
// worker); "idle" must hold for a few ticks so that results posted back are painted.
#include "views/widgets/screenshot_runner.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDockWidget>
#include <QLineEdit>
#include <QPainter>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QTreeWidget>
#include <cstdio>

#include "views/engine/engine_products.h"
#include "views/engine/job_runner.h"
#include "views/engine/session.h"
#include "views/widgets/assembly_view.h"
#include "views/widgets/debugger_panel.h"
#include "views/widgets/diff_view.h"
#include "views/widgets/editor_pane.h"
#include "views/widgets/editor_widget.h"
#include "views/widgets/find_bar.h"
#include "views/widgets/layout_panel.h"
#include "views/widgets/main_window.h"
#include "views/widgets/opcode_hover.h"
#include "views/widgets/pipeline_panel.h"
#include "views/widgets/problems_panel.h"
#include "views/widgets/profile_view.h"
#include "views/widgets/results_view.h"
#include "views/widgets/tensor_core_panel.h"

namespace tirx::views {

ScreenshotRunner::ScreenshotRunner(MainWindow& window, QString outPath, QString file, QString dock,
                                   QObject* parent)
    : QObject(parent),
      m_window(window),
      m_out(std::move(outPath)),
      m_file(std::move(file)),
      m_dock(std::move(dock)) {
  m_poll.setInterval(50);
  connect(&m_poll, &QTimer::timeout, this, &ScreenshotRunner::poll);
}

void ScreenshotRunner::start() {
  if (!m_file.isEmpty() && !m_window.openFile(m_file)) {
    std::fprintf(stderr, "tirx-studio: cannot open %s\n", qPrintable(m_file));
    QCoreApplication::exit(2);
    return;
  }
  if (!m_dock.isEmpty() && !m_window.isolateDock(m_dock)) {
    std::fprintf(stderr,
                 "tirx-studio: no dock '%s' (editor, layout, assembly, results, tensorcores)\n",
                 qPrintable(m_dock));
    QCoreApplication::exit(2);
    return;
  }
  m_poll.start();
}

void ScreenshotRunner::poll() {
  m_waitedMs += m_poll.interval();
  if (m_waitedMs > m_timeoutMs) {
    std::fprintf(stderr, "tirx-studio: timed out waiting for the engine\n");
    capture();
    QCoreApplication::exit(3);
    return;
  }
  JobRunner& runner = m_window.runner();
  if (!runner.isIdle()) {
    m_idleTicks = 0;
    return;
  }
  if (!m_window.session().facts()) return;  // the first front-end result is not in yet
  if (!m_resultsPicked && !m_pick.isEmpty() && m_dock == QLatin1String("results")) {
    // before the run: the picked tab (the Grid builds on the worker) is shown when it arrives
    m_resultsPicked = true;
    if (!m_window.resultsView()->pickTab(m_pick))
      std::fprintf(stderr, "tirx-studio: no Results tab '%s'\n", qPrintable(m_pick));
  }
  if (!m_compileRequested && !m_file.isEmpty()) {
    m_compileRequested = true;
    if (m_compileOnly)
      m_window.session().requestCompile();
    else
      m_window.compileAndVerify();
    m_idleTicks = 0;
    return;
  }
  if (!m_diff.isEmpty() && !m_diffRequested) {
    m_diffRequested = true;
    m_window.dock("diff")->show();
    m_window.dock("diff")->raise();
    m_window.diffView()->compareWithFile(m_diff);
    m_idleTicks = 0;
    return;
  }
  if (!m_profile.isEmpty() && !m_profileOpened) {
    m_profileOpened = true;
    QString why;
    if (!m_window.profileView()->openFile(m_profile, why)) {
      std::fprintf(stderr, "tirx-studio: cannot open the profile %s: %s\n", qPrintable(m_profile),
                   qPrintable(why));
      m_poll.stop();
      QCoreApplication::exit(2);
      return;
    }
    m_window.dock("profile")->show();
    m_window.dock("profile")->raise();
    m_idleTicks = 0;
    return;
  }
  if (++m_idleTicks < 4) return;
  m_poll.stop();
  if (m_line > 0) m_window.session().selectLine(m_line);
  if (!m_pick.isEmpty() && m_dock == QLatin1String("diff")) {
    if (!m_window.diffView()->showSection(m_pick))
      std::fprintf(stderr, "tirx-studio: no Diff section '%s' (script, cuda, ptx, sass)\n",
                   qPrintable(m_pick));
  } else if (!m_pick.isEmpty() && m_dock == QLatin1String("assembly")) {
    const QStringList tabs{"cuda", "ptx", "sass", "resources"};
    const int tab = static_cast<int>(tabs.indexOf(m_pick.toLower()));
    if (tab < 0)
      std::fprintf(stderr, "tirx-studio: no Assembly tab '%s' (cuda, ptx, sass, resources)\n",
                   qPrintable(m_pick));
    else
      m_window.assemblyView()->showTab(static_cast<AssemblyView::Tab>(tab));
  } else if (!m_pick.isEmpty() && m_dock == QLatin1String("pipeline")) {
    if (!m_window.pipelinePanel()->pick(m_pick))
      std::fprintf(stderr, "tirx-studio: no Pipeline tab or TMA image contains '%s'\n",
                   qPrintable(m_pick));
  } else if (!m_pick.isEmpty() && m_dock != QLatin1String("results") &&
             !m_window.tensorCorePanel()->pick(m_pick)) {
    std::fprintf(stderr, "tirx-studio: no Tensor cores item contains '%s'\n", qPrintable(m_pick));
  } else if (!m_pick.isEmpty() && m_line > 0 && m_dock != QLatin1String("results") &&
             m_window.tensorCorePanel()->selectAccessLine(m_line)) {
    captureWhenIdle();  // the row's bank map is computed on the worker
    return;
  }
  if (m_hoverLine > 0)
    m_window.editor()->hoverAt(m_window.editor()->positionOf(m_hoverLine, m_hoverCol));
  if (!m_find.isEmpty()) {
    m_window.editorPane()->findBar()->open(false);
    m_window.editorPane()->findBar()->findEdit()->setText(m_find);
  }
  if (m_completeLine > 0) {
    EditorWidget* e = m_window.editor();
    e->SendScintilla(QsciScintillaBase::SCI_GOTOPOS,
                     static_cast<unsigned long>(e->positionOf(m_completeLine, m_completeCol)));
    e->setFocus();
    e->showCompletions(true);
  }
  capture();
}

void ScreenshotRunner::captureWhenIdle() {
  if (!m_window.runner().isIdle() && m_waitedMs < m_timeoutMs) {
    m_waitedMs += 20;
    QTimer::singleShot(20, this, &ScreenshotRunner::captureWhenIdle);
    return;
  }
  capture();
}

QString dockContent(MainWindow& window, const QString& name) {
  auto some = [](int64_t n, const char* what) {
    return n > 0 ? QStringLiteral("%1 %2").arg(n).arg(what) : QString();
  };
  if (name == QLatin1String("editor"))
    return some(window.editor()->text().trimmed().size(), "characters");
  if (name == QLatin1String("layout"))
    return some(window.layoutPanel()->model().cellCount(), "cells");
  if (name == QLatin1String("assembly")) {
    int64_t chars = 0;
    for (auto* t : window.assemblyView()->findChildren<QPlainTextEdit*>())
      chars += t->toPlainText().trimmed().size();
    return some(chars, "characters of CUDA/PTX/SASS");
  }
  if (name == QLatin1String("results")) {
    ResultsView* r = window.resultsView();
    return some(r->checksTree()->topLevelItemCount() + r->faultsTree()->topLevelItemCount(),
                "checks and faults");
  }
  if (name == QLatin1String("tensorcores"))
    return some(window.tensorCorePanel()->picker()->count(), "operands");
  if (name == QLatin1String("pipeline")) {
    PipelinePanel* p = window.pipelinePanel();
    return some(p->runPicker()->count() + p->imagePicker()->count(), "runs and images");
  }
  if (name == QLatin1String("problems"))
    return some(window.problemsPanel()->tree()->topLevelItemCount(), "problems");
  if (name == QLatin1String("diff"))
    return window.diffView()->data() ? QStringLiteral("a comparison") : QString();
  if (name == QLatin1String("profile"))
    return some(window.profileView()->table()->topLevelItemCount(), "profiled lines");
  if (name == QLatin1String("debugger"))
    return window.debuggerPanel()->active() ? QStringLiteral("a recording") : QString();
  return QStringLiteral("(not checked)");
}

void ScreenshotRunner::capture() {
  QCoreApplication::processEvents();
  QPixmap shot = m_window.grab();
  // the isolated dock must show something of what it is for
  const QString content =
      m_dock.isEmpty() ? QStringLiteral("the window") : dockContent(m_window, m_dock);
  // popups (an opcode hover, the completion list and its description) are top-level windows of
  // their own: paint each where it stands over the window
  QPainter p(&shot);
  for (QWidget* w : m_window.editor()->findChildren<QWidget*>())
    if (w->isWindow() && w->isVisible()) p.drawPixmap(m_window.mapFromGlobal(w->pos()), w->grab());
  p.end();
  bool ok = shot.save(m_out, "PNG");
  if (!ok) std::fprintf(stderr, "tirx-studio: cannot write %s\n", qPrintable(m_out));
  if (ok && content.isEmpty()) {
    std::fprintf(stderr, "tirx-studio: the %s dock rendered empty in %s\n", qPrintable(m_dock),
                 qPrintable(m_out));
    QCoreApplication::exit(4);
    return;
  }
  QCoreApplication::exit(ok ? 0 : 1);
}

}  // namespace tirx::views
