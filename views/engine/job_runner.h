// The job runner of the studio: engine work runs on two worker threads, one per lane. The
// interactive lane (front end for live diagnostics and hovers, layout tables) never waits behind
// the batch lane (compile, verify, run), however long a simulation takes. A job takes value inputs
// (captured by value), returns a value, and the value is handed back on the GUI thread through a
// queued call. There is one pending slot per job kind: a newer job of a kind replaces a queued one
// that has not started, cancels a running one of its kind (its result would be stale), and a result
// whose generation is older than the newest submitted of its kind is dropped. Receivers are guarded
// with QPointer, so a widget that died while its job ran never sees the result.
//
// Batch jobs get a CancelToken (core/diag/budget.h): cancelBatch() (the Stop button, Esc) sets it,
// the engine stops at its next budget check and the job returns a "cancelled" value, which is
// delivered like any other. The destructor cancels everything, waits briefly and then detaches a
// worker still inside an engine call: quitting never joins a long job.
#pragma once

#include <QObject>
#include <QPointer>
#include <functional>
#include <memory>

#include "core/diag/budget.h"

namespace tirx::views {

enum class JobKind {
  FrontEnd,
  Compile,
  Verify,
  Layout,
  Diff,
  DebugStart,  ///< the debugger's recording (a verify): batch lane, Stop cancels it
  DebugStep,   ///< moving between recorded steps and the stop's facts: interactive lane
  OutputGrid,  ///< the Results dock's output grid of one check: interactive lane
  BankMap,     ///< the bank view's cells of one statement and warp (core/sim/bank_map.h)
  /// The facts drawn after the diagnostics (hover summaries, fragment facts, descriptors, bank
  /// images; views/engine/script_facts.h): interactive lane, behind a FrontEnd job, cancelled by an
  /// edit.
  Details,
  Tune,  ///< the Tune dock's sweep (core/tune): batch lane, Stop or the dock's Cancel cancels it
};
enum class JobLane { Interactive, Batch };

/// FrontEnd, Layout, DebugStep, OutputGrid, BankMap and Details run on the interactive lane;
/// Compile, Verify, Diff and DebugStart on the batch lane. A FrontEnd job (live diagnostics) is
/// taken before every other queued job of its lane.
JobLane laneOf(JobKind kind);

class JobRunner : public QObject {
  Q_OBJECT
 public:
  explicit JobRunner(QObject* parent = nullptr);
  /// Cancels every job, waits at most `shutdownWaitMs()` for the workers and detaches the rest.
  ~JobRunner() override;

  /// Queue `work` (run on the lane's worker) of `kind`; `done` runs on the GUI thread with its
  /// value when the job finished, `receiver` is still alive and no newer job of `kind` was
  /// submitted. Returns the job's generation (strictly increasing per kind).
  template <class R>
  quint64 submit(JobKind kind, std::function<R()> work, QObject* receiver,
                 std::function<void(R)> done) {
    return submitCancellable<R>(
        kind, [work = std::move(work)](const CancelTokenPtr&) { return work(); }, receiver,
        std::move(done));
  }

  /// Like submit(), but `work` receives the job's cancel token (set by cancelBatch(), by a newer
  /// job of the same kind, or by the destructor) and should pass it to the engine.
  template <class R>
  quint64 submitCancellable(JobKind kind, std::function<R(const CancelTokenPtr&)> work,
                            QObject* receiver, std::function<void(R)> done) {
    QPointer<QObject> guard(receiver);
    auto task = [work = std::move(work), done = std::move(done),
                 guard](const CancelTokenPtr& cancel) -> std::function<void()> {
      auto value = std::make_shared<R>(work(cancel));
      return [value, done, guard]() {
        if (guard) done(std::move(*value));
      };
    };
    return enqueue(kind, std::move(task));
  }

  /// Cancel the running batch job and drop the queued ones (Stop). True when there was one.
  bool cancelBatch();
  /// Drop a queued job of `kind` and cancel a running one; a result of it already on its way is
  /// dropped too (the kind's generation moves on). True when there was one.
  bool cancelKind(JobKind kind);

  /// The newest generation submitted for `kind` (0 when none).
  quint64 latestGeneration(JobKind kind) const;
  /// True when nothing is queued or running and no result is waiting for delivery.
  bool isIdle() const;
  /// True while a batch job is queued, running or awaiting delivery.
  bool isBatchBusy() const;
  /// Jobs replaced before they started (for tests and the status bar).
  quint64 replacedCount() const;
  /// How long the destructor waits for a cancelled job before detaching its worker.
  static constexpr int shutdownWaitMs() { return 100; }

 signals:
  /// Emitted on the GUI thread when the runner goes from idle to busy and back.
  void busyChanged(bool busy);
  /// Emitted on the GUI thread when the batch lane goes from idle to busy and back.
  void batchBusyChanged(bool busy);
  /// A result of `kind` was delivered (after its `done` ran).
  void jobDelivered(tirx::views::JobKind kind, quint64 generation);

 private:
  using Task = std::function<std::function<void()>(const CancelTokenPtr&)>;
  struct State;
  quint64 enqueue(JobKind kind, Task task);
  void deliver(JobKind kind, quint64 generation, const std::function<void()>& apply);
  void updateBusy();

  std::shared_ptr<State> m_state;  ///< shared with the workers, which may outlive the runner
  bool m_busy = false;
  bool m_batchBusy = false;
};

}  // namespace tirx::views
