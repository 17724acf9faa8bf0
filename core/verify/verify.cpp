// verifyScript: front end, device selection, the harness with its kernel-run callback (simulator,
// CUDA executor, or both with a device comparison), and the seeded self-check of scripts without
// check code.
#include "core/verify/verify.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include "core/driver/cuda_executor.h"
#include "core/ir/buffer_access.h"
#include "core/ir/specialize.h"
#include "core/sema/sema.h"
#include "core/sim/simulator.h"
#include "core/verify/compare.h"
#include "core/verify/device_compare.h"
#include "core/verify/harness.h"

namespace tirx::verify {

std::string OwnerInfo::text() const {
  if (!known) return "not written by the kernel";
  std::string t = "cta " + std::to_string(cta) + ", warp " + std::to_string(warp) + ", lane " +
                  std::to_string(lane);
  if (!reg.empty()) {
    t += ", register " + reg;
    if (regLine > 0) t += " (last written at line " + std::to_string(regLine) + ")";
  }
  t += ", stored at line " + std::to_string(storeLine);
  return t;
}

OwnerInfo ownerInfo(const ir::ElementOwner& o, const std::string& kernel,
                    const std::vector<std::string>& bufferNames) {
  OwnerInfo info;
  if (o.cta < 0) return info;
  info.known = true;
  info.kernel = kernel;
  info.cta = o.cta;
  info.thread = o.thread;
  info.warp = o.thread / 32;
  info.lane = o.thread % 32;
  if (o.regBuffer >= 0 && o.regBuffer < static_cast<int>(bufferNames.size())) {
    info.buffer = o.regBuffer;
    info.tile = bufferNames[size_t(o.regBuffer)];
    info.slot = o.regSlot;
    info.reg = info.tile + "[" + std::to_string(o.regSlot) + "]";
  }
  info.regLine = o.regLine;
  info.storeLine = o.storeLine;
  return info;
}

int OwnerInfo::producerLine() const {
  if (!known) return 0;
  return regLine > 0 ? regLine : storeLine;
}

int64_t Check::flatIndex(const WorstElement& w) const {
  if (w.coord.size() != shape.size() || shape.empty()) return -1;
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (w.coord[d] < 0 || w.coord[d] >= shape[d]) return -1;
    flat = flat * shape[d] + w.coord[d];
  }
  return flat;
}

bool Report::passed() const {
  // Warning faults (W0700 lints) are reported but do not fail a run.
  const bool faultErrors = std::any_of(faults.begin(), faults.end(), [](const ir::Fault& f) {
    return f.diag.severity == Severity::Error;
  });
  if (hasErrors(errors) || faultErrors || checks.empty() || environmentError) return false;
  for (const auto& c : checks)
    if (!c.pass) return false;
  return true;
}

