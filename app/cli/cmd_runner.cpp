// `tirx runner REQUEST.json RESPONSE.json` (hidden): the GPU runner child process of
// core/driver/cuda_executor.h — the protocol is docs/runner.md. `tirx runner --devices` prints
// the CUDA devices as JSON (exit 3 without a driver); `tirx runner --stdio` is the remote side of
// an ssh:// run (core/driver/remote.h).
#include <ostream>

#include "app/cli/cli.h"
#include "core/driver/cuda_executor.h"
#include "core/driver/remote.h"

namespace tirx::cli {

int cmdRunner(const Args& args, std::ostream& out, std::ostream& err) {
  if (args.size() == 1 && args[0] == "--devices") {
    auto j = driver::devicesJson();
    if (!j) {
      err << "tirx runner: " << j.error().text() << "\n";
      return 3;
    }
    out << *j << "\n";
    return 0;
  }
  if (args.size() == 1 && args[0] == "--stdio") return driver::runStream(0, 1);
  if (args.size() != 2) {
    err << "usage: tirx runner REQUEST.json RESPONSE.json | tirx runner --devices | tirx runner "
           "--stdio\n"
           "(internal: started by the GPU executor; see docs/runner.md)\n";
    return 2;
  }
  return driver::runRunner(args[0], args[1]);
}

}  // namespace tirx::cli
