// `tirx runner`: placeholder until its issue lands.
#include "app/cli/cli.h"

#include <ostream>

namespace tirx::cli {

int cmdRunner(const Args&, std::ostream&, std::ostream& err) {
  err << "tirx runner: not implemented yet\n";
  return 2;
}

}  // namespace tirx::cli
