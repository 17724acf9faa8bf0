// `tirx compile`: placeholder until its issue lands.
#include "app/cli/cli.h"

#include <ostream>

namespace tirx::cli {

int cmdCompile(const Args&, std::ostream&, std::ostream& err) {
  err << "tirx compile: not implemented yet\n";
  return 2;
}

}  // namespace tirx::cli
