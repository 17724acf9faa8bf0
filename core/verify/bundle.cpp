// Kernel bundles: the recording executor (each launch's inputs and written outputs, on any
// device), makeBundle (verify once with recording, then the compile products), openBundle (a file
// into a compile's products and a verify Report), and replay of a bundle's launches on another
// executor with the recorded tolerances. The file format and its defensive reader are in
// bundle_json.cpp.
#include "core/verify/bundle.h"

#include <cmath>
#include <ctime>
#include <filesystem>

#include "core/device/cuda_driver.h"
#include "core/driver/compile.h"
#include "core/driver/device.h"
#include "core/driver/host_io.h"
#include "core/driver/runner_protocol.h"
#include "core/driver/version.h"
#include "core/ir/buffer_access.h"
#include "core/ir/specialize.h"
#include "core/sema/sema.h"
#include "core/toolchain/register_facts.h"

namespace tirx::verify {

namespace {

class RecordingExecutor : public ir::Executor {
 public:
  RecordingExecutor(std::unique_ptr<ir::Executor> inner, std::vector<BundleLaunch>* launches)
      : m_inner(std::move(inner)), m_launches(launches) {}
  std::string name() const override { return m_inner->name(); }
  Result<ir::RunOutcome> run(const ir::Program& program, const std::string& kernel,
                             std::vector<ir::KernelArg>& args) override {
    m_inner->setBudget(budget());
    const std::vector<ir::KernelArg> before = args;
    auto r = m_inner->run(program, kernel, args);
    if (!r) return r;
    const ir::Kernel* k = program.findKernel(kernel);
    BundleLaunch l;
    l.kernel = kernel;
    l.device = r->device.empty() ? m_inner->name() : r->device;
    l.ran = r->ran;
    l.compileMs = r->compileMs;
    l.runMs = r->runMs;
    l.faults = r->faults;
    const std::vector<bool> written = k ? ir::writtenParams(*k) : std::vector<bool>();
    for (size_t i = 0; i < args.size(); ++i) {
      BundleArg a;
      a.name = k && i < k->params.size() ? k->params[i].name : "arg" + std::to_string(i);
      a.input = before[i];
      a.hasOutput = args[i].isTensor && r->ran && i < written.size() && written[i];
      if (a.hasOutput) a.output = args[i].tensor;
      l.args.push_back(std::move(a));
    }
    m_launches->push_back(std::move(l));
    return r;
  }

 private:
  std::unique_ptr<ir::Executor> m_inner;
  std::vector<BundleLaunch>* m_launches;
};

/// The local CUDA driver's version ("13.0"), empty when there is none.
std::string driverVersion() {
  if (!device::driverLibraryPresent()) return {};
  auto api = device::driver();
  int v = 0;
  if (!api || !(*api)->cuDriverGetVersion || (*api)->cuDriverGetVersion(&v) != 0) return {};
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

std::string utcNow() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

void fillProducts(std::string_view text, const std::string& file, int sm, BundleProducts& p) {
  driver::CompileOptions co;
  co.sm = sm;
  auto c = driver::compileScript(text, file, co);
  if (!c) {
    p.error = c.error().text();
    return;
  }
  p.cuda = c->cuda;
  p.ptx = c->ptx;
  p.sass = c->sass;
  p.sassStatus = c->sassStatus;
  if (!c->ok) p.error = "the script did not compile:\n" + formatGcc(c->diagnostics, file);
  p.resources = c->resources;
}

}  // namespace

Bundle makeBundle(std::string_view source, const BundleOptions& o, Report* reportOut) {
  Bundle b;
  const int sm = parseArch(o.arch);
  VerifyOptions vo;
  vo.fileName = o.fileName;
  vo.arch = o.arch;
  vo.budget = o.budget;
  vo.cancel = o.cancel;
  // The recording executor takes verify's runner slot whatever the device is, so that verify runs
  // each kernel once, on that device (the simulator included): verify is asked for a GPU and given
  // the recording wrapper around the executor of the bundle's own device.
  vo.device = driver::DeviceSpec::cuda();
  vo.makeExecutor =
      [&](const driver::DeviceSpec&,
          const driver::ExecutorContext& context) -> Result<std::unique_ptr<ir::Executor>> {
    auto inner = driver::makeExecutor(o.device, context);
    if (!inner) return inner.error();
    return recordingExecutor(std::move(*inner), &b.launches);
  };
  Report r = verifyScript(source, vo);
  b.tirxVersion = kTirxVersion;
  b.created = utcNow();
  b.scriptFile = std::filesystem::path(o.fileName).filename().string();
  b.script = std::string(source);
  b.arch = o.arch;
  b.requestedDevice = o.device.text();
  b.deviceName = b.launches.empty() ? b.requestedDevice : b.launches.front().device;
  b.toolkit = toolchain::toolkitVersion();
  b.driver = o.device.kind == driver::DeviceKind::Cuda ? driverVersion() : std::string();
  b.passed = r.passed();
  b.totalMs = r.totalMs;
  b.checks = r.checks;
  b.errors = r.errors;
  b.faults = r.faults;
  if (!r.environmentError) fillProducts(source, o.fileName, sm > 0 ? sm : 90, b.products);
  if (reportOut) *reportOut = std::move(r);
  return b;
}

Result<OpenedBundle> openBundle(const std::string& path) {
  std::string text;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec) ||
      !driver::readWholeFile(path, text, kMaxBundleBytes))
    return Status{
        "open", "cannot read '" + path + "' (missing, unreadable, a directory, or over 1 GiB)", 0};
  auto parsed = parseBundle(text);
  if (!parsed) return parsed.error();
  OpenedBundle out;
  out.bundle = std::move(*parsed);
  const Bundle& b = out.bundle;
  // The recorded PTX and SASS carry their own line records (.loc, nvdisasm's //## File): the
  // readers a live compile uses link them to the script.
  driver::CompileProducts& p = out.products;
  p.ok = b.products.error.empty();
  p.fileName = b.scriptFile;
  p.cuda = b.products.cuda;
  p.ptx = b.products.ptx;
  p.sass = b.products.sass;
  p.sassStatus = b.products.sassStatus;
  p.resources = b.products.resources;
  p.map.attachPtx(p.ptx, b.scriptFile);
  p.map.sassToScript = toolchain::sassLineMap(p.sass, b.scriptFile);
  Report& r = out.report;
  r.file = b.scriptFile;
  r.device = b.deviceName;
  r.checks = b.checks;
  r.errors = b.errors;
  r.faults = b.faults;
  r.totalMs = b.totalMs;
  for (const auto& l : b.launches)
    r.runs.push_back({l.kernel, l.device, SourceSpan{}, l.ran, l.compileMs, l.runMs, {}, {}});
  return out;
}

