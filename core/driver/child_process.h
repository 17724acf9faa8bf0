// Runs the runner child process and waits for it under a time limit and the job's budget: the
// child gets its own process group (a Ctrl-C in the terminal reaches only the parent, which then
// cancels and kills the child) and dies with its parent (PR_SET_PDEATHSIG). The parent polls
// the child every few milliseconds and kills it with SIGKILL once the timeout passes or the
// WorkBudget is exhausted (time limit, cancellation).
#pragma once

#include <string>
#include <vector>

#include "core/diag/budget.h"

namespace tirx::driver {

enum class ChildStop { None, Timeout, Budget };

struct ChildResult {
  bool started = false;
  int startErrno = 0;
  ChildStop stop = ChildStop::None;  ///< why the parent killed it (None: it ended by itself)
  int exitCode = -1;                 ///< when it exited
  int signal = 0;                    ///< when a signal ended it (and the parent did not kill it)
  double wallMs = 0;
};

/// fork/exec `exe` with `argv` (argv[0] included), stdout and stderr to `logPath`, stdin from
/// /dev/null. Waits at most `timeoutMs`, and stops early when `budget` (may be null) is exhausted.
ChildResult runChild(const std::string& exe, const std::vector<std::string>& argv,
                     const std::string& logPath, int timeoutMs, WorkBudget* budget);

/// Where a child's standard streams go: stdin read from `in` ("" = /dev/null), stdout written to
/// `out`, stderr to `err` (the same path for both: one log).
struct ChildIo {
  std::string in, out, err;
};
/// As runChild, with the streams of `io`; `exe` is looked up on PATH when it holds no '/'.
ChildResult runChildIo(const std::string& exe, const std::vector<std::string>& argv,
                       const ChildIo& io, int timeoutMs, WorkBudget* budget);

/// "SIGSEGV", "SIGABRT", … or "signal N".
std::string signalName(int sig);

}  // namespace tirx::driver
