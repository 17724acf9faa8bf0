// NVRTC → PTX → nvJitLink → cubin, with RAII handles, a resource-log parser, the compile cache
// and message mapping. SASS disassembly lives in disassemble.cpp.
#include "core/toolchain/toolchain.h"

#include <nvJitLink.h>
#include <nvrtc.h>

#include <chrono>
#include <cstring>
#include <list>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>
#include <unordered_map>

#include "core/ptx/ptx_loc.h"

#ifndef TIRX_CUDA_HOME
#define TIRX_CUDA_HOME "/usr/local/cuda"
#endif

namespace tirx::toolchain {

void disassemble(CompileProducts& p);
std::string cudaHome();

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// Owns an nvrtcProgram.
class NvrtcProgram {
 public:
  NvrtcProgram() = default;
  NvrtcProgram(const NvrtcProgram&) = delete;
  NvrtcProgram& operator=(const NvrtcProgram&) = delete;
  ~NvrtcProgram() {
    if (m_prog) nvrtcDestroyProgram(&m_prog);
  }
  nvrtcProgram* out() { return &m_prog; }
  nvrtcProgram get() const { return m_prog; }

 private:
  nvrtcProgram m_prog = nullptr;
};

/// Owns an nvJitLinkHandle.
class JitLink {
 public:
  JitLink() = default;
  JitLink(const JitLink&) = delete;
  JitLink& operator=(const JitLink&) = delete;
  ~JitLink() {
    if (m_h) nvJitLinkDestroy(&m_h);
  }
  nvJitLinkHandle* out() { return &m_h; }
  nvJitLinkHandle get() const { return m_h; }

