// JobRunner: one worker std::thread draining a per-kind pending slot; results are posted back to
// the runner's (GUI) thread with QMetaObject::invokeMethod and a queued connection.
#include "views/job_runner.h"

#include <QMetaObject>

namespace tirx::views {

JobRunner::JobRunner(QObject* parent) : QObject(parent) {
  m_worker = std::thread([this] { workerLoop(); });
}

JobRunner::~JobRunner() {
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
    m_pending.clear();
    m_order.clear();
  }
  m_wake.notify_all();
  if (m_worker.joinable()) m_worker.join();
}

quint64 JobRunner::enqueue(JobKind kind, Task task) {
  quint64 generation = 0;
  {
    std::lock_guard lock(m_mutex);
    generation = ++m_latest[kind];
    auto it = m_pending.find(kind);
    if (it != m_pending.end()) {
      ++m_replaced;  // the queued job of this kind never starts: the newer one replaces it
      it->second = Pending{generation, std::move(task)};
    } else {
      m_pending[kind] = Pending{generation, std::move(task)};
      m_order.push_back(kind);
    }
  }
  m_wake.notify_one();
  updateBusy();
  return generation;
}

void JobRunner::workerLoop() {
  for (;;) {
    JobKind kind;
    Pending job;
    {
      std::unique_lock lock(m_mutex);
      m_wake.wait(lock, [this] { return m_stop || !m_order.empty(); });
      if (m_stop) return;
      kind = m_order.front();
      m_order.pop_front();
      job = std::move(m_pending[kind]);
      m_pending.erase(kind);
      ++m_inFlight;
    }
    std::function<void()> apply = job.task();
    quint64 generation = job.generation;
    QMetaObject::invokeMethod(
        this, [this, kind, generation, apply] { deliver(kind, generation, apply); },
        Qt::QueuedConnection);
  }
}

void JobRunner::deliver(JobKind kind, quint64 generation, const std::function<void()>& apply) {
  bool current = false;
  {
    std::lock_guard lock(m_mutex);
    --m_inFlight;
    current = generation == m_latest[kind];
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
  std::lock_guard lock(m_mutex);
  auto it = m_latest.find(kind);
  return it == m_latest.end() ? 0 : it->second;
}

bool JobRunner::isIdle() const {
  std::lock_guard lock(m_mutex);
  return m_order.empty() && m_inFlight == 0;
}

quint64 JobRunner::replacedCount() const {
  std::lock_guard lock(m_mutex);
  return m_replaced;
}

void JobRunner::updateBusy() {
  bool busy = !isIdle();
  if (busy == m_busy) return;
  m_busy = busy;
  emit busyChanged(busy);
}

}  // namespace tirx::views
