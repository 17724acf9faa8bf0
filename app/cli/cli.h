// The `tirx` command-line tool as a library function, so that tests run it in-process and the
// binary's main() stays one line. Each subcommand lives in its own cmd_*.cpp and has the
// signature below; exit codes follow docs/cli.md: 0 success, 1 diagnostic error / failed check /
// runtime fault, 2 usage or I/O error, 3 environment (no driver, no GPU).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace tirx::cli {

using Args = std::vector<std::string>;

/// Run `tirx ARGS...` (args excludes the program name). Output goes to `out`, errors to `err`.
int runCli(const Args& args, std::ostream& out, std::ostream& err);

int cmdCheck(const Args& args, std::ostream& out, std::ostream& err);
int cmdLayout(const Args& args, std::ostream& out, std::ostream& err);
int cmdCompile(const Args& args, std::ostream& out, std::ostream& err);
int cmdRun(const Args& args, std::ostream& out, std::ostream& err);
int cmdVerify(const Args& args, std::ostream& out, std::ostream& err);
int cmdBench(const Args& args, std::ostream& out, std::ostream& err);
int cmdPtxConform(const Args& args, std::ostream& out, std::ostream& err);
/// Hidden: the GPU runner child process (`tirx runner REQUEST.json RESPONSE.json`).
int cmdRunner(const Args& args, std::ostream& out, std::ostream& err);

/// Read a whole file; false (and a message on `err`) when unreadable.
bool readFile(const std::string& path, std::string& text, std::ostream& err);

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
