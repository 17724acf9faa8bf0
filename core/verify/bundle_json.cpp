// The bundle file format (docs/cli.md "Bundles", schema v2): JSON with base64 payloads, written by
// bundleToJson and read by parseBundle. The reader checks every member's type and every payload's
// size against its dtype and shape before anything is allocated from it, so a hostile or damaged
// file is a message, never a crash or an unbounded allocation. Version 1 files (camelCase members,
// resources as text lines) are read through a table of their member names (decision FRONT-1).
// Recording and replay: bundle.cpp.
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/verify/bundle.h"

namespace tirx::verify {

using nlohmann::json;

namespace {

constexpr char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64(const void* data, size_t n) {
  const auto* p = static_cast<const uint8_t*>(data);
  std::string out;
  out.reserve((n + 2) / 3 * 4);
  for (size_t i = 0; i < n; i += 3) {
    const uint32_t v = uint32_t(p[i]) << 16 | (i + 1 < n ? uint32_t(p[i + 1]) << 8 : 0) |
                       (i + 2 < n ? p[i + 2] : 0);
    out += kB64[v >> 18 & 63];
    out += kB64[v >> 12 & 63];
    out += i + 1 < n ? kB64[v >> 6 & 63] : '=';
    out += i + 2 < n ? kB64[v & 63] : '=';
  }
  return out;
}

/// Strict base64 (padded, no whitespace); false for anything else.
bool unbase64(const std::string& s, std::vector<uint8_t>& out) {
  if (s.size() % 4) return false;
  out.clear();
  out.reserve(s.size() / 4 * 3);
  auto val = [](char c) -> int {
    const char* f = std::strchr(kB64, c);
    return c && f ? int(f - kB64) : -1;
  };
  for (size_t i = 0; i < s.size(); i += 4) {
    int v[4];
    int pad = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = s[i + size_t(k)];
      if (c == '=' && i + 4 == s.size() && k >= 2) {
        v[k] = 0;
        ++pad;
        continue;
      }
      if (pad) return false;
      v[k] = val(c);
      if (v[k] < 0) return false;
    }
    const uint32_t x =
        uint32_t(v[0]) << 18 | uint32_t(v[1]) << 12 | uint32_t(v[2]) << 6 | uint32_t(v[3]);
    out.push_back(uint8_t(x >> 16));
    if (pad < 2) out.push_back(uint8_t(x >> 8));
    if (pad < 1) out.push_back(uint8_t(x));
  }
  return true;
}

json spanJson(const SourceSpan& s) {
  return {s.line, s.col, s.length, s.offset};
}

json diagJson(const Diagnostic& d) {
  json notes = json::array();
  for (const auto& n : d.notes)
    notes.push_back({{"span", spanJson(n.span)}, {"message", n.message}});
  return {{"severity", std::string(severityName(d.severity))},
          {"code", d.code},
          {"span", spanJson(d.span)},
          {"message", d.message},
          {"notes", notes}};
}

json tensorJson(const ir::HostTensor& t) {
  json j = {{"dtype", std::string(ir::dtypeName(t.dtype))},
            {"shape", t.shape},
            {"data", base64(t.data.data(), t.data.size())}};
  if (!t.defined.empty()) j["defined"] = base64(t.defined.data(), t.defined.size());
  return j;
}

json doublesJson(const std::vector<double>& v) {
  return base64(v.data(), v.size() * sizeof(double));
}

/// Members that version 1 spelled in camelCase, under their version 2 names.
constexpr std::pair<const char*, const char*> kVersion1Names[] = {
    {"total_ms", "totalMs"}, {"compile_ms", "compileMs"},   {"run_ms", "runMs"},
    {"max_abs", "maxAbs"},   {"sass_status", "sassStatus"},
};

json resourcesJson(const toolchain::KernelResources& r) {
  return {{"kernel", r.kernel},
          {"registers", r.registers},
          {"shared_bytes", r.sharedBytes},
          {"stack_bytes", r.stackBytes},
          {"spill_stores", r.spillStores},
          {"spill_loads", r.spillLoads},
          {"constant_bytes", r.constantBytes},
          {"barriers", r.barriers}};
}

/// Typed member reads; the first problem is kept in `why` with the member's path. Members are
/// named as version 2 spells them; a version 1 file is read under its own names.
class Reader {
 public:
  std::string why;
  int version = kBundleVersion;
  bool ok() const { return why.empty(); }
  /// `key` as this file's version spells it.
  const char* name(const char* key) const {
    if (version == 1)
      for (const auto& [now, then] : kVersion1Names)
        if (std::strcmp(key, now) == 0) return then;
    return key;
  }
  const json* get(const json& o, const std::string& path, const char* snakeKey,
                  bool required = true) {
    if (!ok()) return nullptr;
    const char* key = name(snakeKey);
    if (!o.is_object()) return fail(path + " must be an object");
    auto it = o.find(key);
    if (it == o.end()) return required ? fail(path + " has no '" + key + "'") : nullptr;
    return &*it;
  }
  void str(const json& o, const std::string& path, const char* key, std::string& out,
           bool required = true) {
    const json* v = get(o, path, key, required);
    if (!v) return;
    if (!v->is_string()) return void(fail(path + "." + name(key) + " must be a string"));
    out = v->get<std::string>();
  }
  void boolean(const json& o, const std::string& path, const char* key, bool& out) {
    const json* v = get(o, path, key);
    if (!v) return;
    if (!v->is_boolean()) return void(fail(path + "." + name(key) + " must be true or false"));
    out = v->get<bool>();
  }
  void number(const json& o, const std::string& path, const char* key, double& out,
              bool required = true) {
    const json* v = get(o, path, key, required);
    if (!v) return;
    if (!v->is_number()) return void(fail(path + "." + name(key) + " must be a number"));
    out = v->get<double>();
  }
  void integer(const json& o, const std::string& path, const char* key, int64_t& out, int64_t lo,
               int64_t hi) {
    const json* v = get(o, path, key);
    if (!v) return;
    if (!v->is_number_integer() || v->get<int64_t>() < lo || v->get<int64_t>() > hi)
      return void(fail(path + "." + name(key) + " must be an integer in [" + std::to_string(lo) +
                       ", " + std::to_string(hi) + "]"));
    out = v->get<int64_t>();
  }
  const json* array(const json& o, const std::string& path, const char* key, bool required = true) {
    const json* v = get(o, path, key, required);
    if (v && !v->is_array()) return fail(path + "." + name(key) + " must be an array");
    return v;
  }
  void bytes(const json& o, const std::string& path, const char* key, std::vector<uint8_t>& out,
             size_t expect) {
    std::string s;
    str(o, path, key, s);
    if (!ok()) return;
    if (!unbase64(s, out)) return void(fail(path + "." + name(key) + " is not base64"));
    if (expect != SIZE_MAX && out.size() != expect)
      fail(path + "." + name(key) + " holds " + std::to_string(out.size()) + " bytes, expected " +
           std::to_string(expect));
  }
  SourceSpan span(const json& o, const std::string& path, const char* key) {
    const json* v = get(o, path, key);
    SourceSpan s;
    if (!v) return s;
    if (!v->is_array() || v->size() != 4)
      return fail(path + "." + name(key) + " must be [line, col, length, offset]"), s;
    int vals[4];
    for (size_t i = 0; i < 4; ++i) {
      if (!(*v)[i].is_number_integer() || (*v)[i].get<int64_t>() < 0 ||
          (*v)[i].get<int64_t>() > (int64_t(1) << 30))
        return fail(path + "." + name(key) + " must be [line, col, length, offset]"), s;
      vals[i] = int((*v)[i].get<int64_t>());
    }
    return {vals[0], vals[1], vals[2], vals[3]};
  }
  Diagnostic diag(const json& o, const std::string& path) {
    Diagnostic d;
    std::string sev;
    str(o, path, "severity", sev);
    d.severity = sev == "warning" ? Severity::Warning
                 : sev == "note"  ? Severity::Note
                                  : Severity::Error;
    str(o, path, "code", d.code);
    str(o, path, "message", d.message);
    d.span = span(o, path, "span");
    if (const json* ns = array(o, path, "notes", false))
      for (size_t i = 0; i < ns->size() && ok(); ++i) {
        const std::string np = path + ".notes[" + std::to_string(i) + "]";
        DiagNote n;
        n.span = span((*ns)[i], np, "span");
        str((*ns)[i], np, "message", n.message);
        d.notes.push_back(n);
      }
    return d;
  }
  ir::HostTensor tensor(const json& o, const std::string& path) {
    ir::HostTensor t;
    std::string dt;
    str(o, path, "dtype", dt);
    if (!ok()) return t;
    const auto parsed = ir::parseDType(dt);
    if (!parsed) return fail(path + ".dtype: unknown dtype '" + dt + "'"), t;
    t.dtype = *parsed;
    const json* shape = array(o, path, "shape");
    if (!shape) return t;
    int64_t numel = 1;
    for (const auto& e : *shape) {
      if (!e.is_number_integer() || e.get<int64_t>() < 0 || e.get<int64_t>() > (int64_t(1) << 32) ||
          shape->size() > 16)
        return fail(path + ".shape must be a list of at most 16 sizes"), t;
      t.shape.push_back(e.get<int64_t>());
      numel *= e.get<int64_t>();
      if (numel > int64_t(kMaxBundleBytes))
        return fail(path + ".shape is larger than a bundle can hold"), t;
    }
    bytes(o, path, "data", t.data, size_t(numel) * size_t(ir::dtypeBytes(t.dtype)));
    if (ok() && o.contains("defined")) bytes(o, path, "defined", t.defined, size_t(numel));
    return t;
  }
  std::vector<double> doubles(const json& o, const std::string& path, const char* key) {
    std::vector<uint8_t> raw;
    std::vector<double> v;
    bytes(o, path, key, raw, SIZE_MAX);
    if (!ok()) return v;
    if (raw.size() % sizeof(double))
      return fail(path + "." + name(key) + " is not a list of float64"), v;
    v.resize(raw.size() / sizeof(double));
    if (!raw.empty()) std::memcpy(v.data(), raw.data(), raw.size());
    return v;
  }

