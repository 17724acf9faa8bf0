// WorkBudget: the slow path of charge() — clock, cancel flag and work limit.
#include "core/diag/budget.h"

#include <algorithm>

namespace tirx {

namespace {
constexpr int64_t kCheckEvery = 1 << 14;
}

WorkBudget::WorkBudget(BudgetLimits limits, CancelTokenPtr cancel)
    : m_limits(limits), m_cancel(std::move(cancel)), m_start(std::chrono::steady_clock::now()) {}

double WorkBudget::elapsedSeconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
}

bool WorkBudget::poll() {
  if (m_stop != BudgetStop::None) return false;
  if (m_cancel && m_cancel->cancelled()) {
    m_stop = BudgetStop::Cancelled;
  } else if (m_used > m_limits.maxWork) {
    m_stop = BudgetStop::Work;
  } else if (m_limits.maxSeconds > 0 && elapsedSeconds() > m_limits.maxSeconds) {
    m_stop = BudgetStop::Time;
  }
  if (m_stop != BudgetStop::None) {
    m_nextCheck = m_used;  // every later charge() comes back to the slow path and fails
    return false;
  }
  m_nextCheck = std::min(m_used + kCheckEvery, m_limits.maxWork + 1);
  return true;
}

bool WorkBudget::slowCheck() {
  return poll();
}

std::string WorkBudget::message() const {
  switch (m_stop) {
    case BudgetStop::None:
      return {};
    case BudgetStop::Cancelled:
      return "the run was cancelled";
    case BudgetStop::Work:
      return "the run used its whole budget of " + std::to_string(m_limits.maxWork) +
             " work units (raise it with --budget)";
    case BudgetStop::Time: {
      std::string s = std::to_string(m_limits.maxSeconds);
      s.erase(s.find_last_not_of('0') + 1);
      if (!s.empty() && s.back() == '.') s.pop_back();
      return "the run took longer than its time limit of " + s + " s (raise it with --timeout)";
    }
  }
  return {};
}

}  // namespace tirx
