// runVerify(): core/verify's verifyScript on the worker; the studio keeps its Report as it is and
// adds the decimated plots of each check and the status line. A "cuda:N" device installs the CUDA
// executor of core/driver (a child `tirx runner` process).
// Built when core/verify has sources.
#include "views/engine_products.h"

#if defined(TIRX_STUDIO_HAVE_VERIFY)
#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/driver/cuda_executor.h"
#include "core/verify/verify.h"
#include "views/engine_verify.h"
#include "views/run_verdict.h"

namespace tirx::views {

bool verifyAvailable() { return true; }
std::string verifyUnavailableReason() { return {}; }

namespace {

// The plots' data, decimated here on the worker so that the GUI thread only ever draws a few
// thousand points, whatever the size of the output.
CheckPlots plotsOf(const verify::Check& c, const VerifyRequest& request) {
  CheckPlots p;
  const size_t n = std::min(c.output.size(), c.reference.size());
  p.output = downsampleMinMax(c.output, request.plotColumns);
  p.reference = downsampleMinMax(c.reference, request.plotColumns);
  std::vector<double> err(n);
  for (size_t i = 0; i < n; ++i) err[i] = std::fabs(c.output[i] - c.reference[i]);
  p.error = downsampleMinMax(err, request.plotColumns);
  if (c.shape.size() >= 2 && c.shape.back() > 0) {
    const int64_t cols = c.shape.back();
    p.heat = downsampleGrid(err, static_cast<int64_t>(n) / cols, cols, request.heatRows,
                            request.heatCols);
  }
  return p;
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
  verify::Report r = verifyScript(request.source, options);
  // read after the run: the token is set while it runs
  const bool cancelled = cancel && cancel->cancelled();
  return productsFromReport(std::move(r), request, cancelled);
}

VerifyProducts productsFromReport(verify::Report r, const VerifyRequest& request, bool cancelled) {
  VerifyProducts out;
  out.device = r.device.empty() || r.device == "cuda" ? request.device : r.device;
  out.cancelled = cancelled;
  for (const verify::Check& c : r.checks) out.plots.push_back(plotsOf(c, request));
  std::ostringstream s;
  int passed = 0;
  for (const auto& c : r.checks) passed += c.pass;
  if (cancelled)  // a Stop is its own verdict, not a FAIL (views/run_verdict.h)
    s << "cancelled on " << out.device << " (stopped before the checks finished)";
  else
    s << (r.passed() ? "PASS" : "FAIL") << ": " << passed << "/" << r.checks.size()
      << " checks passed on " << out.device;
  // where a Stop ended the run is neither a fault nor an error
  size_t faults = 0;
  std::vector<const Diagnostic*> errors;
  for (const auto& f : r.faults) faults += !isStopDiagnostic(out, f.diag);
  for (const auto& d : r.errors)
    if (!isStopDiagnostic(out, d)) errors.push_back(&d);
  if (faults) s << ", " << faults << " faults";
  if (!errors.empty()) s << ", " << errors.size() << " errors: " << errors.front()->message;
  if (r.environmentError) s << " (device unavailable)";
  out.summary = s.str();
  out.engine = std::move(r);
  return out;
}

}  // namespace tirx::views
#endif