 private:
  const json* fail(const std::string& w) {
    if (why.empty()) why = w;
    return nullptr;
  }
};

}  // namespace

std::string bundleToJson(const Bundle& b) {
  json checks = json::array(), errors = json::array(), faults = json::array(),
       launches = json::array();
  for (const auto& c : b.checks)
    checks.push_back({{"name", c.name},
                      {"kind", c.kind},
                      {"kernel", c.kernel},
                      {"device", c.device},
                      {"pass", c.pass},
                      {"message", c.message},
                      {"span", spanJson(c.span)},
                      {"rtol", c.rtol},
                      {"atol", c.atol},
                      {"equal_nan", c.equalNan},
                      {"max_abs", std::isfinite(c.maxAbs) ? c.maxAbs : -1.0},
                      {"mismatches", c.mismatches},
                      {"total", c.total},
                      {"shape", c.shape},
                      {"output", doublesJson(c.output)},
                      {"reference", doublesJson(c.reference)}});
  for (const auto& d : b.errors) errors.push_back(diagJson(d));
  auto faultsJson = [](const std::vector<ir::Fault>& fs) {
    json a = json::array();
    for (const auto& f : fs) a.push_back({{"kind", f.kind}, {"diagnostic", diagJson(f.diag)}});
    return a;
  };
  faults = faultsJson(b.faults);
  json resources = json::array();
  for (const auto& r : b.products.resources) resources.push_back(resourcesJson(r));
  for (const auto& l : b.launches) {
    json args = json::array();
    for (const auto& a : l.args) {
      json j = {{"name", a.name}};
      if (a.input.isTensor) {
        j["kind"] = "tensor";
        j["input"] = tensorJson(a.input.tensor);
        if (a.hasOutput) j["output"] = tensorJson(a.output);
      } else {
        j["kind"] = "scalar";
        j["dtype"] = std::string(ir::dtypeName(a.input.scalarType));
        j["bits"] =
            std::to_string(a.input.scalarBits);  // a string: JSON numbers lose 64-bit values
      }
      args.push_back(j);
    }
    launches.push_back({{"kernel", l.kernel},
                        {"device", l.device},
                        {"ran", l.ran},
                        {"compile_ms", l.compileMs},
                        {"run_ms", l.runMs},
                        {"faults", faultsJson(l.faults)},
                        {"args", args}});
  }
  json doc = {{"format", "tirx-bundle"},
              {"version", kBundleVersion},  // one read from version 1 is written as version 2
              {"tirx", b.tirxVersion},
              {"created", b.created},
              {"script", {{"file", b.scriptFile}, {"text", b.script}}},
              {"arch", b.arch},
              {"device", {{"requested", b.requestedDevice}, {"name", b.deviceName}}},
              {"toolkit", b.toolkit},
              {"driver", b.driver},
              {"verify",
               {{"passed", b.passed},
                {"total_ms", b.totalMs},
                {"checks", checks},
                {"errors", errors},
                {"faults", faults}}},
              {"launches", launches},
              {"products",
               {{"cuda", b.products.cuda},
                {"ptx", b.products.ptx},
                {"sass", b.products.sass},
                {"sass_status", b.products.sassStatus},
                {"resources", resources},
                {"error", b.products.error}}}};
  if (b.profile) doc["profile"] = toolchain::profileJson(*b.profile);  // optional, any version
  return doc.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

/// The recorded compile products of a bundle: texts, and the resources as values (version 2) or
/// as resourceLine text (version 1, read back; a line that does not parse is counted).
void readProducts(Reader& r, const json& j, BundleProducts& products) {
  const json* p = r.get(j, "bundle", "products");
  if (!p) return;
  {
    r.str(*p, "products", "cuda", products.cuda);
    r.str(*p, "products", "ptx", products.ptx);
    r.str(*p, "products", "sass", products.sass);
    r.str(*p, "products", "sass_status", products.sassStatus);
    r.str(*p, "products", "error", products.error);
    if (const json* rs = r.array(*p, "products", "resources"))
      for (size_t i = 0; i < rs->size() && r.ok(); ++i) {
        const json& e = (*rs)[i];
        if (r.version == 1) {  // text lines, resourceLine's form
          auto k =
              e.is_string() ? toolchain::parseResourceLine(e.get<std::string>()) : std::nullopt;
          if (k)
            products.resources.push_back(std::move(*k));
          else
            ++products.unreadableResources;
          continue;
        }
        const std::string rp = "products.resources[" + std::to_string(i) + "]";
        toolchain::KernelResources k;
        r.str(e, rp, "kernel", k.kernel);
        int64_t v = 0;
        const std::pair<const char*, int toolchain::KernelResources::*> fields[] = {
            {"registers", &toolchain::KernelResources::registers},
            {"shared_bytes", &toolchain::KernelResources::sharedBytes},
            {"stack_bytes", &toolchain::KernelResources::stackBytes},
            {"spill_stores", &toolchain::KernelResources::spillStores},
            {"spill_loads", &toolchain::KernelResources::spillLoads},
            {"constant_bytes", &toolchain::KernelResources::constantBytes},
            {"barriers", &toolchain::KernelResources::barriers}};
        for (const auto& [key, member] : fields) {
          r.integer(e, rp, key, v, -1, int64_t(1) << 30);  // -1: unknown
          k.*member = int(v);
        }
        products.resources.push_back(std::move(k));
      }
  }
}

Result<Bundle> parseBundle(std::string_view text) {
  auto bad = [](const std::string& why) { return Status{"bundle", why, 0}; };
  if (text.empty()) return bad("the file is empty");
  if (text.size() > kMaxBundleBytes)
    return bad("the file is larger than the 1 GiB a bundle may have");
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return bad("the file is not JSON (truncated or garbage)");
  if (!j.is_object() || !j.contains("format") || j["format"] != "tirx-bundle")
    return bad("the file is not a tirx bundle (no \"format\": \"tirx-bundle\")");
  Reader r;
  Bundle b;
  int64_t version = 0;
  r.integer(j, "bundle", "version", version, 1, 1 << 20);
  if (!r.ok()) return bad("malformed bundle: " + r.why);
  if (version > kBundleVersion)
    return bad("the bundle has version " + std::to_string(version) + ", newer than the version " +
               std::to_string(kBundleVersion) + " this tirx reads (update tirx)");
  b.version = r.version = int(version);
  r.str(j, "bundle", "tirx", b.tirxVersion);
  r.str(j, "bundle", "created", b.created);
  r.str(j, "bundle", "arch", b.arch);
  r.str(j, "bundle", "toolkit", b.toolkit);
  r.str(j, "bundle", "driver", b.driver);
  if (const json* s = r.get(j, "bundle", "script")) {
    r.str(*s, "script", "file", b.scriptFile);
    r.str(*s, "script", "text", b.script);
  }
  if (const json* d = r.get(j, "bundle", "device")) {
    r.str(*d, "device", "requested", b.requestedDevice);
    r.str(*d, "device", "name", b.deviceName);
  }
  auto faults = [&](const json& o, const std::string& path, std::vector<ir::Fault>& out) {
    const json* fs = r.array(o, path, "faults");
    for (size_t i = 0; fs && i < fs->size() && r.ok(); ++i) {
      const std::string fp = path + ".faults[" + std::to_string(i) + "]";
      ir::Fault f;
      r.str((*fs)[i], fp, "kind", f.kind);
      if (const json* d = r.get((*fs)[i], fp, "diagnostic"))
        f.diag = r.diag(*d, fp + ".diagnostic");
      out.push_back(std::move(f));
    }
  };
  if (const json* v = r.get(j, "bundle", "verify")) {
    r.boolean(*v, "verify", "passed", b.passed);
    r.number(*v, "verify", "total_ms", b.totalMs);
    const json* cs = r.array(*v, "verify", "checks");
    for (size_t i = 0; cs && i < cs->size() && r.ok(); ++i) {
      const std::string cp = "verify.checks[" + std::to_string(i) + "]";
      const json& c = (*cs)[i];
      Check k;
      r.str(c, cp, "name", k.name);
      r.str(c, cp, "kind", k.kind);
      r.str(c, cp, "kernel", k.kernel);
      r.str(c, cp, "device", k.device);
      r.str(c, cp, "message", k.message);
      r.boolean(c, cp, "pass", k.pass);
      k.span = r.span(c, cp, "span");
      r.number(c, cp, "rtol", k.rtol);
      r.number(c, cp, "atol", k.atol);
      // bundles before equal_nan was recorded: the default of the check's function
      k.equalNan = k.kind != "assert_close";
      if (auto it = c.find("equal_nan"); it != c.end() && it->is_boolean()) k.equalNan = *it;
      r.number(c, cp, "max_abs", k.maxAbs);
      r.integer(c, cp, "mismatches", k.mismatches, 0, int64_t(1) << 40);
      r.integer(c, cp, "total", k.total, 0, int64_t(1) << 40);
      if (const json* sh = r.array(c, cp, "shape"))
        for (const auto& e : *sh) k.shape.push_back(e.is_number_integer() ? e.get<int64_t>() : -1);
      k.output = r.doubles(c, cp, "output");
      k.reference = r.doubles(c, cp, "reference");
      b.checks.push_back(std::move(k));
    }
    const json* es = r.array(*v, "verify", "errors");
    for (size_t i = 0; es && i < es->size() && r.ok(); ++i)
      b.errors.push_back(r.diag((*es)[i], "verify.errors[" + std::to_string(i) + "]"));
    if (r.ok()) faults(*v, "verify", b.faults);
  }
  const json* ls = r.array(j, "bundle", "launches");
  for (size_t i = 0; ls && i < ls->size() && r.ok(); ++i) {
    const std::string lp = "launches[" + std::to_string(i) + "]";
    const json& lj = (*ls)[i];
    BundleLaunch l;
    r.str(lj, lp, "kernel", l.kernel);
    r.str(lj, lp, "device", l.device);
    r.boolean(lj, lp, "ran", l.ran);
    r.number(lj, lp, "compile_ms", l.compileMs);
    r.number(lj, lp, "run_ms", l.runMs);
    faults(lj, lp, l.faults);
    const json* as = r.array(lj, lp, "args");
    for (size_t a = 0; as && a < as->size() && r.ok(); ++a) {
      const std::string ap = lp + ".args[" + std::to_string(a) + "]";
      const json& aj = (*as)[a];
      BundleArg arg;
      std::string kind;
      r.str(aj, ap, "name", arg.name);
      r.str(aj, ap, "kind", kind);
      if (!r.ok()) break;
      if (kind == "tensor") {
        if (const json* in = r.get(aj, ap, "input"))
          arg.input.tensor = r.tensor(*in, ap + ".input");
        if (r.ok() && aj.contains("output")) {
          arg.hasOutput = true;
          arg.output = r.tensor(aj["output"], ap + ".output");
          if (r.ok() && (arg.output.shape != arg.input.tensor.shape ||
                         arg.output.dtype != arg.input.tensor.dtype))
            return bad(ap + ".output does not have the input's dtype and shape");
        }
      } else if (kind == "scalar") {
        arg.input.isTensor = false;
        std::string dt, bits;
        r.str(aj, ap, "dtype", dt);
        r.str(aj, ap, "bits", bits);
        if (!r.ok()) break;
        const auto parsed = ir::parseDType(dt);
        char* end = nullptr;
        const unsigned long long v = std::strtoull(bits.c_str(), &end, 10);
        if (!parsed || bits.empty() || !end || *end || bits[0] == '-')
          return bad(ap + " must have a dtype and its bits as a decimal string");
        arg.input.scalarType = *parsed;
        arg.input.scalarBits = v;
      } else {
        return bad(ap + ".kind must be \"tensor\" or \"scalar\"");
      }
      l.args.push_back(std::move(arg));
    }
    b.launches.push_back(std::move(l));
  }
  readProducts(r, j, b.products);
  if (!r.ok()) return bad("malformed bundle: " + r.why);
  if (const auto it = j.find("profile"); it != j.end()) {
    toolchain::Profile p;
    std::string why;
    if (!toolchain::profileFromJson(*it, p, why)) return bad("malformed bundle: profile: " + why);
    b.profile = std::move(p);
  }
  return b;
}

}  // namespace tirx::verify