 private:
  nvJitLinkHandle m_h = nullptr;
};

std::string nvrtcLogOf(nvrtcProgram p) {
  size_t n = 0;
  if (nvrtcGetProgramLogSize(p, &n) != NVRTC_SUCCESS || n <= 1) return {};
  std::string log(n, '\0');
  nvrtcGetProgramLog(p, log.data());
  log.resize(n - 1);
  return log;
}

std::string linkErrorLog(nvJitLinkHandle h) {
  size_t n = 0;
  if (nvJitLinkGetErrorLogSize(h, &n) != NVJITLINK_SUCCESS || n <= 1) return {};
  std::string log(n, '\0');
  nvJitLinkGetErrorLog(h, log.data());
  log.resize(std::strlen(log.c_str()));
  return log;
}

std::string linkInfoLog(nvJitLinkHandle h) {
  size_t n = 0;
  if (nvJitLinkGetInfoLogSize(h, &n) != NVJITLINK_SUCCESS || n <= 1) return {};
  std::string log(n, '\0');
  nvJitLinkGetInfoLog(h, log.data());
  log.resize(std::strlen(log.c_str()));
  return log;
}

/// The bounded in-memory cache: most recently used at the front.
struct Cache {
  std::mutex mutex;
  std::list<std::pair<std::string, CompileProducts>> entries;
  std::unordered_map<std::string, std::list<std::pair<std::string, CompileProducts>>::iterator>
      index;
  static constexpr size_t kMax = 64;
};
Cache& cache() {
  static Cache c;
  return c;
}

std::string cacheKey(const std::string& source, const CompileOptions& o) {
  std::ostringstream k;
  k << toolkitVersion() << '\x1f' << o.sm << (o.archSpecific ? "a" : "") << '\x1f' << o.lineInfo
    << o.cubin << o.sass << o.fp16Header << '\x1f' << o.programName;
  for (const auto& e : o.extraOptions) k << '\x1f' << e;
  k << '\x1e' << source;
  return k.str();
}

/// A failed cubin step whose log named no error still fails loudly: one ptxas error with `text`.
void addSilentFailure(CompileProducts& p, std::string text) {
  for (const auto& m : p.messages)
    if (m.error) return;
  ToolMessage m;
  m.tool = "ptxas";
  m.text = std::move(text);
  p.messages.push_back(std::move(m));
}

/// Compile without the cache.
Result<CompileProducts> compileUncached(const std::string& source, const CompileOptions& o) {
  CompileProducts p;
  auto t0 = Clock::now();
  NvrtcProgram prog;
  nvrtcResult r =
      nvrtcCreateProgram(prog.out(), source.c_str(), o.programName.c_str(), 0, nullptr, nullptr);
  if (r != NVRTC_SUCCESS) return Status{"nvrtcCreateProgram", nvrtcGetErrorString(r), int(r)};
  const std::string suffix = o.archSpecific ? "a" : "";
  std::vector<std::string> opts = {"--gpu-architecture=compute_" + std::to_string(o.sm) + suffix,
                                   "-default-device", "-std=c++17"};
  if (o.lineInfo) opts.push_back("-lineinfo");
  if (o.fp16Header) opts.push_back("-I" + cudaHome() + "/include");
  for (const auto& e : o.extraOptions) opts.push_back(e);
  std::vector<const char*> argv;
  for (const auto& s : opts) argv.push_back(s.c_str());
  r = nvrtcCompileProgram(prog.get(), int(argv.size()), argv.data());
  p.nvrtcLog = nvrtcLogOf(prog.get());
  p.nvrtcMs = msSince(t0);
  if (r != NVRTC_SUCCESS) {
    if (r != NVRTC_ERROR_COMPILATION)
      return Status{"nvrtcCompileProgram", nvrtcGetErrorString(r) + std::string("\n") + p.nvrtcLog,
                    int(r)};
    p.messages = parseToolLog(p.nvrtcLog, "nvrtc", {}, {});
    return p;
  }
  size_t n = 0;
  nvrtcGetPTXSize(prog.get(), &n);
  p.ptx.assign(n, '\0');
  nvrtcGetPTX(prog.get(), p.ptx.data());
  if (!p.ptx.empty() && p.ptx.back() == '\0') p.ptx.pop_back();
  for (auto& m : parseToolLog(p.nvrtcLog, "nvrtc", {}, {})) p.messages.push_back(m);

  if (o.cubin && o.archSpecific) {
    // sm_90a programs (wgmma, setmaxnreg): nvJitLink compiles its inputs as relocatable code, in
    // which ptxas ignores setmaxnreg ("C7504 ... ignored to maintain compatibility across
    // compilation units"). A second NVRTC pass for the real target builds the cubin as one whole
    // program instead (decision TC-2); its ptxas log (-v) is the link log.
    auto t1 = Clock::now();
    NvrtcProgram whole;
    r = nvrtcCreateProgram(whole.out(), source.c_str(), o.programName.c_str(), 0, nullptr, nullptr);
    if (r != NVRTC_SUCCESS) return Status{"nvrtcCreateProgram", nvrtcGetErrorString(r), int(r)};
    std::vector<std::string> wopts = opts;
    wopts[0] = "--gpu-architecture=sm_" + std::to_string(o.sm) + suffix;
    wopts.push_back("--ptxas-options=-v");
    // NVRTC 12.9+ caches cubins on disk and then runs no ptxas: no resource lines, no wgmma
    // notes. The log is where both come from, so the cache stays off (as for nvJitLink below).
    wopts.push_back("--no-cache");
    std::vector<const char*> wargv;
    for (const auto& s2 : wopts) wargv.push_back(s2.c_str());
    r = nvrtcCompileProgram(whole.get(), int(wargv.size()), wargv.data());
    // The log repeats the front end's messages (already taken from the PTX pass) before ptxas'.
    p.linkLog = nvrtcLogOf(whole.get());
    p.linkMs = msSince(t1);
    for (auto& m : parseToolLog(p.linkLog, "ptxas", p.ptx, {})) p.messages.push_back(m);
    if (r != NVRTC_SUCCESS) {
      addSilentFailure(p, "compiling the cubin failed (NVRTC error " + std::to_string(int(r)) +
                              "): " + p.linkLog);
      return p;
    }
    size_t cn = 0;
    nvrtcGetCUBINSize(whole.get(), &cn);
    p.cubin.resize(cn);
    nvrtcGetCUBIN(whole.get(), reinterpret_cast<char*>(p.cubin.data()));
    p.resources = parseResourceLog(p.linkLog);
    if (o.sass) disassemble(p);
  } else if (o.cubin) {
    auto t1 = Clock::now();
    JitLink link;
    const std::string arch = "-arch=sm_" + std::to_string(o.sm) + suffix;
    // -no-cache: a cached link skips ptxas and its -verbose lines (registers, spills, warnings).
    const char* lopts[] = {arch.c_str(), "-verbose", "-no-cache"};
    nvJitLinkResult lr = nvJitLinkCreate(link.out(), 3, lopts);
    if (lr != NVJITLINK_SUCCESS)
      return Status{"nvJitLinkCreate", "cannot create a linker", int(lr)};
    lr =
        nvJitLinkAddData(link.get(), NVJITLINK_INPUT_PTX, p.ptx.data(), p.ptx.size(), "kernel.ptx");
    if (lr == NVJITLINK_SUCCESS) lr = nvJitLinkComplete(link.get());
    p.linkLog = linkInfoLog(link.get());
    const std::string err = linkErrorLog(link.get());
    if (!err.empty()) p.linkLog += (p.linkLog.empty() ? "" : "\n") + err;
    p.linkMs = msSince(t1);
    // The #line file: every .file record naming a script; pass "" to accept the first one.
    for (auto& m : parseToolLog(p.linkLog, "ptxas", p.ptx, {})) p.messages.push_back(m);
    if (lr != NVJITLINK_SUCCESS) {
      addSilentFailure(p, "linking failed (nvJitLink error " + std::to_string(int(lr)) + ")");
      return p;
    }
    size_t cn = 0;
    nvJitLinkGetLinkedCubinSize(link.get(), &cn);
    p.cubin.resize(cn);
    nvJitLinkGetLinkedCubin(link.get(), p.cubin.data());
    p.resources = parseResourceLog(p.linkLog);
    if (o.sass) disassemble(p);
  }
  p.ok = true;
  return p;
}

int toInt(const std::string& s) {
  return s.empty() ? 0 : std::stoi(s);
}

}  // namespace

