// The local side of remote runs (remote.h): the ssh command line, and
// the conversation with `tirx runner --stdio` on the host over a socket pair that is ssh's stdin
// and stdout — greeting and version check, the request's files out, the response's files back —
// under the run's timeout and budget. ssh's own complaints (refused, authentication, unknown host
// key, no tirx on the host) are read from its stderr, kept in the request directory's ssh.log.
#include "core/driver/remote.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "core/driver/stream_io.h"
#include "core/driver/version.h"

namespace tirx::driver {

namespace {

std::vector<std::string> words(const char* text) {
  std::vector<std::string> w;
  if (!text) return w;
  std::istringstream in(text);
  std::string s;
  while (in >> s) w.push_back(s);
  return w;
}

/// The last non-empty lines of ssh's stderr (at most 300 characters), for a message.
std::string sshComplaint(const std::string& logPath) {
  std::ifstream in(logPath);
  std::string line, last, all;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty()) continue;
    last = line;
    all += (all.empty() ? "" : " | ") + line;
  }
  if (all.size() > 300) all = "…" + all.substr(all.size() - 300);
  return all;
}

/// A Status for an ssh that ended before the remote runner greeted us.
Status connectionStatus(const SshTarget& t, const std::string& log, int exitCode) {
  const std::string who =
      (t.user.empty() ? "" : t.user + "@") + t.host + (t.port ? ":" + std::to_string(t.port) : "");
  const auto has = [&](const char* s) { return log.find(s) != std::string::npos; };
  std::string msg;
  if (has("Connection refused"))
    msg = "cannot connect to " + who + ": connection refused (is sshd running there?)";
  else if (has("Permission denied"))
    msg = "ssh authentication to " + who + " failed (" + log +
          "); check the key, the ssh agent or ~/.ssh/config";
  else if (has("Host key verification failed") || has("REMOTE HOST IDENTIFICATION HAS CHANGED"))
    msg = "the host key of " + who +
          " is unknown or has changed; connect once with ssh to check and accept it";
  else if (has("Could not resolve hostname"))
    msg = "cannot resolve the host name of " + who;
  else if (has("timed out"))
    msg = "the connection to " + who + " timed out";
  else if (exitCode == 127 || has("command not found") || has("No such file or directory"))
    msg = "the host " + who + " has no tirx to run (" + log +
          "); install it there or set TIRX_REMOTE_TIRX";
  else
    msg = "ssh to " + who + " failed (exit status " + std::to_string(exitCode) + ")" +
          (log.empty() ? "" : ": " + log);
  return Status{"ssh", msg, exitCode};
}

int waitExit(pid_t pid, int graceMs) {
  int status = 0;
  for (int waited = 0;; waited += 5) {
    const pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) return -1;
    if (waited >= graceMs) {
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status)
                           : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

}  // namespace

std::string SshTarget::text() const {
  return "ssh://" + (user.empty() ? "" : user + "@") + host +
         (port ? ":" + std::to_string(port) : "") +
         (sim ? "/sim" : "/cuda:" + std::to_string(device));
}

std::vector<std::string> sshArgv(const SshTarget& t, const std::string& command) {
  const char* ssh = std::getenv("TIRX_SSH");
  std::vector<std::string> v{ssh && *ssh ? ssh : "ssh"};
  for (auto& w : words(std::getenv("TIRX_SSH_OPTIONS"))) v.push_back(w);
  for (const char* o :
       {"BatchMode=yes", "ConnectTimeout=10", "ServerAliveInterval=5", "ServerAliveCountMax=3"}) {
    v.push_back("-o");
    v.push_back(o);
  }
  v.push_back("-T");
  if (t.port) {
    v.push_back("-p");
    v.push_back(std::to_string(t.port));
  }
  v.push_back("--");
  v.push_back((t.user.empty() ? "" : t.user + "@") + t.host);
  const char* remote = std::getenv("TIRX_REMOTE_TIRX");
  v.push_back(std::string(remote && *remote ? remote : "tirx") + " " + command);
  return v;
}

