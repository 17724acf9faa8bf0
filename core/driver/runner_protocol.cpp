// Request/response JSON of the runner protocol, read member by member with type and range checks
// (nlohmann::json's value()/get() throw on a member of another type: they are not used on text
// from the other process), and the per-run argument bytes with their poison.
#include "core/driver/runner_protocol.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/ir/values.h"

namespace tirx::driver {

using nlohmann::json;

namespace {

constexpr int64_t kMaxBytes = int64_t(1) << 40;  // 1 TiB: larger than any device's memory
constexpr size_t kMaxArgs = 4096;
constexpr size_t kMaxTimings = 1'000'000;

/// Typed reads of one object's members. A member of the wrong type, out of range, or missing
/// when required sets `why` (the first problem only) and leaves the output untouched.
class Members {
 public:
  Members(const json& o, std::string where) : m_o(o), m_where(std::move(where)) {}
  const std::string& why() const { return m_why; }
  bool ok() const { return m_why.empty(); }

  const json* find(const char* key, bool required) {
    if (!m_o.is_object()) return fail(m_where + " is not an object"), nullptr;
    auto it = m_o.find(key);
    if (it == m_o.end()) {
      if (required) fail(m_where + " has no '" + key + "'");
      return nullptr;
    }
    return &*it;
  }
  void str(const char* key, std::string& out, bool required = false) {
    if (const json* v = find(key, required)) {
      if (v->is_string())
        out = v->get<std::string>();
      else
        bad(key, "a string");
    }
  }
  void boolean(const char* key, bool& out, bool required = false) {
    if (const json* v = find(key, required)) {
      if (v->is_boolean())
        out = v->get<bool>();
      else
        bad(key, "true or false");
    }
  }
  template <class I>
  void integer(const char* key, I& out, int64_t lo, int64_t hi, bool required = false) {
    if (const json* v = find(key, required)) {
      if (!integerValue(*v, key, out, lo, hi)) return;
    }
  }
  void uint64(const char* key, uint64_t& out, bool required = false) {
    if (const json* v = find(key, required)) {
      if (v->is_number_unsigned())
        out = v->get<uint64_t>();
      else if (v->is_number_integer() && v->get<int64_t>() >= 0)
        out = uint64_t(v->get<int64_t>());
      else
        bad(key, "a non-negative integer");
    }
  }
  void number(const char* key, double& out, bool required = false) {
    if (const json* v = find(key, required)) {
      if (v->is_number() && std::isfinite(v->get<double>()) && v->get<double>() >= 0)
        out = v->get<double>();
      else
        bad(key, "a non-negative number");
    }
  }
  template <class I>
  bool integerValue(const json& v, const std::string& what, I& out, int64_t lo, int64_t hi) {
    int64_t x = 0;
    if (v.is_number_unsigned()) {
      const uint64_t u = v.get<uint64_t>();
      if (u > uint64_t(std::numeric_limits<int64_t>::max())) return bad(what, range(lo, hi)), false;
      x = int64_t(u);
    } else if (v.is_number_integer()) {
      x = v.get<int64_t>();
    } else {
      return bad(what, "an integer"), false;
    }
    if (x < lo || x > hi) return bad(what, range(lo, hi)), false;
    out = I(x);
    return true;
  }
  void fail(const std::string& why) {
    if (m_why.empty()) m_why = why;
  }

