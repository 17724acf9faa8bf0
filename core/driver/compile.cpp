// compileScript / compileProgram: the front end, codegen and toolchain stages in order, timed,
// with toolchain messages mapped to script lines.
#include "core/driver/compile.h"

#include <chrono>
#include <list>
#include <mutex>
#include <unordered_map>

#include "core/driver/register_estimate.h"
#include "core/ir/buffer_access.h"
#include "core/sema/sema.h"

namespace tirx::driver {

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// The span of line `line` of `source` (first to last non-blank character).
SourceSpan lineSpan(std::string_view source, int line) {
  SourceSpan s;
  s.line = line;
  s.col = 1;
  if (source.empty() || line <= 0) return s;
  size_t off = 0;
  for (int l = 1; l < line; ++l) {
    off = source.find('\n', off);
    if (off == std::string_view::npos) return s;
    ++off;
  }
  size_t endl = source.find('\n', off);
  if (endl == std::string_view::npos) endl = source.size();
  size_t first = off;
  while (first < endl && (source[first] == ' ' || source[first] == '\t')) ++first;
  size_t last = endl;
  while (last > first && (source[last - 1] == ' ' || source[last - 1] == '\r')) --last;
  s.col = int(first - off) + 1;
  s.offset = int(first);
  s.length = int(last - first);
  return s;
}

/// Whole-pipeline results of unchanged scripts, most recent first (a recompile of the same text
/// with the same options is a lookup; NVRTC's own cache covers edits that give the same CUDA).
struct ScriptCache {
  std::mutex mutex;
  std::list<std::pair<std::string, CompileProducts>> entries;
  std::unordered_map<std::string, std::list<std::pair<std::string, CompileProducts>>::iterator>
      index;
  static constexpr size_t kMax = 32;
};
ScriptCache& scriptCache() {
  static ScriptCache c;
  return c;
}

std::string scriptKey(std::string_view source, const std::string& fileName,
                      const CompileOptions& o) {
  return toolchain::toolkitVersion() + '\x1f' + fileName + '\x1f' + std::to_string(o.sm) + '\x1f' +
         o.kernel + '\x1f' + char('0' + o.cubin) + char('0' + o.sass) + '\x1e' +
         std::string(source);
}

}  // namespace

/// The script line of the first wgmma statement of a kernel body (0 when it has none).
static int firstWgmmaLine(const std::vector<ir::Stmt>& body) {
  int line = 0;
  ir::forEachStmt(body, [&](const ir::Stmt& s) {
    if (!line && s.kind == ir::StmtKind::Wgmma) line = s.span.line;
  });
  return line;
}

void placeWgmmaNotes(std::vector<toolchain::ToolMessage>& messages, const ir::Program& program) {
  for (auto& m : messages)
    if (m.tool == "ptxas" && m.scriptLine == 0 && !m.function.empty())
      if (const ir::Kernel* k = program.findKernel(m.function))
        m.scriptLine = firstWgmmaLine(k->body);
}

Diagnostics toolDiagnostics(const std::vector<toolchain::ToolMessage>& messages,
                            std::string_view source) {
  Diagnostics out;
  for (const auto& m : messages) {
    const SourceSpan span = m.scriptLine > 0 ? lineSpan(source, m.scriptLine) : SourceSpan{};
    std::string text = m.text;
    if (!text.empty() && text.back() == '.') text.pop_back();
    if (m.tool == "ptxas" && m.ptxLine > 0) text += " (PTX line " + std::to_string(m.ptxLine) + ")";
    Diagnostic d =
        m.error ? makeError(m.tool == "nvrtc" ? "E0910" : "E0911", span, m.tool + ": " + text)
                : makeWarning(m.tool == "nvrtc" ? "W0910" : "W0911", span, m.tool + ": " + text);
    out.push_back(std::move(d));
  }
  return out;
}

Result<CompileProducts> compileScriptUncached(std::string_view source, const std::string& fileName,
                                              const CompileOptions& options);

