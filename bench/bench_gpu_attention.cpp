// GPU throughput of a generated attention forward kernel (default
// bench/kernels/attention_fwd_bf16_d128.py) beside torch SDPA's cuDNN and flash backends in the
// same call (issue 24, decision ATT-2). The kernel's parameters must be Q, K, V, O, each (B·H·S, D)
// bf16; B, H, S and the causal flag come from the command line (the kernel's shape must agree).
//   1. Compile the script through the project's pipeline, upload Q, K, V from attention_bench.h's
//      integer hash (exact in bf16), encode the kernel's TMA maps as the runner does (TC-T1).
//   2. Start scripts/torch_sdpa.py as a helper process on pipes; it builds the same Q, K, V on the
//      GPU and writes SDPA's output (cuDNN backend) to a file.
//   3. Check before timing: the kernel's whole output against SDPA's, |d| ≤ 0.02 + 0.02·|ref| for
//      every element, and 64 sampled rows against a double-precision host reference, both
//      elementwise and by their mean error (Σ|d| / Σ|ref| ≤ 0.3 %, which a wrong exponential
//      exceeds though every element passes). A mismatch ends the run with exit 1 and no timing.
//   4. Time R rounds of A B C — N launches of the kernel, N of SDPA cuDNN, N of SDPA flash, each
//      launch between two CUDA events — and report the medians, TFLOP/s (4·B·H·S²·D, halved for
//      causal) and the kernel's ratio to each backend.
// Usage: bench_gpu_attention [KERNEL] [--batch 4] [--heads 32] [--seq 4096] [--causal]
//        [--rounds 10] [--iters 10] [--python python3] [--no-torch] [--unchecked]
// --unchecked is for ablations (a kernel with its softmax removed, say, to see what the GEMMs
// alone reach): the checks still run and print, a mismatch no longer stops the timing, and every
// figure line says `unchecked`.
// Exit: 0 checked and timed, 1 compile error, mismatch or helper failure, 2 bad arguments,
// 3 no CUDA driver or device. The last lines are machine-readable (scripts/gpu-check.sh reads
// them):
//   attn_tflops tirx|cudnn|flash T     attn_ratio cudnn|flash R
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "attention_bench.h"
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

/// scripts/torch_sdpa.py on two pipes: one command line in, one reply line out.
class Helper {
 public:
  bool start(const std::vector<std::string>& argv) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) return false;
    m_pid = fork();
    if (m_pid < 0) return false;
    if (m_pid == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      dup2(in[0], 0);
      dup2(out[1], 1);
      close(in[0]);
      close(in[1]);
      close(out[0]);
      close(out[1]);
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execvp(args[0], args.data());
      std::fprintf(stderr, "cannot start %s: %s\n", args[0], std::strerror(errno));
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    m_to = fdopen(in[1], "w");
    m_from = fdopen(out[0], "r");
    return m_to && m_from;
  }
  /// Sends `cmd` (when not empty) and returns the reply line; "" when the helper is gone.
  std::string ask(const std::string& cmd) {
    if (!cmd.empty()) {
      std::fprintf(m_to, "%s\n", cmd.c_str());
      std::fflush(m_to);
    }
    // A library that prints to stdout must not derail the protocol: lines that are not a reply
    // are passed on to stderr.
    for (;;) {
      char* line = nullptr;
      size_t cap = 0;
      const ssize_t n = getline(&line, &cap, m_from);
      std::string r = n > 0 ? std::string(line, size_t(n)) : std::string();
      std::free(line);
      while (!r.empty() && (r.back() == '\n' || r.back() == '\r')) r.pop_back();
      if (n <= 0 || bench::isHelperReply(r)) return r;
      std::fprintf(stderr, "torch_sdpa.py: %s\n", r.c_str());
    }
  }
  ~Helper() {
    if (m_to) {
      std::fprintf(m_to, "quit\n");
      std::fclose(m_to);
    }
    if (m_from) std::fclose(m_from);
    if (m_pid > 0) waitpid(m_pid, nullptr, 0);
  }

 private:
  pid_t m_pid = -1;
  FILE* m_to = nullptr;
  FILE* m_from = nullptr;
};

