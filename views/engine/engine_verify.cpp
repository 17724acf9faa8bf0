// runVerify(): core/verify's verifyScript on the worker; the studio keeps its Report as it is and
// adds the decimated plots of each check and the status line. The request's device text is read by
// core/driver's parseDevice; verify makes the device's executor (a child `tirx runner` process for
// a GPU or an ssh host).
#include "views/engine/engine_verify.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/verify/verify.h"
#include "views/engine/engine_products.h"
#include "views/engine/run_verdict.h"

namespace tirx::views {

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

Result<driver::DeviceSpec> deviceOf(const VerifyRequest& request) {
  std::optional<std::string_view> sanitizer;
  if (!request.sanitize.empty()) sanitizer = request.sanitize;
  return driver::parseDevice(request.device.empty() ? "sim" : request.device, sanitizer);
}

VerifyProducts runVerify(const VerifyRequest& request, const CancelTokenPtr& cancel) {
  verify::VerifyOptions options;
  options.fileName = request.fileName;
  options.arch = "sm_" + std::to_string(request.sm);
  options.cancel = cancel;
  options.recordTimeline = request.recordTimeline;
  options.onlyCta = request.onlyCta;
  options.analysed = request.analysed.get();
  auto device = deviceOf(request);
  if (!device) {
    VerifyProducts out;
    out.device = request.device;
    out.engine.file = request.fileName;
    out.engine.device = request.device;
    out.engine.environmentError = true;
    out.summary = "cannot verify on '" + request.device + "': " + device.error().message;
    return out;
  }
  options.device = *device;
  verify::Report r = verifyScript(request.source, options);
  // read after the run: the token is set while it runs
  const bool cancelled = cancel && cancel->cancelled();
  return productsFromReport(std::move(r), request, cancelled);
}

VerifyProducts productsFromReport(verify::Report r, const VerifyRequest& request, bool cancelled) {
  VerifyProducts out;
  out.device = r.device.empty() ? request.device : r.device;
  out.cancelled = cancelled;
  for (const verify::Check& c : r.checks) out.plots.push_back(plotsOf(c, request));
  std::ostringstream s;
  int passed = 0;
  for (const auto& c : r.checks) passed += c.pass;
  if (cancelled)  // a Stop is its own verdict, not a FAIL (views/engine/run_verdict.h)
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
