// Running the scalar conformance kernels (see scalar_conform.h): check each generated script,
// optionally compile it and check its PTX, fill the inputs, run it on the simulator and on the
// device, compare every expression's value per thread, and record or replay the device's
// answers. A record keeps per expression a digest of the device's bits, and the bits themselves
// for the approximate expressions and any that differed (base64, little-endian).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "core/conform/conform_internal.h"
#include "core/conform/scalar_internal.h"
#include "core/driver/compile.h"
#include "core/sema/sema.h"
#include "core/sim/sim_numerics.h"
#include "core/sim/simulator.h"

namespace tirx::conform {

using ir::DType;
using nlohmann::json;

namespace {

constexpr const char* kFormat = "tirx-scalar-conform-record";

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

bool environmentFailure(const Status& s) {
  return s.api == "dlopen" || s.api == "dlsym" || s.api == "cuInit" || s.api == "runner" ||
         s.api.rfind("cuDevice", 0) == 0;
}

/// Per case of a kernel: the output bits of every thread.
using KernelBits = std::vector<std::vector<uint64_t>>;

struct Prepared {
  FrontEndResult fe;
  std::vector<ir::KernelArg> args;
  std::map<DType, size_t> outArg;
  std::vector<std::pair<DType, int>> slot;  ///< per case: dtype and output row
};

Prepared prepare(const ScalarKernel& k, const std::vector<ScalarCase>& cases, uint64_t seed,
                 int kernelIndex) {
  Prepared p;
  p.fe = checkScript(k.script, k.name + ".py");
  std::map<DType, int> rows;
  for (size_t ci : k.cases) p.slot.push_back({cases[ci].dtype, rows[cases[ci].dtype]++});
  for (const auto& d : scalar::dtypes()) {
    ir::KernelArg a;
    a.tensor.dtype = d.type;
    a.tensor.shape = {kScalarThreads, scalar::kVars};
    const int bytes = ir::dtypeBytes(d.type);
    const std::vector<uint64_t> in = scalar::inputs(seed, kernelIndex, d.type);
    a.tensor.data.resize(in.size() * static_cast<size_t>(bytes));
    for (size_t i = 0; i < in.size(); ++i)
      std::memcpy(&a.tensor.data[i * bytes], &in[i], static_cast<size_t>(bytes));
    p.args.push_back(std::move(a));
  }
  for (const auto& d : scalar::dtypes()) {
    if (!rows.count(d.type)) continue;
    ir::KernelArg a;
    a.tensor.dtype = d.type;
    a.tensor.shape = {rows[d.type], kScalarThreads};
    a.tensor.data.assign(
        static_cast<size_t>(rows[d.type]) * kScalarThreads * ir::dtypeBytes(d.type), 0);
    p.outArg[d.type] = p.args.size();
    p.args.push_back(std::move(a));
  }
  return p;
}

KernelBits readBits(const Prepared& p, const std::vector<ir::KernelArg>& args) {
  KernelBits out;
  for (const auto& [t, row] : p.slot) {
    const ir::HostTensor& o = args[p.outArg.at(t)].tensor;
    const int bytes = ir::dtypeBytes(t);
    std::vector<uint64_t> v(kScalarThreads, 0);
    for (int th = 0; th < kScalarThreads; ++th)
      std::memcpy(&v[static_cast<size_t>(th)],
                  &o.data[(static_cast<size_t>(row) * kScalarThreads + th) * bytes],
                  static_cast<size_t>(bytes));
    out.push_back(std::move(v));
  }
  return out;
}

/// Runs the prepared kernel on `exec`; an error text when it did not complete.
Result<KernelBits> runOn(ir::Executor& exec, const Prepared& p, const std::string& name,
                         std::string& failure) {
  std::vector<ir::KernelArg> args = p.args;
  auto ran = exec.run(p.fe.program, name, args);
  if (!ran) {
    if (environmentFailure(ran.error())) return ran.error();
    failure = ran.error().text();
    return KernelBits{};
  }
  if (!ran->ran || !ran->faults.empty()) {
    failure = ran->faults.empty() ? std::string("the kernel did not complete")
                                  : formatGcc(ran->faults.front().diag, name + ".py");
    return KernelBits{};
  }
  return readBits(p, args);
}

/// The names of the inputs an expression reads and their values for thread `th`.
std::vector<std::string> inputsOf(const std::string& text, uint64_t seed, int kernel, int th) {
  std::vector<std::string> out;
  for (const auto& d : scalar::dtypes())
    for (int v = 0; v < scalar::kVars; ++v) {
      const std::string name = std::string(d.shortName) + "_" + std::to_string(v);
      if (!std::regex_search(text, std::regex("\\b" + name + "\\b"))) continue;
      out.push_back(
          name + "=" +
          hex(scalar::inputs(seed, kernel, d.type)[static_cast<size_t>(th) * scalar::kVars + v]));
    }
  return out;
}

void compare(ScalarReport& r, const std::vector<ScalarCase>& cases, const ScalarKernel& k,
             int kernelIndex, uint64_t seed, const KernelBits& sim, const KernelBits& dev) {
  for (size_t i = 0; i < k.cases.size() && i < sim.size() && i < dev.size(); ++i) {
    const ScalarCase& c = cases[k.cases[i]];
    bool differs = false;
    for (int th = 0; th < kScalarThreads; ++th) {
      const uint64_t a = sim[i][static_cast<size_t>(th)], b = dev[i][static_cast<size_t>(th)];
      if (scalarAgree(c.dtype, a, b, c.ulps)) continue;
      if (!differs && r.examples.size() < 8)
        r.examples.push_back(
            {k.cases[i], c.text, c.dtype, th, inputsOf(c.text, seed, kernelIndex, th), a, b});
      differs = true;
    }
    r.disagreements += differs;
    r.evaluations += kScalarThreads;
  }
}

uint64_t digestOf(const std::vector<uint64_t>& v, int bits) {
  return ptxResultsDigest(v, bits);
}

std::string bitsBase64(const std::vector<uint64_t>& v, int bits) {
  std::vector<uint8_t> bytes;
  for (uint64_t x : v)
    for (int b = 0; b < bits / 8; ++b) bytes.push_back(static_cast<uint8_t>(x >> (8 * b)));
  return base64(bytes);
}

}  // namespace

bool scalarAgree(DType t, uint64_t a, uint64_t b, int ulps) {
  if (a == b) return true;
  if (!ir::isFloat(t)) return false;
  int bits = ir::dtypeBits(t), man = t == DType::Float16    ? 10
                                     : t == DType::BFloat16 ? 7
                                     : t == DType::Float32  ? 23
                                                            : 52;
  const uint64_t m = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  a &= m;
  b &= m;
  const uint64_t sign = uint64_t{1} << (bits - 1), expMask = (m >> 1) & ~((uint64_t{1} << man) - 1);
  auto isNaN = [&](uint64_t v) {
    return (v & expMask) == expMask && (v & ((uint64_t{1} << man) - 1));
  };
  if (isNaN(a) || isNaN(b)) return isNaN(a) && isNaN(b);  // NaN payloads are not compared
  if (ulps <= 0) return false;
  auto ordered = [&](uint64_t v) {
    const int64_t mag = static_cast<int64_t>(v & ~sign);
    return (v & sign) ? -mag : mag;
  };
  const int64_t d = ordered(a) - ordered(b);
  return (d < 0 ? -d : d) <= ulps;
}

std::vector<std::string> forbiddenScalarPtx(std::string_view ptx) {
  std::vector<std::string> out;
  std::istringstream in{std::string(ptx)};
  std::string line;
  int n = 0;
  static const std::regex bad(
      R"(^\s*(@!?%p\d+\s+)?((fma|mad)\.[a-z0-9.]*f(16|32|64)[a-z0-9.]*|[a-z0-9]+\.approx[a-z0-9.]*))");
  while (std::getline(in, line)) {
    ++n;
    std::smatch m;
    if (std::regex_search(line, m, bad))
      out.push_back(m[2].str() + " at PTX line " + std::to_string(n));
  }
  return out;
}

Result<ScalarReport> runScalarConformance(ir::Executor* device, const ScalarConformOptions& options,
                                          const ScalarProgress& progress) {
  const std::vector<ScalarCase> cases = scalarCases(options);
  const std::vector<ScalarKernel> kernels = scalarKernels(cases, options);
  ScalarReport r;
  r.expressions = static_cast<int>(cases.size());
  r.kernels = static_cast<int>(kernels.size());
  for (const ScalarCase& c : cases) (c.approx.empty() ? r.exactExpressions : r.approxExpressions)++;
  sim::SimOptions so;
  so.trackProvenance = false;
  so.detectRaces = false;
  sim::Simulator simulator(so);
  json recorded = json::array();
  for (size_t ki = 0; ki < kernels.size(); ++ki) {
    if (progress) progress(static_cast<int>(ki), static_cast<int>(kernels.size()));
    const ScalarKernel& k = kernels[ki];
    const Prepared p = prepare(k, cases, options.seed, static_cast<int>(ki));
    if (!p.fe.ok() || p.fe.program.kernels.empty()) {
      r.failures.push_back(k.name + ": the generated kernel does not check: " +
                           formatGcc(p.fe.diagnostics, k.name + ".py"));
      continue;
    }
    if (options.compile) {
      driver::CompileOptions co;
      co.sm = options.sm;
      co.sass = false;
      auto products = driver::compileProgram(p.fe.program, k.name + ".py", co, k.script);
      if (!products) return products.error();
      if (!products->ok) {
        r.failures.push_back(k.name + ": does not compile: " +
                             formatGcc(products->diagnostics, k.name + ".py") + products->toolLog);
        continue;
      }
      if (!k.approx)
        for (const std::string& bad : forbiddenScalarPtx(products->ptx))
          r.ptxProblems.push_back(k.name + ": " + bad);
    }
    std::string failure;
    auto simBits = runOn(simulator, p, k.name, failure);
    if (!simBits) return simBits.error();
    if (!failure.empty()) {
      r.failures.push_back(k.name + " on the simulator: " + failure);
      continue;
    }
    if (!device) {
      r.evaluations += static_cast<int64_t>(k.cases.size()) * kScalarThreads;
      continue;
    }
    auto devBits = runOn(*device, p, k.name, failure);
    if (!devBits) return devBits.error();
    if (!failure.empty()) {
      r.failures.push_back(k.name + " on " + device->name() + ": " + failure);
      continue;
    }
    if (r.device.empty()) r.device = device->name();
    const int before = r.disagreements;
    compare(r, cases, k, static_cast<int>(ki), options.seed, *simBits, *devBits);
    json jk = {{"kernel", k.name}};
    json outs = json::array();
    for (size_t i = 0; i < k.cases.size(); ++i) {
      const ScalarCase& c = cases[k.cases[i]];
      const int bits = ir::dtypeBits(c.dtype);
      json o = {{"d", hex(digestOf((*devBits)[i], bits))}};
      const bool same = (*simBits)[i] == (*devBits)[i];
      if (!c.approx.empty() || !same) o["bits"] = bitsBase64((*devBits)[i], bits);
      outs.push_back(o);
    }
    jk["cases"] = outs;
    recorded.push_back(jk);
    (void)before;
  }
  if (progress) progress(static_cast<int>(kernels.size()), static_cast<int>(kernels.size()));
  if (device && r.failures.empty()) {
    std::string out = json{
        {"format", kFormat},
        {"version", 1},
        {"generator", kScalarGenerator},
        {"seed", options.seed},
        {"expressions", options.expressions},
        {"perKernel", options.perKernel},
        {"device",
         r.device}}.dump();
    out.pop_back();
    out += ",\n\"kernels\": [";
    for (size_t i = 0; i < recorded.size(); ++i) out += (i ? ",\n" : "\n") + recorded[i].dump();
    r.recordJson = out + "\n]}\n";
  }
  return r;
}

Result<ScalarReport> replayScalarRecord(std::string_view text, const ScalarProgress& progress) {
  const json doc = json::parse(text, nullptr, false);
  auto bad = [](const std::string& why) { return Status{"record", why, 0}; };
  if (doc.is_discarded() || !doc.is_object()) return bad("not a JSON object");
  if (doc.value("format", std::string()) != kFormat)
    return bad(std::string("\"format\" is not \"") + kFormat + "\"");
  if (doc.value("generator", 0) != kScalarGenerator)
    return bad("recorded with generator " + std::to_string(doc.value("generator", 0)) +
               ", this build has " + std::to_string(kScalarGenerator) +
               ": record the device again");
  ScalarConformOptions o;
  o.seed = doc.value("seed", uint64_t{0});
  o.expressions = doc.value("expressions", 0);
  o.perKernel = doc.value("perKernel", 0);
  if (o.expressions <= 0 || o.expressions > 1000000 || o.perKernel <= 0)
    return bad("bad \"expressions\" or \"perKernel\"");
  const std::vector<ScalarCase> cases = scalarCases(o);
  const std::vector<ScalarKernel> kernels = scalarKernels(cases, o);
  const json& jk = doc.contains("kernels") ? doc["kernels"] : json();
  if (!jk.is_array() || jk.size() != kernels.size())
    return bad("\"kernels\" does not list the " + std::to_string(kernels.size()) +
               " kernels of this generator");
  ScalarReport r;
  r.device = doc.value("device", std::string()) + " (recorded)";
  r.expressions = static_cast<int>(cases.size());
  r.kernels = static_cast<int>(kernels.size());
  for (const ScalarCase& c : cases) (c.approx.empty() ? r.exactExpressions : r.approxExpressions)++;
  sim::SimOptions so;
  so.trackProvenance = false;
  so.detectRaces = false;
  sim::Simulator simulator(so);
  for (size_t ki = 0; ki < kernels.size(); ++ki) {
    if (progress) progress(static_cast<int>(ki), static_cast<int>(kernels.size()));
    const ScalarKernel& k = kernels[ki];
    const json& rk = jk[ki];
    if (!rk.is_object() || rk.value("kernel", std::string()) != k.name || !rk.contains("cases") ||
        !rk["cases"].is_array() || rk["cases"].size() != k.cases.size())
      return bad("kernel " + std::to_string(ki) + " does not match " + k.name);
    const Prepared p = prepare(k, cases, o.seed, static_cast<int>(ki));
    if (!p.fe.ok()) {
      r.failures.push_back(k.name + ": the generated kernel does not check");
      continue;
    }
    std::string failure;
    auto simBits = runOn(simulator, p, k.name, failure);
    if (!simBits) return simBits.error();
    if (!failure.empty()) {
      r.failures.push_back(k.name + " on the simulator: " + failure);
      continue;
    }
    KernelBits dev(k.cases.size());
    for (size_t i = 0; i < k.cases.size(); ++i) {
      const ScalarCase& c = cases[k.cases[i]];
      const int bits = ir::dtypeBits(c.dtype);
      const json& jc = rk["cases"][i];
      uint64_t digest = 0;
      const std::string d = jc.is_object() ? jc.value("d", std::string()) : std::string();
      if (d.size() < 3 ||
          std::sscanf(d.c_str(), "0x%llx", reinterpret_cast<unsigned long long*>(&digest)) != 1)
        return bad(k.name + ": a case without a digest");
      if (jc.contains("bits")) {
        std::vector<uint8_t> bytes;
        if (!jc["bits"].is_string() || !unbase64(jc["bits"].get<std::string>(), bytes) ||
            bytes.size() != static_cast<size_t>(kScalarThreads) * (bits / 8))
          return bad(k.name + ": \"bits\" is not " + std::to_string(kScalarThreads) + " results");
        for (int th = 0; th < kScalarThreads; ++th) {
          uint64_t v = 0;
          for (int b = 0; b < bits / 8; ++b)
            v |= uint64_t{bytes[static_cast<size_t>(th * (bits / 8) + b)]} << (8 * b);
          dev[i].push_back(v);
        }
      } else {
        // Only the digest: the device gave the simulator's bits of that day. If today's bits have
        // another digest the simulator changed since, and the device's bits are unknown.
        dev[i] = (*simBits)[i];
        if (digestOf((*simBits)[i], bits) != digest) {
          if (r.staleExamples.size() < 8) r.staleExamples.push_back(c);
          ++r.stale;
        }
      }
    }
    compare(r, cases, k, static_cast<int>(ki), o.seed, *simBits, dev);
  }
  if (progress) progress(static_cast<int>(kernels.size()), static_cast<int>(kernels.size()));
  return r;
}

}  // namespace tirx::conform