std::string toolkitVersion() {
  static const std::string v = [] {
    int a = 0, b = 0;
    nvrtcVersion(&a, &b);
    unsigned jmaj = 0, jmin = 0;
    nvJitLinkVersion(&jmaj, &jmin);
    return "NVRTC " + std::to_string(a) + "." + std::to_string(b) + ", nvJitLink " +
           std::to_string(jmaj) + "." + std::to_string(jmin);
  }();
  return v;
}

Result<CompileProducts> compile(const std::string& source, const CompileOptions& options) {
  const auto t0 = Clock::now();
  std::string key;
  if (options.useCache) {
    key = cacheKey(source, options);
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    auto it = c.index.find(key);
    if (it != c.index.end()) {
      c.entries.splice(c.entries.begin(), c.entries, it->second);
      CompileProducts p = it->second->second;
      p.cacheHit = true;
      p.totalMs = msSince(t0);
      return p;
    }
  }
  auto r = compileUncached(source, options);
  if (!r) return r;
  r->totalMs = msSince(t0);
  if (options.useCache && r->ok) {
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    if (!c.index.count(key)) {
      c.entries.emplace_front(key, *r);
      c.index[key] = c.entries.begin();
      while (c.entries.size() > Cache::kMax) {
        c.index.erase(c.entries.back().first);
        c.entries.pop_back();
      }
    }
  }
  return r;
}

void clearCompileCache() {
  Cache& c = cache();
  std::lock_guard lock(c.mutex);
  c.entries.clear();
  c.index.clear();
}

std::size_t compileCacheSize() {
  Cache& c = cache();
  std::lock_guard lock(c.mutex);
  return c.entries.size();
}

std::vector<KernelResources> parseResourceLog(const std::string& log) {
  std::vector<KernelResources> out;
  static const std::regex entry(R"(Compiling entry function '([^']+)')");
  static const std::regex props(R"(Function properties for (\S+))");
  static const std::regex frame(
      R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"([Uu]sed (\d+) registers)");
  static const std::regex barriers(R"(used (\d+) barriers)");
  static const std::regex smem(R"((\d+) bytes smem)");
  static const std::regex cmem(R"((\d+) bytes cmem\[0\])");
  KernelResources* cur = nullptr;
  auto find = [&](const std::string& name) -> KernelResources* {
    for (auto& k : out)
      if (k.kernel == name) return &k;
    out.push_back({});
    out.back().kernel = name;
    return &out.back();
  };
  std::istringstream in(log);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, entry)) {
      cur = find(m[1]);
    } else if (std::regex_search(line, m, props)) {
      std::string name = m[1];
      std::erase_if(name, [](char c) { return c == '\'' || c == ':'; });
      cur = find(name);
    } else if (cur && std::regex_search(line, m, frame)) {
      cur->stackBytes = toInt(m[1]);
      cur->spillStores = toInt(m[2]);
      cur->spillLoads = toInt(m[3]);
    }
    if (cur && std::regex_search(line, m, used)) {
      cur->registers = toInt(m[1]);
      if (std::regex_search(line, m, barriers)) cur->barriers = toInt(m[1]);
      if (std::regex_search(line, m, smem)) cur->sharedBytes = toInt(m[1]);
      if (std::regex_search(line, m, cmem)) cur->constantBytes = toInt(m[1]);
    }
  }
  return out;
}

