// Loading the two versions and running the sections of the diff in order: script, layouts (front
// end of both), code and resources (compile of both, without the compile cache so that the
// timings are real), results and timings (verify of each file version on the requested device; a
// bundle's recorded report).
#include "core/diff/version_diff.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "core/diff/diff_internal.h"
#include "core/driver/compile.h"
#include "core/driver/runner_protocol.h"
#include "core/sema/sema.h"

namespace tirx::diff {

namespace {

constexpr size_t kMaxScriptBytes = 16u << 20;  // as `tirx check` and the other commands

std::string baseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool cancelled(const DiffOptions& o) {
  return o.cancel && o.cancel->cancelled();
}

/// One side through the front end and the compiler.
struct Compiled {
  FrontEndResult front;
  std::optional<driver::CompileProducts> products;
};

Compiled compileSide(const Version& v, const DiffOptions& o, SideInfo& side) {
  Compiled c;
  SemaOptions so;
  so.sm = parseArch(o.arch) ? parseArch(o.arch) : 90;
  c.front = checkScript(v.script, v.scriptFile, so);
  side.checked = c.front.ok();
  for (const Diagnostic& d : c.front.diagnostics)
    if (d.severity == Severity::Error) side.errors.push_back(d);
  if (!side.checked || cancelled(o)) return c;
  driver::CompileOptions co;
  co.sm = so.sm;
  co.useCache = false;
  auto r = driver::compileProgram(c.front.program, v.scriptFile, co, v.script);
  if (!r) {
    side.compileStatus = r.error().text();
    return c;
  }
  for (const Diagnostic& d : r->diagnostics)
    if (d.severity == Severity::Error) side.errors.push_back(d);
  side.compiled = !r->cuda.empty() && !r->ptx.empty();
  c.products = std::move(*r);
  return c;
}

detail::MappedText mapped(const std::string& text, std::vector<int> scriptLine) {
  detail::MappedText m;
  m.lines = splitLines(text);
  m.scriptLine = std::move(scriptLine);
  return m;
}

void diffAllCode(const Version& va, const Version& vb, const Compiled& a, const Compiled& b,
                 const std::vector<std::pair<int, int>>& pairs, const DiffOptions& o,
                 DiffReport& r) {
  r.cuda.language = "cuda";
  r.ptx.language = "ptx";
  r.sass.language = "sass";
  if (!a.products || !b.products || !r.a.compiled || !r.b.compiled) {
    const std::string why =
        "version " + std::string(!r.a.compiled ? "A" : "B") + " did not compile";
    r.cuda.note = r.ptx.note = r.sass.note = why;
    return;
  }
  const driver::CompileProducts &pa = *a.products, &pb = *b.products;
  r.cuda = detail::diffCode("cuda", mapped(pa.cuda, pa.map.cudaToScript),
                            mapped(pb.cuda, pb.map.cudaToScript), pairs, o.maxCodeLines);
  r.ptx = detail::diffCode("ptx", mapped(pa.ptx, pa.map.ptxToScript),
                           mapped(pb.ptx, pb.map.ptxToScript), pairs, o.maxCodeLines);
  // A bundle's SASS is the recorded one (what ran on its device); a file's comes from this machine.
  auto sassOf = [](const Version& v, const driver::CompileProducts& p) -> const std::string& {
    return v.bundle && !v.bundle->products.sass.empty() ? v.bundle->products.sass : p.sass;
  };
  const std::string &sa = sassOf(va, pa), &sb = sassOf(vb, pb);
  if (sa.empty() || sb.empty()) {
    r.sass.note = "SASS not compared: " + (sa.empty() ? pa.sassStatus : pb.sassStatus);
    return;
  }
  r.sass =
      detail::diffCode("sass", mapped(sa, sassLineToScriptLine(sa, va.scriptFile)),
                       mapped(sb, sassLineToScriptLine(sb, vb.scriptFile)), pairs, o.maxCodeLines);
}

void diffResources(const Compiled& a, const Compiled& b, DiffReport& r) {
  if (!a.products || !b.products) return;
  for (const auto& ra : a.products->resources) {
    ResourceDelta d;
    d.kernel = ra.kernel;
    d.inA = true;
    d.a = ra;
    for (const auto& rb : b.products->resources)
      if (rb.kernel == ra.kernel) d.inB = true, d.b = rb;
    r.resources.push_back(d);
  }
  for (const auto& rb : b.products->resources) {
    const bool seen = std::any_of(r.resources.begin(), r.resources.end(),
                                  [&](const ResourceDelta& d) { return d.kernel == rb.kernel; });
    if (!seen) r.resources.push_back({rb.kernel, false, true, {}, rb});
  }
}

std::string firstProblemOf(const std::vector<verify::Check>& checks,
                           const std::vector<ir::Fault>& faults, const Diagnostics& errors) {
  for (const verify::Check& c : checks)
    if (!c.pass) return c.name + ": " + c.message;
  if (!faults.empty()) return faults[0].diag.code + " " + faults[0].diag.message;
  if (!errors.empty()) return errors[0].code + " " + errors[0].message;
  return {};
}

void fillResult(const std::vector<verify::Check>& checks, const std::vector<ir::Fault>& faults,
                const Diagnostics& errors, bool passed, ResultSide& s) {
  s.ran = true;
  s.passed = passed;
  s.checks = int(checks.size());
  for (const verify::Check& c : checks) {
    s.failed += c.pass ? 0 : 1;
    s.maxAbs = std::max(s.maxAbs, c.maxAbs);
    s.maxRel = std::max(s.maxRel, c.maxRel);
  }
  s.faults = int(faults.size());
  s.errors = int(errors.size());
  s.firstProblem = firstProblemOf(checks, faults, errors);
}

/// What one side's verify leaves for the later sections: its checks (paired with the other's) and
/// its simulator shared-memory counts (none for a bundle, a GPU run or no run: `sharedWhy`).
struct SideRun {
  std::vector<verify::Check> checks;
  std::optional<detail::SharedCounts> shared;
  std::string sharedWhy;
};

/// The device a GPU verify ran on, as its runs name it ("NVIDIA H200 (cuda:0)"), else as asked.
std::string ranOn(const verify::Report& rep, const std::string& asked) {
  for (const verify::KernelRun& run : rep.runs)
    if (run.device != "simulator" && !run.device.empty()) return run.device;
  return asked;
}

/// Results and timings of one side.
SideRun resultSide(const Version& v, const DiffOptions& o, const Compiled& c, ResultSide& res,
                   TimingSide& t) {
  SideRun out;
  if (c.products) t.compileMs = c.products->timings.totalMs;
  if (v.bundle) {
    const verify::Bundle& b = *v.bundle;
    fillResult(b.checks, b.faults, b.errors, b.passed, res);
    res.source = "recorded on " + b.deviceName;
    t.device = b.deviceName + " (recorded)";
    t.verifyMs = b.totalMs;
    for (const auto& l : b.launches) t.runMs += l.runMs;
    out.checks = b.checks;
    out.sharedWhy = "a bundle records no shared-memory counts";
    return out;
  }
  if (!o.verify) {
    res.source = "not verified";
    out.sharedWhy = "not verified";
    return out;
  }
  verify::VerifyOptions vo;
  const bool gpu = o.device.usesRunner();
  vo.device = o.device;
  vo.arch = o.arch;
  vo.fileName = v.scriptFile;
  vo.budget = o.budget;
  vo.cancel = o.cancel;
  vo.analysed = &c.front;  // compileSide's analysis: the front end runs once per side
  const verify::Report rep = verify::verifyScript(v.script, vo);
  if (rep.environmentError) {
    res.unavailable = true;
    res.source = "not verified: device " + o.device.text() + " unavailable";
    res.firstProblem = firstProblemOf(rep.checks, rep.faults, rep.errors);
    t.device = o.device.text() + " (unavailable)";
    out.sharedWhy = "device " + o.device.text() + " unavailable";
    return out;
  }
  fillResult(rep.checks, rep.faults, rep.errors, rep.passed(), res);
  t.device = gpu ? ranOn(rep, o.device.text()) : "sim";
  res.source = "verified on " + t.device;
  t.verifyMs = rep.totalMs;
  for (const auto& run : rep.runs) t.runMs += run.runMs;
  out.checks = rep.checks;
  if (gpu)
    out.sharedWhy = "ran on " + t.device + ", not the simulator";
  else
    out.shared = detail::sharedCountsOf(rep, c.front.program);
  return out;
}

void pairChecks(const std::vector<verify::Check>& a, const std::vector<verify::Check>& b,
                DiffReport& r) {
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    CheckDelta d;
    if (i < a.size()) {
      d.inA = true;
      d.nameA = a[i].name;
      d.passA = a[i].pass;
      d.maxAbsA = a[i].maxAbs;
      d.maxRelA = a[i].maxRel;
      d.mismatchesA = a[i].mismatches;
    }
    if (i < b.size()) {
      d.inB = true;
      d.nameB = b[i].name;
      d.passB = b[i].pass;
      d.maxAbsB = b[i].maxAbs;
      d.maxRelB = b[i].maxRel;
      d.mismatchesB = b[i].mismatches;
    }
    r.checks.push_back(std::move(d));
  }
}

SideInfo sideInfo(const Version& v) {
  SideInfo s;
  s.path = v.path;
  s.label = v.label;
  s.kind = v.bundle ? "bundle" : v.path.empty() ? "buffer" : "file";
  if (v.bundle) s.recordedOn = v.bundle->deviceName;
  return s;
}

}  // namespace

