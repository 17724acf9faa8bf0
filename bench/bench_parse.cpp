// Parser benchmark: median wall time of parseScript (lex + parse) over 1000 runs for each
// test kernel (tests/data/kernels), plus lexing alone and unparse, in microseconds. Run by hand:
//   build/bin/bench_parse          figures go to docs/benchmarks.md under "Parser".
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/script/lexer.h"
#include "core/script/parser.h"

namespace {

std::string readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

template <class F>
double medianMicros(int runs, F&& body) {
  std::vector<double> times;
  times.reserve(static_cast<size_t>(runs));
  for (int i = 0; i < runs; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    body();
    const auto t1 = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  std::nth_element(times.begin(), times.begin() + runs / 2, times.end());
  return times[static_cast<size_t>(runs / 2)];
}

}  // namespace

int main() {
  const char* names[] = {"affine_relu.py", "silu.py", "to_float16.py", "two_kernels.py"};
  std::printf("%-22s %7s %7s %10s %10s %10s\n", "script", "bytes", "tokens", "lex us", "parse us",
              "unparse us");
  for (const char* name : names) {
    const std::string src = readFile(std::string(TIRX_SOURCE_DIR) + "/tests/data/kernels/" + name);
    if (src.empty()) {
      std::printf("%s: cannot read\n", name);
      return 1;
    }
    size_t tokens = 0, statements = 0;
    const double lexUs = medianMicros(1000, [&] { tokens = tirx::script::lex(src).tokens.size(); });
    const double parseUs =
        medianMicros(1000, [&] { statements += tirx::parseScript(src, name).module.body.size(); });
    const tirx::ParseResult parsed = tirx::parseScript(src, name);
    size_t chars = 0;
    const double unparseUs =
        medianMicros(1000, [&] { chars += tirx::unparse(parsed.module).size(); });
    std::printf("%-22s %7zu %7zu %10.1f %10.1f %10.1f\n", name, src.size(), tokens, lexUs, parseUs,
                unparseUs);
    if (statements == 0 || chars == 0) return 1;
  }
  return 0;
}
