// The Debugger dock: the tile-level debugger (core/debug) on the simulator. Start records the
// script's launch (a batch job, cancelled by Stop); Back / Forward step by tile op, Continue and
// Reverse run to the next breakpoint hit (the editor margin's breakpoints, plus an optional watch
// condition such as `C[3, 4] > 1.5` or `nan(acc)`), Run to cursor to the next step on the caret's
// line. The launch row picks what Start records: the kernel (the script's kernels as the front end
// published them), which launch of it, the first recorded step and the recording's limit in MiB
// (W0844 in the dock where it stops). Every move is a job on the interactive lane; the answer
// carries the stop and the chosen tile's values laid out on the layout grid (colour scale,
// NaN/inf/uninitialised highlighted, the number as label and in the hover text). The current stop's
// line is highlighted in the editor.
#pragma once

#include <QPointer>
#include <QWidget>
#include <memory>

#include "views/engine/debug_jobs.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace tirx::views {

class LayoutCanvas;
class Session;

class DebuggerPanel : public QWidget {
  Q_OBJECT
 public:
  explicit DebuggerPanel(Session& session, QWidget* parent = nullptr);

  /// Record the current script (what Start does).
  void start();
  void stepForward();
  void stepBack();
  void continueForward();
  void continueBackward();
  /// Run to the next step on the session's selected line (the editor caret).
  void runToCursor();
  void goToStep(qint64 step);
  void showBuffer(const QString& name);
  void setWatchCondition(const QString& condition);
  void setFocus(qint64 cta, qint64 thread);
  /// What the next Start records: `kernel` (empty: the first launched; one of kernelChoices()),
  /// its launch `launch` (0: the first), from step `firstStep`, at most `traceMib` MiB.
  void setLaunch(const QString& kernel, int launch);
  void setRecording(qint64 firstStep, double traceMib);
  /// The kernel picker's entries: "" (the first launched) then the script's kernels.
  QStringList kernelChoices() const;

  /// Forget the session, the stop, the grid and the launch choices (a new document).
  void reset();

  bool active() const { return m_handle != nullptr; }
  /// The newest view delivered (stop, tile summary, grid with values).
  const DebugView& view() const { return m_view; }
  const LayoutGridModel& model() const { return m_view.grid; }
  LayoutCanvas* canvas() const { return m_canvas; }
  QString statusText() const;
  QString infoText() const;

 signals:
  /// A start or a move was delivered (tests wait for it).
  void viewReady();

 private:
  void submit(DebugRequest request);
  void deliver(DebugView view);
  DebugRequest request(DebugAction action) const;
  void updateButtons();
  void showCell(qint64 flat);
  void updateKernels();

  Session& m_session;
  std::shared_ptr<DebugHandle> m_handle;
  DebugView m_view;
  qint64 m_target = 0;  ///< the step the newest move aims at (clicks add up before delivery)
  LayoutCanvas* m_canvas = nullptr;
  QPushButton *m_start = nullptr, *m_back = nullptr, *m_forward = nullptr, *m_continue = nullptr,
              *m_reverse = nullptr, *m_toCursor = nullptr;
  QComboBox* m_buffers = nullptr;
  QComboBox* m_kernel = nullptr;
  QSpinBox *m_cta = nullptr, *m_thread = nullptr, *m_launch = nullptr, *m_firstStep = nullptr;
  QDoubleSpinBox* m_traceMib = nullptr;
  QLineEdit* m_watch = nullptr;
  QLabel *m_status = nullptr, *m_summary = nullptr, *m_info = nullptr, *m_message = nullptr;
  bool m_updatingBuffers = false;
  quint64 m_document = 0;  ///< counts documents: a recording of an older one is dropped
};

}  // namespace tirx::views
