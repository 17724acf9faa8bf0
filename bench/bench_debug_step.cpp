// Tile-level debugger speed (issue 15, budget ≤ 50 ms per tile op on a 64×64×64 GEMM):
// resources/examples/gemm_ldmatrix_swizzled.py (one CTA, 4 warps, 64×64×64 bf16 → f32), or
// gemm_bf16_tiled.py with its constants rewritten to M = N = 64 and K = SIZE. Measures, in wall
// time on one core: the recording (DebugSession::start: one verify of the script on the simulator
// with the lock-step observer), then every step forward and every step back, each followed by the
// facts of the accumulator `acc` and of the output `C` (values, owners, flags, error against the
// reference: what a debugger stop shows). Prints the recording time, the mean and worst time of
// one step with its facts, and the trace's bytes.
// Usage: bench_debug_step [K]  (no argument: the 64³ example; K: the tiled GEMM with 64×64×K)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/debug/debug_session.h"

using namespace tirx;
using Clock = std::chrono::steady_clock;

namespace {
double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}
}  // namespace

int main(int argc, char** argv) {
  const int64_t k = argc > 1 ? std::atoll(argv[1]) : 0;
  const std::string name = k > 0 ? "gemm_bf16_tiled.py" : "gemm_ldmatrix_swizzled.py";
  std::ifstream f(std::string(TIRX_SOURCE_DIR) + "/resources/examples/" + name);
  std::stringstream ss;
  ss << f.rdbuf();
  std::string src = ss.str();
  if (k > 0) {
    for (const char* c : {"M = 128", "N = 128", "K = 256"}) {
      const size_t at = src.find(c);
      if (at == std::string::npos) {
        std::fprintf(stderr, "%s: constant '%s' not found\n", name.c_str(), c);
        return 1;
      }
      src.replace(at, std::strlen(c),
                  std::string(1, c[0]) + " = " + std::to_string(c[0] == 'K' ? k : 64));
    }
  }
  debug::DebugOptions o;
  o.fileName = name;
  Diagnostics diags;
  const auto t0 = Clock::now();
  auto s = debug::DebugSession::start(src, o, diags);
  const double recordMs = msSince(t0);
  if (!s) {
    std::fprintf(stderr, "%s", formatGcc(diags, name).c_str());
    return 1;
  }
  double sum = 0, worst = 0;
  int64_t steps = 0, elements = 0;
  auto timed = [&](int64_t target) {
    const auto t = Clock::now();
    s->goTo(target);
    const auto acc = s->tile("acc");
    const auto c = s->tile("C");
    const double ms = msSince(t);
    elements += static_cast<int64_t>(acc->elements.size() + c->elements.size());
    sum += ms;
    worst = std::max(worst, ms);
    ++steps;
  };
  for (int64_t i = s->firstRecorded() + 1; i <= s->lastRecorded(); ++i) timed(i);
  for (int64_t i = s->lastRecorded() - 1; i >= s->firstRecorded(); --i) timed(i);
  std::printf("%s%s: %lld steps recorded in %.1f ms (trace %.2f MiB)\n", name.c_str(),
              k > 0 ? (" with K = " + std::to_string(k)).c_str() : "",
              static_cast<long long>(s->stepCount()), recordMs,
              double(s->traceBytes()) / (1 << 20));
  std::printf(
      "step + facts of acc and C (%lld elements per stop): mean %.3f ms, worst %.3f ms over %lld "
      "steps (budget 50 ms)\n",
      static_cast<long long>(steps ? elements / steps : 0), steps ? sum / double(steps) : 0.0,
      worst, static_cast<long long>(steps));
  return worst <= 50 ? 0 : 1;
}