std::unique_ptr<ir::Executor> recordingExecutor(std::unique_ptr<ir::Executor> inner,
                                                std::vector<BundleLaunch>* launches) {
  return std::make_unique<RecordingExecutor>(std::move(inner), launches);
}

void bundleTolerance(const Bundle& b, const std::string& kernel, double& rtol, double& atol) {
  rtol = 1e-5;
  atol = 1e-6;
  for (const auto& c : b.checks)
    if (c.kernel == kernel && (c.rtol > 0 || c.atol > 0) && c.kind != "assert" && c.kind != "run") {
      rtol = c.rtol;
      atol = c.atol;
      return;
    }
}

ReplayOutput compareOutput(const std::string& param, const ir::HostTensor& recorded,
                           const ir::HostTensor& replayed, double rtol, double atol) {
  ReplayOutput o;
  o.param = param;
  if (recorded.shape != replayed.shape || recorded.dtype != replayed.dtype) {
    o.detail = "the replay's output has another dtype or shape";
    return o;
  }
  o.total = recorded.numel();
  for (int64_t i = 0; i < o.total; ++i) {
    const bool dr = recorded.isDefined(i), dp = replayed.isDefined(i);
    if (!dr && !dp) continue;
    std::string why;
    if (dr != dp) {
      why = dr ? "defined in the recording only" : "defined in the replay only";
    } else {
      const double a = driver::tensorValue(replayed, i), e = driver::tensorValue(recorded, i);
      if (std::isnan(a) && std::isnan(e)) continue;
      const double d = std::fabs(a - e);
      if (std::isfinite(d)) o.maxAbs = std::max(o.maxAbs, d);
      if (d <= atol + rtol * std::fabs(e)) continue;
      char buf[96];
      std::snprintf(buf, sizeof buf, "got %.9g, recorded %.9g", a, e);
      why = buf;
    }
    if (o.differ++ == 0) o.detail = "first at element " + std::to_string(i) + ": " + why;
  }
  o.match = o.differ == 0;
  return o;
}

std::vector<LaunchReplay> replayBundle(const Bundle& b, const ir::Program& program,
                                       ir::Executor& exec) {
  std::vector<LaunchReplay> out;
  for (const BundleLaunch& l : b.launches) {
    LaunchReplay r;
    r.kernel = l.kernel;
    r.recordedRan = l.ran;
    bundleTolerance(b, l.kernel, r.rtol, r.atol);
    const ir::Kernel* k = program.findKernel(l.kernel);
    if (!k || (k->params.size() != l.args.size() && ir::writtenParamCount(*k) != l.args.size())) {
      r.error = k ? "kernel '" + l.kernel + "' takes " + std::to_string(k->params.size()) +
                        " arguments, the bundle has " + std::to_string(l.args.size())
                  : "the bundle's script has no kernel '" + l.kernel + "'";
      out.push_back(std::move(r));
      continue;
    }
    std::vector<ir::KernelArg> args;
    for (const auto& a : l.args) args.push_back(a.input);
    auto res = exec.run(program, l.kernel, args);
    if (!res) {
      r.error = res.error().text();
      out.push_back(std::move(r));
      break;  // the device is unavailable: the other launches would fail the same way
    }
    r.ran = res->ran;
    r.device = res->device.empty() ? exec.name() : res->device;
    r.faults = res->faults;
    r.match = r.ran == l.ran;
    if (r.ran && l.ran)
      for (size_t i = 0; i < l.args.size(); ++i) {
        if (!l.args[i].hasOutput) continue;
        r.outputs.push_back(
            compareOutput(l.args[i].name, l.args[i].output, args[i].tensor, r.rtol, r.atol));
        r.match = r.match && r.outputs.back().match;
      }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace tirx::verify
