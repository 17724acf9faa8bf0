// One candidate of a tune, end to end: the front end and the compile (a candidate with an error is
// rejected with its first diagnostic, and never runs), the verify through verify::verifyScript on
// the tune's device (a wrong answer is rejected with the failed check), then a timing run of every
// kernel on default arguments: the simulator's work units and wall time, or the GPU's median of
// the timed launches through the runner (as `tirx bench`). Also the ranking order.
#include <algorithm>

#include "core/driver/compile.h"
#include "core/driver/host_io.h"
#include "core/driver/kernel_occupancy.h"
#include "core/sema/sema.h"
#include "core/tune/tune.h"
#include "core/verify/verify.h"

namespace tirx::tune {

namespace {

std::string diagText(const Diagnostic& d) {
  return d.code + ": " + d.message + " (line " + std::to_string(d.span.line) + ":" +
         std::to_string(d.span.col) + ")";
}

std::string verifyFailure(const verify::Report& r) {
  for (const auto& d : r.errors)
    if (d.severity == Severity::Error) return diagText(d);
  for (const auto& f : r.faults) return diagText(f.diag);
  for (const auto& c : r.checks)
    if (!c.pass)
      return "check " + c.name + " failed: " +
             (c.total > 0 ? std::to_string(c.mismatches) + "/" + std::to_string(c.total) +
                                " mismatches, max abs " + std::to_string(c.maxAbs)
                          : c.message);
  return "no check ran";
}

/// Times every kernel of `program` once on default arguments; false with `why` on a fault.
bool timeKernels(const ir::Program& program, const std::string& source, const EvaluateOptions& o,
                 int sm, CandidateResult& r, std::string& why) {
  WorkBudget budget(o.budget, o.cancel);
  driver::ExecutorContext ctx;
  ctx.sm = sm;
  ctx.scriptFile = o.fileName;
  ctx.scriptSource = source;
  ctx.budget = &budget;
  ctx.trackDefined = false;
  ctx.simProvenance = false;
  ctx.runnerPath = o.runnerPath;
  if (!o.device.isSim()) ctx.warmup = o.warmup, ctx.repeats = o.repeats;
  auto made = driver::makeExecutor(o.device, ctx);
  if (!made) {
    why = made.error().text();
    return false;
  }
  ir::Executor& exec = **made;
  exec.setBudget(&budget);
  for (const auto& k : program.kernels) {
    if (!o.kernel.empty() && k.name != o.kernel) continue;
    auto args = driver::makeArguments(k, {});
    if (!args) {
      why = args.error().message;
      return false;
    }
    for (const auto& a : *args)
      if (a.isTensor) r.bytes += double(a.tensor.data.size());
    auto run = exec.run(program, k.name, *args);
    if (!run) {
      why = run.error().text();
      return false;
    }
    if (!run->ran || !run->faults.empty()) {
      why = run->faults.empty() ? "the timing run of " + k.name + " did not finish"
                                : diagText(run->faults.front().diag);
      return false;
    }
    const driver::LaunchTimings* t = driver::lastLaunchTimings(exec);
    r.timeMs += t ? t->medianMs : run->runMs;
    r.device = run->device;
  }
  r.simWork = o.device.isSim() ? budget.used() : 0;
  return true;
}

}  // namespace

const char* outcomeName(Outcome o) {
  switch (o) {
    case Outcome::Ranked:
      return "ranked";
    case Outcome::RejectedCheck:
      return "rejected_check";
    case Outcome::RejectedVerify:
      return "rejected_verify";
    case Outcome::Failed:
      return "failed";
  }
  return "failed";
}

CandidateResult evaluateCandidate(const std::string& source, const TuneSpace& space,
                                  const Candidate& c, const EvaluateOptions& o) {
  CandidateResult r;
  for (size_t i = 0; i < space.params.size() && i < c.size(); ++i)
    r.values[space.params[i].name] = c[i];
  const int sm = parseArch(o.arch);
  SemaOptions so;
  so.sm = sm;
  const FrontEndResult front = checkScript(source, o.fileName, so);
  for (const auto& d : front.diagnostics)
    if (d.severity == Severity::Error) {
      r.outcome = Outcome::RejectedCheck;
      r.reason = diagText(d);
      return r;
    }
  driver::CompileOptions co;
  co.sm = sm;
  co.sass = false;
  co.analysed = &front;
  // Registers and shared memory from ptxas; a machine without NVRTC still tunes, without them.
  if (auto compiled = driver::compileScript(source, o.fileName, co)) {
    for (const auto& d : compiled->diagnostics)
      if (d.severity == Severity::Error) {
        r.outcome = Outcome::RejectedCheck;
        r.reason = diagText(d);
        return r;
      }
    for (const auto& res : compiled->resources) {
      r.registers = std::max(r.registers, res.registers);
      r.sharedBytes = std::max(r.sharedBytes, res.sharedBytes);
    }
    for (const auto& ko : driver::kernelOccupancy(*compiled, sm)) {
      if (!o.kernel.empty() && ko.kernel != o.kernel) continue;
      r.sharedBytes = std::max(r.sharedBytes, int(ko.input.sharedBytesPerBlock));
      if (ko.occupancy.valid && (r.occupancy == 0 || ko.occupancy.occupancy < r.occupancy))
        r.occupancy = ko.occupancy.occupancy;
    }
  }
  verify::VerifyOptions vo;
  vo.device = o.device;
  vo.arch = o.arch;
  vo.fileName = o.fileName;
  vo.budget = o.budget;
  vo.cancel = o.cancel;
  vo.analysed = &front;
  vo.executor.runnerPath = o.runnerPath;
  const verify::Report report = verify::verifyScript(source, vo);
  if (o.cancel && o.cancel->cancelled()) {
    r.outcome = Outcome::Failed;
    r.reason = "cancelled";
    return r;
  }
  if (report.environmentError) {
    r.outcome = Outcome::Failed;
    r.reason = verifyFailure(report);
    return r;
  }
  if (!report.passed()) {
    r.outcome = Outcome::RejectedVerify;
    r.reason = verifyFailure(report);
    return r;
  }
  std::string why;
  if (!timeKernels(front.program, source, o, sm, r, why)) {
    r.outcome = Outcome::Failed;
    r.reason = why;
    return r;
  }
  r.outcome = Outcome::Ranked;
  return r;
}

void rankResults(std::vector<CandidateResult>& results, bool simulator) {
  std::stable_sort(results.begin(), results.end(),
                   [simulator](const CandidateResult& a, const CandidateResult& b) {
                     const bool ra = a.outcome == Outcome::Ranked,
                                rb = b.outcome == Outcome::Ranked;
                     if (ra != rb) return ra;
                     if (!ra) return false;
                     if (simulator && a.simWork != b.simWork) return a.simWork < b.simWork;
                     return a.timeMs < b.timeMs;
                   });
}

}  // namespace tirx::tune
