// Front-end latency: checkScript (parse + sema, i.e. what the editor runs on every keystroke) on
// each test kernel of tests/data/kernels, median and 95th percentile over N runs (default 2000).
// Budget: ≤ 2 ms per script (DESIGN §7). Then the 100-kernel script with dynamic shapes
// (bench/kernels/dynamic_100.py, issue 13), N / 20 runs: median per script and per kernel
// (budget: ≤ 2 ms per kernel). Usage: bench_check [RUNS]. Figures go to docs/benchmarks.md.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/sema/sema.h"

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 2000;
  const char* names[] = {"affine_relu.py", "silu.py", "to_float16.py", "two_kernels.py"};
  std::printf("%-24s %8s %10s %10s %10s %16s\n", "script", "runs", "median_us", "p95_us", "min_us",
              "parse_median_us");
  int failures = 0;
  for (const char* name : names) {
    std::ifstream in(std::string(TIRX_SOURCE_DIR "/tests/data/kernels/") + name);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string src = ss.str();
    if (src.empty()) {
      std::fprintf(stderr, "cannot read %s\n", name);
      return 2;
    }
    std::vector<double> us;
    us.reserve(runs);
    size_t sink = 0;
    for (int i = 0; i < runs; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      const tirx::FrontEndResult r = tirx::checkScript(src, name);
      const auto t1 = std::chrono::steady_clock::now();
      sink += r.diagnostics.size() + r.program.kernels.size();
      if (!r.ok()) ++failures;
      us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
    std::vector<double> parseUs;
    parseUs.reserve(runs);
    for (int i = 0; i < runs; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      const tirx::ParseResult p = tirx::parseScript(src, name);
      const auto t1 = std::chrono::steady_clock::now();
      sink += p.module.body.size();
      parseUs.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
    std::sort(us.begin(), us.end());
    std::sort(parseUs.begin(), parseUs.end());
    std::printf("%-24s %8d %10.1f %10.1f %10.1f %16.1f\n", name, runs, us[us.size() / 2],
                us[us.size() * 95 / 100], us.front(), parseUs[parseUs.size() / 2]);
    if (sink == 0) std::printf("(no kernels?)\n");
  }
  {
    // 100 kernels with symbolic extents, runtime grids, guards and static-bounds work.
    std::ifstream in(TIRX_SOURCE_DIR "/bench/kernels/dynamic_100.py");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string src = ss.str();
    if (src.empty()) {
      std::fprintf(stderr, "cannot read bench/kernels/dynamic_100.py\n");
      return 2;
    }
    const int n = std::max(1, runs / 20);
    std::vector<double> ms;
    size_t kernels = 0;
    for (int i = 0; i < n; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      const tirx::FrontEndResult r = tirx::checkScript(src, "dynamic_100.py");
      const auto t1 = std::chrono::steady_clock::now();
      kernels = r.program.kernels.size();
      if (!r.ok()) ++failures;
      ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    const double per = kernels ? ms[ms.size() / 2] / double(kernels) : 0;
    std::printf("%-24s %8d %10.2f ms/script %8.2f ms p95 %8.3f ms/kernel (%zu kernels)\n",
                "dynamic_100.py", n, ms[ms.size() / 2], ms[ms.size() * 95 / 100], per, kernels);
    if (kernels != 100) ++failures;
  }
  if (failures) std::fprintf(stderr, "%d runs reported errors\n", failures);
  return failures ? 1 : 0;
}
