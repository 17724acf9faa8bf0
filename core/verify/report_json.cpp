// The Report as JSON (schema documented in docs/verify.md). Non-finite numbers are written as the
// strings "nan", "inf" and "-inf" so that the document stays valid JSON.
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/verify/verify.h"

namespace tirx::verify {

namespace {

using nlohmann::json;

json num(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

json numbers(const std::vector<double>& v) {
  json a = json::array();
  for (double x : v) a.push_back(num(x));
  return a;
}

json spanJson(const SourceSpan& s) {
  return {{"line", s.line}, {"col", s.col}, {"length", s.length}, {"offset", s.offset}};
}

json diagJson(const Diagnostic& d) {
  json j = {{"severity", std::string(severityName(d.severity))},
            {"code", d.code},
            {"message", d.message},
            {"span", spanJson(d.span)}};
  json notes = json::array();
  for (const auto& n : d.notes)
    notes.push_back({{"message", n.message}, {"span", spanJson(n.span)}});
  j["notes"] = notes;
  return j;
}

}  // namespace

namespace {
/// The asynchronous timeline (ir/async_timeline.h; `tirx verify --timeline`, docs/verify.md).
json timelineJson(const ir::AsyncTimeline& tl) {
  json events = json::array();
  for (const auto& e : tl.events) {
    json j = {{"kind", ir::asyncEventKindName(e.kind)},
              {"cta", e.cta},
              {"warp", e.warp},
              {"lanes", e.lanes},
              {"start", e.start},
              {"end", e.end},
              {"line", e.span.line},
              {"col", e.span.col}};
    if (e.barrier >= 0) j["barrier"] = tl.name(e.barrier);
    if (e.buffer >= 0) j["buffer"] = tl.name(e.buffer);
    if (e.stage >= 0) j["stage"] = e.stage;
    if (e.phase >= -1 && e.barrier >= 0) j["phase"] = e.phase;
    if (e.parity >= 0) j["parity"] = e.parity;
    if (e.bytes) j["bytes"] = e.bytes;
    if (e.count) j["count"] = e.count;
    if (e.group >= 0) j["group"] = e.group;
    if (e.image >= 0) j["image"] = e.image;
    if (e.unfinished) j["unfinished"] = true;
    events.push_back(j);
  }
  json images = json::array();
  for (const auto& im : tl.images)
    images.push_back({{"line", im.span.line},
                      {"cta", im.cta},
                      {"buffer", tl.name(im.buffer)},
                      {"tensor", tl.name(im.tensor)},
                      {"rows", im.rows},
                      {"cols", im.cols},
                      {"elem_bytes", im.elemBytes},
                      {"swizzle_bytes", im.swizzleBytes},
                      {"coords", im.coords},
                      {"src_row", im.srcRow},
                      {"src_col", im.srcCol}});
  return {{"truncated", tl.truncated},
          {"max_events", tl.maxEvents},
          {"copy_ticks", tl.copyTicks},
          {"events", events},
          {"images", images}};
}
}  // namespace

std::string reportToJson(const Report& r, int indent) {
  json j;
  j["file"] = r.file;
  j["device"] = r.device;
  j["passed"] = r.passed();
  j["environment_error"] = r.environmentError;
  j["total_ms"] = r.totalMs;
  json checks = json::array();
  for (const auto& c : r.checks) {
    json w = json::array();
    for (const auto& e : c.worst) {
      json o = {{"known", e.owner.known}};
      if (e.owner.known)
        o.update({{"cta", e.owner.cta},
                  {"thread", e.owner.thread},
                  {"warp", e.owner.warp},
                  {"lane", e.owner.lane},
                  {"register", e.owner.reg},
                  {"kernel", e.owner.kernel},
                  {"buffer", e.owner.buffer},
                  {"tile", e.owner.tile},
                  {"slot", e.owner.slot},
                  {"register_line", e.owner.regLine},
                  {"store_line", e.owner.storeLine},
                  {"text", e.owner.text()}});
      w.push_back({{"coord", e.coord},
                   {"actual", num(e.actual)},
                   {"expected", num(e.expected)},
                   {"abs_err", num(e.absErr)},
                   {"rel_err", num(e.relErr)},
                   {"owner", o}});
    }
    checks.push_back({{"name", c.name},
                      {"kind", c.kind},
                      {"span", spanJson(c.span)},
                      {"pass", c.pass},
                      {"message", c.message},
                      {"kernel", c.kernel},
                      {"device", c.device},
                      {"rtol", num(c.rtol)},
                      {"atol", num(c.atol)},
                      {"equal_nan", c.equalNan},
                      {"max_abs_err", num(c.maxAbs)},
                      {"max_rel_err", num(c.maxRel)},
                      {"mismatches", c.mismatches},
                      {"total", c.total},
                      {"worst", w},
                      {"shape", c.shape},
                      {"output", numbers(c.output)},
                      {"reference", numbers(c.reference)}});
  }
  j["checks"] = checks;
  json errs = json::array();
  for (const auto& d : r.errors) errs.push_back(diagJson(d));
  j["errors"] = errs;
  json faults = json::array();
  for (const auto& f : r.faults) {
    json d = diagJson(f.diag);
    d["kind"] = f.kind;
    faults.push_back(d);
  }
  j["faults"] = faults;
  json runs = json::array();
  for (const auto& k : r.runs) {
    json run = {{"kernel", k.kernel}, {"device", k.device},        {"span", spanJson(k.span)},
                {"ran", k.ran},       {"compile_ms", k.compileMs}, {"run_ms", k.runMs}};
    if (!k.timeline.empty()) run["timeline"] = timelineJson(k.timeline);
    runs.push_back(run);
  }
  j["runs"] = runs;
  j["log"] = r.log;
  // Messages quote the script, which may hold any bytes: invalid UTF-8 becomes U+FFFD instead of
  // an exception (tirx verify --json of a non-UTF-8 script).
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace tirx::verify
