// `tirx layout`: placeholder until its issue lands.
#include "app/cli/cli.h"

#include <ostream>

namespace tirx::cli {

int cmdLayout(const Args&, std::ostream&, std::ostream& err) {
  err << "tirx layout: not implemented yet\n";
  return 2;
}

}  // namespace tirx::cli
