// `tirx verify`: placeholder until its issue lands.
#include "app/cli/cli.h"

#include <ostream>

namespace tirx::cli {

int cmdVerify(const Args&, std::ostream&, std::ostream& err) {
  err << "tirx verify: not implemented yet\n";
  return 2;
}

}  // namespace tirx::cli
