// `tirx scalar-conform [--device sim|cuda[:N]] [--count N] [--seed S] [--compile] [--record FILE]
// [--replay FILE] [--timeout S] [--scripts DIR]`: generates N random scalar expressions over every
// dtype (core/conform/scalar_conform.h), runs them in batched kernels on the simulator and, with
// --device cuda, on the GPU, and reports the expressions whose values differ. --compile also
// NVRTC-compiles every kernel and checks its PTX (no fma, no .approx in exact kernels); --record
// writes the device's answers, --replay compares the simulator with a recorded file. The last
// line says "scalar-conform: D disagreements over N expressions ...". Exit status: 0 all agree,
// 1 a disagreement, a failed kernel or a PTX problem, 2 usage/I-O, 3 environment (no driver).
// docs/simulator.md ("Scalar math").
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>

#include "app/cli/cli.h"
#include "core/conform/scalar_conform.h"
#include "core/driver/device.h"
#include "core/sema/sema.h"

namespace tirx::cli {

namespace {

const char* kUsage =
    "usage: tirx scalar-conform [--device sim|cuda[:N]] [--count N] [--seed S] [--compile]\n"
    "                           [--record FILE] [--replay FILE] [--timeout SECONDS] [--scripts "
    "DIR]\n"
    "  evaluates N generated scalar expressions (default 2400) on the simulator and, with\n"
    "  --device cuda, on the GPU, and reports every expression whose values differ\n";

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

/// The executor for `--device cuda[:N]` (null with an error for anything else): the device text
/// is read by driver::parseDevice and the executor made by driver::makeExecutor.
std::unique_ptr<ir::Executor> cudaExecutor(const std::string& dev,
                                           const Result<driver::DeviceSpec>& spec,
                                           const std::string& timeout, int sm, std::ostream& err,
                                           int& rc) {
  if (!spec || spec->kind != driver::DeviceKind::Cuda || spec->both) {
    err << "tirx scalar-conform: unknown --device '" << dev << "' (expected sim, cuda or cuda:N)\n";
    rc = 2;
    return nullptr;
  }
  char* end = nullptr;
  const double seconds = std::strtod(timeout.c_str(), &end);
  if (end == timeout.c_str() || *end || !(seconds > 0) || seconds > 3600) {
    err << "tirx scalar-conform: malformed --timeout '" << timeout << "' (seconds, at most 3600)\n";
    rc = 2;
    return nullptr;
  }
  driver::ExecutorContext ec;
  ec.sm = sm;
  ec.timeoutMs = static_cast<int>(seconds * 1000);
  auto made = driver::makeExecutor(*spec, ec);
  if (!made) {
    err << "tirx scalar-conform: " << made.error().message << "; use --device sim\n";
    rc = 3;
    return nullptr;
  }
  return std::move(*made);
}

bool parseCount(const std::string& text, uint64_t lo, uint64_t hi, uint64_t& out) {
  if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  out = std::stoull(text);
  return out >= lo && out <= hi;
}

void printReport(const conform::ScalarReport& r, bool compiled, std::ostream& out) {
  for (const std::string& f : r.failures) out << "failed " << f.substr(0, 600) << "\n";
  for (const std::string& p : r.ptxProblems) out << "ptx " << p << "\n";
  for (const auto& d : r.examples) {
    out << "disagreement: " << ir::dtypeName(d.dtype) << " " << d.text << "\n    thread "
        << d.thread;
    for (const std::string& in : d.inputs) out << " " << in;
    out << ": simulator " << hex(d.simulator) << " device " << hex(d.device) << "\n";
  }
  for (const auto& c : r.staleExamples)
    out << "stale: " << ir::dtypeName(c.dtype) << " " << c.text
        << "\n    recorded by digest only; the simulator's values have changed since\n";
  out << "scalar-conform: " << r.disagreements << " disagreements over " << r.expressions
      << " expressions (" << r.exactExpressions << " bit-exact, " << r.approxExpressions
      << " libdevice within bound) in " << r.kernels << " kernels, " << r.evaluations
      << " evaluations, "
      << (r.device.empty() ? "simulator only (no device)" : "simulator vs " + r.device)
      << (compiled ? ", PTX checked" : "")
      << (r.stale ? ", " + std::to_string(r.stale) +
                        " stale (recorded by digest only, the simulator changed since: record the "
                        "device again)"
                  : std::string())
      << "\n";
}

}  // namespace

int cmdScalarConform(const Args& args, std::ostream& out, std::ostream& err) {
  const Options o = parseOptions(
      args,
      {"--device", "--arch", "--count", "--seed", "--record", "--replay", "--timeout", "--scripts"},
      {"--compile", "--help"});
  if (o.has("--help")) {
    out << kUsage;
    return 0;
  }
  if (!o.error.empty() || !o.positional.empty()) {
    err << "tirx scalar-conform: "
        << (o.error.empty() ? "unexpected argument '" + o.positional[0] + "'" : o.error) << "\n"
        << kUsage;
    return 2;
  }
  conform::ScalarConformOptions so;
  so.compile = o.has("--compile");
  so.sm = parseArch(o.get("--arch", "sm_90"));
  uint64_t count = 0, seed = 0;
  if (so.sm == 0) {
    err << "tirx scalar-conform: malformed --arch '" << o.get("--arch") << "'\n";
    return 2;
  }
  if (!parseCount(o.get("--count", "2400"), 1, 200000, count)) {
    err << "tirx scalar-conform: --count expects 1 to 200000, found '" << o.get("--count") << "'\n";
    return 2;
  }
  if (!parseCount(o.get("--seed", "22"), 0, UINT64_MAX, seed)) {
    err << "tirx scalar-conform: --seed expects a non-negative integer, found '" << o.get("--seed")
        << "'\n";
    return 2;
  }
  so.expressions = static_cast<int>(count);
  so.seed = seed;
  const std::vector<conform::ScalarCase> cases = conform::scalarCases(so);
  if (const std::string dir = o.get("--scripts"); !dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    for (const auto& k : conform::scalarKernels(cases, so)) {
      std::ofstream f(dir + "/" + k.name + ".py", std::ios::binary);
      f << k.script;
      if (!f) {
        err << "tirx scalar-conform: cannot write '" << dir << "/" << k.name << ".py'\n";
        return 2;
      }
    }
  }
  int lastTenth = -1;
  auto progress = [&](int done, int total) {
    const int tenth = total ? done * 10 / total : 10;
    if (tenth != lastTenth) err << "scalar-conform: " << done << "/" << total << " kernels\n";
    lastTenth = tenth;
  };
  Result<conform::ScalarReport> report = Status{"scalar-conform", "not run", 0};
  if (const std::string file = o.get("--replay"); !file.empty()) {
    std::string text;
    if (!readFile(file, text, err)) return 2;
    report = conform::replayScalarRecord(text, progress);
    if (!report) {
      err << "tirx scalar-conform: " << file << ": " << report.error().text() << "\n";
      return 2;
    }
    printReport(*report, false, out);
    return report->passed() ? 0 : 1;
  }
  const std::string dev = o.get("--device", "sim");
  const auto spec = driver::parseDevice(dev);
  std::unique_ptr<ir::Executor> exec;
  if (!spec || !spec->isSim()) {
    int rc = 0;
    exec = cudaExecutor(dev, spec, o.get("--timeout", "120"), so.sm, err, rc);
    if (!exec) return rc;
  }
  report = conform::runScalarConformance(exec.get(), so, progress);
  if (!report) {
    const Status& s = report.error();
    const bool env = s.api == "dlopen" || s.api == "dlsym" || s.api == "cuInit" ||
                     s.api == "runner" || s.api.rfind("cuDevice", 0) == 0;
    err << "tirx scalar-conform: " << s.text() << "\n";
    return env ? 3 : 1;
  }
  if (const std::string file = o.get("--record"); !file.empty()) {
    if (report->recordJson.empty()) {
      err << "tirx scalar-conform: nothing to record (--record needs --device cuda and every "
             "kernel run)\n";
    } else {
      std::ofstream f(file, std::ios::binary);
      f << report->recordJson;
      if (!f) {
        err << "tirx scalar-conform: cannot write '" << file << "'\n";
        return 2;
      }
    }
  }
  printReport(*report, so.compile, out);
  return report->passed() ? 0 : 1;
}

}  // namespace tirx::cli
