// `tirx verify FILE [--device sim|cuda|both] [--arch sm_90] [--json] [--timeline [--cta N]]
// [--budget N] [--timeout S]`: runs the script's check code (or a seeded self-check) through
// core/verify under one work budget and time limit (with --cta, CTA N of each kernel alone on
// seeded inputs, for its timeline), and prints one line per check, the worst elements of failed
// checks with the warp, lane, register and tile op that produced them, runtime faults and harness
// errors. Ctrl-C cancels the verify (a GPU runner child is killed) and still prints the report.
// Exit codes: 0 every check passed, 1 a check failed / a fault / an error in the script, 2 usage or
// I/O error, 3 the requested device is unavailable, 130 interrupted.
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <ostream>

#include "app/cli/cli.h"
#include "core/verify/verify.h"

namespace tirx::cli {

namespace {

std::string fmt(double v) {
  if (std::isnan(v)) return "nan";  // not "-nan": the poison's sign bit means nothing
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string coordText(const std::vector<int64_t>& c) {
  std::string t = "[";
  for (size_t i = 0; i < c.size(); ++i) t += (i ? ", " : "") + std::to_string(c[i]);
  return t + "]";
}

void printCheck(const verify::Check& c, std::ostream& out) {
  out << (c.pass ? "PASS  " : "FAIL  ") << c.name << ": ";
  if (c.kind == "assert" || c.kind == "run") {
    out << (c.pass ? (c.kind == "run" ? "ran without faults" : "assertion holds") : c.message)
        << "\n";
    return;
  }
  if (c.total == 0 && !c.message.empty()) {
    out << c.message << "\n";
    return;
  }
  out << "max abs " << fmt(c.maxAbs) << ", max rel " << fmt(c.maxRel) << ", " << c.mismatches << "/"
      << c.total << " mismatches (" << c.kind << ", rtol " << fmt(c.rtol) << ", atol "
      << fmt(c.atol) << ")\n";
  // A device comparison always says what it found about definedness (elements one device defines
  // only, elements neither defines and so not compared).
  if (c.kind == "device-compare" && !c.message.empty()) out << "      " << c.message << "\n";
  if (c.pass) return;
  if ((c.total == 0 || c.mismatches == 0) && c.kind != "device-compare")
    out << "      " << c.message << "\n";
  for (const auto& w : c.worst) {
    out << "      at " << coordText(w.coord) << ": got " << fmt(w.actual) << ", expected "
        << fmt(w.expected) << " (abs " << fmt(w.absErr) << ", rel " << fmt(w.relErr) << ")";
    if (w.owner.known) out << " <- " << w.owner.text();
    out << "\n";
  }
}

}  // namespace

int cmdVerify(const Args& args, std::ostream& out, std::ostream& err) {
  const Options o =
      parseOptions(args, {"--device", "--arch", "--budget", "--timeout", "--sanitize", "--cta"},
                   {"--json", "--timeline"});
  if (!o.error.empty() || o.positional.size() != 1) {
    err << "tirx verify: " << (o.error.empty() ? "expected one FILE" : o.error) << "\n"
        << "usage: tirx verify FILE [--device "
           "sim|cuda|both|ssh://[user@]host[:port]/cuda[:N]|ssh://…/sim] [--arch sm_90]\n"
           "                   [--json] [--timeline [--cta N]] [--budget N] [--timeout S]\n"
           "                   [--sanitize memcheck|racecheck|initcheck|synccheck]\n";
    return 2;
  }
  verify::VerifyOptions vo;
  const std::optional<driver::DeviceSpec> device =
      deviceOption(o, "verify", err, "sim", {.both = true, .sanitize = true});
  if (!device) return 2;
  vo.device = *device;
  vo.arch = o.get("--arch", "sm_90");
  vo.fileName = o.positional[0];
  vo.recordTimeline = o.has("--timeline");
  std::string why;
  if (!o.get("--timeout").empty() && !parseSeconds(o.get("--timeout"), vo.budget.maxSeconds, why)) {
    err << "tirx verify: --timeout: " << why << "\n";
    return 2;
  }
  if (!o.get("--budget").empty() &&
      !parseInteger(o.get("--budget"), 1, std::numeric_limits<int64_t>::max() - 1,
                    vo.budget.maxWork, why)) {
    err << "tirx verify: --budget: " << why << "\n";
    return 2;
  }
  if (!o.get("--cta").empty()) {
    // One CTA alone: the Pipeline view of a launch too large to simulate whole (simulator only).
    if (!vo.device.isSim() || vo.device.both) {
      err << "tirx verify: --cta runs one CTA on the simulator; it cannot be used with --device "
          << vo.device.text() << "\n";
      return 2;
    }
    if (!parseInteger(o.get("--cta"), 0, std::numeric_limits<int64_t>::max() - 1, vo.onlyCta,
                      why)) {
      err << "tirx verify: --cta: " << why << "\n";
      return 2;
    }
  }
  std::string text;
  if (!readFile(vo.fileName, text, err)) return 2;
  // Under the sanitizer: the GPU executor wraps its runner, and every report's summary is printed.
  auto summaries = std::make_shared<std::vector<std::string>>();
  vo.executor.onSanitizerReport = [summaries](const driver::SanitizerReport& r) {
    summaries->push_back(r.summaryText());
  };
  vo.cancel = std::make_shared<CancelToken>();
  const InterruptCancels interrupt(vo.cancel);
  verify::Report r = verify::verifyScript(text, vo);
  if (o.has("--json")) {
    out << verify::reportToJson(r) << "\n";
  } else {
    auto print = [&](const Diagnostic& d) {
      std::string t = formatGcc(d, vo.fileName);
      while (!t.empty() && t.back() == '\n') t.pop_back();
      out << t << "\n";
    };
    for (const auto& d : r.errors) print(d);
    for (const auto& f : r.faults) print(f.diag);
    for (const auto& c : r.checks) printCheck(c, out);
    if (!r.log.empty()) out << r.log;
    for (const auto& run : r.runs) {
      if (!vo.recordTimeline || run.device != "simulator") continue;
      const auto& tl = run.timeline;
      out << "timeline of " << run.kernel << ": " << tl.events.size() << " events"
          << (tl.truncated ? " (truncated at " + std::to_string(tl.maxEvents) + ")" : std::string())
          << "\n";
      for (const auto& e : tl.events) out << "  " << ir::describeAsyncEvent(tl, e) << "\n";
    }
    for (const auto& line : *summaries) out << line << "\n";
    int failed = 0;
    for (const auto& c : r.checks) failed += c.pass ? 0 : 1;
    out << (r.passed() ? "verified: " : "NOT verified: ") << r.checks.size() - failed << "/"
        << r.checks.size() << " checks passed, " << r.faults.size() << " faults, "
        << r.errors.size() << " errors on " << r.device << " (" << fmt(r.totalMs) << " ms)\n";
  }
  if (interrupt.interrupted()) return kExitInterrupted;
  if (r.environmentError) return 3;
  return r.passed() ? 0 : 1;
}

}  // namespace tirx::cli
