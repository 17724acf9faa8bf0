// runVerify(): core/verify's verifyScript turned into the studio's VerifyProducts value. A
// "cuda:N" device installs the CUDA executor of core/driver (a child `tirx runner` process).
// Built when core/verify has sources.
#include "views/engine_products.h"

#if defined(TIRX_STUDIO_HAVE_VERIFY)
#include <cmath>
#include <sstream>

#include "core/driver/cuda_executor.h"
#include "core/layout/tile_layout.h"
#include "core/verify/verify.h"
#include "views/engine_verify.h"

namespace tirx::views {

bool verifyAvailable() { return true; }
std::string verifyUnavailableReason() { return {}; }

namespace {

WorstElement convertWorst(const verify::WorstElement& w, const std::vector<int64_t>& shape) {
  WorstElement e;
  e.index = w.coord;
  e.flat = (w.coord.size() == shape.size() && !shape.empty()) ? flatten(w.coord, shape) : 0;
  e.actual = w.actual;
  e.expected = w.expected;
  e.absError = w.absErr;
  e.relError = w.relErr;
  e.owner = w.owner;
  if (w.owner.known) e.line = w.owner.regLine > 0 ? w.owner.regLine : w.owner.storeLine;
  return e;
}

// The plots' data, decimated here on the worker so that the GUI thread only ever draws a few
// thousand points, whatever the size of the output.
void fillPlots(CheckResult& cr, const verify::Check& c, const VerifyRequest& request) {
  const size_t n = std::min(c.output.size(), c.reference.size());
  cr.elements = static_cast<int64_t>(std::max(c.output.size(), c.reference.size()));
  cr.plotOutput = downsampleMinMax(c.output, request.plotColumns);
  cr.plotReference = downsampleMinMax(c.reference, request.plotColumns);
  std::vector<double> err(n);
  for (size_t i = 0; i < n; ++i) err[i] = std::fabs(c.output[i] - c.reference[i]);
  cr.plotError = downsampleMinMax(err, request.plotColumns);
  if (c.shape.size() >= 2 && c.shape.back() > 0) {
    const int64_t cols = c.shape.back();
    cr.heat = downsampleGrid(err, static_cast<int64_t>(n) / cols, cols, request.heatRows,
                             request.heatCols);
  }
}

}  // namespace

std::unique_ptr<ir::Executor> makeGpuExecutor(const VerifyRequest& request, std::string* why) {
  driver::CudaExecutorOptions o;
  o.scriptFile = request.fileName;
  o.scriptSource = request.source;
  o.sm = request.sm;
  if (driver::isSshDevice(request.device)) {
    driver::SshTarget t;
    std::string bad;
    if (!driver::parseSshDevice(request.device, t, bad)) {
      if (why) *why = bad;
      return nullptr;
    }
    o.remote = t;
    o.device = t.device;
  } else {
    o.device = request.device.size() > 5 ? std::atoi(request.device.c_str() + 5) : 0;
    if (!request.sanitize.empty() && !driver::parseSanitizerTool(request.sanitize, o.sanitize)) {
      if (why) *why = "unknown sanitizer tool '" + request.sanitize + "'";
      return nullptr;
    }
  }
  return std::make_unique<driver::CudaExecutor>(o);
}

VerifyProducts runVerify(const VerifyRequest& request, const CancelTokenPtr& cancel) {
  verify::VerifyOptions options;
  options.fileName = request.fileName;
  options.arch = "sm_" + std::to_string(request.sm);
  options.cancel = cancel;
  options.recordTimeline = request.recordTimeline;
  const bool gpu = request.device.rfind("cuda", 0) == 0 || driver::isSshDevice(request.device);
  options.device = gpu ? "cuda" : "sim";
  if (gpu)
    options.cudaFactory = [request](const std::string&, std::string* why) { return makeGpuExecutor(request, why); };
  const verify::Report r = verifyScript(request.source, options);
  return productsFromReport(r, request, cancel && cancel->cancelled());
}

VerifyProducts productsFromReport(const verify::Report& r, const VerifyRequest& request, bool cancelled) {
  VerifyProducts out;
  out.device = r.device.empty() || r.device == "cuda" ? request.device : r.device;
  out.ran = !r.environmentError && (!r.runs.empty() || !r.checks.empty());
  out.passed = r.passed();
  for (const verify::Check& c : r.checks) {
    CheckResult cr;
    cr.name = c.name;
    cr.passed = c.pass;
    cr.message = c.message;
    cr.maxAbsError = c.maxAbs;
    cr.maxRelError = c.maxRel;
    cr.mismatches = c.mismatches;
    cr.shape = c.shape;
    fillPlots(cr, c, request);
    cr.line = c.span.line;
    for (const auto& w : c.worst) cr.worst.push_back(convertWorst(w, c.shape));
    out.checks.push_back(std::move(cr));
  }
  out.faults = r.errors;
  for (const auto& f : r.faults) out.faults.push_back(f.diag);
  out.cancelled = cancelled;
  for (const auto& run : r.runs) {
    out.sharedAccesses.insert(out.sharedAccesses.end(), run.sharedAccesses.begin(),
                              run.sharedAccesses.end());
    out.timings.emplace_back(run.kernel + " compile", run.compileMs);
    out.timings.emplace_back(run.kernel + " run", run.runMs);
    for (size_t i = 0; i < run.sharedAccesses.size(); ++i)
      out.sharedOwners.push_back({run.kernel, i < run.sharedBuffers.size() ? run.sharedBuffers[i] : std::string()});
    if (!run.timeline.empty()) out.timelines.push_back({run.kernel, run.span.line, run.timeline});
  }
  out.timings.emplace_back("total", r.totalMs);
  std::ostringstream s;
  int passed = 0;
  for (const auto& c : r.checks) passed += c.pass;
  if (out.cancelled) s << "stopped: ";
  s << (out.passed ? "PASS" : "FAIL") << ": " << passed << "/" << r.checks.size()
    << " checks passed on " << out.device;
  if (!r.faults.empty()) s << ", " << r.faults.size() << " faults";
  if (!r.errors.empty()) s << ", " << r.errors.size() << " errors: " << r.errors.front().message;
  if (r.environmentError) s << " (device unavailable)";
  out.summary = s.str();
  out.engine = r;
  return out;
}

}  // namespace tirx::views
#endif