std::string CellOwner::text() const {
  if (thread < 0) return "-";
  std::string t =
      "w" + std::to_string(warp()) + " l" + std::to_string(lane()) + " r" + std::to_string(slot);
  return replicas > 0 ? t + " +" + std::to_string(replicas) : t;
}

std::string SharedPlace::text() const {
  if (byte < 0) return "-";
  return "byte " + std::to_string(byte) + " bank " + std::to_string(bank());
}

bool SharedAccessDelta::changed() const {
  return inA != inB || a.wavefronts != b.wavefronts || a.idealWavefronts != b.idealWavefronts ||
         a.maxWays != b.maxWays || a.instructions != b.instructions;
}

bool SharedLayoutDiff::changed() const {
  if (status != LayoutDiff::Status::Compared || moved > 0 || dtypeA != dtypeB) return true;
  return std::any_of(accesses.begin(), accesses.end(),
                     [](const SharedAccessDelta& d) { return d.changed(); });
}

bool ResourceDelta::changed() const {
  return inA != inB || a.registers != b.registers || a.spillStores != b.spillStores ||
         a.spillLoads != b.spillLoads || a.sharedBytes != b.sharedBytes ||
         a.stackBytes != b.stackBytes || a.barriers != b.barriers ||
         a.constantBytes != b.constantBytes;
}

