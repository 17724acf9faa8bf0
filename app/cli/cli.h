// The `tirx` command-line tool as a library function, so that tests run it in-process and the
// binary's main() stays one line. Each subcommand lives in its own cmd_*.cpp and has the
// signature below; exit codes follow docs/cli.md: 0 success, 1 diagnostic error / failed check /
// runtime fault, 2 usage or I/O error, 3 environment (no driver, no GPU).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "core/diag/budget.h"
#include "core/driver/device.h"
#include "core/verify/verify.h"

namespace tirx::cli {

using Args = std::vector<std::string>;

/// Run `tirx ARGS...` (args excludes the program name). Output goes to `out`, errors to `err`.
int runCli(const Args& args, std::ostream& out, std::ostream& err);

int cmdCheck(const Args& args, std::ostream& out, std::ostream& err);
int cmdLayout(const Args& args, std::ostream& out, std::ostream& err);
int cmdCompile(const Args& args, std::ostream& out, std::ostream& err);
int cmdRun(const Args& args, std::ostream& out, std::ostream& err);
int cmdVerify(const Args& args, std::ostream& out, std::ostream& err);
int cmdDebug(const Args& args, std::ostream& out, std::ostream& err);
int cmdBench(const Args& args, std::ostream& out, std::ostream& err);
int cmdBundle(const Args& args, std::ostream& out, std::ostream& err);
int cmdReplay(const Args& args, std::ostream& out, std::ostream& err);
int cmdPtxConform(const Args& args, std::ostream& out, std::ostream& err);
int cmdScalarConform(const Args& args, std::ostream& out, std::ostream& err);
int cmdDiff(const Args& args, std::ostream& out, std::ostream& err);
int cmdTune(const Args& args, std::ostream& out, std::ostream& err);
/// Hidden: one Slurm task of `tirx tune --device slurm` (`tirx tune-task DIR INDEX`).
int cmdTuneTask(const Args& args, std::ostream& out, std::ostream& err);
int cmdProfile(const Args& args, std::ostream& out, std::ostream& err);
/// Hidden: the GPU runner child process (`tirx runner REQUEST.json RESPONSE.json`).
int cmdRunner(const Args& args, std::ostream& out, std::ostream& err);

/// Read a whole script file; false (and a message on `err`) when it is unreadable, a directory,
/// or larger than kMaxScriptBytes.
bool readFile(const std::string& path, std::string& text, std::ostream& err);
inline constexpr size_t kMaxScriptBytes = 16u << 20;

/// Strict option values (no exceptions, no partial parses): a wall-clock limit in seconds (a
/// finite number in (0, 1e6]), an integer in [lo, hi]. False with `why` set for anything else.
bool parseSeconds(const std::string& text, double& seconds, std::string& why);
bool parseInteger(const std::string& text, int64_t lo, int64_t hi, int64_t& value,
                  std::string& why);

struct Options;
/// Which device forms a command takes besides sim, cuda[:N] and ssh://… (driver::parseDevice).
struct DeviceForms {
  bool both = false;      ///< `both` (verify)
  bool sanitize = false;  ///< `--sanitize TOOL`
  bool sim = true;        ///< `sim` (bench: GPU timings only)
  bool remote = true;     ///< ssh://… devices
};
/// `--device` (`fallback` when absent) and, where the command takes it, `--sanitize`, read by
/// driver::parseDevice. Nullopt after "tirx COMMAND: --device: why" (or the sanitizer's message)
/// on `err`: the caller exits with 2.
std::optional<driver::DeviceSpec> deviceOption(const Options& o, const std::string& command,
                                               std::ostream& err,
                                               const std::string& fallback = "sim",
                                               DeviceForms forms = {});

/// While alive, SIGINT (Ctrl-C) cancels `token` instead of killing the process; a second Ctrl-C
/// kills it as usual. `interrupted()` says whether it happened.
class InterruptCancels {
 public:
  explicit InterruptCancels(CancelTokenPtr token);
  ~InterruptCancels();
  InterruptCancels(const InterruptCancels&) = delete;
  InterruptCancels& operator=(const InterruptCancels&) = delete;
  bool interrupted() const;

 private:
  CancelTokenPtr m_token;
  void (*m_previous)(int) = nullptr;  ///< the SIGINT disposition to restore
};
/// Exit status after a Ctrl-C (128 + SIGINT, as shells report it).
inline constexpr int kExitInterrupted = 130;

/// Small shared option parser: `--name value`, `--name=value`, flags, positionals.
struct Options {
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> named;  ///< repeated options kept in order
  std::vector<std::string> flags;
  std::string error;  ///< non-empty on a usage error
  bool has(const std::string& flag) const;
  std::string get(const std::string& name, const std::string& fallback = {}) const;
  std::vector<std::string> getAll(const std::string& name) const;
};
/// `valueOptions` lists the options that take a value; anything else starting with -- is a flag.
Options parseOptions(const Args& args, const std::vector<std::string>& valueOptions,
                     const std::vector<std::string>& flagOptions);

}  // namespace tirx::cli