namespace {

/// The hang report as notes of the run's deadlock or budget fault (the last `count` of `faults`).
void attachHang(std::vector<ir::Fault>& faults, size_t count, const ir::HangReport& hang) {
  if (hang.empty()) return;
  for (size_t i = faults.size() - std::min(count, faults.size()); i < faults.size(); ++i)
    if (faults[i].kind == hang.reason) {
      for (DiagNote& n : sim::hangNotes(hang)) faults[i].diag.notes.push_back(std::move(n));
      return;
    }
}

/// Seeded inputs for a kernel's parameters: floats uniform in [-2, 2), integers in [0, 16); the
/// tensors the kernel only writes are left undefined (poisoned on both devices), as a script's
/// np.empty outputs are.
std::vector<ir::KernelArg> seededArgs(const ir::Kernel& k, uint64_t seed) {
  const std::vector<bool> writeOnly = ir::writeOnlyParams(k);
  std::vector<ir::KernelArg> args(k.params.size());
  uint64_t s = seed;
  auto next = [&]() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  for (size_t i = 0; i < k.params.size(); ++i) {
    const auto& p = k.params[i];
    if (!p.isTensor) {
      args[i].isTensor = false;
      args[i].scalarType = p.dtype;
      // The value 1 in the parameter's dtype (bits of 1.0f for a float parameter).
      Array one = makeArray(p.dtype, {1});
      one.set(0, 1.0);
      uint64_t bits = 0;
      std::memcpy(&bits, one.data.data(), std::min<size_t>(one.data.size(), sizeof bits));
      args[i].scalarBits = bits;
      continue;
    }
    const ir::Buffer& b = k.buffers[p.buffer];
    Array a = makeArray(b.dtype, b.shape);
    for (int64_t e = 0; e < a.size(); ++e) {
      const double u = static_cast<double>(next() >> 11) * 0x1.0p-53;
      if (ir::isFloat(b.dtype))
        a.set(e, -2 + 4 * u);
      else
        a.setInt(e, static_cast<int64_t>(u * 16));
    }
    args[i].isTensor = true;
    args[i].tensor = a.toHost();
    if (writeOnly[i]) args[i].tensor.markAllUndefined();
  }
  return args;
}

/// E0771 when the seeded inputs of `k` alone are past `maxMemoryBytes` (checked only for the
/// simulator) or one of them cannot be allocated on the host: refused before they are made.
std::optional<Diagnostic> seededInputsTooLarge(const ir::Kernel& k, bool wantSim,
                                               int64_t maxMemoryBytes) {
  int64_t bytes = 0;
  std::string largest;
  for (const auto& p : k.params) {
    if (!p.isTensor) continue;
    const ir::Buffer& b = k.buffers[size_t(p.buffer)];
    if (!arraySizeError(b.dtype, b.shape).empty()) largest = p.name + " " + shapeText(b.shape);
    int64_t n = ir::dtypeBytes(b.dtype);
    for (int64_t e : b.shape)
      n = e > 0 && n > maxMemoryBytes / e ? maxMemoryBytes + 1 : n * std::max<int64_t>(e, 0);
    bytes = std::min(maxMemoryBytes + 1, bytes + n);
  }
  if ((wantSim && bytes > maxMemoryBytes) || !largest.empty())
    return makeError(
        "E0771", k.span,
        "kernel '" + k.name + "' is too large for " +
            (wantSim ? "the simulator" : "seeded host inputs") + ": its arguments need more than " +
            std::to_string(maxMemoryBytes >> 30) + " GiB (SimOptions::maxMemoryBytes)" +
            (largest.empty() ? std::string() : ", the argument " + largest + " alone") +
            "; call it from the script's check code with smaller arrays");
  return std::nullopt;
}

/// A script without check code: every kernel runs on seeded inputs (with two devices, compared),
/// one "run" check each.
void runSeededKernels(Report& rep, const ir::Program& program, const VerifyOptions& opt,
                      bool wantSim, int64_t maxMemoryBytes,
                      const decltype(HarnessContext::runKernel)& runOne) {
  for (const auto& k : program.kernels) {
    if (ir::hasSymbolicExtents(k)) {
      // Seeded inputs need sizes: a symbolic extent is bound only by a call.
      rep.errors.push_back(
          makeError("E0813", k.span,
                    "kernel '" + k.name +
                        "' has symbolic extents: call it from the script's check code with arrays "
                        "of the sizes to test, or run it with tirx run --input NAME=VALUE"));
      continue;
    }
    // The seeded inputs are made here, before the simulator's own memory check: refuse a
    // kernel whose arguments alone are past the simulator's limit before allocating them.
    if (std::optional<Diagnostic> tooLarge = seededInputsTooLarge(k, wantSim, maxMemoryBytes)) {
      rep.errors.push_back(std::move(*tooLarge));
      continue;
    }
    std::vector<ir::KernelArg> args = seededArgs(k, opt.seed);
    const size_t faultsBefore = rep.faults.size();
    HarnessRun hr = runOne(k.name, args, k.span);
    const auto errorFaults = std::count_if(
        rep.faults.begin() + static_cast<std::ptrdiff_t>(faultsBefore), rep.faults.end(),
        [](const ir::Fault& f) { return f.diag.severity == Severity::Error; });
    if (hr.ok && errorFaults > 0) {
      hr.ok = false;
      hr.error = std::to_string(errorFaults) + " runtime fault(s)";
    }
    Check c;
    c.kind = "run";
    c.name = k.name + ": seeded run on " + rep.device;
    if (opt.onlyCta >= 0)
      c.name = k.name + ": CTA " + std::to_string(opt.onlyCta) + " of " +
               std::to_string(k.launch.ctas()) + " alone on " + rep.device +
               " (seeded inputs; the check code not run)";
    c.span = k.span;
    c.kernel = k.name;
    c.device = rep.device;
    c.pass = hr.ok;
    c.message = hr.ok ? std::string() : hr.error;
    if (!hr.ok || !opt.device.both) rep.checks.push_back(std::move(c));
    if (!hr.ok && rep.environmentError) break;
  }
}

}  // namespace