bool DiffReport::identical() const {
  if (countEdits(scriptEdits).deleted + countEdits(scriptEdits).inserted > 0) return false;
  for (const LayoutDiff& l : layouts)
    if (l.status != LayoutDiff::Status::Compared || l.moved > 0) return false;
  for (const SharedLayoutDiff& l : shared)
    if (l.changed()) return false;
  for (const CodeDiff* c : {&cuda, &ptx, &sass})
    if (c->added + c->removed > 0) return false;
  for (const ResourceDelta& d : resources)
    if (d.changed()) return false;
  for (const CheckDelta& c : checks)
    if (c.inA != c.inB || c.passA != c.passB || c.maxAbsA != c.maxAbsB) return false;
  return resultA.passed == resultB.passed && resultA.faults == resultB.faults &&
         resultA.errors == resultB.errors && a.errors.size() == b.errors.size();
}

Result<Version> loadVersion(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return Status{"open", "'" + path + "' is a directory"};
  std::string text;
  if (!driver::readWholeFile(path, text, verify::kMaxBundleBytes))
    return Status{"open", "cannot read '" + path + "' (missing, unreadable, or over 1 GiB)"};
  Version v;
  v.path = path;
  const bool bundle = (path.size() > 6 && path.compare(path.size() - 6, 6, ".tirxb") == 0) ||
                      (!text.empty() && text.find_first_not_of(" \t\r\n") != std::string::npos &&
                       text[text.find_first_not_of(" \t\r\n")] == '{');
  if (bundle) {
    Result<verify::Bundle> b = verify::parseBundle(text);
    if (!b) return Status{"bundle", "'" + path + "': " + b.error().message};
    v.script = b->script;
    v.scriptFile = b->scriptFile.empty() ? baseName(path) + ".py" : b->scriptFile;
    v.label = baseName(path) + " (bundle, " + b->deviceName + ")";
    v.bundle = std::move(*b);
    return v;
  }
  if (text.size() > kMaxScriptBytes)
    return Status{"open", "'" + path + "' is larger than the 16 MiB limit of a script"};
  v.script = std::move(text);
  v.scriptFile = path;
  v.label = baseName(path);
  return v;
}

Version versionFromText(std::string script, std::string scriptFile, std::string label) {
  Version v;
  v.script = std::move(script);
  v.scriptFile = std::move(scriptFile);
  v.label = std::move(label);
  return v;
}

DiffReport diffVersions(const Version& a, const Version& b, const DiffOptions& o) {
  DiffReport r;
  r.a = sideInfo(a);
  r.b = sideInfo(b);
  r.scriptA = splitLines(a.script);
  r.scriptB = splitLines(b.script);
  r.scriptEdits = diffLines(r.scriptA, r.scriptB);
  const Compiled ca = compileSide(a, o, r.a), cb = compileSide(b, o, r.b);
  if (r.a.checked && r.b.checked) {
    r.layouts = detail::diffLayouts(ca.front.program, cb.front.program, o.maxCells);
    r.shared = detail::diffSharedLayouts(ca.front.program, cb.front.program, o.maxCells);
  }
  const auto pairs = detail::scriptLinePairs(r.scriptEdits, r.scriptA, r.scriptB);
  diffAllCode(a, b, ca, cb, pairs, o, r);
  diffResources(ca, cb, r);
  if (cancelled(o)) {
    r.cancelled = true;
    return r;
  }
  const SideRun runA = resultSide(a, o, ca, r.resultA, r.timingA);
  const SideRun runB =
      cancelled(o) ? SideRun{{}, {}, "cancelled"} : resultSide(b, o, cb, r.resultB, r.timingB);
  pairChecks(runA.checks, runB.checks, r);
  const std::string whyNot =
      "bank counts not compared: " + (!runA.shared ? "A " + runA.sharedWhy : std::string()) +
      (!runA.shared && !runB.shared ? "; " : "") +
      (!runB.shared ? "B " + runB.sharedWhy : std::string());
  detail::attachSharedAccesses(r.shared, runA.shared ? &*runA.shared : nullptr,
                               runB.shared ? &*runB.shared : nullptr, pairs, whyNot);
  r.cancelled = cancelled(o);
  return r;
}

}  // namespace tirx::diff
