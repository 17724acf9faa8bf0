// Script → PTX compile time: the in-process pipeline (front end + codegen + NVRTC, cache off)
// against a `nvcc -ptx` process on the same generated .cu, and the cached recompile (the whole
// compileScript call when NVRTC's result comes from the cache). Budget (DESIGN §7): ≥ 7× faster
// than nvcc; cached ≤ 1 ms. Needs no GPU. Usage: bench_compile [SCRIPT ...] (default: the four
// test kernels of tests/data/kernels).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/driver/compile.h"
#include "core/toolchain/toolchain.h"

using namespace tirx;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

std::string nvccPath() {
  for (const char* p : {"/usr/local/cuda/bin/nvcc", "/usr/bin/nvcc"})
    if (std::ifstream(p)) return p;
  return "nvcc";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) files.push_back(argv[i]);
  if (files.empty())
    for (const char* f : {"affine_relu.py", "silu.py", "to_float16.py", "two_kernels.py"})
      files.push_back(std::string(TIRX_SOURCE_DIR) + "/tests/data/kernels/" + f);
  std::printf("%s\n", toolchain::toolkitVersion().c_str());
  std::printf("%-22s %9s %9s %9s %11s %11s %9s %10s\n", "script", "front ms", "codegen", "NVRTC",
              "pipeline", "nvcc -ptx", "speed-up", "cached ms");
  // Warm NVRTC once (library initialisation is not a per-compile cost).
  toolchain::CompileOptions warm;
  warm.cubin = false;
  warm.useCache = false;
  (void)toolchain::compile("extern \"C\" __global__ void k() {}", warm);
  int status = 0;
  for (const auto& path : files) {
    std::ifstream f(path);
    if (!f) {
      std::printf("cannot read %s\n", path.c_str());
      status = 2;
      continue;
    }
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string src = ss.str();
    const std::string name = path.substr(path.find_last_of('/') + 1);
    driver::CompileOptions co;
    co.cubin = false;
    co.sass = false;
    co.useCache = false;
    std::vector<double> fe, cg, nv, total;
    std::string cuda;
    for (int i = 0; i < 10; ++i) {
      const auto t0 = Clock::now();
      auto r = driver::compileScript(src, name, co);
      const double ms = msSince(t0);
      if (!r || !r->ok) {
        std::printf("%s: does not compile\n", name.c_str());
        status = 1;
        break;
      }
      fe.push_back(r->timings.frontEndMs);
      cg.push_back(r->timings.codegenMs);
      nv.push_back(r->timings.nvrtcMs);
      total.push_back(ms);
      cuda = r->cuda;
    }
    if (total.empty()) continue;
    // nvcc -ptx on the same generated source.
    const std::string cu = "/tmp/tirx_bench_compile.cu", ptx = "/tmp/tirx_bench_compile.ptx";
    std::ofstream(cu) << cuda;
    std::vector<double> nvcc;
    for (int i = 0; i < 3; ++i) {
      const auto t0 = Clock::now();
      const std::string cmd = nvccPath() +
                              " -ptx -arch=compute_90 -lineinfo -I/usr/local/cuda/include " + cu +
                              " -o " + ptx + " > /dev/null 2>&1";
      const int rc = std::system(cmd.c_str());
      if (rc != 0) break;
      nvcc.push_back(msSince(t0));
    }
    // Cached: the whole compileScript call, NVRTC result from the cache.
    co.useCache = true;
    (void)driver::compileScript(src, name, co);
    std::vector<double> cached;
    for (int i = 0; i < 50; ++i) {
      const auto t0 = Clock::now();
      auto r = driver::compileScript(src, name, co);
      cached.push_back(msSince(t0));
      if (!r || !r->timings.cacheHit) {
        std::printf("%s: cache miss on recompile\n", name.c_str());
        status = 1;
        break;
      }
    }
    const double nvccMs = median(nvcc);
    std::printf("%-22s %9.3f %9.3f %9.2f %11.2f %11.1f %8.1fx %10.3f\n", name.c_str(), median(fe),
                median(cg), median(nv), median(total), nvccMs,
                nvccMs > 0 ? nvccMs / median(total) : 0.0, median(cached));
  }
  return status;
}
