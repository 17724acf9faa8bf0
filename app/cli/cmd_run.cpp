// `tirx run FILE [--kernel K] [--device sim|cuda[:N]] [--input NAME=GEN ...] [--out DIR] [--json]
// [--arch sm_90] [--budget N] [--timeout S]`: checks the script, builds the kernel's arguments
// (generators of core/driver/host_io.h), runs every selected kernel on the simulator or the GPU
// (through the runner child process) under one work budget and time limit, and writes the tensors
// the kernel wrote as DIR/<param>.npy (several kernels: DIR/<kernel>.<param>.npy). Exit status:
// 0 ran, 1 diagnostics or a runtime fault, 2 usage/I/O, 3 environment (no CUDA driver or device),
// 130 interrupted. Documented in docs/cli.md ("tirx run").
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "app/cli/cli.h"
#include "app/cli/run_hang.h"
#include "core/driver/device.h"
#include "core/driver/host_io.h"
#include "core/ir/buffer_access.h"
#include "core/sema/sema.h"
#include "core/verify/verify.h"

namespace tirx::cli {

namespace {
/// The simulator's shared-memory counts (RunOutcome::sharedAccesses): per statement and per line.
nlohmann::json sharedMemoryJson(const ir::RunOutcome& res) {
  nlohmann::json ops = nlohmann::json::array(), lines = nlohmann::json::array();
  for (const auto& a : res.sharedAccesses)
    ops.push_back({{"line", a.span.line},
                   {"column", a.span.col},
                   {"op", a.op},
                   {"tensor", a.tensor},
                   {"instructions", a.instructions},
                   {"wavefronts", a.wavefronts},
                   {"ideal_wavefronts", a.idealWavefronts},
                   {"max_ways", a.maxWays}});
  for (const auto& l : ir::sharedAccessesByLine(res.sharedAccesses))
    lines.push_back({{"line", l.line},
                     {"instructions", l.instructions},
                     {"wavefronts", l.wavefronts},
                     {"ideal_wavefronts", l.idealWavefronts},
                     {"max_ways", l.maxWays}});
  return {{"per_op", ops}, {"per_line", lines}};
}

const char* kRunUsage =
    "usage: tirx run FILE [--kernel K] [--device "
    "sim|cuda[:N]|ssh://[user@]host[:port]/cuda[:N]|ssh://…/sim]\n"
    "                [--input NAME=GEN ...] [--out DIR]\n"
    "                [--json] [--arch sm_90] [--budget WORK_UNITS] [--timeout SECONDS]\n"
    "                [--sanitize memcheck|racecheck|initcheck|synccheck]\n"
    "  GEN: linspace(a, b) | zeros | ones | full(v) | arange[(start)] | randn(seed) | rand(seed)\n"
    "       | empty (a number for a scalar parameter)\n";

/// A value with 7 significant digits (1e-10 stays 1e-10).
std::string valueText(double v) {
  std::ostringstream s;
  s << std::defaultfloat << std::setprecision(7) << v;
  return s.str();
}

std::string preview(const ir::HostTensor& t, int n = 6) {
  std::ostringstream s;
  s << std::setprecision(7) << "[";
  const int64_t total = t.numel();
  for (int64_t i = 0; i < std::min<int64_t>(total, n); ++i)
    s << (i ? ", " : "") << driver::tensorValue(t, i);
  if (total > n) s << ", ...";
  s << "]";
  return s.str();
}

/// The sanitizer's summary of a GPU run under compute-sanitizer: `run["sanitizer"]` and a line.
void reportSanitizer(const driver::DeviceSpec& device, const ir::Executor& exec, bool json,
                     nlohmann::json& run, std::ostream& out) {
  if (device.sanitize == driver::SanitizerTool::None) return;
  const driver::SanitizerReport* sr = driver::lastSanitizerReport(exec);
  if (!sr) return;
  run["sanitizer"] = {{"tool", std::string(driver::sanitizerToolName(device.sanitize))},
                      {"clean", sr->clean()},
                      {"complete", sr->summary},
                      {"errors", sr->errors},
                      {"warnings", sr->warnings},
                      {"api_errors", sr->apiErrors},
                      {"summary", sr->summaryText()}};
  if (!json) out << "  " << sr->summaryText() << "\n";
}

/// One written tensor: its JSON entry, and a line of text unless `json`. Min and max run over
/// the elements that hold a value; the others (never written, or computed from undefined memory)
/// are counted and hold the poison bytes.
nlohmann::json outputSummary(const std::string& pname, const ir::HostTensor& t,
                             const std::string& file, bool json, std::ostream& out) {
  double mn = 0, mx = 0;
  bool any = false;
  for (int64_t e = 0; e < t.numel(); ++e) {
    if (!t.isDefined(e)) continue;
    const double v = driver::tensorValue(t, e);
    if (!any || v < mn) mn = v;
    if (!any || v > mx) mx = v;
    any = true;
  }
  const int64_t undefined = t.undefinedCount();
  const nlohmann::json j = {{"name", pname},
                            {"file", file},
                            {"dtype", std::string(ir::dtypeName(t.dtype))},
                            {"shape", t.shape},
                            {"min", any ? nlohmann::json(mn) : nlohmann::json()},
                            {"max", any ? nlohmann::json(mx) : nlohmann::json()},
                            {"undefined", undefined}};
  if (!json)
    out << "  " << pname << " " << ir::dtypeName(t.dtype)
        << (any ? " min " + valueText(mn) + " max " + valueText(mx)
                : std::string(" no element written"))
        << " " << preview(t)
        << (undefined ? ", " + std::to_string(undefined) + " elements not written" : std::string())
        << (file.empty() ? "" : " -> " + file) << "\n";
  return j;
}

/// What `tirx run` takes from its options beside the file and the device.
struct RunSetup {
  BudgetLimits limits;
  std::vector<std::pair<std::string, std::string>> inputs;
  SemaOptions sema;
};

/// --timeout, --budget, --input and --arch; a usage error is printed and gives nullopt.
std::optional<RunSetup> parseRunSetup(const Options& o, std::ostream& err) {
  std::string why;
  RunSetup r;
  if (!o.get("--timeout").empty() && !parseSeconds(o.get("--timeout"), r.limits.maxSeconds, why)) {
    err << "tirx run: --timeout: " << why << "\n";
    return std::nullopt;
  }
  if (!o.get("--budget").empty() &&
      !parseInteger(o.get("--budget"), 1, std::numeric_limits<int64_t>::max() - 1, r.limits.maxWork,
                    why)) {
    err << "tirx run: --budget: " << why << "\n";
    return std::nullopt;
  }
  for (const auto& in : o.getAll("--input")) {
    const auto eq = in.find('=');
    if (eq == std::string::npos || eq == 0) {
      err << "tirx run: --input needs NAME=GENERATOR, found '" << in << "'\n";
      return std::nullopt;
    }
    r.inputs.emplace_back(in.substr(0, eq), in.substr(eq + 1));
  }
  const std::string arch = o.get("--arch", "sm_90");
  r.sema.sm = parseArch(arch);
  if (r.sema.sm == 0) {
    err << "tirx run: malformed --arch '" << arch << "'\n";
    return std::nullopt;
  }
  return r;
}

}  // namespace

int cmdRun(const Args& args, std::ostream& out, std::ostream& err) {
  const Options o = parseOptions(
      args,
      {"--kernel", "--device", "--input", "--out", "--arch", "--timeout", "--budget", "--sanitize"},
      {"--json", "--help"});
  if (o.has("--help")) {
    out << kRunUsage;
    return 0;
  }
  if (!o.error.empty() || o.positional.size() != 1) {
    err << "tirx run: " << (o.error.empty() ? "expected exactly one FILE" : o.error) << "\n"
        << kRunUsage;
    return 2;
  }
  const std::optional<driver::DeviceSpec> device =
      deviceOption(o, "run", err, "sim", {.sanitize = true});
  if (!device) return 2;
  const std::optional<RunSetup> setup = parseRunSetup(o, err);
  if (!setup) return 2;
  const auto& [limits, inputs, so] = *setup;
  const std::string& path = o.positional[0];
  std::string source;
  if (!readFile(path, source, err)) return 2;
  const FrontEndResult fe = checkScript(source, path, so);
  err << formatGcc(fe.diagnostics, path);
  if (!fe.ok()) return 1;
  std::vector<const ir::Kernel*> kernels;
  const std::string want = o.get("--kernel", "");
  for (const auto& k : fe.program.kernels)
    if (want.empty() || k.name == want) kernels.push_back(&k);
  if (kernels.empty()) {
    err << "tirx run: "
        << (want.empty() ? "the script defines no kernel" : "no kernel named '" + want + "'")
        << "\n";
    return want.empty() ? 1 : 2;
  }
  // One budget for every kernel of the command; Ctrl-C cancels it (the runner child is killed).
  const auto cancel = std::make_shared<CancelToken>();
  const InterruptCancels interrupt(cancel);
  WorkBudget budget(limits, cancel);
  driver::ExecutorContext context;
  context.sm = so.sm;
  context.scriptFile = path;
  context.scriptSource = source;
  context.budget = &budget;
  auto made = driver::makeExecutor(*device, context);
  if (!made) {
    err << "tirx run: " << made.error().message << "; use --device sim\n";
    return 3;
  }
  const std::unique_ptr<ir::Executor> exec = std::move(*made);
  const std::string outDir = o.get("--out", "");
  if (!outDir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(outDir, ec);
    if (ec) {
      err << "tirx run: cannot create '" << outDir << "': " << ec.message() << "\n";
      return 2;
    }
  }
  nlohmann::json report = nlohmann::json::array();
  int status = 0;
  for (const ir::Kernel* k : kernels) {
    auto argsR = driver::makeArguments(*k, inputs);
    if (!argsR) {
      err << "tirx run: " << argsR.error().message << "\n";
      return 2;
    }
    std::vector<ir::KernelArg> kargs = std::move(*argsR);
    auto r = exec->run(fe.program, k->name, kargs);
    if (!r) {
      // A kernel that does not compile is the script's problem; anything else is the machine's.
      const Status& s = r.error();
      const bool env = s.api != "compile" && s.api != "run" && s.api != "simulator";
      err << "tirx run: "
          << (s.api == "dlopen" ? "no CUDA driver found (libcuda.so.1); use --device sim"
                                : s.text())
          << "\n";
      return env ? 3 : 1;
    }
    const ir::RunOutcome& res = *r;
    for (const auto& f : res.faults) err << formatGcc(f.diag, path);
    for (const auto& f : res.faults)  // warnings (W0700 lints) do not fail the run
      if (f.diag.severity == Severity::Error) status = 1;
    if (!res.ran) status = 1;
    const std::vector<bool> written = ir::writtenParams(*k);
    nlohmann::json outs = nlohmann::json::array();
    nlohmann::json faults = nlohmann::json::array();
    for (const auto& f : res.faults)
      faults.push_back({{"kind", f.kind},
                        {"code", f.diag.code},
                        {"line", f.diag.span.line},
                        {"message", f.diag.message}});
    if (!o.has("--json"))
      out << k->name << " on " << (res.device.empty() ? exec->name() : res.device) << ": "
          << (res.ran ? "ran" : "did not complete") << std::fixed << std::setprecision(3)
          << " (compile " << res.compileMs << " ms, run " << res.runMs << " ms)\n";
    for (size_t i = 0; i < k->params.size() && i < kargs.size(); ++i) {
      if (!kargs[i].isTensor || !res.ran) continue;
      const std::string& pname = k->params[i].name;
      // Every tensor the kernel stores to is an output (read-write ones too).
      const bool isOut = written[i];
      if (!isOut) continue;
      std::string file;
      if (!outDir.empty()) {
        file = outDir + "/" + (kernels.size() > 1 ? k->name + "." : std::string()) + pname + ".npy";
        const Status st = driver::writeNpy(file, kargs[i].tensor);
        if (!st.message.empty()) {
          err << "tirx run: " << st.text() << "\n";
          return 2;
        }
      }
      outs.push_back(outputSummary(pname, kargs[i].tensor, file, o.has("--json"), out));
    }
    report.push_back({{"kernel", k->name},
                      {"device", res.device.empty() ? exec->name() : res.device},
                      {"ran", res.ran},
                      {"compile_ms", res.compileMs},
                      {"run_ms", res.runMs},
                      {"faults", faults},
                      {"outputs", outs},
                      {"shared_memory", sharedMemoryJson(res)}});
    reportSanitizer(*device, *exec, o.has("--json"), report.back(), out);
    reportHang(res, *device, fe.program, *k, inputs, context, path, o.has("--json"), report.back(),
               out);
    if (!o.has("--json"))
      for (const auto& l : ir::sharedAccessesByLine(res.sharedAccesses))
        out << "  shared memory line " << l.line << ": " << l.instructions << " warp instructions, "
            << l.wavefronts << " wavefronts (" << l.idealWavefronts << " without bank conflicts)\n";
    if (budget.exhausted()) break;  // cancelled or out of time: the remaining kernels do not start
  }
  if (o.has("--json"))  // invalid UTF-8 quoted from the script becomes U+FFFD, not an exception
    out << nlohmann::json{{"file", path}, {"runs", report}}.dump(
               2, ' ', false, nlohmann::json::error_handler_t::replace)
        << "\n";
  return interrupt.interrupted() ? kExitInterrupted : status;
}

}  // namespace tirx::cli