std::vector<ToolMessage> parseToolLog(const std::string& log, const std::string& tool,
                                      const std::string& ptx, const std::string& scriptFile) {
  std::vector<ToolMessage> out;
  // NVRTC: `FILE(LINE): error: TEXT` (FILE is the #line name); ptxas: `ptxas application ptx
  // input, line N; error   : TEXT` or `ptxas error   : TEXT`.
  static const std::regex nvrtcRe(R"(^(.*)\((\d+)\): (error|warning)[^:]*: (.*)$)");
  static const std::regex ptxasRe(R"(^ptxas[^,]*(?:, line (\d+))?; (error|warning)\s*: (.*)$)");
  static const std::regex ptxasPlain(R"(^(?:ptxas|nvJitLink)[^:]*?(error|warning)\s*: (.*)$)");
  // ptxas' wgmma notes are info lines: `ptxas info    : (C7519) warpgroup.arrive is injected in
  // around line 1415 by compiler ... in function 'k'`, `(C7520) Potential Performance Loss:
  // wgmma.mma_async instructions are serialized due to ... in the function 'k'` (spec TC §8.3 item
  // 6).
  static const std::regex ptxasWgmma(R"(^ptxas info\s*: \((C75\d\d)\) (.*)$)");
  static const std::regex aroundLine(R"(around line (\d+))");
  static const std::regex inFunction(R"(function '([^']+)')");
  std::vector<int> lineMap;
  std::istringstream in(log);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    ToolMessage msg;
    msg.tool = tool;
    if (tool == "nvrtc" && std::regex_match(line, m, nvrtcRe)) {
      msg.file = m[1];
      msg.line = toInt(m[2]);
      msg.error = m[3] == "error";
      msg.text = m[4];
      msg.scriptLine = msg.line;
    } else if (tool == "ptxas" && std::regex_match(line, m, ptxasRe)) {
      msg.ptxLine = toInt(m[1]);
      msg.error = m[2] == "error";
      msg.text = m[3];
      msg.line = msg.ptxLine;
      msg.file = "ptx";
      if (msg.ptxLine > 0 && !ptx.empty()) {
        if (lineMap.empty()) lineMap = ptxScriptLines(ptx, scriptFile);
        // The .loc in force at that line, else the nearest record above it.
        for (int l = std::min<int>(msg.ptxLine, int(lineMap.size()) - 1); l > 0; --l)
          if (lineMap[l] > 0) {
            msg.scriptLine = lineMap[l];
            break;
          }
      }
    } else if (tool == "ptxas" && std::regex_match(line, m, ptxasWgmma) &&
               (line.find("wgmma") != std::string::npos ||
                line.find("warpgroup") != std::string::npos ||
                line.find("GMMA") != std::string::npos ||
                line.find("setmaxnreg") != std::string::npos)) {
      msg.error = false;
      msg.text = "(" + std::string(m[1]) + ") " + std::string(m[2]);
      std::smatch x;
      if (std::regex_search(msg.text, x, inFunction)) msg.function = x[1];
      if (std::regex_search(msg.text, x, aroundLine)) {
        msg.ptxLine = toInt(x[1]);
        msg.file = "ptx";
        msg.line = msg.ptxLine;
        if (msg.ptxLine > 0 && !ptx.empty()) {
          if (lineMap.empty()) lineMap = ptxScriptLines(ptx, scriptFile);
          for (int l = std::min<int>(msg.ptxLine, int(lineMap.size()) - 1); l > 0; --l)
            if (lineMap[l] > 0) {
              msg.scriptLine = lineMap[l];
              break;
            }
        }
      }
    } else if (tool == "ptxas" && line.find("info") == std::string::npos &&
               std::regex_match(line, m, ptxasPlain)) {
      msg.error = m[1] == "error";
      msg.text = m[2];
    } else {
      continue;
    }
    out.push_back(std::move(msg));
  }
  return out;
}

}  // namespace tirx::toolchain
