// The Problems dock: every diagnostic of the script in one list — the front end's (live, from the
// interactive lane, replaced on each keystroke's analysis), the last compile's and the last run's
// faults — with severity, code, FILE:LINE:COL and the whole message; notes are child rows with
// their own locations. Double-click (or Enter) on a row jumps the editor to that line and column.
// The title counts errors and warnings.
#pragma once

#include <QWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace tirx::views {

class Session;

class ProblemsPanel : public QWidget {
  Q_OBJECT
 public:
  enum Column { SeverityColumn, CodeColumn, LocationColumn, MessageColumn };

  explicit ProblemsPanel(Session& session, QWidget* parent = nullptr);

  QTreeWidget* tree() const { return m_tree; }
  /// "2 errors, 1 warning" (or "no problems").
  QString summaryText() const;
  int errorCount() const { return m_errors; }
  int warningCount() const { return m_warnings; }

 signals:
  /// A row was activated: go to this 1-based line and column.
  void locationActivated(int line, int col);
  /// The counts changed (the dock's title follows).
  void countsChanged(int errors, int warnings);

 protected:
  void showEvent(QShowEvent*) override;

 private:
  /// Recount; `rows` also rebuilds the list (skipped while hidden).
  void refresh(bool rows);
  void activate(QTreeWidgetItem* item);

  Session& m_session;
  QLabel* m_summary = nullptr;
  QTreeWidget* m_tree = nullptr;
  bool m_dirty = true;
  int m_errors = 0, m_warnings = 0;
};

}  // namespace tirx::views
