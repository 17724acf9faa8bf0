// The one job runner of the studio: engine work (front end, compile, verify, layout tables) runs
// on a single worker thread. A job takes value inputs (captured by value), returns a value, and the
// value is handed back on the GUI thread through a queued call. There is one pending slot per job
// kind: a newer job of a kind replaces a queued one that has not started, and a result whose
// generation is older than the newest submitted of its kind is dropped. Receivers are guarded with
// QPointer, so a widget that died while its job ran never sees the result.
#pragma once

#include <QObject>
#include <QPointer>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace tirx::views {

enum class JobKind { FrontEnd, Compile, Verify, Layout };

class JobRunner : public QObject {
  Q_OBJECT
 public:
  explicit JobRunner(QObject* parent = nullptr);
  ~JobRunner() override;

  /// Queue `work` (run on the worker) of `kind`; `done` runs on the GUI thread with its value when
  /// the job finished, `receiver` is still alive and no newer job of `kind` was submitted.
  /// Returns the job's generation (strictly increasing per kind).
  template <class R>
  quint64 submit(JobKind kind, std::function<R()> work, QObject* receiver,
                 std::function<void(R)> done) {
    QPointer<QObject> guard(receiver);
    auto task = [work = std::move(work), done = std::move(done), guard]() -> std::function<void()> {
      auto value = std::make_shared<R>(work());
      return [value, done, guard]() {
        if (guard) done(std::move(*value));
      };
    };
    return enqueue(kind, std::move(task));
  }

  /// The newest generation submitted for `kind` (0 when none).
  quint64 latestGeneration(JobKind kind) const;
  /// True when nothing is queued or running and no result is waiting for delivery.
  bool isIdle() const;
  /// Jobs replaced before they started (for tests and the status bar).
  quint64 replacedCount() const;

 signals:
  /// Emitted on the GUI thread when the runner goes from idle to busy and back.
  void busyChanged(bool busy);
  /// A result of `kind` was delivered (after its `done` ran).
  void jobDelivered(tirx::views::JobKind kind, quint64 generation);

 private:
  using Task = std::function<std::function<void()>()>;
  struct Pending {
    quint64 generation = 0;
    Task task;
  };
  quint64 enqueue(JobKind kind, Task task);
  void workerLoop();
  void deliver(JobKind kind, quint64 generation, const std::function<void()>& apply);
  void updateBusy();

  mutable std::mutex m_mutex;
  std::condition_variable m_wake;
  std::map<JobKind, Pending> m_pending;
  std::deque<JobKind> m_order;  ///< kinds in submission order (one entry per pending kind)
  std::map<JobKind, quint64> m_latest;
  int m_inFlight = 0;  ///< running or awaiting delivery on the GUI thread
  quint64 m_replaced = 0;
  bool m_stop = false;
  bool m_busy = false;
  std::thread m_worker;
};

}  // namespace tirx::views
