// `tirx profile` on a GPU host over ssh (`--device ssh://[user@]host[:port]/cuda[:N]`): ncu
// profiles processes of its own machine, so the script (and a `--sass` listing) travels to the host
// in one JSON request on the stdin of `ssh … tirx profile --stdio`, which profiles it there in a
// temporary folder and answers with one JSON line (exit status, messages, the REPORT.json summary)
// followed by the raw bytes of REPORT.ncu-rep; the local side writes REPORT.json and REPORT.ncu-rep
// and prints what a local profile prints. Documented in docs/cli.md ("tirx profile").
#pragma once

#include <istream>
#include <ostream>
#include <string>

#include "core/driver/remote.h"

namespace tirx::cli {

struct Options;

/// The version of the request and answer below; both sides must speak the same one.
inline constexpr int kProfileStdioProtocol = 1;

/// The local side: profile `path` (its text `source`) on `target` with the options of `o`
/// (--kernel, --arch, --clock-control, --sass, -o, --json). Exit status as `tirx profile`'s; 3
/// when ssh or the host's tirx cannot be reached or does not answer.
int profileOverSsh(const driver::SshTarget& target, const std::string& path,
                   const std::string& source, const Options& o, std::ostream& out,
                   std::ostream& err);

/// The host's side, `tirx profile --stdio`: one request from `in`, the answer on `out`. Returns
/// 0 once an answer was written (the profile's own status travels inside it).
int profileStdio(std::istream& in, std::ostream& out);

}  // namespace tirx::cli
