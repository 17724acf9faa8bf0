// The Results dock: PASS/FAIL per check with max abs/rel error, the worst elements with their
// owners (clicking one selects the cell in the layout view and the line in the editor), plots
// (Qt Charts: output against reference, error; a heat map for 2-D outputs), compile and run
// timings, and PNG export of the current plot. The Grid tab (output_grid_view.h) lays the selected
// check's output on the layout grid; a worst-element click selects its cell there.
#pragma once

#include <QWidget>

class QChartView;
class QLineSeries;
class QValueAxis;
class QLabel;
class QSplitter;
class QTabWidget;
class QTreeWidget;

namespace tirx::views {

class HeatMapWidget;
class OutputGridView;
class Session;

class ResultsView : public QWidget {
  Q_OBJECT
 public:
  explicit ResultsView(Session& session, QWidget* parent = nullptr);

  /// "PASS", "FAIL", or the reason nothing ran.
  QString verdictText() const;
  QTreeWidget* checksTree() const { return m_checks; }
  QTreeWidget* worstTree() const { return m_worst; }
  /// Runtime faults of the last run, one row each (click: select its line).
  QTreeWidget* faultsTree() const { return m_faults; }
  /// Points plotted in the output-vs-reference chart (0 when empty).
  int plottedPoints() const;
  /// The chart views (for tests and benchmarks).
  QChartView* valuesChart() const { return m_valuesChart; }
  HeatMapWidget* heatMap() const { return m_heat; }
  OutputGridView* outputGrid() const { return m_grid; }
  /// Raise the plot tab whose title contains `title` (case-insensitive); false when none does.
  bool pickTab(const QString& title);
  /// True while the "out of date" banner is shown (the script changed after the run).
  bool staleShown() const;
  /// Show the plots of check `index`.
  void showCheck(int index);
  bool exportPlot(const QString& path) const;
  /// Dark chart theme (axes, labels, grid and background follow the application theme).
  void setDark(bool dark);

 protected:
  void showEvent(QShowEvent*) override;
  bool eventFilter(QObject* watched, QEvent* e) override;

 private:
  void refresh();
  void onWorstActivated();
  void clearCharts();

  Session& m_session;
  QLabel* m_verdict = nullptr;
  QLabel* m_stale = nullptr;
  QTreeWidget* m_faults = nullptr;
  QSplitter* m_tables = nullptr;
  QLabel* m_timings = nullptr;
  QTreeWidget* m_checks = nullptr;
  QTreeWidget* m_worst = nullptr;
  QTabWidget* m_plots = nullptr;
  QChartView* m_valuesChart = nullptr;
  QChartView* m_errorChart = nullptr;
  QLineSeries *m_output = nullptr, *m_reference = nullptr, *m_error = nullptr;
  QValueAxis *m_valuesX = nullptr, *m_valuesY = nullptr, *m_errorX = nullptr, *m_errorY = nullptr;
  HeatMapWidget* m_heat = nullptr;
  OutputGridView* m_grid = nullptr;
  int m_check = -1;
  bool m_darkCharts = false;
  bool m_dirty = false;
};

}  // namespace tirx::views
