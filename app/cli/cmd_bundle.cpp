// `tirx bundle FILE -o OUT.tirxb [--device sim|cuda[:N]] [--arch sm_90] [--timeout S] [--budget N]
// [--profile REPORT.json]` (the profile summary is stored in the bundle)
// and `tirx replay BUNDLE [--device sim|cuda[:N]] [--json]`: reproducible kernel bundles
// (core/verify/bundle.h). `bundle` verifies the script on the device with every launch recorded,
// compiles it for the products (CUDA, PTX, SASS, resources) and writes one file; `replay` re-runs
// each recorded launch from its inputs and compares the outputs with the recording within the
// tolerance of the check on that kernel. Exit codes: bundle 0 written (whatever the checks said),
// 1 the script has errors, 2 usage or I/O, 3 device unavailable; replay 0 every launch matches,
// 1 a difference or a fault, 2 usage or an unreadable/malformed/newer bundle, 3 device unavailable.
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "app/cli/cli.h"
#include "core/driver/runner_protocol.h"
#include "core/sema/sema.h"
#include "core/verify/bundle.h"

namespace tirx::cli {

int cmdBundle(const Args& args, std::ostream& out, std::ostream& err) {
  const char* usage =
      "usage: tirx bundle FILE -o OUT.tirxb [--device sim|cuda[:N]] [--arch sm_90] [--timeout S] "
      "[--budget N] [--profile REPORT.json]\n";
  const Options o =
      parseOptions(args, {"-o", "--device", "--arch", "--timeout", "--budget", "--profile"}, {});
  if (!o.error.empty() || o.positional.size() != 1 || o.get("-o").empty()) {
    err << "tirx bundle: " << (o.error.empty() ? "expected one FILE and -o OUT" : o.error) << "\n"
        << usage;
    return 2;
  }
  const std::optional<driver::DeviceSpec> device = deviceOption(o, "bundle", err);
  if (!device) return 2;
  std::string why;
  verify::VerifyOptions vo;
  vo.arch = o.get("--arch", "sm_90");
  const int sm = parseArch(vo.arch);
  if (sm == 0) {
    err << "tirx bundle: malformed --arch '" << vo.arch << "'\n";
    return 2;
  }
  if (!o.get("--timeout").empty() && !parseSeconds(o.get("--timeout"), vo.budget.maxSeconds, why)) {
    err << "tirx bundle: --timeout: " << why << "\n";
    return 2;
  }
  if (!o.get("--budget").empty() &&
      !parseInteger(o.get("--budget"), 1, std::numeric_limits<int64_t>::max() - 1,
                    vo.budget.maxWork, why)) {
    err << "tirx bundle: --budget: " << why << "\n";
    return 2;
  }
  vo.fileName = o.positional[0];
  std::string text;
  if (!readFile(vo.fileName, text, err)) return 2;
  if (device->kind == driver::DeviceKind::Cuda && !driver::gpuPathAvailable(&why)) {
    err << "tirx bundle: " << why << "; use --device sim\n";
    return 3;
  }
  verify::BundleOptions bo;
  bo.fileName = vo.fileName;
  bo.arch = vo.arch;
  bo.budget = vo.budget;
  bo.device = *device;
  bo.cancel = std::make_shared<CancelToken>();
  const InterruptCancels interrupt(bo.cancel);
  std::optional<toolchain::Profile> profile;
  if (const std::string pp = o.get("--profile"); !pp.empty()) {
    std::string ptext;
    if (!readFile(pp, ptext, err)) return 2;
    const nlohmann::json pj = nlohmann::json::parse(ptext, nullptr, false);
    toolchain::Profile p;
    if (pj.is_discarded() || !toolchain::profileFromJson(pj, p, why)) {
      err << "tirx bundle: --profile: '" << pp << "' is not a tirx profile report"
          << (why.empty() ? "" : ": " + why) << "\n";
      return 2;
    }
    profile = std::move(p);
  }
  verify::Report r;
  verify::Bundle b = verify::makeBundle(text, bo, &r);
  b.profile = std::move(profile);
  for (const auto& d : r.errors) err << formatGcc(d, vo.fileName);
  if (r.environmentError) return 3;
  if (b.launches.empty() && !r.errors.empty()) return 1;
  const std::string json = verify::bundleToJson(b);
  const std::string dest = o.get("-o"), tmp = dest + ".partial";
  if (!driver::writeWholeFile(tmp, json.data(), json.size()) ||
      std::rename(tmp.c_str(), dest.c_str()) != 0) {
    std::remove(tmp.c_str());
    err << "tirx bundle: cannot write '" << dest << "'\n";
    return 2;
  }
  int failed = 0;
  for (const auto& c : r.checks) failed += c.pass ? 0 : 1;
  out << "wrote " << dest << ": " << b.launches.size() << " launch"
      << (b.launches.size() == 1 ? "" : "es") << " on " << b.deviceName << ", "
      << r.checks.size() - size_t(failed) << "/" << r.checks.size() << " checks passed, "
      << r.faults.size() << " faults"
      << (b.products.error.empty() ? "" : " (no generated code: compile failed)") << "\n";
  return interrupt.interrupted() ? kExitInterrupted : 0;
}

int cmdReplay(const Args& args, std::ostream& out, std::ostream& err) {
  const char* usage = "usage: tirx replay BUNDLE.tirxb [--device sim|cuda[:N]] [--json]\n";
  const Options o = parseOptions(args, {"--device"}, {"--json"});
  if (!o.error.empty() || o.positional.size() != 1) {
    err << "tirx replay: " << (o.error.empty() ? "expected one BUNDLE" : o.error) << "\n" << usage;
    return 2;
  }
  const std::optional<driver::DeviceSpec> device = deviceOption(o, "replay", err);
  if (!device) return 2;
  const std::string& path = o.positional[0];
  auto opened = verify::openBundle(path);
  if (!opened) {
    err << "tirx replay: "
        << (opened.error().api == "open" ? std::string() : "cannot replay '" + path + "': ")
        << opened.error().message << "\n";
    return 2;
  }
  const verify::Bundle* b = &opened->bundle;
  SemaOptions so;
  so.sm = parseArch(b->arch);
  if (so.sm == 0) {
    err << "tirx replay: cannot replay '" << path << "': malformed bundle: arch '" << b->arch
        << "'\n";
    return 2;
  }
  const FrontEndResult fe = checkScript(b->script, b->scriptFile, so);
  err << formatGcc(fe.diagnostics, b->scriptFile);
  if (!fe.ok()) return 1;
  const auto cancel = std::make_shared<CancelToken>();
  const InterruptCancels interrupt(cancel);
  WorkBudget budget({}, cancel);
  driver::ExecutorContext context;
  context.sm = so.sm;
  context.scriptFile = b->scriptFile;
  context.scriptSource = b->script;
  context.budget = &budget;
  auto exec = driver::makeExecutor(*device, context);
  if (!exec) {
    err << "tirx replay: " << exec.error().message << "; use --device sim\n";
    return 3;
  }
  const auto replays = verify::replayBundle(*b, fe.program, **exec);
  bool all = !replays.empty(), env = false;
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& r : replays) {
    all = all && r.match && r.error.empty();
    env = env || !r.error.empty();
    for (const auto& f : r.faults) err << formatGcc(f.diag, b->scriptFile);
    nlohmann::json outs = nlohmann::json::array();
    for (const auto& x : r.outputs)
      outs.push_back({{"param", x.param},
                      {"match", x.match},
                      {"differ", x.differ},
                      {"total", x.total},
                      {"max_abs", x.maxAbs},
                      {"detail", x.detail}});
    runs.push_back({{"kernel", r.kernel},
                    {"device", r.device},
                    {"ran", r.ran},
                    {"recorded_ran", r.recordedRan},
                    {"match", r.match && r.error.empty()},
                    {"rtol", r.rtol},
                    {"atol", r.atol},
                    {"outputs", outs},
                    {"error", r.error}});
    if (o.has("--json")) continue;
    if (!r.error.empty()) {
      out << r.kernel << ": cannot replay: " << r.error << "\n";
      continue;
    }
    out << r.kernel << " on " << r.device << ": "
        << (r.match ? "matches the recording" : "DIFFERS from the recording");
    if (r.ran != r.recordedRan)
      out << " (" << (r.ran ? "ran" : "did not complete") << ", the recording "
          << (r.recordedRan ? "ran" : "did not") << ")";
    out << "\n";
    for (const auto& x : r.outputs) {
      out << "  " << x.param << ": " << x.differ << "/" << x.total << " elements differ, max abs "
          << x.maxAbs << " (rtol " << r.rtol << ", atol " << r.atol << ")";
      if (!x.match) out << "; " << x.detail;
      out << "\n";
    }
  }
  if (o.has("--json"))
    out << nlohmann::json{{"bundle", path},
                          {"recorded_on", b->deviceName},
                          {"match", all},
                          {"launches", runs}}
               .dump(2)
        << "\n";
  else
    out << (all ? "replay matches: " : "replay DIFFERS: ") << replays.size() << " launch"
        << (replays.size() == 1 ? "" : "es") << " recorded on " << b->deviceName << " ("
        << b->created << ")\n";
  if (interrupt.interrupted()) return kExitInterrupted;
  if (env) return 3;
  return all ? 0 : 1;
}

}  // namespace tirx::cli