RemoteRun runRemote(const SshTarget& target, const std::string& dir,
                    const std::vector<std::string>& files, int timeoutMs, WorkBudget* budget) {
  RemoteRun rr;
  const std::vector<std::string> argv = sshArgv(target);
  std::vector<char*> cargs;
  for (const auto& a : argv) cargs.push_back(const_cast<char*>(a.c_str()));
  cargs.push_back(nullptr);
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    rr.status = Status{"socketpair", std::strerror(errno), errno};
    return rr;
  }
  const std::string logPath = dir + "/ssh.log";
  const pid_t parent = ::getpid();
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) {
    rr.status = Status{"fork", std::strerror(errno), errno};
    ::close(sv[0]);
    ::close(sv[1]);
    return rr;
  }
  if (pid == 0) {  // async-signal-safe calls only
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    ::dup2(sv[1], 0);
    ::dup2(sv[1], 1);
    const int fd = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) ::dup2(fd, 2);
    ::execvp(cargs[0], cargs.data());
    ::_exit(127);
  }
  ::close(sv[1]);
  const int fd = sv[0];
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  rr.child.started = true;
  auto keepGoing = [&] {
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (budget && !budget->poll())
      rr.child.stop = ChildStop::Budget;
    else if (ms > timeoutMs)
      rr.child.stop = ChildStop::Timeout;
    return rr.child.stop == ChildStop::None;
  };
  StreamIo io(fd, keepGoing);
  const std::string who = target.text();
  auto finish = [&](int graceMs) {
    ::close(fd);  // the remote sees its stdin close: it stops its runner child
    if (rr.child.stop != ChildStop::None) ::kill(pid, SIGKILL);
    const int code = waitExit(pid, graceMs);
    rr.child.wallMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return code;
  };
  // 1. The greeting: the remote tirx's version and protocol.
  std::string line, why;
  IoResult r = io.readLine(line, 65536);
  if (r == IoResult::Stopped) return finish(0), rr;
  if (r != IoResult::Ok) {
    const int code = finish(15000);
    rr.status = connectionStatus(target, sshComplaint(logPath), code);
    return rr;
  }
  const nlohmann::json hello = nlohmann::json::parse(line, nullptr, false);
  if (!hello.is_object() || hello.value("type", nlohmann::json()) != "hello" ||
      !hello.contains("tirx") || !hello["tirx"].is_string() || !hello.contains("protocol") ||
      !hello["protocol"].is_number_integer()) {
    finish(0);
    rr.status = Status{"ssh",
                       who + " did not answer with the tirx runner protocol (it said '" +
                           line.substr(0, 120) +
                           "'); is the remote tirx too old to have `tirx runner --stdio`?",
                       0};
    return rr;
  }
  const std::string remoteVersion = hello["tirx"].get<std::string>();
  const int64_t protocol = hello["protocol"].get<int64_t>();
  if (remoteVersion != kTirxVersion || protocol != kStreamProtocol) {
    finish(0);
    rr.status = Status{"ssh",
                       "version skew: this tirx is " + std::string(kTirxVersion) + " (protocol " +
                           std::to_string(kStreamProtocol) + "), the one on " + who + " is " +
                           remoteVersion + " (protocol " + std::to_string(protocol) +
                           "); install the same version on both",
                       0};
    return rr;
  }
  // 2. The request's files.
  const nlohmann::json header = {
      {"type", "request"}, {"protocol", kStreamProtocol}, {"tirx", kTirxVersion}};
  r = writeFrame(io, header.dump(), dir, files, why);
  // 3. The response and the outputs (into the request directory, where the caller reads them).
  std::vector<std::string> got;
  if (r == IoResult::Ok) {
    std::remove((dir + "/response.json").c_str());
    r = readFrame(io, line, dir, got, why);
  }
  if (r == IoResult::Stopped) return finish(0), rr;
  if (r != IoResult::Ok) {
    const int code = finish(3000);
    if (r == IoResult::Error && !why.empty()) {
      rr.status = Status{"ssh", "bad answer from " + who + ": " + why, 0};
      return rr;
    }
    rr.dropped = true;
    const std::string said = sshComplaint(logPath);
    rr.dropReason = said.empty() ? "ssh exited with status " + std::to_string(code) : said;
    return rr;
  }
  const nlohmann::json resp = nlohmann::json::parse(line, nullptr, false);
  finish(3000);
  if (!resp.is_object()) {
    rr.status =
        Status{"ssh", "bad answer from " + who + ": the response frame is not a JSON object", 0};
    return rr;
  }
  if (resp.value("type", nlohmann::json()) == "error") {
    const auto m = resp.value("message", nlohmann::json());
    rr.status = Status{
        "ssh",
        "the tirx runner on " + who + ": " + (m.is_string() ? m.get<std::string>() : "failed"), 0};
    return rr;
  }
  const auto ex = resp.value("exit", nlohmann::json()),
             sig = resp.value("signal", nlohmann::json());
  rr.child.exitCode = ex.is_number_integer() ? ex.get<int>() : -1;
  rr.child.signal = sig.is_number_integer() ? sig.get<int>() : 0;
  return rr;
}

}  // namespace tirx::driver
