// Kernel bundles: the recording executor, the JSON form (base64 payloads) with its defensive
// reader, and replay. The reader checks every member's type and every payload's size against its
// dtype and shape before anything is allocated from it, so a hostile or damaged file is a message.
#include "core/ir/specialize.h"
#include "core/verify/bundle.h"

#include <cmath>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/driver/compile.h"
#include "core/driver/cuda_executor.h"
#include "core/driver/version.h"
#include "core/sema/sema.h"
#include "core/sim/simulator.h"
#include "core/driver/host_io.h"

namespace tirx::verify {

using nlohmann::json;

namespace {

constexpr char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64(const void* data, size_t n) {
  const auto* p = static_cast<const uint8_t*>(data);
  std::string out;
  out.reserve((n + 2) / 3 * 4);
  for (size_t i = 0; i < n; i += 3) {
    const uint32_t v = uint32_t(p[i]) << 16 | (i + 1 < n ? uint32_t(p[i + 1]) << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
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
    const uint32_t x = uint32_t(v[0]) << 18 | uint32_t(v[1]) << 12 | uint32_t(v[2]) << 6 | uint32_t(v[3]);
    out.push_back(uint8_t(x >> 16));
    if (pad < 2) out.push_back(uint8_t(x >> 8));
    if (pad < 1) out.push_back(uint8_t(x));
  }
  return true;
}

json spanJson(const SourceSpan& s) { return {s.line, s.col, s.length, s.offset}; }

json diagJson(const Diagnostic& d) {
  json notes = json::array();
  for (const auto& n : d.notes) notes.push_back({{"span", spanJson(n.span)}, {"message", n.message}});
  return {{"severity", std::string(severityName(d.severity))}, {"code", d.code}, {"span", spanJson(d.span)},
          {"message", d.message}, {"notes", notes}};
}

json tensorJson(const ir::HostTensor& t) {
  json j = {{"dtype", std::string(ir::dtypeName(t.dtype))}, {"shape", t.shape},
            {"data", base64(t.data.data(), t.data.size())}};
  if (!t.defined.empty()) j["defined"] = base64(t.defined.data(), t.defined.size());
  return j;
}

json doublesJson(const std::vector<double>& v) { return base64(v.data(), v.size() * sizeof(double)); }

/// Typed member reads; the first problem is kept in `why` with the member's path.
class Reader {
 public:
  std::string why;
  bool ok() const { return why.empty(); }
  const json* get(const json& o, const std::string& path, const char* key, bool required = true) {
    if (!ok()) return nullptr;
    if (!o.is_object()) return fail(path + " must be an object");
    auto it = o.find(key);
    if (it == o.end()) return required ? fail(path + " has no '" + key + "'") : nullptr;
    return &*it;
  }
  void str(const json& o, const std::string& path, const char* key, std::string& out, bool required = true) {
    const json* v = get(o, path, key, required);
    if (!v) return;
    if (!v->is_string()) return void(fail(path + "." + key + " must be a string"));
    out = v->get<std::string>();
  }
  void boolean(const json& o, const std::string& path, const char* key, bool& out) {
    const json* v = get(o, path, key);
    if (!v) return;
    if (!v->is_boolean()) return void(fail(path + "." + key + " must be true or false"));
    out = v->get<bool>();
  }
  void number(const json& o, const std::string& path, const char* key, double& out, bool required = true) {
    const json* v = get(o, path, key, required);
    if (!v) return;
    if (!v->is_number()) return void(fail(path + "." + key + " must be a number"));
    out = v->get<double>();
  }
  void integer(const json& o, const std::string& path, const char* key, int64_t& out, int64_t lo, int64_t hi) {
    const json* v = get(o, path, key);
    if (!v) return;
    if (!v->is_number_integer() || v->get<int64_t>() < lo || v->get<int64_t>() > hi)
      return void(fail(path + "." + key + " must be an integer in [" + std::to_string(lo) + ", " +
                       std::to_string(hi) + "]"));
    out = v->get<int64_t>();
  }
  const json* array(const json& o, const std::string& path, const char* key, bool required = true) {
    const json* v = get(o, path, key, required);
    if (v && !v->is_array()) return fail(path + "." + key + " must be an array");
    return v;
  }
  void bytes(const json& o, const std::string& path, const char* key, std::vector<uint8_t>& out, size_t expect) {
    std::string s;
    str(o, path, key, s);
    if (!ok()) return;
    if (!unbase64(s, out)) return void(fail(path + "." + key + " is not base64"));
    if (expect != SIZE_MAX && out.size() != expect)
      fail(path + "." + key + " holds " + std::to_string(out.size()) + " bytes, expected " + std::to_string(expect));
  }
  SourceSpan span(const json& o, const std::string& path, const char* key) {
    const json* v = get(o, path, key);
    SourceSpan s;
    if (!v) return s;
    if (!v->is_array() || v->size() != 4) return fail(path + "." + key + " must be [line, col, length, offset]"), s;
    int vals[4];
    for (size_t i = 0; i < 4; ++i) {
      if (!(*v)[i].is_number_integer() || (*v)[i].get<int64_t>() < 0 || (*v)[i].get<int64_t>() > (int64_t(1) << 30))
        return fail(path + "." + key + " must be [line, col, length, offset]"), s;
      vals[i] = int((*v)[i].get<int64_t>());
    }
    return {vals[0], vals[1], vals[2], vals[3]};
  }
  Diagnostic diag(const json& o, const std::string& path) {
    Diagnostic d;
    std::string sev;
    str(o, path, "severity", sev);
    d.severity = sev == "warning" ? Severity::Warning : sev == "note" ? Severity::Note : Severity::Error;
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
      if (!e.is_number_integer() || e.get<int64_t>() < 0 || e.get<int64_t>() > (int64_t(1) << 32) || shape->size() > 16)
        return fail(path + ".shape must be a list of at most 16 sizes"), t;
      t.shape.push_back(e.get<int64_t>());
      numel *= e.get<int64_t>();
      if (numel > int64_t(kMaxBundleBytes)) return fail(path + ".shape is larger than a bundle can hold"), t;
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
    if (raw.size() % sizeof(double)) return fail(path + "." + key + " is not a list of float64"), v;
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

class RecordingExecutor : public ir::Executor {
 public:
  RecordingExecutor(std::unique_ptr<ir::Executor> inner, std::vector<BundleLaunch>* launches)
      : m_inner(std::move(inner)), m_launches(launches) {}
  std::string name() const override { return m_inner->name(); }
  Result<ir::RunOutcome> run(const ir::Program& program, const std::string& kernel,
                             std::vector<ir::KernelArg>& args) override {
    m_inner->setBudget(budget());
    const std::vector<ir::KernelArg> before = args;
    auto r = m_inner->run(program, kernel, args);
    if (!r) return r;
    const ir::Kernel* k = program.findKernel(kernel);
    BundleLaunch l;
    l.kernel = kernel;
    l.device = r->device.empty() ? m_inner->name() : r->device;
    l.ran = r->ran;
    l.compileMs = r->compileMs;
    l.runMs = r->runMs;
    l.faults = r->faults;
    const std::vector<bool> written = k ? driver::writtenParams(*k) : std::vector<bool>();
    for (size_t i = 0; i < args.size(); ++i) {
      BundleArg a;
      a.name = k && i < k->params.size() ? k->params[i].name : "arg" + std::to_string(i);
      a.input = before[i];
      a.hasOutput = args[i].isTensor && r->ran && i < written.size() && written[i];
      if (a.hasOutput) a.output = args[i].tensor;
      l.args.push_back(std::move(a));
    }
    m_launches->push_back(std::move(l));
    return r;
  }

 private:
  std::unique_ptr<ir::Executor> m_inner;
  std::vector<BundleLaunch>* m_launches;
};

}  // namespace

namespace {

std::string utcNow() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

void fillProducts(std::string_view text, const std::string& file, int sm, BundleProducts& p) {
  driver::CompileOptions co;
  co.sm = sm;
  auto c = driver::compileScript(text, file, co);
  if (!c) {
    p.error = c.error().text();
    return;
  }
  p.cuda = c->cuda;
  p.ptx = c->ptx;
  p.sass = c->sass;
  p.sassStatus = c->sassStatus;
  if (!c->ok) p.error = "the script did not compile:\n" + formatGcc(c->diagnostics, file);
  for (const auto& r : c->resources)
    p.resources.push_back(r.kernel + ": " + std::to_string(r.registers) + " registers, " +
                          std::to_string(r.sharedBytes) + " bytes shared, " + std::to_string(r.stackBytes) +
                          " bytes stack, " + std::to_string(r.spillStores) + " spill stores, " +
                          std::to_string(r.spillLoads) + " spill loads");
}

}  // namespace

Bundle makeBundle(std::string_view source, const BundleOptions& o, Report* reportOut) {
  Bundle b;
  const int sm = parseArch(o.arch);
  VerifyOptions vo;
  vo.fileName = o.fileName;
  vo.arch = o.arch;
  vo.budget = o.budget;
  vo.cancel = o.cancel;
  // The recording executor takes verify's GPU slot whatever the device is, so that verify runs
  // each kernel once, on that device (the simulator included).
  vo.device = "cuda";
  vo.cudaFactory = [&](const std::string&, std::string*) {
    std::unique_ptr<ir::Executor> inner = o.makeExecutor ? o.makeExecutor() : std::make_unique<sim::Simulator>();
    return recordingExecutor(std::move(inner), &b.launches);
  };
  Report r = verifyScript(source, vo);
  b.tirxVersion = kTirxVersion;
  b.created = utcNow();
  b.scriptFile = std::filesystem::path(o.fileName).filename().string();
  b.script = std::string(source);
  b.arch = o.arch;
  b.requestedDevice = o.requestedDevice;
  b.deviceName = b.launches.empty() ? o.requestedDevice : b.launches.front().device;
  b.toolkit = toolchain::toolkitVersion();
  b.driver = o.driverVersion;
  b.passed = r.passed();
  b.totalMs = r.totalMs;
  b.checks = r.checks;
  b.errors = r.errors;
  b.faults = r.faults;
  if (!r.environmentError) fillProducts(source, o.fileName, sm > 0 ? sm : 90, b.products);
  if (reportOut) *reportOut = std::move(r);
  return b;
}

std::unique_ptr<ir::Executor> recordingExecutor(std::unique_ptr<ir::Executor> inner,
                                                std::vector<BundleLaunch>* launches) {
  return std::make_unique<RecordingExecutor>(std::move(inner), launches);
}

std::string bundleToJson(const Bundle& b) {
  json checks = json::array(), errors = json::array(), faults = json::array(), launches = json::array();
  for (const auto& c : b.checks)
    checks.push_back({{"name", c.name}, {"kind", c.kind}, {"kernel", c.kernel}, {"device", c.device},
                      {"pass", c.pass}, {"message", c.message}, {"span", spanJson(c.span)}, {"rtol", c.rtol},
                      {"atol", c.atol}, {"maxAbs", std::isfinite(c.maxAbs) ? c.maxAbs : -1.0},
                      {"mismatches", c.mismatches}, {"total", c.total}, {"shape", c.shape},
                      {"output", doublesJson(c.output)}, {"reference", doublesJson(c.reference)}});
  for (const auto& d : b.errors) errors.push_back(diagJson(d));
  auto faultsJson = [](const std::vector<ir::Fault>& fs) {
    json a = json::array();
    for (const auto& f : fs) a.push_back({{"kind", f.kind}, {"diagnostic", diagJson(f.diag)}});
    return a;
  };
  faults = faultsJson(b.faults);
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
        j["bits"] = std::to_string(a.input.scalarBits);  // a string: JSON numbers lose 64-bit values
      }
      args.push_back(j);
    }
    launches.push_back({{"kernel", l.kernel}, {"device", l.device}, {"ran", l.ran}, {"compileMs", l.compileMs},
                        {"runMs", l.runMs}, {"faults", faultsJson(l.faults)}, {"args", args}});
  }
  const json doc = {
      {"format", "tirx-bundle"},
      {"version", b.version},
      {"tirx", b.tirxVersion},
      {"created", b.created},
      {"script", {{"file", b.scriptFile}, {"text", b.script}}},
      {"arch", b.arch},
      {"device", {{"requested", b.requestedDevice}, {"name", b.deviceName}}},
      {"toolkit", b.toolkit},
      {"driver", b.driver},
      {"verify", {{"passed", b.passed}, {"totalMs", b.totalMs}, {"checks", checks}, {"errors", errors}, {"faults", faults}}},
      {"launches", launches},
      {"products",
       {{"cuda", b.products.cuda}, {"ptx", b.products.ptx}, {"sass", b.products.sass},
        {"sassStatus", b.products.sassStatus}, {"resources", b.products.resources}, {"error", b.products.error}}}};
  return doc.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

Result<Bundle> parseBundle(std::string_view text) {
  auto bad = [](const std::string& why) { return Status{"bundle", why, 0}; };
  if (text.empty()) return bad("the file is empty");
  if (text.size() > kMaxBundleBytes) return bad("the file is larger than the 1 GiB a bundle may have");
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
  b.version = int(version);
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
      if (const json* d = r.get((*fs)[i], fp, "diagnostic")) f.diag = r.diag(*d, fp + ".diagnostic");
      out.push_back(std::move(f));
    }
  };
  if (const json* v = r.get(j, "bundle", "verify")) {
    r.boolean(*v, "verify", "passed", b.passed);
    r.number(*v, "verify", "totalMs", b.totalMs);
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
      r.number(c, cp, "maxAbs", k.maxAbs);
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
    r.number(lj, lp, "compileMs", l.compileMs);
    r.number(lj, lp, "runMs", l.runMs);
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
        if (const json* in = r.get(aj, ap, "input")) arg.input.tensor = r.tensor(*in, ap + ".input");
        if (r.ok() && aj.contains("output")) {
          arg.hasOutput = true;
          arg.output = r.tensor(aj["output"], ap + ".output");
          if (r.ok() && (arg.output.shape != arg.input.tensor.shape || arg.output.dtype != arg.input.tensor.dtype))
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
  if (const json* p = r.get(j, "bundle", "products")) {
    r.str(*p, "products", "cuda", b.products.cuda);
    r.str(*p, "products", "ptx", b.products.ptx);
    r.str(*p, "products", "sass", b.products.sass);
    r.str(*p, "products", "sassStatus", b.products.sassStatus);
    r.str(*p, "products", "error", b.products.error);
    if (const json* rs = r.array(*p, "products", "resources"))
      for (const auto& e : *rs) b.products.resources.push_back(e.is_string() ? e.get<std::string>() : "");
  }
  if (!r.ok()) return bad("malformed bundle: " + r.why);
  return b;
}

void bundleTolerance(const Bundle& b, const std::string& kernel, double& rtol, double& atol) {
  rtol = 1e-5;
  atol = 1e-6;
  for (const auto& c : b.checks)
    if (c.kernel == kernel && (c.rtol > 0 || c.atol > 0) && c.kind != "assert" && c.kind != "run") {
      rtol = c.rtol;
      atol = c.atol;
      return;
    }
}

ReplayOutput compareOutput(const std::string& param, const ir::HostTensor& recorded,
                           const ir::HostTensor& replayed, double rtol, double atol) {
  ReplayOutput o;
  o.param = param;
  if (recorded.shape != replayed.shape || recorded.dtype != replayed.dtype) {
    o.detail = "the replay's output has another dtype or shape";
    return o;
  }
  o.total = recorded.numel();
  for (int64_t i = 0; i < o.total; ++i) {
    const bool dr = recorded.isDefined(i), dp = replayed.isDefined(i);
    if (!dr && !dp) continue;
    std::string why;
    if (dr != dp) {
      why = dr ? "defined in the recording only" : "defined in the replay only";
    } else {
      const double a = driver::tensorValue(replayed, i), e = driver::tensorValue(recorded, i);
      if (std::isnan(a) && std::isnan(e)) continue;
      const double d = std::fabs(a - e);
      if (std::isfinite(d)) o.maxAbs = std::max(o.maxAbs, d);
      if (d <= atol + rtol * std::fabs(e)) continue;
      char buf[96];
      std::snprintf(buf, sizeof buf, "got %.9g, recorded %.9g", a, e);
      why = buf;
    }
    if (o.differ++ == 0) o.detail = "first at element " + std::to_string(i) + ": " + why;
  }
  o.match = o.differ == 0;
  return o;
}

std::vector<LaunchReplay> replayBundle(const Bundle& b, const ir::Program& program, ir::Executor& exec) {
  std::vector<LaunchReplay> out;
  for (const BundleLaunch& l : b.launches) {
    LaunchReplay r;
    r.kernel = l.kernel;
    r.recordedRan = l.ran;
    bundleTolerance(b, l.kernel, r.rtol, r.atol);
    const ir::Kernel* k = program.findKernel(l.kernel);
    if (!k || (k->params.size() != l.args.size() && ir::writtenParamCount(*k) != l.args.size())) {
      r.error = k ? "kernel '" + l.kernel + "' takes " + std::to_string(k->params.size()) + " arguments, the bundle has " +
                        std::to_string(l.args.size())
                  : "the bundle's script has no kernel '" + l.kernel + "'";
      out.push_back(std::move(r));
      continue;
    }
    std::vector<ir::KernelArg> args;
    for (const auto& a : l.args) args.push_back(a.input);
    auto res = exec.run(program, l.kernel, args);
    if (!res) {
      r.error = res.error().text();
      out.push_back(std::move(r));
      break;  // the device is unavailable: the other launches would fail the same way
    }
    r.ran = res->ran;
    r.device = res->device.empty() ? exec.name() : res->device;
    r.faults = res->faults;
    r.match = r.ran == l.ran;
    if (r.ran && l.ran)
      for (size_t i = 0; i < l.args.size(); ++i) {
        if (!l.args[i].hasOutput) continue;
        r.outputs.push_back(compareOutput(l.args[i].name, l.args[i].output, args[i].tensor, r.rtol, r.atol));
        r.match = r.match && r.outputs.back().match;
      }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace tirx::verify
