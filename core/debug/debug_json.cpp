// `tirx debug --json`: the current stop (step, kind, line, op, the focus thread's scalars) and the
// facts of the named tiles, every element with its value, flags, owner and error (docs/cli.md).
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/debug/debug_session.h"

namespace tirx::debug {

namespace {
using nlohmann::json;

/// NaN and infinities are not JSON numbers: they travel as strings.
json number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

json tileJson(const TileFacts& t) {
  json j;
  j["buffer"] = t.buffer;
  j["scope"] = t.scope;
  j["dtype"] = t.dtype;
  j["shape"] = t.shape;
  j["uninit"] = t.uninit;
  j["nan"] = t.nans;
  j["inf"] = t.infs;
  j["min"] = number(t.min);
  j["max"] = number(t.max);
  j["has_reference"] = t.hasReference;
  if (t.hasReference) j["max_abs_err"] = number(t.maxAbsErr);
  if (!t.note.empty()) j["note"] = t.note;
  json els = json::array();
  for (const auto& e : t.elements) {
    json x;
    x["coord"] = e.coord;
    x["value"] = number(e.value);
    x["bits"] = e.bits;
    if (e.uninit) x["uninit"] = true;
    if (e.nan) x["nan"] = true;
    if (e.inf) x["inf"] = true;
    if (e.thread >= 0) {
      x["thread"] = e.thread;
      x["warp"] = e.thread / 32;
      x["lane"] = e.thread % 32;
      x["reg"] = e.slot;
      if (e.owners > 1) x["owners"] = e.owners;
    }
    if (e.byte >= 0) x["byte"] = e.byte;
    if (e.hasReference) {
      x["reference"] = number(e.reference);
      x["abs_err"] = number(e.absErr);
    }
    els.push_back(std::move(x));
  }
  j["elements"] = std::move(els);
  return j;
}
}  // namespace

std::string stopToJson(const DebugSession& s, const std::vector<TileFacts>& tiles, int indent) {
  const Stop st = s.stop();
  json j;
  j["kernel"] = s.kernelName();
  j["launch"] = s.options().launch;
  j["cta"] = s.options().cta;
  j["thread"] = s.options().thread;
  j["steps"] = s.stepCount();
  j["first_recorded"] = s.firstRecorded();
  j["last_recorded"] = s.lastRecorded();
  j["truncated"] = s.truncated();
  json stop;
  stop["index"] = st.index;
  stop["kind"] = st.kind;
  stop["line"] = st.span.line;
  stop["column"] = st.span.col;
  stop["op"] = st.op;
  stop["threads"] = st.threads;
  stop["mixed"] = st.mixed;
  json sc = json::object();
  for (const auto& [name, v] : st.scalars) sc[name] = number(v);
  stop["scalars"] = std::move(sc);
  j["stop"] = std::move(stop);
  json ts = json::array();
  for (const auto& t : tiles) ts.push_back(tileJson(t));
  j["tiles"] = std::move(ts);
  return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace tirx::debug
