// The Tune dock: sweeps the tunable constants of the editor's script (the TUNE table, decision
// TUNE-1) with core/tune on the session's device and target, as one cancellable batch job. It shows
// the candidates in a table as they finish (progress bar), the ranked ones in a scatter chart (time
// against candidate, one colour per value of the chosen parameter), and Apply writes the best (or
// the selected) candidate's values into the editor at the literals' spans the engine reports, as
// one undoable edit.
#pragma once

#include <QWidget>
#include <map>
#include <memory>

#include "core/tune/tune.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QsciScintilla;
class QChartView;

namespace tirx::views {

class Session;

class TuneView : public QWidget {
  Q_OBJECT
 public:
  explicit TuneView(Session& session, QWidget* parent = nullptr);
  /// The editor that Apply edits (its text is the session's).
  void setEditor(QsciScintilla* editor) { m_editor = editor; }

  /// Start a tune of the session's text (the Tune button); a running one is replaced.
  void start();
  /// Cancel the running tune; the finished candidates stay shown.
  void cancel();
  /// Write the values of the selected row (else the best) into the editor. False when there is
  /// nothing to apply.
  bool apply();

  QTableWidget* table() const { return m_table; }
  QChartView* chart() const { return m_chart; }
  QPushButton* tuneButton() const { return m_tune; }
  QPushButton* cancelButton() const { return m_cancel; }
  QPushButton* applyButton() const { return m_apply; }
  QComboBox* colourPicker() const { return m_colourBy; }
  QProgressBar* progress() const { return m_progress; }
  QString statusText() const;
  bool running() const { return m_running; }
  /// Points plotted (ranked candidates) in the chart, all series together.
  int plottedPoints() const;

 signals:
  /// A tune finished (cancelled or not) and its results are shown.
  void tuneFinished();

 private:
  void onProgress(const tune::CandidateResult& r, int done, int total);
  void present(const tune::TuneReport& report);
  void addRow(const tune::CandidateResult& r, int rank);
  void redrawChart();
  std::map<std::string, int64_t> chosenValues() const;

  Session& m_session;
  QsciScintilla* m_editor = nullptr;
  QLabel* m_status = nullptr;
  QPushButton* m_tune = nullptr;
  QPushButton* m_cancel = nullptr;
  QPushButton* m_apply = nullptr;
  QComboBox* m_colourBy = nullptr;
  QProgressBar* m_progress = nullptr;
  QTableWidget* m_table = nullptr;
  QChartView* m_chart = nullptr;
  tune::TuneSpace m_space;
  std::vector<tune::CandidateResult> m_results;  ///< shown: finished so far, then ranked
  bool m_running = false;
  bool m_simulator = true;
  quint64 m_run = 0;  ///< counts started tunes: progress of an older one is dropped
};

}  // namespace tirx::views
