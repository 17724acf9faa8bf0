// The Results dock: PASS/FAIL per check with max abs/rel error, the worst elements with their
// owners (clicking one selects the cell in the layout view and the line in the editor), plots
// (Qt Charts: output against reference, error; a heat map for 2-D outputs), compile and run
// timings, and PNG export of the current plot.
#pragma once

#include <QWidget>

class QChartView;
class QLabel;
class QTabWidget;
class QTreeWidget;

namespace tirx::views {

class HeatMapWidget;
class Session;

class ResultsView : public QWidget {
  Q_OBJECT
 public:
  explicit ResultsView(Session& session, QWidget* parent = nullptr);

  /// "PASS", "FAIL", or the reason nothing ran.
  QString verdictText() const;
  QTreeWidget* checksTree() const { return m_checks; }
  QTreeWidget* worstTree() const { return m_worst; }
  /// Points plotted in the output-vs-reference chart (0 when empty).
  int plottedPoints() const;
  /// Show the plots of check `index`.
  void showCheck(int index);
  bool exportPlot(const QString& path) const;

 protected:
  void showEvent(QShowEvent*) override;

 private:
  void refresh();
  void onWorstActivated();

  Session& m_session;
  QLabel* m_verdict = nullptr;
  QLabel* m_timings = nullptr;
  QTreeWidget* m_checks = nullptr;
  QTreeWidget* m_worst = nullptr;
  QTabWidget* m_plots = nullptr;
  QChartView* m_valuesChart = nullptr;
  QChartView* m_errorChart = nullptr;
  HeatMapWidget* m_heat = nullptr;
  int m_check = -1;
  bool m_dirty = false;
};

}  // namespace tirx::views
