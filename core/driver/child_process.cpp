// fork/exec/waitpid of the runner child with a polling wait: the timeout, the job's budget and its
// cancel flag are read between non-blocking waitpid calls (1 ms apart for the first 50 ms, so a
// fast kernel costs no extra latency, then 5 ms).
#include "core/driver/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

namespace tirx::driver {

std::string signalName(int sig) {
  switch (sig) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGABRT:
      return "SIGABRT";
    case SIGKILL:
      return "SIGKILL";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    default:
      return "signal " + std::to_string(sig);
  }
}

ChildResult runChild(const std::string& exe, const std::vector<std::string>& argv,
                     const std::string& logPath, int timeoutMs, WorkBudget* budget) {
  return runChildIo(exe, argv, ChildIo{"", logPath, logPath}, timeoutMs, budget);
}

ChildResult runChildIo(const std::string& exe, const std::vector<std::string>& argv,
                       const ChildIo& io, int timeoutMs, WorkBudget* budget) {
  ChildResult r;
  std::vector<char*> cargs;
  for (const auto& a : argv) cargs.push_back(const_cast<char*>(a.c_str()));
  cargs.push_back(nullptr);
  const pid_t parent = ::getpid();
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) {
    r.startErrno = errno;
    return r;
  }
  if (pid == 0) {
    // Only async-signal-safe calls from here to execv.
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);  // the parent died before prctl took effect
    const int fd = ::open(io.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      if (io.err == io.out) ::dup2(fd, 2);
      ::close(fd);
    }
    if (io.err != io.out) {
      const int efd = ::open(io.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (efd >= 0) {
        ::dup2(efd, 2);
        ::close(efd);
      }
    }
    const int in = ::open(io.in.empty() ? "/dev/null" : io.in.c_str(), O_RDONLY);
    if (in >= 0) ::dup2(in, 0);
    ::execvp(exe.c_str(), cargs.data());
    ::_exit(127);
  }
  r.started = true;
  int status = 0;
  for (;;) {
    const pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) {  // cannot happen for our own child; never leave it running
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      break;
    }
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (budget && !budget->poll())
      r.stop = ChildStop::Budget;
    else if (ms > timeoutMs)
      r.stop = ChildStop::Timeout;
    if (r.stop != ChildStop::None) {
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(ms < 50 ? 1 : 5));
  }
  r.wallMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (r.stop == ChildStop::None) {
    if (WIFEXITED(status)) r.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  }
  return r;
}

}  // namespace tirx::driver