Report verifyScript(std::string_view source, const VerifyOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  Report rep;
  rep.file = opt.fileName;
  rep.deviceSpec = opt.device;
  rep.device = opt.device.text();
  auto finish = [&]() {
    rep.totalMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return rep;
  };
  SemaOptions so;
  so.sm = parseArch(opt.arch);
  if (so.sm == 0) so.sm = 90;
  FrontEndResult own;
  if (!opt.analysed) own = checkScript(source, opt.fileName, so);
  const FrontEndResult& fe = opt.analysed ? *opt.analysed : own;
  for (const auto& d : fe.diagnostics)
    if (d.severity == Severity::Error) rep.errors.push_back(d);
  if (!fe.ok()) return finish();

  const bool wantSim = opt.device.isSim() || opt.device.both;
  const bool wantGpu = opt.device.usesRunner();
  // One budget for the whole verify (time limit, cancellation; docs/verify.md): the simulator
  // charges it, the GPU executor polls it while its runner child runs.
  WorkBudget budget(opt.budget, opt.cancel);
  std::unique_ptr<ir::Executor> gpu;
  if (wantGpu) {
    driver::ExecutorContext ec = opt.executor;
    ec.sm = so.sm;
    ec.scriptFile = opt.fileName;
    ec.scriptSource = std::string(source);
    ec.budget = &budget;
    auto made =
        opt.makeExecutor ? opt.makeExecutor(opt.device, ec) : driver::makeExecutor(opt.device, ec);
    if (!made || !*made) {
      rep.environmentError = true;
      rep.errors.push_back(
          makeError("E0830", {},
                    "the cuda device is not available: " +
                        (made ? std::string("no executor") : made.error().message)));
      return finish();
    }
    gpu = std::move(*made);
    gpu->setBudget(&budget);
  }
  sim::SimOptions simOptions;
  simOptions.budget = &budget;
  simOptions.recordTimeline = opt.recordTimeline;
  simOptions.observer = opt.observer;
  simOptions.onlyCta = opt.onlyCta;
  sim::Simulator simulator(simOptions);

  auto runOne = [&](const std::string& kernel, std::vector<ir::KernelArg>& args,
                    SourceSpan span) -> HarnessRun {
    HarnessRun hr;
    const ir::Kernel* k = fe.program.findKernel(kernel);
    std::vector<ir::KernelArg> simArgs;
    if (wantSim) {
      simArgs = args;
      auto out = simulator.run(fe.program, kernel, simArgs);
      if (!out.ok()) {
        hr.error = out.error().text();
        return hr;
      }
      rep.runs.push_back({kernel, "simulator", span, out->ran, out->compileMs, out->runMs,
                          out->sharedAccesses, std::move(out->timeline), out->hang});
      for (auto& f : out->faults) rep.faults.push_back(f);
      attachHang(rep.faults, out->faults.size(), out->hang);
      hr.provenance = std::move(out->provenance);
      hr.device = "simulator";
      if (!out->ran) {
        hr.error = "kernel '" + kernel + "' did not complete on the simulator" +
                   (out->faults.empty() ? std::string() : ": " + out->faults.front().diag.message);
        return hr;
      }
    }
    if (wantGpu) {
      std::vector<ir::KernelArg> gpuArgs = args;
      auto out = gpu->run(fe.program, kernel, gpuArgs);
      if (!out.ok()) {
        rep.environmentError = true;
        hr.error = out.error().text();
        return hr;
      }
      KernelRun run;  // a GPU run: no shared-memory counts, timeline or hang report
      run.kernel = kernel;
      run.device = out->device.empty() ? gpu->name() : out->device;
      run.span = span;
      run.ran = out->ran;
      run.compileMs = out->compileMs;
      run.runMs = out->runMs;
      rep.runs.push_back(std::move(run));
      for (auto& f : out->faults) rep.faults.push_back(f);
      if (!out->log.empty()) rep.log += out->log;
      if (!out->ran) {
        hr.error = "kernel '" + kernel + "' did not complete on " +
                   (out->device.empty() ? gpu->name() : out->device) +
                   (out->faults.empty() ? std::string() : ": " + out->faults.front().diag.message);
        return hr;
      }
      if (wantSim && k)
        compareDevices(rep, kernel, span, simArgs, gpuArgs, hr.provenance, fe.program, *k);
      args = std::move(gpuArgs);
      hr.device = wantSim ? "both" : (out->device.empty() ? gpu->name() : out->device);
    } else {
      args = std::move(simArgs);
    }
    hr.ok = true;
    return hr;
  };

  if (opt.onlyCta >= 0) {
    // One CTA of each kernel: the outputs are mostly unwritten, so the check code would only
    // fail; the kernels run on seeded inputs for their timeline and faults.
    if (wantGpu) {
      rep.errors.push_back(makeError(
          "E0815", {}, "one CTA alone (--cta) runs on the simulator only, not on " + rep.device));
      return finish();
    }
    runSeededKernels(rep, fe.program, opt, wantSim, simOptions.maxMemoryBytes, runOne);
    return finish();
  }
  HarnessContext ctx;
  ctx.module = &fe.parse.module;
  ctx.program = &fe.program;
  ctx.report = &rep;
  ctx.maxSteps = opt.maxHarnessSteps;
  ctx.budget = &budget;
  ctx.runKernel = runOne;
  const HarnessSummary sum = runHarness(ctx);

  if (!sum.stoppedByError && sum.kernelCalls == 0 && rep.checks.empty())
    runSeededKernels(rep, fe.program, opt, wantSim, simOptions.maxMemoryBytes, runOne);
  return finish();
}

}  // namespace tirx::verify
