// Simulator speed on tensor-core code: resources/examples/gemm_bf16_tiled.py (the multi-CTA
// mma.sync GEMM with ldmatrix from 128-byte-swizzled shared tiles) at M = N = K = 512 (its
// constants rewritten), simulated on one core: 64 CTAs × 4 warps, 32,768 mma.sync m16n8k16 and
// 16,384 ldmatrix.x4 warp instructions. Reports CPU time (process clock; the machine may be
// shared), mma/s and simulated MAC/s, checks C = A · Bᵀ exactly (small-integer inputs), and prints
// the shared-memory wavefront counts the run collected. Budget: ≤ 5 s (issue 9).
// Usage: bench_sim_gemm [SIZE]  (a multiple of 64; default 512)
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

#include "core/ir/half.h"
#include "core/sema/sema.h"
#include "core/sim/simulator.h"

using namespace tirx;

int main(int argc, char** argv) {
  const int64_t n = argc > 1 ? std::atoll(argv[1]) : 512;
  const std::string path = std::string(TIRX_SOURCE_DIR) + "/resources/examples/gemm_bf16_tiled.py";
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  std::string src = ss.str();
  for (const char* c : {"M = 128", "N = 128", "K = 256"}) {
    const size_t at = src.find(c);
    if (at == std::string::npos) {
      std::fprintf(stderr, "%s: constant '%s' not found\n", path.c_str(), c);
      return 1;
    }
    src.replace(at, std::strlen(c), std::string(1, c[0]) + " = " + std::to_string(n));
  }
  FrontEndResult fe = checkScript(src, "gemm_bf16_tiled.py");
  if (!fe.ok()) {
    std::fprintf(stderr, "%s", formatGcc(fe.diagnostics, "gemm_bf16_tiled.py").c_str());
    return 1;
  }
  std::vector<ir::KernelArg> args(3);
  auto bf16 = [](int v) { return ir::floatToBf16Bits(float(v)); };
  for (int i = 0; i < 2; ++i) {
    args[i].tensor.dtype = ir::DType::BFloat16;
    args[i].tensor.shape = {n, n};
    args[i].tensor.data.resize(size_t(n * n * 2));
    auto* p = reinterpret_cast<uint16_t*>(args[i].tensor.data.data());
    for (int64_t e = 0; e < n * n; ++e) p[e] = bf16(int(e % (i ? 5 : 7)) - (i ? 2 : 3));
  }
  args[2].tensor.dtype = ir::DType::Float32;
  args[2].tensor.shape = {n, n};
  args[2].tensor.data.assign(size_t(n * n * 4), 0);
  sim::SimOptions o;
  o.trackProvenance = false;
  sim::Simulator sim(o);
  const std::clock_t c0 = std::clock();
  auto out = sim.run(fe.program, "gemm_bf16", args);
  const double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
  if (!out || !out->ran) {
    std::fprintf(stderr, "simulation failed\n");
    if (out)
      for (const auto& fl : out->faults) std::fprintf(stderr, "%s\n", fl.diag.message.c_str());
    return 1;
  }
  // Exact check: every partial sum is a small integer.
  const float* c = reinterpret_cast<const float*>(args[2].tensor.data.data());
  int64_t bad = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; j += 7) {
      int64_t ref = 0;
      for (int64_t k = 0; k < n; ++k)
        ref += (int((i * n + k) % 7) - 3) * (int((j * n + k) % 5) - 2);
      if (c[i * n + j] != float(ref)) ++bad;
    }
  const double mmas = double(n) * n * n / (16 * 8 * 16);
  std::printf(
      "gemm_bf16 %lld^3 on the simulator: %.2f s CPU, %.0f mma.sync/s, %.1f M MAC/s, check %s\n",
      (long long)n, cpu, mmas / cpu, double(n) * n * n / cpu / 1e6, bad ? "MISMATCH" : "exact");
  for (const auto& s : out->sharedAccesses)
    std::printf("  line %3d %-44s %9lld warp instr %10lld wavefronts (ideal %lld)\n", s.span.line,
                s.op.c_str(), (long long)s.instructions, (long long)s.wavefronts,
                (long long)s.idealWavefronts);
  return bad ? 1 : 0;
}