 private:
  void bad(const std::string& key, const std::string& want) {
    fail("'" + key + "' of " + m_where + " must be " + want);
  }
  static std::string range(int64_t lo, int64_t hi) {
    return "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  }
  const json& m_o;
  std::string m_where;
  std::string m_why;
};

json spanJson(const SourceSpan& s) {
  return {s.line, s.col, s.length, s.offset};
}

bool spanFromJson(const json& j, SourceSpan& s) {
  if (!j.is_array() || j.size() != 4) return false;
  int v[4];
  for (size_t i = 0; i < 4; ++i) {
    if (!j[i].is_number_integer() || j[i].get<int64_t>() < 0 ||
        j[i].get<int64_t>() > (int64_t(1) << 30))
      return false;
    v[i] = int(j[i].get<int64_t>());
  }
  s = {v[0], v[1], v[2], v[3]};
  return true;
}

json diagnosticJson(const Diagnostic& d) {
  json notes = json::array();
  for (const auto& n : d.notes)
    notes.push_back({{"span", spanJson(n.span)}, {"message", n.message}});
  return {{"severity", std::string(severityName(d.severity))},
          {"code", d.code},
          {"span", spanJson(d.span)},
          {"message", d.message},
          {"notes", notes}};
}

bool diagnosticFromJson(const json& j, Diagnostic& d) {
  if (!j.is_object()) return false;
  auto str = [&](const char* k, std::string& out) {
    auto it = j.find(k);
    if (it == j.end() || !it->is_string()) return false;
    out = it->get<std::string>();
    return true;
  };
  std::string sev;
  auto sp = j.find("span");
  auto ns = j.find("notes");
  if (!str("severity", sev) || !str("code", d.code) || !str("message", d.message) ||
      sp == j.end() || !spanFromJson(*sp, d.span) || ns == j.end() || !ns->is_array() ||
      ns->size() > 64)
    return false;
  d.severity = sev == "warning" ? Severity::Warning
               : sev == "note"  ? Severity::Note
                                : Severity::Error;
  for (const auto& n : *ns) {
    DiagNote note;
    auto ms = n.is_object() ? n.find("message") : n.end();
    auto nsp = n.is_object() ? n.find("span") : n.end();
    if (!n.is_object() || ms == n.end() || !ms->is_string() || nsp == n.end() ||
        !spanFromJson(*nsp, note.span))
      return false;
    note.message = ms->get<std::string>();
    d.notes.push_back(std::move(note));
  }
  return true;
}

const char* undefinedName(Undefined u) {
  return u == Undefined::All ? "all" : u == Undefined::Some ? "some" : "none";
}

bool readExtents(Members& m, const char* key, std::array<int64_t, 3>& out) {
  const json* v = m.find(key, false);
  if (!v) return true;
  if (!v->is_array() || v->empty() || v->size() > 3) {
    m.fail("'" + std::string(key) + "' must be an array of 1 to 3 extents");
    return false;
  }
  for (size_t d = 0; d < v->size(); ++d)
    if (!m.integerValue((*v)[d], std::string(key) + "[" + std::to_string(d) + "]", out[d], 1,
                        std::numeric_limits<int32_t>::max()))
      return false;
  return true;
}

/// One "tensorMaps" entry (ranks and ranges as cuTensorMapEncodeTiled accepts, so that a wrong map
/// is a request error naming the member rather than a driver error).
bool readTensorMap(const json& mj, size_t i, const RunnerRequest& r, RunnerTensorMap& out,
                   std::string& why) {
  Members m(mj, "tensor map " + std::to_string(i));
  std::string dtype;
  m.integer("arg", out.arg, 0, int64_t(kMaxArgs), true);
  m.str("name", out.name);
  m.str("dtype", dtype, true);
  m.uint64("baseBytes", out.baseBytes);
  m.integer("swizzle", out.swizzle, 0, 3);
  m.boolean("oobNan", out.oobNan);
  auto list = [&](const char* key, auto& vec, size_t lo, size_t hi, int64_t vlo, int64_t vhi) {
    const json* v = m.find(key, true);
    if (!m.ok()) return;
    if (!v->is_array() || v->size() < lo || v->size() > hi) {
      m.fail("'" + std::string(key) + "' of tensor map " + std::to_string(i) +
             " must be an array of " + std::to_string(lo) + " to " + std::to_string(hi) +
             " values");
      return;
    }
    for (size_t d = 0; d < v->size() && m.ok(); ++d) {
      int64_t x = 0;
      if (m.integerValue((*v)[d], std::string(key) + "[" + std::to_string(d) + "]", x, vlo, vhi))
        vec.push_back(static_cast<typename std::decay_t<decltype(vec)>::value_type>(x));
    }
  };
  list("dims", out.dims, 1, 5, 1, int64_t(1) << 32);
  const size_t rank = out.dims.size();
  if (m.ok()) list("strides", out.strides, rank - 1, rank - 1, 16, (int64_t(1) << 40) - 1);
  if (m.ok()) list("box", out.box, rank, rank, 1, 256);
  for (size_t d = 0; m.ok() && d < out.strides.size(); ++d)
    if (out.strides[d] % 16 != 0)
      m.fail("'strides[" + std::to_string(d) + "]' of tensor map " + std::to_string(i) +
             " must be a multiple of 16");
  const auto dt = ir::parseDType(dtype);
  if (m.ok() && (!dt || tensorMapDataType(*dt) < 0))
    m.fail("tensor map " + std::to_string(i) + " has no map type for dtype '" + dtype + "'");
  if (m.ok()) out.dtype = *dt;
  if (m.ok() && (out.arg >= r.args.size() || !r.args[out.arg].isTensor))
    m.fail("'arg' of tensor map " + std::to_string(i) + " is not a tensor argument");
  if (m.ok() &&
      (out.baseBytes % 16 != 0 || out.baseBytes >= std::max<uint64_t>(r.args[out.arg].bytes, 1)))
    m.fail("'baseBytes' of tensor map " + std::to_string(i) +
           " must be a multiple of 16 inside its argument");
  why = m.why();
  return m.ok();
}

}  // namespace

int tensorMapDataType(ir::DType t) {
  switch (t) {
    case ir::DType::UInt8:
    case ir::DType::Int8:
      return 0;
    case ir::DType::UInt16:
    case ir::DType::Int16:
      return 1;
    case ir::DType::UInt32:
      return 2;
    case ir::DType::Int32:
      return 3;
    case ir::DType::UInt64:
      return 4;
    case ir::DType::Int64:
      return 5;
    case ir::DType::Float16:
      return 6;
    case ir::DType::Float32:
      return 7;
    case ir::DType::Float64:
      return 8;
    case ir::DType::BFloat16:
      return 9;
    default:
      return -1;
  }
}

std::string requestToJson(const RunnerRequest& r) {
  json args = json::array();
  for (const auto& a : r.args) {
    if (!a.isTensor) {
      args.push_back({{"kind", "scalar"}, {"bits", a.bits}});
      continue;
    }
    json t = {{"kind", "tensor"},
              {"dtype", std::string(ir::dtypeName(a.dtype))},
              {"shape", a.shape},
              {"bytes", a.bytes},
              {"undefined", undefinedName(a.undefined)},
              {"download", a.download}};
    if (!a.file.empty()) t["file"] = a.file;
    if (!a.maskFile.empty()) t["mask"] = a.maskFile;
    args.push_back(std::move(t));
  }
  json j = {{"version", r.version}, {"kernel", r.kernel},   {"mode", r.mode},
            {"device", r.device},   {"cubin", r.cubin},     {"ptx", r.ptx},
            {"grid", r.grid},       {"block", r.block},     {"dynamicSmem", r.dynamicSmem},
            {"warmup", r.warmup},   {"repeats", r.repeats}, {"passes", r.passes},
            {"args", args}};
  if (!r.tensorMaps.empty()) {
    json maps = json::array();
    for (const RunnerTensorMap& t : r.tensorMaps)
      maps.push_back({{"arg", t.arg},
                      {"name", t.name},
                      {"dtype", std::string(ir::dtypeName(t.dtype))},
                      {"baseBytes", t.baseBytes},
                      {"dims", t.dims},
                      {"strides", t.strides},
                      {"box", t.box},
                      {"swizzle", t.swizzle},
                      {"oobNan", t.oobNan}});
    j["tensorMaps"] = std::move(maps);
  }
  if (r.mode == "sim") {
    j["script"] = r.script;
    j["scriptFile"] = r.scriptFile;
    j["sm"] = r.sm;
  }
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

Result<RunnerRequest> parseRequest(const std::string& text) {
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return Status{"request", "the request is not JSON", 0};
  RunnerRequest r;
  Members m(j, "the request");
  m.integer("version", r.version, 2, 3, true);
  m.str("kernel", r.kernel, true);
  m.str("mode", r.mode);
  if (m.ok() && r.mode != "cuda" && r.mode != "sim")
    m.fail("'mode' of the request must be cuda or sim");
  if (m.ok() && r.mode == "sim") {
    m.str("script", r.script, true);
    m.str("scriptFile", r.scriptFile, true);
    m.integer("sm", r.sm, 1, 1000, true);
  }
  m.integer("device", r.device, 0, 1 << 20);
  m.str("cubin", r.cubin);
  m.str("ptx", r.ptx);
  readExtents(m, "grid", r.grid);
  readExtents(m, "block", r.block);
  m.integer("dynamicSmem", r.dynamicSmem, 0, 1 << 30);
  m.integer("warmup", r.warmup, 0, 1'000'000);
  m.integer("repeats", r.repeats, 0, 1'000'000);
  m.integer("passes", r.passes, 1, 2);
  const json* args = m.find("args", true);
  if (m.ok() && (!args->is_array() || args->size() > kMaxArgs))
    m.fail("'args' must be an array of at most " + std::to_string(kMaxArgs) + " arguments");
  if (!m.ok()) return Status{"request", m.why(), 0};
  for (size_t i = 0; i < args->size(); ++i) {
    const json& aj = (*args)[i];
    Members am(aj, "argument " + std::to_string(i));
    RunnerArg a;
    std::string kind, dtype, undefined = "none";
    am.str("kind", kind, true);
    if (am.ok() && kind == "scalar") {
      a.isTensor = false;
      am.uint64("bits", a.bits, true);
    } else if (am.ok() && kind == "tensor") {
      am.str("dtype", dtype, true);
      am.uint64("bytes", a.bytes, true);
      am.str("file", a.file);
      am.str("mask", a.maskFile);
      am.str("undefined", undefined);
      am.boolean("download", a.download);
      const json* shape = am.find("shape", true);
      if (am.ok() && (!shape->is_array() || shape->size() > 16))
        am.fail("'shape' of argument " + std::to_string(i) +
                " must be an array of at most 16 extents");
      int64_t numel = 1;
      for (size_t d = 0; am.ok() && d < shape->size(); ++d) {
        int64_t e = 0;
        if (am.integerValue((*shape)[d], "shape[" + std::to_string(d) + "]", e, 0, kMaxBytes)) {
          a.shape.push_back(e);
          numel = e == 0 || numel <= kMaxBytes / e ? numel * e : kMaxBytes + 1;
        }
      }
      const auto dt = ir::parseDType(dtype);
      if (am.ok() && (!dt || *dt == ir::DType::Void))
        am.fail("unknown dtype '" + dtype + "' of argument " + std::to_string(i));
      if (am.ok()) {
        a.dtype = *dt;
        if (numel > kMaxBytes || uint64_t(numel) * uint64_t(ir::dtypeBytes(a.dtype)) != a.bytes)
          am.fail("argument " + std::to_string(i) + ": 'bytes' " + std::to_string(a.bytes) +
                  " does not match its shape and dtype");
      }
      if (am.ok()) {
        if (undefined == "none")
          a.undefined = Undefined::None;
        else if (undefined == "all")
          a.undefined = Undefined::All;
        else if (undefined == "some")
          a.undefined = Undefined::Some;
        else
          am.fail("'undefined' of argument " + std::to_string(i) + " must be none, all or some");
      }
      if (am.ok() && a.undefined != Undefined::All && a.file.empty())
        am.fail("argument " + std::to_string(i) + " has defined elements but no 'file'");
      if (am.ok() && a.undefined == Undefined::Some && a.maskFile.empty())
        am.fail("argument " + std::to_string(i) + " has some undefined elements but no 'mask'");
    } else if (am.ok()) {
      am.fail("'kind' of argument " + std::to_string(i) + " must be tensor or scalar");
    }
    if (!am.ok()) return Status{"request", am.why(), 0};
    r.args.push_back(std::move(a));
  }
  if (auto it = j.find("tensorMaps"); it != j.end()) {
    if (!it->is_array() || it->size() > kMaxArgs)
      return Status{
          "request",
          "'tensorMaps' must be an array of at most " + std::to_string(kMaxArgs) + " maps", 0};
    for (size_t i = 0; i < it->size(); ++i) {
      RunnerTensorMap t;
      std::string why;
      if (!readTensorMap((*it)[i], i, r, t, why)) return Status{"request", why, 0};
      r.tensorMaps.push_back(std::move(t));
    }
  }
  return r;
}

std::string responseToJson(const RunnerResponse& r) {
  json j = {{"ok", r.ok}, {"ran", r.ran}, {"kernel", r.kernel}};
  if (r.environment) j["environment"] = true;
  if (!r.device.empty()) j["device"] = r.device;
  if (!r.cc.empty()) j["cc"] = r.cc;
  if (!r.loadedFrom.empty()) j["loadedFrom"] = r.loadedFrom;
  if (!r.fault.empty()) j["fault"] = r.fault;
  if (!r.ok)
    j["error"] = {{"api", r.error.api},
                  {"code", r.error.code},
                  {"message", r.error.message},
                  {"stage", r.error.stage},
                  {"kind", r.error.kind}};
  if (!r.faults.empty()) {
    json fs = json::array();
    for (const auto& f : r.faults)
      fs.push_back({{"kind", f.kind}, {"diagnostic", diagnosticJson(f.diag)}});
    j["faults"] = std::move(fs);
  }
  if (r.ok || r.ran) {
    json outs = json::array();
    for (const auto& o : r.outputs) {
      json oj = {{"index", o.index}, {"file", o.file}, {"undefined", o.undefined}};
      if (!o.maskFile.empty()) oj["mask"] = o.maskFile;
      outs.push_back(std::move(oj));
    }
    j["outputs"] = std::move(outs);
    j["firstLaunchMs"] = r.firstLaunchMs;
    j["launchesMs"] = r.launchesMs;
    j["medianMs"] = r.medianMs;
    j["minMs"] = r.minMs;
  }
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

Result<RunnerResponse> parseResponse(const std::string& text) {
  if (text.empty()) return Status{"response", "the response is empty", 0};
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded())
    return Status{"response", "the response is not JSON (truncated or garbage)", 0};
  RunnerResponse r;
  Members m(j, "the response");
  m.boolean("ok", r.ok, true);
  m.boolean("ran", r.ran);
  m.boolean("environment", r.environment);
  m.str("kernel", r.kernel);
  m.str("device", r.device);
  m.str("cc", r.cc);
  m.str("loadedFrom", r.loadedFrom);
  m.str("fault", r.fault);
  m.number("firstLaunchMs", r.firstLaunchMs);
  m.number("medianMs", r.medianMs);
  m.number("minMs", r.minMs);
  if (!m.ok()) return Status{"response", m.why(), 0};
  if (!r.ok) {
    const json* e = m.find("error", true);
    if (!m.ok()) return Status{"response", m.why(), 0};
    Members em(*e, "'error'");
    em.str("api", r.error.api);
    em.str("message", r.error.message, true);
    em.str("stage", r.error.stage);
    em.str("kind", r.error.kind);
    em.integer("code", r.error.code, std::numeric_limits<int>::min(),
               std::numeric_limits<int>::max());
    if (!em.ok()) return Status{"response", em.why(), 0};
    return r;
  }
  if (const json* t = m.find("launchesMs", false)) {
    if (!t->is_array() || t->size() > kMaxTimings)
      return Status{"response", "'launchesMs' must be an array of numbers", 0};
    for (const auto& x : *t) {
      if (!x.is_number() || !std::isfinite(x.get<double>()))
        return Status{"response", "'launchesMs' must be an array of numbers", 0};
      r.launchesMs.push_back(x.get<double>());
    }
  }
  if (const json* fs = m.find("faults", false)) {
    if (!fs->is_array() || fs->size() > kMaxArgs)
      return Status{"response", "'faults' must be an array", 0};
    for (size_t i = 0; i < fs->size(); ++i) {
      Members fm((*fs)[i], "fault " + std::to_string(i));
      RunnerFault f;
      fm.str("kind", f.kind, true);
      const json* d = fm.find("diagnostic", true);
      if (fm.ok() && !diagnosticFromJson(*d, f.diag))
        fm.fail("'diagnostic' of fault " + std::to_string(i) + " is malformed");
      if (!fm.ok()) return Status{"response", fm.why(), 0};
      r.faults.push_back(std::move(f));
    }
  }
  const json* outs = m.find("outputs", true);
  if (!m.ok()) return Status{"response", m.why(), 0};
  if (!outs->is_array() || outs->size() > kMaxArgs)
    return Status{"response", "'outputs' must be an array", 0};
  for (size_t i = 0; i < outs->size(); ++i) {
    Members om((*outs)[i], "output " + std::to_string(i));
    RunnerOutput o;
    om.integer("index", o.index, 0, int64_t(kMaxArgs));
    om.str("file", o.file, true);
    om.str("mask", o.maskFile);
    om.integer("undefined", o.undefined, 0, kMaxBytes);
    if (om.ok() && o.undefined > 0 && o.maskFile.empty())
      om.fail("output " + std::to_string(i) + " has undefined elements but no 'mask'");
    if (!om.ok()) return Status{"response", om.why(), 0};
    r.outputs.push_back(std::move(o));
  }
  return r;
}

uint8_t poisonByte(int pass) {
  return pass == 0 ? ir::kPoisonByte : ir::kSecondPoisonByte;
}

Result<std::vector<uint8_t>> argumentBytes(const RunnerArg& a, const std::string& dir, int pass) {
  std::vector<uint8_t> bytes;
  if (a.undefined == Undefined::All) {
    bytes.assign(size_t(a.bytes), poisonByte(pass));
    return bytes;
  }
  std::string data;
  if (!readWholeFile(dir + "/" + a.file, data, size_t(a.bytes)) || data.size() != a.bytes)
    return Status{
        "request",
        "argument file '" + a.file + "' is missing or not " + std::to_string(a.bytes) + " bytes",
        0};
  bytes.assign(data.begin(), data.end());
  if (a.undefined == Undefined::Some) {
    const size_t eb = size_t(ir::dtypeBytes(a.dtype));
    const size_t n = eb ? size_t(a.bytes) / eb : 0;
    std::string mask;
    if (!readWholeFile(dir + "/" + a.maskFile, mask, n) || mask.size() != n)
      return Status{
          "request",
          "mask file '" + a.maskFile + "' is missing or not " + std::to_string(n) + " bytes", 0};
    for (size_t i = 0; i < n; ++i)
      if (!mask[i]) std::memset(bytes.data() + i * eb, poisonByte(pass), eb);
  }
  return bytes;
}

std::vector<uint8_t> sameBytesMask(const std::vector<uint8_t>& first,
                                   const std::vector<uint8_t>& second, int elemBytes) {
  const size_t eb = size_t(elemBytes > 0 ? elemBytes : 1);
  const size_t n = std::min(first.size(), second.size()) / eb;
  std::vector<uint8_t> mask(n, 1);
  for (size_t i = 0; i < n; ++i)
    mask[i] = std::memcmp(first.data() + i * eb, second.data() + i * eb, eb) == 0 ? 1 : 0;
  return mask;
}

bool readWholeFile(const std::string& path, std::string& out, size_t limit) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.clear();
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    const size_t got = size_t(in.gcount());
    if (out.size() + got > limit) return false;
    out.append(buf, got);
  }
  return !in.bad();
}

bool writeWholeFile(const std::string& path, const void* data, size_t n) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(data), std::streamsize(n));
  out.close();
  return bool(out);
}

}  // namespace tirx::driver
