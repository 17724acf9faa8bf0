// JobRunner: one worker std::thread per lane, each draining its per-kind pending slots; results are
// posted back to the runner's (GUI) thread with QMetaObject::invokeMethod and a queued connection.
// The state the workers touch lives in a shared State, so that a worker detached by the destructor
// (stuck in an engine call that does not check its cancel token) never touches a dead runner.
#include "views/engine/job_runner.h"

#include <QMetaObject>
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

namespace tirx::views {

JobLane laneOf(JobKind kind) {
  return kind == JobKind::Compile || kind == JobKind::Verify || kind == JobKind::Diff ||
                 kind == JobKind::DebugStart || kind == JobKind::Tune
             ? JobLane::Batch
             : JobLane::Interactive;
}

struct JobRunner::State {
  struct Pending {
    quint64 generation = 0;
    Task task;
  };
  struct Lane {
    std::map<JobKind, Pending> pending;
    std::deque<JobKind> order;  ///< kinds in submission order (one entry per pending kind)
    CancelTokenPtr running;     ///< the token of the job now running, null when none
    JobKind runningKind = JobKind::FrontEnd;
    int inFlight = 0;  ///< running or awaiting delivery on the GUI thread
    bool exited = false;
    std::thread thread;
  };

  std::mutex mutex;
  std::condition_variable wake;
  std::condition_variable exitedCv;
  Lane lanes[2];
  std::map<JobKind, quint64> latest;
  quint64 replaced = 0;
  bool stop = false;
  JobRunner* owner = nullptr;  ///< null once the runner is being destroyed

