// `tirx bench`: placeholder until its issue lands.
#include "app/cli/cli.h"

#include <ostream>

namespace tirx::cli {

int cmdBench(const Args&, std::ostream&, std::ostream& err) {
  err << "tirx bench: not implemented yet\n";
  return 2;
}

}  // namespace tirx::cli
