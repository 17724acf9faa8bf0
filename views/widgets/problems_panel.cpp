// ProblemsPanel: rows from the session's facts, compile products and report; the counts are kept
// up to date even while the dock is hidden (the title shows them), the rows are rebuilt on show.
#include "views/widgets/problems_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "views/engine/run_verdict.h"
#include "views/engine/session.h"

namespace tirx::views {

namespace {
constexpr int kLineRole = Qt::UserRole;
constexpr int kColRole = Qt::UserRole + 1;

QString plural(int n, const QString& one, const QString& many) {
  return QString("%1 %2").arg(n).arg(n == 1 ? one : many);
}
}  // namespace

ProblemsPanel::ProblemsPanel(Session& session, QWidget* parent)
    : QWidget(parent), m_session(session) {
  auto* box = new QVBoxLayout(this);
  box->setContentsMargins(2, 2, 2, 2);
  m_summary = new QLabel(this);
  m_summary->setObjectName("problemsSummary");
  m_tree = new QTreeWidget(this);
  m_tree->setObjectName("problemsTree");
  m_tree->setHeaderLabels({tr("Severity"), tr("Code"), tr("Location"), tr("Message")});
  m_tree->setRootIsDecorated(true);
  m_tree->setUniformRowHeights(false);
  m_tree->setWordWrap(true);
  m_tree->header()->setStretchLastSection(true);
  m_tree->setColumnWidth(SeverityColumn, 90);
  m_tree->setColumnWidth(CodeColumn, 70);
  m_tree->setColumnWidth(LocationColumn, 170);
  box->addWidget(m_summary);
  box->addWidget(m_tree, 1);
  connect(m_tree, &QTreeWidget::itemActivated, this,
          [this](QTreeWidgetItem* item, int) { activate(item); });
  connect(m_tree, &QTreeWidget::itemDoubleClicked, this,
          [this](QTreeWidgetItem* item, int) { activate(item); });
  auto changed = [this] {
    // rebuilt at once only when shown; the counts (the dock's title) are kept even while hidden
    m_dirty = true;
    refresh(isVisible());
  };
  connect(&m_session, &Session::factsChanged, this, changed);
  connect(&m_session, &Session::productsChanged, this, changed);
  connect(&m_session, &Session::reportChanged, this, changed);
  connect(&m_session, &Session::staleChanged, this, changed);
  refresh(true);
}

QString ProblemsPanel::summaryText() const {
  return m_summary->text();
}

void ProblemsPanel::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  if (m_dirty) refresh(true);
}

void ProblemsPanel::refresh(bool rows) {
  if (rows) {
    m_dirty = false;
    m_tree->clear();
  }
  const QString file = m_session.displayName();
  int errors = 0, warnings = 0;
  auto location = [&file](const SourceSpan& s) {
    return s.valid() ? QString("%1:%2:%3").arg(file).arg(s.line).arg(s.col) : file;
  };
  auto setPlace = [](QTreeWidgetItem* item, const SourceSpan& s) {
    item->setData(0, kLineRole, s.valid() ? s.line : 0);
    item->setData(0, kColRole, s.valid() ? s.col : 0);
  };
  auto facts = m_session.facts();
  // the compile repeats the front end's diagnostics: list each once
  auto repeatsFrontEnd = [&facts](const Diagnostic& d) {
    if (!facts) return false;
    for (const Diagnostic& f : facts->frontEnd->diagnostics)
      if (f.code == d.code && f.span == d.span) return true;
    return false;
  };
  auto add = [&](const Diagnostic& d, const QString& origin) {
    if (d.severity == Severity::Note || (!origin.isEmpty() && repeatsFrontEnd(d))) return;
    const bool error = d.severity == Severity::Error;
    (error ? errors : warnings)++;
    if (!rows) return;
    auto* item = new QTreeWidgetItem(m_tree);
    item->setText(SeverityColumn, error ? tr("error") : tr("warning"));
    item->setIcon(SeverityColumn, style()->standardIcon(error ? QStyle::SP_MessageBoxCritical
                                                              : QStyle::SP_MessageBoxWarning));
    item->setText(CodeColumn, QString::fromStdString(d.code));
    item->setText(LocationColumn, location(d.span));
    item->setText(MessageColumn, QString::fromStdString(d.message) + origin);
    item->setToolTip(MessageColumn, item->text(MessageColumn));
    setPlace(item, d.span);
    for (const DiagNote& n : d.notes) {
      auto* child = new QTreeWidgetItem(item);
      child->setText(SeverityColumn, tr("note"));
      child->setText(LocationColumn, location(n.span));
      child->setText(MessageColumn, QString::fromStdString(n.message));
      child->setToolTip(MessageColumn, child->text(MessageColumn));
      setPlace(child, n.span.valid() ? n.span : d.span);
    }
    item->setExpanded(true);
  };
  auto addAll = [&](const Diagnostics& ds, const QString& origin) {
    for (const Diagnostic& d : ds) add(d, origin);
  };
  // the compile's and the run's only while they describe the text in the editor
  if (facts) addAll(facts->frontEnd->diagnostics, QString());
  if (auto p = m_session.products(); p && !m_session.productsStale())
    addAll(p->engine.diagnostics, tr(" (compile)"));
  if (auto r = m_session.report(); r && !m_session.reportStale()) {
    // a Stop is not a problem of the script (the Results dock says CANCELLED)
    for (const Diagnostic& d : r->engine.errors)
      if (!isStopDiagnostic(*r, d)) add(d, tr(" (last run)"));
    for (const ir::Fault& f : r->engine.faults)
      if (!isStopDiagnostic(*r, f.diag)) add(f.diag, tr(" (last run)"));
  }
  if (rows)
    for (int c : {SeverityColumn, CodeColumn, LocationColumn}) m_tree->resizeColumnToContents(c);
  m_summary->setText(errors + warnings == 0 ? tr("no problems")
                                            : plural(errors, tr("error"), tr("errors")) + ", " +
                                                  plural(warnings, tr("warning"), tr("warnings")));
  if (errors != m_errors || warnings != m_warnings) {
    m_errors = errors, m_warnings = warnings;
    emit countsChanged(errors, warnings);
  }
}

void ProblemsPanel::activate(QTreeWidgetItem* item) {
  if (!item) return;
  const int line = item->data(0, kLineRole).toInt();
  if (line > 0) emit locationActivated(line, item->data(0, kColRole).toInt());
}

}  // namespace tirx::views