/// Attention of one query row in double: softmax(q Kᵀ / √D) V over the keys the row sees.
void referenceRow(const std::vector<uint16_t>& q, const std::vector<uint16_t>& k,
                  const std::vector<uint16_t>& v, int64_t seq, int64_t d, int64_t bh, int64_t row,
                  bool causal, std::vector<double>& out) {
  const int64_t keys = causal ? row + 1 : seq;
  std::vector<double> s(static_cast<size_t>(keys));
  const size_t qo = size_t((bh * seq + row) * d);
  double m = -1e300;
  for (int64_t j = 0; j < keys; ++j) {
    const size_t ko = size_t((bh * seq + j) * d);
    double acc = 0;
    for (int64_t c = 0; c < d; ++c)
      acc += double(bf16ToFloat(q[qo + size_t(c)])) * bf16ToFloat(k[ko + size_t(c)]);
    s[size_t(j)] = acc / std::sqrt(double(d));
    m = std::max(m, s[size_t(j)]);
  }
  double l = 0;
  for (auto& x : s) l += (x = std::exp(x - m));
  out.assign(size_t(d), 0.0);
  for (int64_t j = 0; j < keys; ++j) {
    const size_t vo = size_t((bh * seq + j) * d);
    for (int64_t c = 0; c < d; ++c)
      out[size_t(c)] += s[size_t(j)] / l * bf16ToFloat(v[vo + size_t(c)]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string err;
  auto parsed = bench::parseAttentionArgs(std::vector<std::string>(argv, argv + argc), err);
  if (!parsed) {
    std::fprintf(stderr, "bench_gpu_attention: %s\n", err.c_str());
    return 2;
  }
  bench::AttentionArgs a = *parsed;
  signal(SIGPIPE, SIG_IGN);  // a helper that died is a reply of "", not a killed benchmark
  if (a.kernel.empty())
    a.kernel = std::string(TIRX_SOURCE_DIR) + "/bench/kernels/attention_fwd_bf16_d128.py";
  auto devs = device::enumerateDevices();
  if (!devs || devs->empty()) {
    std::printf("bench_gpu_attention: %s\n", devs ? "no CUDA device" : devs.error().text().c_str());
    return 3;
  }
  auto ctx = device::Context::open(0);
  if (!ctx) return check(ctx.error()) ? 1 : 3;
  const device::DeviceInfo& info = devs->front();
  const int sm = info.ccMajor * 10 + info.ccMinor;
  std::ifstream f(a.kernel);
  if (!f) {
    std::fprintf(stderr, "bench_gpu_attention: cannot read %s\n", a.kernel.c_str());
    return 2;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  driver::CompileOptions co;
  co.sm = sm;
  co.sass = false;
  auto p = driver::compileScript(ss.str(), a.kernel, co);
  if (!p || !p->ok) {
    std::printf("%s did not compile:\n%s\n", a.kernel.c_str(),
                p ? formatGcc(p->diagnostics, a.kernel).c_str() : p.error().text().c_str());
    return 1;
  }
  const ir::Kernel& k = p->program.kernels.front();
  const int64_t rows = a.batch * a.heads * a.seq;
  bool shapeOk = k.buffers.size() >= 4 && k.params.size() == 4;
  for (int i = 0; shapeOk && i < 4; ++i)
    shapeOk = k.buffers[size_t(i)].shape.size() == 2 && k.buffers[size_t(i)].shape[0] == rows &&
              k.buffers[size_t(i)].shape[1] == k.buffers[0].shape[1] &&
              k.buffers[size_t(i)].dtype == ir::DType::BFloat16;
  if (!shapeOk) {
    std::printf(
        "%s: %s must take Q, K, V, O of shape (%lld, D) bf16 (B %lld x H %lld x S %lld rows)\n",
        a.kernel.c_str(), k.name.c_str(), (long long)rows, (long long)a.batch, (long long)a.heads,
        (long long)a.seq);
    return 1;
  }
  const int64_t D = k.buffers[0].shape[1];
  const size_t n = size_t(rows * D);
  const double flops = bench::attentionFlops(a.batch, a.heads, a.seq, D, a.causal);
  std::printf("device: %s, %d SMs, sm_%d\n", info.name.c_str(), info.smCount, sm);
  std::printf(
      "%s: batch %lld, heads %lld, seq %lld, head dim %lld, %s, bf16; %.3g GFLOP a call; %d rounds "
      "x %d launches, interleaved\n",
      k.name.c_str(), (long long)a.batch, (long long)a.heads, (long long)a.seq, (long long)D,
      a.causal ? "causal" : "non-causal", flops * 1e-9, a.rounds, a.iters);

  std::vector<uint16_t> hq(n), hk(n), hv(n);
  for (size_t i = 0; i < n; ++i) {
    hq[i] = ir::floatToBf16Bits(bench::inputValue(0, i));
    hk[i] = ir::floatToBf16Bits(bench::inputValue(1, i));
    hv[i] = ir::floatToBf16Bits(bench::inputValue(2, i));
  }
  auto dq = device::DeviceBuffer::alloc(n * 2), dk = device::DeviceBuffer::alloc(n * 2);
  auto dv = device::DeviceBuffer::alloc(n * 2), dout = device::DeviceBuffer::alloc(n * 2);
  if (!dq || !dk || !dv || !dout) return 1;
  if (!check(dq->upload(hq.data(), n * 2)) || !check(dk->upload(hk.data(), n * 2)) ||
      !check(dv->upload(hv.data(), n * 2)) || !check(dout->fill(0)))
    return 1;
  auto mod = device::Module::load(p->cubin);
  if (!mod) return check(mod.error()) ? 1 : 1;
  auto fn = mod->function(k.name);
  if (!fn) return check(fn.error()) ? 1 : 1;
  device::CuDevicePtr ptrs[4] = {dq->ptr(), dk->ptr(), dv->ptr(), dout->ptr()};
  std::vector<void*> params = {&ptrs[0], &ptrs[1], &ptrs[2], &ptrs[3]};
  std::vector<device::TensorMapBytes> maps(k.tensorMaps.size());
  for (size_t i = 0; i < k.tensorMaps.size(); ++i) {  // after the script's parameters (TC-T1)
    const ir::TensorMap& m = k.tensorMaps[i];
    device::TiledTensorMapSpec spec;
    spec.dataType = driver::tensorMapDataType(m.dtype);
    spec.base = ptrs[m.param] + device::CuDevicePtr(m.baseElems * ir::dtypeBytes(m.dtype));
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
  const int64_t dynamicSmem = ir::planSharedMemory(k).launchDynamicBytes;
  auto timeOnce = [&](double& ms) {
    if (!check(e0->record()) || !check(device::launch(*fn, grid, block, dynamicSmem, params)) ||
        !check(e1->record()) || !check(e1->synchronize()))
      return false;
    auto d = e1->since(*e0);
    if (!d) return check(d.error()) && false;
    ms = *d;
    return true;
  };
  double ms = 0;
  if (!timeOnce(ms)) return 1;  // the launch whose output is checked
  std::vector<uint16_t> raw(n);
  if (!check(dout->download(raw.data(), n * 2))) return 1;
  std::vector<float> got(n);
  for (size_t i = 0; i < n; ++i) got[i] = bf16ToFloat(raw[i]);

  // The host reference on 64 sampled rows (always; the torch check below covers every element).
  int64_t hostBad = 0;
  double hostMax = 0, hostSumAbs = 0, hostSumRef = 0;
  std::vector<double> refRow;
  for (int s = 0; s < 64; ++s) {
    const int64_t bh = (int64_t(s) * 7919) % (a.batch * a.heads),
                  row = (int64_t(s) * 104729 + s / 2) % a.seq;
    referenceRow(hq, hk, hv, a.seq, D, bh, row, a.causal, refRow);
    std::vector<float> rf(refRow.begin(), refRow.end());
    const auto r = bench::compareClose(&got[size_t((bh * a.seq + row) * D)], rf.data(), D,
                                       bench::kAttentionAtol, bench::kAttentionRtol);
    hostBad += r.bad;
    hostMax = std::max(hostMax, r.maxAbs);
    hostSumAbs += r.sumAbs;
    hostSumRef += r.sumRef;
  }
  const double hostMeanRel = hostSumRef > 0 ? hostSumAbs / hostSumRef : 0;
  const bool hostMeanOk = hostSumRef > 0 && hostMeanRel <= bench::kAttentionMeanRel;
  std::printf(
      "check: 64 sampled rows vs a double-precision host reference: %lld of %lld outside |d| <= "
      "%.2g + %.2g|ref|, max |d| %.3g: %s\n",
      (long long)hostBad, (long long)(64 * D), bench::kAttentionAtol, bench::kAttentionRtol,
      hostMax, hostBad ? "MISMATCH" : "ok");
  std::printf("check: the same rows' mean error sum|d| / sum|ref| %.3f %% (at most %.2g %%): %s\n",
              100 * hostMeanRel, 100 * bench::kAttentionMeanRel, hostMeanOk ? "ok" : "MISMATCH");
  if ((hostBad || !hostMeanOk) && !a.unchecked) return 1;

  Helper torch;
  bool haveCudnn = false, haveFlash = false;
  if (!a.noTorch) {
    const std::string script = std::string(TIRX_SOURCE_DIR) + "/scripts/torch_sdpa.py";
    if (!torch.start({a.python, script, std::to_string(a.batch), std::to_string(a.heads),
                      std::to_string(a.seq), std::to_string(D), a.causal ? "1" : "0"})) {
      std::printf("bench_gpu_attention: cannot start %s\n", script.c_str());
      return 1;
    }
    const std::string ready = torch.ask("");
    if (ready.rfind("ready ", 0) != 0) {
      std::printf(
          "bench_gpu_attention: the torch helper did not start (%s); run with --no-torch to time "
          "the kernel alone\n",
          ready.empty() ? "no reply" : ready.c_str());
      return 1;
    }
    haveCudnn = ready.find("cudnn YES") != std::string::npos;
    haveFlash = ready.find("flash YES") != std::string::npos;
    std::printf("%s\n", ready.c_str());
    char tmpl[] = "/tmp/tirx_sdpa_ref_XXXXXX";
    const int fd = mkstemp(tmpl);
    if (fd < 0) return 1;
    close(fd);
    const std::string reply = torch.ask(std::string("ref ") + tmpl);
    std::vector<uint16_t> refRaw(n);
    std::ifstream rin(tmpl, std::ios::binary);
    const bool read = reply.rfind("ok ", 0) == 0 &&
                      rin.read(reinterpret_cast<char*>(refRaw.data()), std::streamsize(n * 2)) &&
                      rin.gcount() == std::streamsize(n * 2);
    std::remove(tmpl);
    if (!read) {
      std::printf("bench_gpu_attention: no SDPA output from the helper (%s)\n", reply.c_str());
      return 1;
    }
    std::vector<float> ref(n);
    for (size_t i = 0; i < n; ++i) ref[i] = bf16ToFloat(refRaw[i]);
    const auto r = bench::compareClose(got.data(), ref.data(), int64_t(n), bench::kAttentionAtol,
                                       bench::kAttentionRtol);
    std::istringstream rs(reply);
    std::string okWord, refName, diffWord, flashDiff;
    rs >> okWord >> refName >> diffWord >> flashDiff;
    std::printf(
        "check: every element vs SDPA %s: %lld of %lld outside |d| <= %.2g + %.2g|ref|, max |d| "
        "%.3g, sum|d| / sum|ref| %.3f %% (flash vs %s: %s): %s\n",
        refName.c_str(), (long long)r.bad, (long long)r.count, bench::kAttentionAtol,
        bench::kAttentionRtol, r.maxAbs, 100 * r.meanRel(), refName.c_str(), flashDiff.c_str(),
        r.ok() ? "ok" : "MISMATCH");
    if (!r.ok() && !a.unchecked) {
      const int64_t i = r.firstBad;
      std::printf("first mismatch: row %lld, column %lld: kernel %g, SDPA %g\n", (long long)(i / D),
                  (long long)(i % D), double(got[size_t(i)]), double(ref[size_t(i)]));
      return 1;
    }
  }

  // A B C rounds, after one warm-up launch of each side.
  std::vector<double> tirxMs, cudnnMs, flashMs;
  for (int w = 0; w < 3; ++w)
    if (!timeOnce(ms)) return 1;
  auto torchRound = [&](const char* backend, bool have, std::vector<double>& into, int iters) {
    if (!have) return true;
    const std::string reply =
        torch.ask(std::string("time ") + backend + " " + std::to_string(iters));
    auto t = bench::parseTimings(reply);
    if (!t) {
      std::printf("bench_gpu_attention: torch %s: %s\n", backend, reply.c_str());
      return false;
    }
    into.insert(into.end(), t->begin(), t->end());
    return true;
  };
  if (!torchRound("cudnn", haveCudnn, cudnnMs, 1) || !torchRound("flash", haveFlash, flashMs, 1))
    return 1;
  cudnnMs.clear();
  flashMs.clear();
  for (int r = 0; r < a.rounds; ++r) {
    for (int i = 0; i < a.iters; ++i) {
      if (!timeOnce(ms)) return 1;
      tirxMs.push_back(ms);
    }
    if (!torchRound("cudnn", haveCudnn, cudnnMs, a.iters) ||
        !torchRound("flash", haveFlash, flashMs, a.iters))
      return 1;
  }
  const double tm = bench::median(tirxMs), cm = bench::median(cudnnMs), fm = bench::median(flashMs);
  auto tf = [&](double m) { return m > 0 ? flops / (m * 1e-3) / 1e12 : 0.0; };
  std::printf("%-28s %10s %10s %10s %10s\n", "implementation", "median ms", "min ms", "TFLOP/s",
              "tirx/this");
  auto row = [&](const char* name, const std::vector<double>& v, double m) {
    if (v.empty()) {
      std::printf("%-28s %10s\n", name, "not run");
      return;
    }
    std::printf("%-28s %10.3f %10.3f %10.1f %10s\n", name, m, *std::min_element(v.begin(), v.end()),
                tf(m), bench::percent(tf(tm), tf(m)).c_str());
  };
  row(k.name.c_str(), tirxMs, tm);
  row("torch SDPA cuDNN", cudnnMs, cm);
  row("torch SDPA flash", flashMs, fm);
  if (a.unchecked)
    std::printf("unchecked: an ablation, its output was not required to match; not a result\n");
  std::printf("attn_tflops tirx %.2f%s\n", tf(tm), a.unchecked ? " unchecked" : "");
  if (!cudnnMs.empty())
    std::printf("attn_tflops cudnn %.2f\nattn_ratio cudnn %.4f\n", tf(cm), tf(tm) / tf(cm));
  if (!flashMs.empty())
    std::printf("attn_tflops flash %.2f\nattn_ratio flash %.4f\n", tf(fm), tf(tm) / tf(fm));
  return 0;
}
