// Simulator throughput: the ewise doc page's `activation` kernel (ld.global.v4, ewise silu_affine,
// st.global.v4) scaled to 1024 CTAs of 64 threads (262,144 elements), run on one core. Reports
// simulated element-operations per second (each element of a ld/st counts one, each element of
// an ewise counts the arithmetic nodes of the scalar function) and elements per second, with and
// without provenance tracking, in process CPU time (the machine may be shared).
#include <cstdio>
#include <ctime>

#include "core/sema/sema.h"
#include "core/sim/simulator.h"

namespace {

const char* kScript = R"(from tvm.script import tirx as T
from tvm.backend.cuda.axis import laneid, warpid
from tvm.tirx.layout import S, TileLayout

reg_layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function(private=True)
def silu_affine(x: T.float32, scale: T.float32, bias: T.float32) -> T.float32:
    y = x / (T.float32(1) + T.exp(-x))
    return y * scale + bias


@T.function
def activation(A: T.Tensor((2048, 32, 4), "float32"), Out: T.Tensor((2048, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1024, block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg_layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
    T.cuda.tile.ewise(silu_affine, R, R, T.float32(2), T.float32(1), scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Out[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")
)";

}  // namespace

int main() {
  tirx::FrontEndResult fe = tirx::checkScript(kScript, "bench_activation.py");
  if (!fe.ok()) {
    std::fprintf(stderr, "%s", tirx::formatGcc(fe.diagnostics, "bench_activation.py").c_str());
    return 1;
  }
  const int64_t elems = 2048 * 32 * 4;
  for (bool provenance : {true, false}) {
    tirx::sim::SimOptions o;
    o.trackProvenance = provenance;
    tirx::sim::Simulator sim(o);
    double best = 1e30;
    int64_t ops = 0;
    for (int rep = 0; rep < 3; ++rep) {
      std::vector<tirx::ir::KernelArg> args(2);
      for (auto& a : args) {
        a.tensor.dtype = tirx::ir::DType::Float32;
        a.tensor.shape = {2048, 32, 4};
        a.tensor.data.assign(elems * 4, 0);
        float* f = reinterpret_cast<float*>(a.tensor.data.data());
        for (int64_t i = 0; i < elems; ++i)
          f[i] = -4.0f + 8.0f * static_cast<float>(i % 1000) / 1000.0f;
      }
      const std::clock_t c0 = std::clock();
      auto out = sim.run(fe.program, "activation", args);
      const double s = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
      if (!out.ok() || !out->ran || !out->faults.empty()) {
        std::fprintf(stderr, "simulation failed\n");
        return 1;
      }
      best = std::min(best, s);
      ops = sim.elementOps();
    }
    std::printf(
        "provenance %-3s: %lld elements, %lld element-ops in %.3f s CPU: %.1f M element-ops/s, "
        "%.2f M elements/s\n",
        provenance ? "on" : "off", static_cast<long long>(elems), static_cast<long long>(ops), best,
        ops / best / 1e6, elems / best / 1e6);
  }
  return 0;
}
