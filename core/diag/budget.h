// One work budget for a job (a verify, a run, a harness loop): the simulated work of every kernel
// launch and every harness step is charged to one WorkBudget, together with wall-clock time and a
// cooperative CancelToken that the job's owner (the studio's Stop button, the CLI) can set from
// another thread. The engine checks `charge()` in its hot loops and, once it returns false, stops
// and reports `message()` as a diagnostic: a budget is an honest limit, never a guess about
// "runaway" code.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace tirx {

/// Set by the owner of a job from any thread; read by the engine at its budget checks.
class CancelToken {
 public:
  void cancel() noexcept { m_cancelled.store(true, std::memory_order_relaxed); }
  bool cancelled() const noexcept { return m_cancelled.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> m_cancelled{false};
};
using CancelTokenPtr = std::shared_ptr<CancelToken>;

struct BudgetLimits {
  /// Work units: one per simulated statement or element operation, one per harness step.
  int64_t maxWork = 4'000'000'000;
  /// Wall-clock seconds for the whole job; 0 means no time limit.
  double maxSeconds = 0;
};

enum class BudgetStop { None, Work, Time, Cancelled };

/// Not thread-safe except for the CancelToken: one job charges it from one thread.
class WorkBudget {
 public:
  explicit WorkBudget(BudgetLimits limits = {}, CancelTokenPtr cancel = nullptr);

  /// Charges `units` of work. Returns false once the work is spent, the time is up or the job was
  /// cancelled (stop() says which; later calls keep returning false). The clock and the cancel
  /// flag are read only every few thousand units, so the call is cheap in inner loops.
  bool charge(int64_t units = 1) {
    m_used += units;
    if (m_used < m_nextCheck) return true;
    return slowCheck();
  }
  /// Reads the clock and the cancel flag now (for a loop that charges rarely, e.g. a GPU wait).
  bool poll();

  BudgetStop stop() const { return m_stop; }
  bool exhausted() const { return m_stop != BudgetStop::None; }
  int64_t used() const { return m_used; }
  double elapsedSeconds() const;
  const BudgetLimits& limits() const { return m_limits; }
  const CancelTokenPtr& cancelToken() const { return m_cancel; }

  /// Why the job stopped, for a diagnostic: "the run was cancelled", "the run used its whole
  /// budget of 4000000000 work units (raise it with --budget)", "the run took longer than its
  /// time limit of 600 s (raise it with --timeout)". Empty while not exhausted.
  std::string message() const;

 private:
  bool slowCheck();

  BudgetLimits m_limits;
  CancelTokenPtr m_cancel;
  std::chrono::steady_clock::time_point m_start;
  int64_t m_used = 0;
  int64_t m_nextCheck = 0;
  BudgetStop m_stop = BudgetStop::None;
};

}  // namespace tirx