Result<CompileProducts> compileProgram(const ir::Program& program, const std::string& fileName,
                                       const CompileOptions& options, std::string_view source) {
  const auto t0 = Clock::now();
  CompileProducts p;
  p.program = program;
  p.fileName = fileName;
  codegen::CodegenOptions co;
  co.scriptFile = fileName;
  co.kernel = options.kernel;
  auto tc = Clock::now();
  codegen::CodegenResult cg = codegen::generateCuda(program, co);
  p.timings.codegenMs = msSince(tc);
  p.cuda = std::move(cg.cuda);
  p.map = std::move(cg.map);
  p.kernels = cg.kernels;
  for (auto& d : cg.diagnostics) p.diagnostics.push_back(d);
  if (hasErrors(p.diagnostics) || p.kernels.empty()) {
    if (p.kernels.empty() && !hasErrors(p.diagnostics))
      p.diagnostics.push_back(makeError("E0900", {}, "the script defines no kernel to compile"));
    p.timings.totalMs = msSince(t0);
    return p;
  }
  toolchain::CompileOptions to;
  to.sm = options.sm;
  to.cubin = options.cubin;
  to.sass = options.sass;
  to.fp16Header = cg.needsFp16Header;
  to.archSpecific = cg.needsSm90a;
  p.target = "sm_" + std::to_string(options.sm) + (cg.needsSm90a ? "a" : "");
  to.useCache = options.useCache;
  auto r = toolchain::compile(p.cuda, to);
  if (!r) return r.error();
  toolchain::CompileProducts& t = *r;
  p.registers = registerFacts(program, t, fileName);
  p.ptx = std::move(t.ptx);
  p.cubin = std::move(t.cubin);
  p.sass = std::move(t.sass);
  p.sassStatus = std::move(t.sassStatus);
  p.resources = std::move(t.resources);
  p.toolLog = t.nvrtcLog + (t.nvrtcLog.empty() || t.linkLog.empty() ? "" : "\n") + t.linkLog;
  p.timings.nvrtcMs = t.nvrtcMs;
  p.timings.linkMs = t.linkMs;
  p.timings.sassMs = t.sassMs;
  p.timings.cacheHit = t.cacheHit;
  // ptxas messages: map their PTX lines with the same .loc table as the source map.
  std::vector<toolchain::ToolMessage> msgs = t.messages;
  if (!p.ptx.empty()) {
    p.map.attachPtx(p.ptx, fileName);
    if (!p.sass.empty()) p.map.sassToScript = toolchain::sassLineMap(p.sass, fileName);
    for (auto& m : msgs)
      if (m.tool == "ptxas" && m.ptxLine > 0 && m.scriptLine == 0)
        for (int l = std::min<int>(m.ptxLine, int(p.map.ptxToScript.size()) - 1); l > 0; --l)
          if (p.map.ptxToScript[size_t(l)] > 0) {
            m.scriptLine = p.map.ptxToScript[size_t(l)];
            break;
          }
  }
  // A serialised wgmma pipeline never passes silently (spec TC §8.3 item 6).
  placeWgmmaNotes(msgs, program);
  for (auto& d : toolDiagnostics(msgs, source)) p.diagnostics.push_back(std::move(d));
  if (!t.ok && !hasErrors(p.diagnostics))
    p.diagnostics.push_back(makeError("E0912", {}, "the CUDA toolchain failed: " + p.toolLog));
  sortAndUnique(p.diagnostics);
  p.ok = t.ok && !hasErrors(p.diagnostics);
  p.timings.totalMs = msSince(t0);
  return p;
}

Result<CompileProducts> compileScript(std::string_view source, const std::string& fileName,
                                      const CompileOptions& options) {
  const auto t0 = Clock::now();
  std::string key;
  if (options.useCache) {
    key = scriptKey(source, fileName, options);
    ScriptCache& c = scriptCache();
    std::lock_guard lock(c.mutex);
    if (auto it = c.index.find(key); it != c.index.end()) {
      c.entries.splice(c.entries.begin(), c.entries, it->second);
      CompileProducts p = it->second->second;
      p.timings = {};
      p.timings.cacheHit = true;
      p.timings.totalMs = msSince(t0);
      return p;
    }
  }
  auto r = compileScriptUncached(source, fileName, options);
  if (r && r->ok && options.useCache) {
    ScriptCache& c = scriptCache();
    std::lock_guard lock(c.mutex);
    if (!c.index.count(key)) {
      c.entries.emplace_front(key, *r);
      c.index[key] = c.entries.begin();
      while (c.entries.size() > ScriptCache::kMax) {
        c.index.erase(c.entries.back().first);
        c.entries.pop_back();
      }
    }
  }
  return r;
}

Result<CompileProducts> compileScriptUncached(std::string_view source, const std::string& fileName,
                                              const CompileOptions& options) {
  const auto t0 = Clock::now();
  FrontEndResult own;
  if (!options.analysed) {
    SemaOptions so;
    so.sm = options.sm;
    own = checkScript(source, fileName, so);
  }
  const FrontEndResult& fe = options.analysed ? *options.analysed : own;
  const double feMs = msSince(t0);
  if (!fe.ok()) {
    CompileProducts p;
    p.program = fe.program;
    p.diagnostics = fe.diagnostics;
    p.fileName = fileName;
    p.timings.frontEndMs = feMs;
    p.timings.totalMs = feMs;
    return p;
  }
  auto r = compileProgram(fe.program, fileName, options, source);
  if (!r) return r;
  r->timings.frontEndMs = feMs;
  r->timings.totalMs += feMs;
  Diagnostics all = fe.diagnostics;  // warnings
  for (auto& d : r->diagnostics) all.push_back(std::move(d));
  sortAndUnique(all);
  r->diagnostics = std::move(all);
  return r;
}

}  // namespace tirx::driver
