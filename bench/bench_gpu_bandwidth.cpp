// GPU bandwidth of the generated elementwise kernels at 2^28 elements (bench/kernels/*.py: the
// seeds' silu-affine, affine-relu and float32→float16 kernels scaled with T.cuda.block_idx)
// against a plain vectorised copy kernel (float4 loads/stores, CUDA C++ written here) moving the
// same number of elements. Each kernel: compile through the project's pipeline, upload
// linspace(-4, 4), warm up, time 50 launches with CUDA events, report the median; outputs are
// spot-checked against a host reference. Runs in process (the runner child is for the IDE).
// Usage: bench_gpu_bandwidth [KERNEL_DIR] — exit 3 without a CUDA driver.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/device/cuda_driver.h"
#include "core/driver/compile.h"
#include "core/ir/half.h"
#include "core/toolchain/toolchain.h"

using namespace tirx;

namespace {

constexpr int64_t kN = int64_t(1) << 28;
constexpr int kWarmup = 5, kRepeats = 50;

const char* kCopySource = R"(
extern "C" __global__ void __launch_bounds__(256) copy_float4(const float4* __restrict__ a,
                                                              float4* __restrict__ b, long long n4) {
  const long long i = (long long)blockIdx.x * 256 + threadIdx.x;
  if (i < n4) b[i] = a[i];
}
)";

bool check(const Status& s) {
  if (s.message.empty()) return true;
  std::fprintf(stderr, "%s\n", s.text().c_str());
  return false;
}

struct Timing {
  double medianMs = 0, minMs = 0;
};

