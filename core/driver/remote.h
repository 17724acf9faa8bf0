// Remote GPU (or simulator) runs over OpenSSH: `--device ssh://[user@]host[:port]/cuda[:N]` or
// `…/sim`. The local side starts the system `ssh` (the user's config, agent and known hosts apply;
// BatchMode=yes so it never prompts) running `tirx runner --stdio` on the host, and speaks the
// runner protocol's stream mode over its stdin/stdout (docs/runner.md, "Stream mode"): the remote
// greets with its tirx version, the local side sends the request directory's files, the remote
// runs them in its own runner child and sends back the response and the outputs. Cancel or a
// timeout kills the local ssh; the remote sees its stdin close and kills its runner child.
// Connection, authentication and version-skew problems are Statuses (environment errors); a
// connection that drops during the run is a fault (E0954).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/diag/budget.h"
#include "core/diag/result.h"
#include "core/driver/child_process.h"

namespace tirx::driver {

/// The stream protocol's version (both sides must speak the same; the tirx versions must match
/// too).
inline constexpr int kStreamProtocol = 3;

struct SshTarget {
  std::string user, host;  ///< user may be empty (ssh's config decides)
  int port = 0;            ///< 0: ssh's default / config
  bool sim = false;        ///< run on the remote simulator instead of a GPU
  int device = 0;          ///< CUDA device index on the host
  /// "ssh://user@host:2222/cuda:0" (canonical form; core/driver/device.h parses it).
  std::string text() const;
};

/// The ssh command line: `ssh [$TIRX_SSH_OPTIONS] -o BatchMode=yes -o ConnectTimeout=10
/// -o ServerAliveInterval=5 -o ServerAliveCountMax=3 -T [-p PORT] -- [user@]host REMOTE` where
/// REMOTE is `$TIRX_REMOTE_TIRX COMMAND` (`tirx` when unset; COMMAND `runner --stdio` unless given,
/// `profile --stdio` for `tirx profile`). `ssh` is `$TIRX_SSH` when set.
std::vector<std::string> sshArgv(const SshTarget& target,
                                 const std::string& command = "runner --stdio");

/// The outcome of one remote run.
struct RemoteRun {
  Status status;         ///< set: the run never got to the remote runner (connection, auth, skew)
  ChildResult child;     ///< the remote runner child's end (exit code / signal), or the local stop
  bool dropped = false;  ///< the connection ended before the response arrived
  std::string dropReason;  ///< what ssh said about it
};

/// Sends `files` (names relative to `dir`, request.json among them) to `target`, runs the request
/// there and writes the response and output files it returns into `dir`. Stops (kills ssh) when
/// `timeoutMs` passes or `budget` is exhausted (child.stop says which).
RemoteRun runRemote(const SshTarget& target, const std::string& dir,
                    const std::vector<std::string>& files, int timeoutMs, WorkBudget* budget);

/// The remote side, `tirx runner --stdio`: greet, read one request from stdin, run it in a runner
/// child (the simulator's for `mode: sim`), send the response on stdout. Returns the exit code.
int runStream(int inFd, int outFd);

}  // namespace tirx::driver
