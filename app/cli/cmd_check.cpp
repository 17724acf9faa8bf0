// `tirx check`: placeholder until its issue lands.
#include "app/cli/cli.h"

#include <ostream>

namespace tirx::cli {

int cmdCheck(const Args&, std::ostream&, std::ostream& err) {
  err << "tirx check: not implemented yet\n";
  return 2;
}

}  // namespace tirx::cli
