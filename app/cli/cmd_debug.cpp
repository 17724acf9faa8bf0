// `tirx debug FILE [--kernel K] [--launch N] [--cta N] [--thread T] [--break LINE[:COND]]...
// [--when COND] [--stop K] [--step N] [--print BUF]... [--limit N] [--first-step N]
// [--trace-mib MIB] [--json] [--budget N] [--timeout S]`: the tile-level debugger without a GUI. It
// records the launch (core/debug), runs to the first breakpoint hit (a line with an optional
// condition, or a watch condition on every step), then to step K and N steps further (negative:
// back), and prints the stop and the values of the named tiles with their owners, flags and errors.
// Exit codes: 0 stopped, 1 an error in the script or a bad breakpoint, 2 usage or I/O error, 130
// interrupted.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <ostream>

#include "app/cli/cli.h"
#include "core/debug/debug_session.h"

namespace tirx::cli {

namespace {

const char* kDebugUsage =
    "usage: tirx debug FILE [--kernel K] [--launch N] [--cta N] [--thread T]\n"
    "                  [--break LINE[:COND]]... [--when COND] [--stop K] [--step N]\n"
    "                  [--print BUF]... [--limit N] [--first-step N] [--trace-mib MIB]\n"
    "                  [--json] [--budget N] [--timeout S] [--arch sm_90]\n";

std::string num(double v) {
  if (std::isnan(v)) return "nan";
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

std::string coordText(const std::vector<int64_t>& c) {
  std::string t = "[";
  for (size_t i = 0; i < c.size(); ++i) t += (i ? ", " : "") + std::to_string(c[i]);
  return t + "]";
}

void printTile(const debug::TileFacts& t, int64_t limit, std::ostream& out) {
  out << t.buffer << " (" << t.scope << " " << t.dtype << ", shape " << coordText(t.shape)
      << "): min " << num(t.min) << ", max " << num(t.max) << ", " << t.uninit << " uninitialised, "
      << t.nans << " nan, " << t.infs << " inf";
  if (t.hasReference)
    out << ", max abs err " << num(t.maxAbsErr) << " against the checked reference";
  out << "\n";
  if (!t.note.empty()) out << "  " << t.note << "\n";
  int64_t shown = 0;
  for (const auto& e : t.elements) {
    if (shown++ >= limit) {
      out << "  ... " << (static_cast<int64_t>(t.elements.size()) - limit)
          << " more (--limit, or --json for all)\n";
      break;
    }
    out << "  " << coordText(e.coord) << " = " << (e.uninit ? std::string("uninit") : num(e.value));
    if (e.nan) out << " NAN";
    if (e.inf) out << " INF";
    if (e.thread >= 0)
      out << "  (w" << e.thread / 32 << " l" << e.thread % 32 << " r" << e.slot << ")";
    if (e.byte >= 0) out << "  (byte " << e.byte << ")";
    if (e.hasReference)
      out << "  ref " << num(e.reference) << (e.uninit ? std::string() : " err " + num(e.absErr));
    out << "\n";
  }
}

bool parseBreak(const std::string& text, debug::Breakpoint& b, std::string& why) {
  const size_t colon = text.find(':');
  int64_t line = 0;
  if (!parseInteger(text.substr(0, colon), 1, 1'000'000, line, why)) return false;
  b.line = static_cast<int>(line);
  if (colon != std::string::npos) b.condition = text.substr(colon + 1);
  return true;
}

}  // namespace

int cmdDebug(const Args& args, std::ostream& out, std::ostream& err) {
  const Options o = parseOptions(
      args,
      {"--kernel", "--launch", "--cta", "--thread", "--break", "--when", "--stop", "--step",
       "--print", "--limit", "--first-step", "--trace-mib", "--budget", "--timeout", "--arch"},
      {"--json"});
  if (!o.error.empty() || o.positional.size() != 1) {
    err << "tirx debug: " << (o.error.empty() ? "expected one FILE" : o.error) << "\n"
        << kDebugUsage;
    return 2;
  }
  debug::DebugOptions dopt;
  dopt.fileName = o.positional[0];
  dopt.kernel = o.get("--kernel");
  dopt.arch = o.get("--arch", "sm_90");
  std::string why;
  int64_t launch = 0, stopAt = -1, step = 0, limit = 16;
  auto integer = [&](const char* name, int64_t lo, int64_t hi, int64_t& v) {
    if (o.get(name).empty() || parseInteger(o.get(name), lo, hi, v, why)) return true;
    err << "tirx debug: " << name << ": " << why << "\n";
    return false;
  };
  const int64_t big = std::numeric_limits<int32_t>::max();
  if (!integer("--launch", 0, 1'000'000, launch) || !integer("--cta", 0, big, dopt.cta) ||
      !integer("--thread", 0, 1024, dopt.thread) ||
      !integer("--stop", 0, std::numeric_limits<int64_t>::max() - 1, stopAt) ||
      !integer("--step", -big, big, step) || !integer("--limit", 0, big, limit) ||
      !integer("--first-step", 0, std::numeric_limits<int64_t>::max() - 1, dopt.firstStep))
    return 2;
  dopt.launch = static_cast<int>(launch);
  if (!o.get("--trace-mib").empty()) {
    // a decimal number of MiB (0.01 is about 10 KiB), as the studio's trace-limit box
    double mib = 0;
    if (!parseSeconds(o.get("--trace-mib"), mib, why) || mib > 65536) {
      err << "tirx debug: --trace-mib: expected a number of MiB in (0, 65536], found '"
          << o.get("--trace-mib") << "'\n";
      return 2;
    }
    dopt.maxTraceBytes = std::max<int64_t>(1, static_cast<int64_t>(mib * double(1 << 20)));
  }
  if (!o.get("--timeout").empty() &&
      !parseSeconds(o.get("--timeout"), dopt.budget.maxSeconds, why)) {
    err << "tirx debug: --timeout: " << why << "\n";
    return 2;
  }
  if (!integer("--budget", 1, std::numeric_limits<int64_t>::max() - 1, dopt.budget.maxWork))
    return 2;
  std::vector<debug::Breakpoint> bps;
  for (const auto& b : o.getAll("--break")) {
    debug::Breakpoint bp;
    if (!parseBreak(b, bp, why)) {
      err << "tirx debug: --break '" << b << "': expected LINE or LINE:CONDITION (" << why << ")\n";
      return 2;
    }
    bps.push_back(bp);
  }
  if (!o.get("--when").empty()) bps.push_back({0, o.get("--when")});
  std::string text;
  if (!readFile(dopt.fileName, text, err)) return 2;
  dopt.cancel = std::make_shared<CancelToken>();
  const InterruptCancels interrupt(dopt.cancel);
  Diagnostics diags;
  auto session = debug::DebugSession::start(text, dopt, diags);
  for (const auto& d : diags) {
    err << formatGcc(d, dopt.fileName);
  }
  if (interrupt.interrupted()) return kExitInterrupted;
  if (!session) return 1;
  const Diagnostics bad = session->setBreakpoints(bps);
  for (const auto& d : bad)
    err << formatGcc(d, d.code == "E0841" ? dopt.fileName : std::string("<condition>"));
  if (!bad.empty()) return 1;
  std::string note;
  if (!bps.empty() && !session->hitsHere() && !session->continueForward())
    note = "no breakpoint hit in steps " + std::to_string(session->firstRecorded()) + ".." +
           std::to_string(session->lastRecorded()) + "; stopped at the last one";
  if (stopAt >= 0) session->goTo(stopAt);
  if (step != 0) session->step(step);
  std::vector<debug::TileFacts> tiles;
  for (const auto& name : o.getAll("--print")) {
    Diagnostic d;
    auto t = session->tile(name, &d);
    if (!t) {
      err << formatGcc(d, dopt.fileName);
      return 1;
    }
    tiles.push_back(std::move(*t));
  }
  if (o.has("--json")) {
    out << debug::stopToJson(*session, tiles) << "\n";
    return 0;
  }
  if (!note.empty()) out << note << "\n";
  const debug::Stop s = session->stop();
  out << "step " << s.index << " of " << session->stepCount() << " (" << s.kind << ", cta "
      << dopt.cta << ") at " << dopt.fileName << ":" << s.span.line << ":" << s.span.col << ": "
      << s.op << ", " << s.threads << (s.kind == "tile-op" ? " threads" : " lanes")
      << (s.mixed ? " (diverged)" : "") << "\n";
  if (!s.scalars.empty()) {
    out << "  thread " << dopt.thread << ":";
    for (const auto& [n, v] : s.scalars) out << " " << n << "=" << num(v);
    out << "\n";
  }
  for (const auto& t : tiles) printTile(t, limit, out);
  return 0;
}

}  // namespace tirx::cli
