// `tirx run`: placeholder until its issue lands.
#include "app/cli/cli.h"

#include <ostream>

namespace tirx::cli {

int cmdRun(const Args&, std::ostream&, std::ostream& err) {
  err << "tirx run: not implemented yet\n";
  return 2;
}

}  // namespace tirx::cli