  Lane& laneFor(JobKind kind) { return lanes[static_cast<int>(laneOf(kind))]; }
  static void workerLoop(const std::shared_ptr<State>& self, int laneIndex);
};

void JobRunner::State::workerLoop(const std::shared_ptr<State>& self, int laneIndex) {
  State& s = *self;
  Lane& lane = s.lanes[laneIndex];
  for (;;) {
    JobKind kind;
    Pending job;
    CancelTokenPtr cancel = std::make_shared<CancelToken>();
    {
      std::unique_lock lock(s.mutex);
      s.wake.wait(lock, [&] { return s.stop || !lane.order.empty(); });
      if (s.stop) break;
      kind = lane.order.front();
      lane.order.pop_front();
      job = std::move(lane.pending[kind]);
      lane.pending.erase(kind);
      ++lane.inFlight;
      lane.running = cancel;
      lane.runningKind = kind;
    }
    std::function<void()> apply = job.task(cancel);
    std::lock_guard lock(s.mutex);
    lane.running.reset();
    if (s.stop || !s.owner) break;
    JobRunner* owner = s.owner;
    quint64 generation = job.generation;
    // Posted while holding the mutex: the destructor clears `owner` under it, and ~QObject then
    // discards events already posted, so the call never reaches a dead runner.
    QMetaObject::invokeMethod(
        owner, [owner, kind, generation, apply] { owner->deliver(kind, generation, apply); },
        Qt::QueuedConnection);
  }
  std::lock_guard lock(s.mutex);
  lane.exited = true;
  s.exitedCv.notify_all();
}

JobRunner::JobRunner(QObject* parent) : QObject(parent), m_state(std::make_shared<State>()) {
  m_state->owner = this;
  for (int i = 0; i < 2; ++i)
    m_state->lanes[i].thread = std::thread([state = m_state, i] { State::workerLoop(state, i); });
}

JobRunner::~JobRunner() {
  State& s = *m_state;
  std::unique_lock lock(s.mutex);
  s.stop = true;
  s.owner = nullptr;
  for (auto& lane : s.lanes) {
    lane.pending.clear();
    lane.order.clear();
    if (lane.running) lane.running->cancel();
  }
  s.wake.notify_all();
  // The engine checks its token every few thousand work units, so a cancelled simulation ends
  // within milliseconds; a worker inside a call that cannot be cancelled (NVRTC) is detached: it
  // owns a reference to the state and finishes on its own.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(shutdownWaitMs());
  s.exitedCv.wait_until(lock, deadline, [&] { return s.lanes[0].exited && s.lanes[1].exited; });
  for (auto& lane : s.lanes) {
    if (lane.exited) {
      lock.unlock();
      lane.thread.join();
      lock.lock();
    } else {
      lane.thread.detach();
    }
  }
}

quint64 JobRunner::enqueue(JobKind kind, Task task) {
  quint64 generation = 0;
  {
    std::lock_guard lock(m_state->mutex);
    State& s = *m_state;
    generation = ++s.latest[kind];
    State::Lane& lane = s.laneFor(kind);
    auto it = lane.pending.find(kind);
    if (it != lane.pending.end()) {
      ++s.replaced;  // the queued job of this kind never starts: the newer one replaces it
      it->second = State::Pending{generation, std::move(task)};
    } else {
      lane.pending[kind] = State::Pending{generation, std::move(task)};
      // Live diagnostics go first: a keystroke's check never waits behind a queued table or
      // detail job of the previous text (issue 22, decision LIVE-3).
      if (kind == JobKind::FrontEnd)
        lane.order.push_front(kind);
      else
        lane.order.push_back(kind);
    }
    // A running job of the same kind is now stale (its result would be dropped): stop it early.
    if (lane.running && lane.runningKind == kind) lane.running->cancel();
  }
  m_state->wake.notify_all();
  updateBusy();
  return generation;
}

bool JobRunner::cancelBatch() {
  bool had = false;
  {
    std::lock_guard lock(m_state->mutex);
    State::Lane& lane = m_state->lanes[static_cast<int>(JobLane::Batch)];
    had = lane.running || !lane.order.empty();
    if (lane.running) lane.running->cancel();
    lane.pending.clear();
    lane.order.clear();
  }
  updateBusy();
  return had;
}

bool JobRunner::cancelKind(JobKind kind) {
  bool had = false;
  {
    std::lock_guard lock(m_state->mutex);
    State& s = *m_state;
    State::Lane& lane = s.laneFor(kind);
    if (lane.pending.erase(kind)) {
      had = true;
      lane.order.erase(std::remove(lane.order.begin(), lane.order.end(), kind), lane.order.end());
    }
    if (lane.running && lane.runningKind == kind) {
      lane.running->cancel();
      had = true;
    }
    ++s.latest[kind];  // a result of the cancelled job already posted is stale
  }
  updateBusy();
  return had;
}

void JobRunner::deliver(JobKind kind, quint64 generation, const std::function<void()>& apply) {
  bool current = false;
  {
    std::lock_guard lock(m_state->mutex);
    --m_state->laneFor(kind).inFlight;
    current = generation == m_state->latest[kind];
  }
  // A stale result (a newer job of the kind was submitted meanwhile) is dropped: its newer
  // sibling is queued or running and will be delivered.
  if (current) {
    apply();
    emit jobDelivered(kind, generation);
  }
  updateBusy();
}

quint64 JobRunner::latestGeneration(JobKind kind) const {
  std::lock_guard lock(m_state->mutex);
  auto it = m_state->latest.find(kind);
  return it == m_state->latest.end() ? 0 : it->second;
}

bool JobRunner::isIdle() const {
  std::lock_guard lock(m_state->mutex);
  for (const auto& lane : m_state->lanes)
    if (!lane.order.empty() || lane.inFlight) return false;
  return true;
}

bool JobRunner::isBatchBusy() const {
  std::lock_guard lock(m_state->mutex);
  const auto& lane = m_state->lanes[static_cast<int>(JobLane::Batch)];
  return !lane.order.empty() || lane.inFlight;
}

quint64 JobRunner::replacedCount() const {
  std::lock_guard lock(m_state->mutex);
  return m_state->replaced;
}

void JobRunner::updateBusy() {
  bool busy = !isIdle();
  bool batch = isBatchBusy();
  if (batch != m_batchBusy) {
    m_batchBusy = batch;
    emit batchBusyChanged(batch);
  }
  if (busy == m_busy) return;
  m_busy = busy;
  emit busyChanged(busy);
}

}  // namespace tirx::views
