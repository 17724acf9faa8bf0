// `tirx ptx-conform [--device sim|cuda[:N]] [--arch sm_90] [--filter PREFIX] [--compile] [--json]
// [--record FILE] [--timeout S] [--scripts DIR]`: runs every spelling of the PTX table on its
// conformance vectors through generated TIRx kernels (core/conform) on the simulator or the GPU
// (through the runner child process) and reports every spelling whose bits differ from the
// simulator's model, and every approximate spelling beyond its documented bound. Exit status: 0 all
// match, 1 a mismatch or a failed kernel, 2 usage/I-O, 3 environment (no CUDA driver). docs/ptx.md.
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>

#include "app/cli/cli.h"
#include "core/conform/ptx_conform.h"
#include "core/sema/sema.h"

namespace tirx::cli {

namespace {

const char* kUsage =
    "usage: tirx ptx-conform [--device sim|cuda[:N]] [--arch sm_90] [--filter PREFIX] [--compile]\n"
    "                        [--json] [--record FILE] [--timeout SECONDS] [--scripts DIR]\n"
    "  runs every PTX spelling of the instruction table on edge-case vectors in generated kernels\n"
    "  and reports the spellings whose results differ from the simulator; --scripts DIR writes "
    "the\n"
    "  generated kernels there\n";

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

void printText(const conform::ConformReport& r, std::ostream& out) {
  using conform::Verdict;
  out << "ptx-conform: " << r.cases.size() << " cases in " << r.kernels << " kernels on "
      << r.device << " (sm_" << r.sm << ")\n";
  std::map<std::string, int> skips;
  for (const auto& c : r.cases)
    if (c.verdict == Verdict::Skipped) ++skips[c.reason];
  for (Verdict v : {Verdict::Match, Verdict::WithinBound, Verdict::Mismatch, Verdict::BeyondBound,
                    Verdict::Skipped, Verdict::Failed})
    out << "  " << std::left << std::setw(13) << conform::verdictName(v) << std::right
        << std::setw(6) << r.count(v) << "\n";
  for (const auto& [why, n] : skips) out << "    skipped " << n << ": " << why << "\n";
  for (const auto& c : r.cases) {
    if (c.verdict != Verdict::Mismatch && c.verdict != Verdict::BeyondBound &&
        c.verdict != Verdict::Failed)
      continue;
    out << std::string(conform::verdictName(c.verdict)) << " " << c.opcode;
    if (c.verdict == Verdict::Failed) {
      out << ": " << c.reason.substr(0, 400) << "\n";
      continue;
    }
    out << ": " << c.differing << " of " << c.inputs.size() << " vectors\n";
    for (const auto& d : c.examples) {
      out << "    (";
      for (int k = 0; k < c.sources && k < 3; ++k)
        out << (k ? ", " : "") << hex(d.inputs[static_cast<size_t>(k)]);
      out << ") simulator " << hex(d.model) << " device " << hex(d.device);
      if (!d.note.empty()) out << "  [" << d.note << "]";
      out << "\n";
    }
  }
}

}  // namespace

int cmdPtxConform(const Args& args, std::ostream& out, std::ostream& err) {
  const Options o =
      parseOptions(args, {"--device", "--arch", "--filter", "--record", "--timeout", "--scripts"},
                   {"--json", "--compile", "--help"});
  if (o.has("--help")) {
    out << kUsage;
    return 0;
  }
  if (!o.error.empty() || !o.positional.empty()) {
    err << "tirx ptx-conform: "
        << (o.error.empty() ? "unexpected argument '" + o.positional[0] + "'" : o.error) << "\n"
        << kUsage;
    return 2;
  }
  conform::ConformOptions co;
  co.prefix = o.get("--filter");
  co.compile = o.has("--compile");
  co.sm = parseArch(o.get("--arch", "sm_90"));
  if (co.sm == 0) {
    err << "tirx ptx-conform: malformed --arch '" << o.get("--arch") << "'\n";
    return 2;
  }
  if (ptxConformCases(co.prefix).empty()) {
    err << "tirx ptx-conform: no spelling of the PTX table starts with '" << co.prefix << "'\n";
    return 2;
  }
  if (const std::string dir = o.get("--scripts"); !dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    std::vector<std::string> skips;
    for (const auto& k : conform::conformKernels(ptxConformCases(co.prefix), co, skips)) {
      std::ofstream f(dir + "/" + k.name + ".py", std::ios::binary);
      f << k.script;
      if (!f) {
        err << "tirx ptx-conform: cannot write '" << dir << "/" << k.name << ".py'\n";
        return 2;
      }
    }
  }
  const std::optional<driver::DeviceSpec> device =
      deviceOption(o, "ptx-conform", err, "sim", {.remote = false});
  if (!device) return 2;
  driver::ExecutorContext context;
  context.sm = co.sm;
  context.simProvenance = false;
  if (!device->isSim()) {
    const std::string t = o.get("--timeout", "60");
    char* end = nullptr;
    const double seconds = std::strtod(t.c_str(), &end);
    if (end == t.c_str() || *end || !(seconds > 0) || seconds > 3600) {
      err << "tirx ptx-conform: malformed --timeout '" << t << "' (seconds, at most 3600)\n";
      return 2;
    }
    context.timeoutMs = static_cast<int>(seconds * 1000);
  }
  auto made = driver::makeExecutor(*device, context);
  if (!made) {
    err << "tirx ptx-conform: " << made.error().message << "; use --device sim\n";
    return 3;
  }
  const std::unique_ptr<ir::Executor> exec = std::move(*made);
  int lastTenth = -1;
  auto progress = [&](int done, int total) {
    const int tenth = total ? done * 10 / total : 10;
    if (tenth != lastTenth && !o.has("--json"))
      err << "ptx-conform: " << done << "/" << total << " kernels\n";
    lastTenth = tenth;
  };
  auto report = conform::runConformance(*exec, co, progress);
  if (!report) {
    const Status& s = report.error();
    const bool env = s.api == "dlopen" || s.api == "dlsym" || s.api == "cuInit" ||
                     s.api == "runner" || s.api.rfind("cuDevice", 0) == 0;
    err << "tirx ptx-conform: " << s.text() << "\n";
    return env ? 3 : 1;
  }
  if (!o.get("--record").empty()) {
    std::ofstream f(o.get("--record"), std::ios::binary);
    f << conform::recordJson(*report) << "\n";
    if (!f) {
      err << "tirx ptx-conform: cannot write '" << o.get("--record") << "'\n";
      return 2;
    }
  }
  if (o.has("--json"))
    out << conform::reportJson(*report) << "\n";
  else
    printText(*report, out);
  return report->passed() ? 0 : 1;
}

}  // namespace tirx::cli
