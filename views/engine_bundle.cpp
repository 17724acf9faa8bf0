// Kernel bundles in the studio (File > Export Bundle, File > Open Bundle): core/verify/bundle.h
// turned into the studio's values. Exporting verifies on the chosen device with every launch
// recorded; opening turns what the bundle recorded into the engine's own values (a compile's
// products, a verify Report), so the Assembly and Results docks show the recorded run (not a new
// one) exactly as they show a live one. Both run on a worker thread.
#include <sstream>

#include "core/codegen/codegen.h"
#include "core/driver/runner_protocol.h"
#include "core/toolchain/register_facts.h"
#include "core/toolchain/toolchain.h"
#include "core/verify/bundle.h"
#include "views/engine_products.h"
#include "views/engine_verify.h"

namespace tirx::views {

BundleExport runExportBundle(const VerifyRequest& request, const CancelTokenPtr& cancel) {
  BundleExport out;
  verify::BundleOptions o;
  o.fileName = request.fileName;
  o.arch = "sm_" + std::to_string(request.sm);
  o.cancel = cancel;
  auto device = deviceOf(request);
  if (!device) {
    out.summary = "cannot export a bundle: the device " + request.device +
                  " is unavailable: " + device.error().message;
    return out;
  }
  o.device = *device;
  verify::Report r;
  const verify::Bundle b = verify::makeBundle(request.source, o, &r);
  if (r.environmentError) {
    out.summary = "cannot export a bundle: the device " + request.device + " is unavailable" +
                  (r.errors.empty() ? std::string() : ": " + r.errors.front().message);
    return out;
  }
  if (b.launches.empty()) {
    out.summary = "cannot export a bundle: no kernel ran" +
                  (r.errors.empty() ? std::string() : " (" + r.errors.front().message + ")");
    return out;
  }
  int passed = 0;
  for (const auto& c : b.checks) passed += c.pass ? 1 : 0;
  std::ostringstream s;
  s << b.launches.size() << (b.launches.size() == 1 ? " launch on " : " launches on ") << b.deviceName << ", "
    << passed << "/" << b.checks.size() << " checks passed";
  out.summary = s.str();
  out.json = verify::bundleToJson(b);
  out.ok = true;
  return out;
}

OpenedBundle loadBundleFile(const std::string& path, int plotColumns) {
  OpenedBundle out;
  std::string text;
  if (!driver::readWholeFile(path, text, verify::kMaxBundleBytes)) {
    out.error = "cannot read '" + path + "' (missing, unreadable, or over 1 GiB)";
    return out;
  }
  auto b = verify::parseBundle(text);
  if (!b) {
    out.error = "cannot open '" + path + "': " + b.error().message;
    return out;
  }
  out.ok = true;
  out.script = b->script;
  out.scriptFile = b->scriptFile;
  // The generated code as a compile's products: the recorded texts, their resource lines read
  // back, and the source map of the recorded PTX and SASS, which carry their own line records
  // (.loc, nvdisasm's //## File), linked to the script by the readers a live compile uses.
  driver::CompileProducts& p = out.products.engine;
  p.ok = b->products.error.empty();
  p.fileName = b->scriptFile;
  p.cuda = b->products.cuda;
  p.ptx = b->products.ptx;
  p.sass = b->products.sass;
  p.sassStatus = b->products.sassStatus;
  int unreadable = 0;
  for (const auto& line : b->products.resources) {
    if (auto k = toolchain::parseResourceLine(line))
      p.resources.push_back(std::move(*k));
    else
      ++unreadable;
  }
  p.map.attachPtx(p.ptx, b->scriptFile);
  p.map.sassToScript = toolchain::sassLineMap(p.sass, b->scriptFile);
  out.products.summary =
      "recorded in the bundle (" + b->toolkit + ")" +
      (b->products.error.empty() ? std::string() : ": " + b->products.error) +
      (unreadable ? "; " + std::to_string(unreadable) + " unreadable resource lines"
                  : std::string());
  verify::Report r;
  r.file = b->scriptFile;
  r.device = b->deviceName;
  r.checks = std::move(b->checks);
  r.errors = std::move(b->errors);
  r.faults = std::move(b->faults);
  r.totalMs = b->totalMs;
  for (const auto& l : b->launches)
    r.runs.push_back({l.kernel, l.device, SourceSpan{}, l.ran, l.compileMs, l.runMs, {}, {}});
  VerifyRequest req;
  req.device = b->deviceName;
  req.plotColumns = plotColumns;
  out.report = productsFromReport(std::move(r), req, false);
  out.summary = "bundle recorded on " + b->deviceName + " (" + b->created + ", tirx " + b->tirxVersion +
                "): " + out.report.summary;
  out.report.summary = out.summary;
  return out;
}

}  // namespace tirx::views
