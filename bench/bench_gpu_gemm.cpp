// GPU throughput of a generated GEMM kernel C = A · Bᵀ (default bench/kernels/gemm_bf16_4096.py,
// the resources/examples/gemm_bf16_tiled.py kernel at 4096³): compile through the project's
// pipeline, upload random bf16 A (M × K) and B (N × K), encode the kernel's TMA tensor maps as the
// runner does (decision TC-T1), warm up, time 20 launches with CUDA events, report the median in ms
// and TFLOP/s (2·M·N·K flops) — of single launches and of launches queued back to back — and check
// 512 sampled outputs against a host reference in double
// (|error| ≤ 1e-3 · Σ|a·b| + 1e-5, plus half a bf16 ulp of the result when C is bf16).
// scripts/gemm-bench.sh runs it next to torch.matmul on the same shapes.
// Usage: bench_gpu_gemm [KERNEL_FILE] — exit 3 without a driver.
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
#include "core/driver/runner_protocol.h"
#include "core/ir/half.h"
#include "core/ir/shared_memory.h"

using namespace tirx;

namespace {

bool check(const Status& s) {
  if (s.message.empty()) return true;
  std::fprintf(stderr, "%s\n", s.text().c_str());
  return false;
}

float bf16ToFloat(uint16_t h) {
  const uint32_t b = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string file =
      argc > 1 ? argv[1] : std::string(TIRX_SOURCE_DIR) + "/bench/kernels/gemm_bf16_4096.py";
  auto devs = device::enumerateDevices();
  if (!devs || devs->empty()) {
    std::printf("bench_gpu_gemm: %s\n", devs ? "no CUDA device" : devs.error().text().c_str());
    return 3;
  }
  auto ctx = device::Context::open(0);
  if (!ctx) return check(ctx.error()) ? 1 : 3;
  const device::DeviceInfo& info = devs->front();
  const int sm = info.ccMajor * 10 + info.ccMinor;
  std::ifstream f(file);
  std::stringstream ss;
  ss << f.rdbuf();
  driver::CompileOptions co;
  co.sm = sm;
  co.sass = false;
  auto p = driver::compileScript(ss.str(), file, co);
  if (!p || !p->ok) {
    std::printf("%s did not compile:\n%s\n", file.c_str(),
                p ? formatGcc(p->diagnostics, file).c_str() : p.error().text().c_str());
    return 1;
  }
  const ir::Kernel& k = p->program.kernels.front();
  const int64_t M = k.buffers[0].shape[0], K = k.buffers[0].shape[1], N = k.buffers[1].shape[0];
  const bool cBf16 = k.buffers[2].dtype == ir::DType::BFloat16;
  const size_t cBytes = cBf16 ? 2 : 4;
  std::printf(
      "device: %s, %d SMs, sm_%d; %s: C (%lld x %lld, %s) = A (%lld x %lld, bf16) . B^T (%lld x "
      "%lld, bf16)\n",
      info.name.c_str(), info.smCount, sm, k.name.c_str(), (long long)M, (long long)N,
      cBf16 ? "bf16" : "f32", (long long)M, (long long)K, (long long)N, (long long)K);
  // Random bf16 in [-1, 1) from a fixed seed.
  uint64_t seed = 0x9E3779B97F4A7C15ull;
  auto next = [&] {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return ir::floatToBf16Bits(float(double(seed >> 11) * 0x1.0p-52 - 1.0));
  };
  std::vector<uint16_t> a(size_t(M * K)), b(size_t(N * K));
  for (auto& x : a) x = next();
  for (auto& x : b) x = next();
  auto da = device::DeviceBuffer::alloc(a.size() * 2);
  auto db = device::DeviceBuffer::alloc(b.size() * 2);
  auto dc = device::DeviceBuffer::alloc(size_t(M * N) * cBytes);
  if (!da || !db || !dc) return 1;
  if (!check(da->upload(a.data(), a.size() * 2)) || !check(db->upload(b.data(), b.size() * 2)) ||
      !check(dc->fill(0)))
    return 1;
  auto mod = device::Module::load(p->cubin);
  if (!mod) return check(mod.error()) ? 1 : 1;
  auto fn = mod->function(k.name);
  if (!fn) return check(fn.error()) ? 1 : 1;
  device::CuDevicePtr pa = da->ptr(), pb = db->ptr(), pc = dc->ptr();
  std::vector<void*> params = {&pa, &pb, &pc};
  const device::CuDevicePtr argPtr[3] = {pa, pb, pc};
  std::vector<device::TensorMapBytes> maps(k.tensorMaps.size());
  for (size_t i = 0; i < k.tensorMaps.size(); ++i) {  // after the script's parameters (TC-T1)
    const ir::TensorMap& m = k.tensorMaps[i];
    device::TiledTensorMapSpec spec;
    spec.dataType = driver::tensorMapDataType(m.dtype);
    spec.base = argPtr[m.param] + device::CuDevicePtr(m.baseElems * ir::dtypeBytes(m.dtype));
    for (int64_t v : m.dims) spec.dims.push_back(uint64_t(v));
    for (int64_t v : m.strideBytes) spec.strides.push_back(uint64_t(v));
    for (int64_t v : m.box) spec.box.push_back(uint32_t(v));
    spec.elementStrides.assign(m.dims.size(), 1);
    spec.swizzle = m.swizzle;
    spec.oobFill = m.oobNan ? 1 : 0;
    if (!check(device::encodeTiledTensorMap(spec, maps[i]))) return 1;
    params.push_back(maps[i].bytes);
  }
  auto e0 = device::Event::create();
  auto e1 = device::Event::create();
  if (!e0 || !e1) return 1;
  const int64_t grid[3] = {k.launch.grid[0], k.launch.grid[1], k.launch.grid[2]};
  const int64_t block[3] = {k.launch.block[0], k.launch.block[1], k.launch.block[2]};
  // Shared tiles over 48 KiB live in dynamic shared memory (codegen's plan, as the runner launches
  // them).
  const int64_t dynamicSmem = ir::planSharedMemory(k).launchDynamicBytes;
  // Two timings: each launch alone between its own events (what a single call costs, launch
  // included), and rounds of 10 launches queued back to back between one pair of events (the
  // kernel's own duration, launch latency hidden behind the previous launch: the figure that
  // Nsight Compute's gpu__time_duration of one launch is compared with, issue 25).
  std::vector<double> ms, queued;
  for (int i = 0; i < 5 + 20; ++i) {
    if (!check(e0->record()) || !check(device::launch(*fn, grid, block, dynamicSmem, params)) ||
        !check(e1->record()) || !check(e1->synchronize()))
      return 1;
    auto d = e1->since(*e0);
    if (!d) return check(d.error()) ? 1 : 1;
    if (i >= 5) ms.push_back(*d);
  }
  constexpr int kQueued = 10;
  for (int round = 0; round < 10; ++round) {
    if (!check(e0->record())) return 1;
    for (int i = 0; i < kQueued; ++i)
      if (!check(device::launch(*fn, grid, block, dynamicSmem, params))) return 1;
    if (!check(e1->record()) || !check(e1->synchronize())) return 1;
    auto d = e1->since(*e0);
    if (!d) return check(d.error()) ? 1 : 1;
    queued.push_back(*d / kQueued);
  }
  std::sort(ms.begin(), ms.end());
  std::sort(queued.begin(), queued.end());
  const double med = ms[ms.size() / 2];
  const double qmed = queued[queued.size() / 2];
  const double flop = 2.0 * double(M) * double(N) * double(K);
  const double tflops = flop / (med * 1e-3) / 1e12;
  const double qtflops = flop / (qmed * 1e-3) / 1e12;
  std::vector<float> c(size_t(M * N));
  if (cBf16) {
    std::vector<uint16_t> raw(c.size());
    if (!check(dc->download(raw.data(), raw.size() * 2))) return 1;
    for (size_t i = 0; i < c.size(); ++i) c[i] = bf16ToFloat(raw[i]);
  } else if (!check(dc->download(c.data(), c.size() * 4))) {
    return 1;
  }
  int bad = 0;
  double worst = 0;
  for (int s = 0; s < 512; ++s) {
    const int64_t i = (int64_t(s) * 7919) % M, j = (int64_t(s) * 104729) % N;
    double ref = 0, mag = 0;
    for (int64_t kk = 0; kk < K; ++kk) {
      const double x =
          double(bf16ToFloat(a[size_t(i * K + kk)])) * double(bf16ToFloat(b[size_t(j * K + kk)]));
      ref += x;
      mag += std::abs(x);
    }
    const double err = std::abs(double(c[size_t(i * N + j)]) - ref);
    worst = std::max(worst, err / (mag + 1e-30));
    const double rounding =
        cBf16 ? std::abs(ref) * 0x1.0p-8 : 0.0;  // bf16 keeps 8 significant bits
    if (!(err <= 1e-3 * mag + 1e-5 + rounding)) ++bad;
  }
  std::printf("%-24s %10s %10s %10s %s\n", "kernel", "median ms", "min ms", "TFLOP/s", "check");
  std::printf("%-24s %10.3f %10.3f %10.1f %s (512 samples, worst |err|/sum|ab| %.2e)\n",
              k.name.c_str(), med, ms.front(), tflops, bad ? "MISMATCH" : "ok", worst);
  std::printf("%-24s %10.3f %10.3f %10.1f (rounds of %d launches queued back to back)\n",
              "  queued", qmed, queued.front(), qtflops, kQueued);
  std::printf("tirx_gemm_tflops %.2f\n", tflops);
  std::printf("tirx_gemm_tflops_queued %.2f\n", qtflops);
  return bad ? 1 : 0;
}
