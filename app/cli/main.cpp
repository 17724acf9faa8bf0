// The `tirx` binary: everything is in app/cli/cli.cpp and the cmd_*.cpp files.
#include <iostream>

#include "app/cli/cli.h"

int main(int argc, char** argv) {
  return tirx::cli::runCli(tirx::cli::Args(argv + 1, argv + argc), std::cout, std::cerr);
}