/// Launch `f` warm-up + repeats times; median and min of the timed launches.
bool timeKernel(device::CuFunction f, int64_t grid, int64_t block, std::vector<void*>& params,
                Timing& t) {
  auto e0 = device::Event::create();
  auto e1 = device::Event::create();
  if (!e0 || !e1) return check(e0 ? e1.error() : e0.error());
  const int64_t g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
  std::vector<double> ms;
  for (int i = 0; i < kWarmup + kRepeats; ++i) {
    if (!check(e0->record()) || !check(device::launch(f, g, b, 0, params)) ||
        !check(e1->record()) || !check(e1->synchronize()))
      return false;
    auto d = e1->since(*e0);
    if (!d) return check(d.error());
    if (i >= kWarmup) ms.push_back(*d);
  }
  std::sort(ms.begin(), ms.end());
  t.medianMs = ms[ms.size() / 2];
  t.minMs = ms.front();
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : std::string(TIRX_SOURCE_DIR) + "/bench/kernels";
  auto devs = device::enumerateDevices();
  if (!devs || devs->empty()) {
    std::printf("bench_gpu_bandwidth: %s\n", devs ? "no CUDA device" : devs.error().text().c_str());
    return 3;
  }
  auto ctx = device::Context::open(0);
  if (!ctx) return check(ctx.error()) ? 1 : 3;
  const device::DeviceInfo& info = devs->front();
  std::printf("device: %s, %d SMs, sm_%d%d; N = 2^28 elements\n", info.name.c_str(), info.smCount,
              info.ccMajor, info.ccMinor);
  const int sm = info.ccMajor * 10 + info.ccMinor;

  std::vector<float> host(static_cast<size_t>(kN));
  for (int64_t i = 0; i < kN; ++i) host[size_t(i)] = float(-4.0 + 8.0 * double(i) / double(kN - 1));
  auto in = device::DeviceBuffer::alloc(size_t(kN) * 4);
  auto out = device::DeviceBuffer::alloc(size_t(kN) * 4);
  if (!in || !out) return check(in ? out.error() : in.error()) ? 1 : 1;
  if (!check(in->upload(host.data(), size_t(kN) * 4))) return 1;

  // The copy ceiling.
  toolchain::CompileOptions to;
  to.sm = sm;
  to.sass = false;
  auto copy = toolchain::compile(kCopySource, to);
  if (!copy || !copy->ok) {
    std::printf("copy kernel did not compile: %s\n",
                copy ? copy->nvrtcLog.c_str() : copy.error().text().c_str());
    return 1;
  }
  auto copyMod = device::Module::load(copy->cubin);
  if (!copyMod) return check(copyMod.error()) ? 1 : 1;
  auto copyFn = copyMod->function("copy_float4");
  if (!copyFn) return check(copyFn.error()) ? 1 : 1;
  device::CuDevicePtr pa = in->ptr(), pb = out->ptr();
  long long n4 = kN / 4;
  std::vector<void*> copyParams = {&pa, &pb, &n4};
  Timing copyT;
  if (!timeKernel(*copyFn, n4 / 256, 256, copyParams, copyT)) return 1;
  const double copyGBs = double(kN) * 8 / (copyT.medianMs * 1e-3) / 1e9;
  std::printf("%-20s %10s %10s %10s %8s %s\n", "kernel", "median ms", "min ms", "GB/s", "vs copy",
              "check");
  std::printf("%-20s %10.4f %10.4f %10.1f %7.1f%% %s\n", "copy_float4", copyT.medianMs, copyT.minMs,
              copyGBs, 100.0, "-");

  struct Case {
    std::string file, kernel;
    int outBytes;
  };
  const std::vector<Case> cases = {{"silu_affine_2e28.py", "silu_affine_2e28", 4},
                                   {"affine_relu_2e28.py", "affine_relu_2e28", 4},
                                   {"to_float16_2e28.py", "to_float16_2e28", 2}};
  int status = 0;
  for (const Case& c : cases) {
    std::ifstream f(dir + "/" + c.file);
    std::stringstream ss;
    ss << f.rdbuf();
    driver::CompileOptions co;
    co.sm = sm;
    co.sass = false;
    auto p = driver::compileScript(ss.str(), c.file, co);
    if (!p || !p->ok) {
      std::printf("%-20s did not compile:\n%s\n", c.kernel.c_str(),
                  p ? formatGcc(p->diagnostics, c.file).c_str() : p.error().text().c_str());
      status = 1;
      continue;
    }
    auto mod = device::Module::load(p->cubin);
    if (!mod) {
      check(mod.error());
      status = 1;
      continue;
    }
    auto fn = mod->function(c.kernel);
    if (!fn) {
      check(fn.error());
      status = 1;
      continue;
    }
    if (!check(out->fill(0xFF))) return 1;
    std::vector<void*> params = {&pa, &pb};
    const ir::Kernel& k = p->program.kernels.front();
    Timing t;
    if (!timeKernel(*fn, k.launch.grid[0], k.launch.threads(), params, t)) {
      status = 1;
      continue;
    }
    // Spot check: a strided sample against the host reference.
    std::vector<uint8_t> res(size_t(kN) * size_t(c.outBytes));
    if (!check(out->download(res.data(), res.size()))) return 1;
    double worst = 0;
    for (int64_t i = 0; i < kN; i += 997) {
      const float x = host[size_t(i)];
      double ref, got;
      if (c.outBytes == 2) {
        uint16_t h;
        std::memcpy(&h, res.data() + i * 2, 2);
        got = ir::halfBitsToFloat(h);
        ref = x;
      } else {
        float g;
        std::memcpy(&g, res.data() + i * 4, 4);
        got = g;
        ref = c.kernel.rfind("silu", 0) == 0 ? double(x) / (1 + std::exp(-double(x))) * 2 + 1
                                             : std::max(double(x) * 2 + 1, 0.0);
      }
      const double tol =
          c.outBytes == 2 ? 1e-3 * std::abs(ref) + 1e-3 : 2e-5 * std::abs(ref) + 2e-5;
      if (!(std::abs(got - ref) <= tol))
        worst = std::max(worst, std::isnan(got) ? 1e30 : std::abs(got - ref));
    }
    const double bytes = double(kN) * (4 + c.outBytes);
    const double gbs = bytes / (t.medianMs * 1e-3) / 1e9;
    std::printf("%-20s %10.4f %10.4f %10.1f %7.1f%% %s\n", c.kernel.c_str(), t.medianMs, t.minMs,
                gbs, 100.0 * gbs / copyGBs, worst == 0 ? "ok" : "MISMATCH");
    if (worst != 0) status = 1;
  }
  return status;
}
