// Kernel bundles in the studio (File > Export Bundle, File > Open Bundle): core/verify/bundle.h
// turned into the studio's values. Exporting verifies on the chosen device with every launch
// recorded; opening takes the engine's values of the bundle (verify::openBundle: a compile's
// products, a verify Report, the door `tirx replay` uses too) and wraps them as the studio's, so
// the Assembly and Results docks show the recorded run (not a new one) exactly as they show a
// live one. Both run on a worker thread.
#include <sstream>

#include "core/verify/bundle.h"
#include "views/engine/engine_products.h"
#include "views/engine/engine_verify.h"

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
  s << b.launches.size() << (b.launches.size() == 1 ? " launch on " : " launches on ")
    << b.deviceName << ", " << passed << "/" << b.checks.size() << " checks passed";
  out.summary = s.str();
  out.json = verify::bundleToJson(b);
  out.ok = true;
  return out;
}

OpenedBundle loadBundleFile(const std::string& path, int plotColumns) {
  OpenedBundle out;
  auto opened = verify::openBundle(path);
  if (!opened) {
    out.error = opened.error().api == "open"
                    ? opened.error().message
                    : "cannot open '" + path + "': " + opened.error().message;
    return out;
  }
  const verify::Bundle& b = opened->bundle;
  out.ok = true;
  out.script = b.script;
  out.scriptFile = b.scriptFile;
  out.products.engine = std::move(opened->products);
  const int unreadable = b.products.unreadableResources;
  out.products.summary =
      "recorded in the bundle (" + b.toolkit + ")" +
      (b.products.error.empty() ? std::string() : ": " + b.products.error) +
      (unreadable ? "; " + std::to_string(unreadable) + " unreadable resource lines"
                  : std::string());
  VerifyRequest req;
  req.device = b.deviceName;
  req.plotColumns = plotColumns;
  out.report = productsFromReport(std::move(opened->report), req, false);
  out.summary = "bundle recorded on " + b.deviceName + " (" + b.created + ", tirx " +
                b.tirxVersion + "): " + out.report.summary;
  out.report.summary = out.summary;
  out.profile = b.profile;
  return out;
}

}  // namespace tirx::views
