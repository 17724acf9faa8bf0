// The parent side of the runner protocol (docs/runner.md): compile (cached), write the request
// and argument files to a temporary directory, fork/exec `tirx runner`, enforce the timeout, read
// the response and turn CUDA errors, crashes and hangs into Faults naming the kernel.
#include "core/driver/cuda_executor.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "core/device/cuda_driver.h"
#include "core/driver/compile.h"

namespace tirx::driver {

using nlohmann::json;

namespace {

void collectReads(const ir::ExprPtr& e, std::set<int>& reads) {
  if (!e) return;
  if (e->kind == ir::ExprKind::Load && e->tensor) {
    reads.insert(e->tensor->buffer);
    for (const auto& lo : e->tensor->lo) collectReads(lo, reads);
  }
  for (const auto& a : e->args) collectReads(a, reads);
}

void collectAccess(const std::vector<ir::Stmt>& body, std::set<int>& reads, std::set<int>& writes) {
  for (const auto& s : body) {
    collectReads(s.value, reads);
    collectReads(s.start, reads);
    collectReads(s.stop, reads);
    collectReads(s.step, reads);
    for (const auto& i : s.indices) collectReads(i, reads);
    if (s.kind == ir::StmtKind::Store && s.tensor) writes.insert(s.tensor->buffer);
    if (s.kind == ir::StmtKind::Apply && s.apply) {
      const auto& a = *s.apply;
      collectReads(a.pred, reads);
      for (size_t i = 0; i < a.operands.size(); ++i) {
        const auto& op = a.operands[i];
        if (op.isScalar) {
          collectReads(op.scalar, reads);
          continue;
        }
        for (const auto& lo : op.tensor.lo) collectReads(lo, reads);
        if (op.tensor.scope == ir::MemScope::Local) continue;
        if (a.instr.family == PtxFamily::St && i == 0) writes.insert(op.tensor.buffer);
        else reads.insert(op.tensor.buffer);
      }
    }
    collectAccess(s.body, reads, writes);
    collectAccess(s.orelse, reads, writes);
  }
}

bool writeFile(const std::string& path, const void* data, size_t n) {
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char*>(data), std::streamsize(n));
  return bool(out);
}

bool readFile(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

std::string selfExe() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

/// The spawned child and its fate.
struct ChildResult {
  bool started = false;
  bool timedOut = false;
  int exitCode = -1;
  int signal = 0;
  double wallMs = 0;
};

ChildResult spawnAndWait(const std::string& exe, const std::vector<std::string>& argv,
                         const std::string& logPath, int timeoutMs) {
  ChildResult r;
  std::vector<char*> cargs;
  for (const auto& a : argv) cargs.push_back(const_cast<char*>(a.c_str()));
  cargs.push_back(nullptr);
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) return r;
  if (pid == 0) {
    const int fd = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      ::close(fd);
    }
    const int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, 0);
    ::execv(exe.c_str(), cargs.data());
    ::_exit(127);
  }
  r.started = true;
  int status = 0;
  for (;;) {
    const pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (w < 0 || ms > timeoutMs) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      r.timedOut = w >= 0;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(ms < 50 ? 1 : 5));
  }
  r.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (!r.timedOut) {
    if (WIFEXITED(status)) r.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  }
  return r;
}

}  // namespace

std::vector<bool> writeOnlyParams(const ir::Kernel& kernel) {
  std::set<int> reads, writes;
  collectAccess(kernel.body, reads, writes);
  std::vector<bool> out(kernel.params.size(), false);
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const auto& p = kernel.params[i];
    out[i] = p.isTensor && writes.count(p.buffer) && !reads.count(p.buffer);
  }
  return out;
}

std::vector<bool> writtenParams(const ir::Kernel& kernel) {
  std::set<int> reads, writes;
  collectAccess(kernel.body, reads, writes);
  std::vector<bool> out(kernel.params.size(), false);
  for (size_t i = 0; i < kernel.params.size(); ++i)
    out[i] = kernel.params[i].isTensor && writes.count(kernel.params[i].buffer);
  return out;
}

std::string findRunner() {
  if (const char* env = std::getenv("TIRX_RUNNER"); env && *env && ::access(env, X_OK) == 0)
    return env;
  const std::string self = selfExe();
  if (self.empty()) return {};
  const std::filesystem::path dir = std::filesystem::path(self).parent_path();
  for (const auto& cand : {dir / "tirx", dir / ".." / "bin" / "tirx", dir / ".." / ".." / "bin" / "tirx"})
    if (::access(cand.c_str(), X_OK) == 0) return std::filesystem::weakly_canonical(cand).string();
  return {};
}

CudaExecutor::CudaExecutor(CudaExecutorOptions options) : m_options(std::move(options)) {}

std::string CudaExecutor::name() const { return "cuda:" + std::to_string(m_options.device); }

Result<ir::RunOutcome> CudaExecutor::run(const ir::Program& program, const std::string& kernel,
                                         std::vector<ir::KernelArg>& args) {
  m_timings = {};
  const ir::Kernel* k = program.findKernel(kernel);
  if (!k) return Status{"run", "no kernel named '" + kernel + "'", 0};
  if (args.size() != k->params.size())
    return Status{"run", "kernel '" + kernel + "' takes " + std::to_string(k->params.size()) +
                             " arguments, " + std::to_string(args.size()) + " given", 0};
  if (!device::driverLibraryPresent())
    return Status{"dlopen", "no CUDA driver (libcuda.so.1 not found)", 0};
  const std::string runner = m_options.runnerPath.empty() ? findRunner() : m_options.runnerPath;
  if (runner.empty() || ::access(runner.c_str(), X_OK) != 0)
    return Status{"runner", "cannot find the tirx binary to run kernels in (set TIRX_RUNNER)", 0};

  ir::RunOutcome out;
  CompileOptions co;
  co.sm = m_options.sm > 0 ? m_options.sm : program.targetSm;
  co.kernel = kernel;
  co.sass = false;
  auto compiled = compileProgram(program, m_options.scriptFile, co);
  if (!compiled) return compiled.error();
  out.compileMs = compiled->timings.totalMs;
  if (!compiled->ok) {
    std::string msg;
    for (const auto& d : compiled->diagnostics) msg += formatGcc(d, m_options.scriptFile);
    return Status{"compile", "kernel '" + kernel + "' did not compile:\n" + msg, 0};
  }

  char tmpl[] = "/tmp/tirx_run_XXXXXX";
  if (!::mkdtemp(tmpl)) return Status{"mkdtemp", "cannot create a temporary directory", errno};
  const std::string dir = tmpl;
  struct Cleanup {
    std::string dir;
    bool keep;
    ~Cleanup() {
      if (!keep) {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
      }
    }
  } cleanup{dir, m_options.keepTemp};

  const std::vector<bool> poison = writeOnlyParams(*k);
  std::set<int> reads, writes;
  collectAccess(k->body, reads, writes);
  json req = {{"version", 1}, {"kernel", kernel}, {"device", m_options.device},
              {"cubin", "kernel.cubin"}, {"ptx", "kernel.ptx"},
              {"grid", {k->launch.grid[0], k->launch.grid[1], k->launch.grid[2]}},
              {"block", {k->launch.block[0], k->launch.block[1], k->launch.block[2]}},
              {"dynamicSmem", k->launch.dynamicSmemBytes},
              {"warmup", m_options.warmup}, {"repeats", m_options.repeats > 1 ? m_options.repeats : 0}};
  if (!writeFile(dir + "/kernel.cubin", compiled->cubin.data(), compiled->cubin.size()) ||
      !writeFile(dir + "/kernel.ptx", compiled->ptx.data(), compiled->ptx.size()))
    return Status{"write", "cannot write the kernel image to " + dir, 0};
  json jargs = json::array();
  for (size_t i = 0; i < args.size(); ++i) {
    const ir::KernelArg& a = args[i];
    if (a.isTensor) {
      const std::string file = "arg" + std::to_string(i) + ".bin";
      const bool pz = poison[i];
      if (!pz && !writeFile(dir + "/" + file, a.tensor.data.data(), a.tensor.data.size()))
        return Status{"write", "cannot write argument " + std::to_string(i), 0};
      const int buf = k->params[i].buffer;
      jargs.push_back({{"kind", "tensor"}, {"file", file}, {"dtype", std::string(ir::dtypeName(a.tensor.dtype))},
                       {"shape", a.tensor.shape}, {"bytes", a.tensor.data.size()}, {"poison", pz},
                       {"download", writes.count(buf) > 0}});
    } else {
      jargs.push_back({{"kind", "scalar"}, {"dtype", std::string(ir::dtypeName(a.scalarType))},
                       {"bits", a.scalarBits}});
    }
  }
  req["args"] = jargs;
  {
    std::ofstream f(dir + "/request.json");
    f << req.dump(2) << "\n";
  }
  const ChildResult child =
      spawnAndWait(runner, {runner, "runner", dir + "/request.json", dir + "/response.json"},
                   dir + "/runner.log", m_options.timeoutMs);
  readFile(dir + "/runner.log", out.log);
  if (!child.started) return Status{"fork", "cannot start the runner process", errno};
  auto faultAt = [&](const std::string& kind, const std::string& message) {
    ir::Fault f;
    f.kind = kind;
    f.diag = makeError(kind == "timeout" ? "E0951" : kind == "crash" ? "E0952" : "E0950", k->span, message);
    out.faults.push_back(std::move(f));
    out.ran = false;
    return out;
  };
  const std::string where = "on cuda:" + std::to_string(m_options.device);
  if (child.timedOut)
    return faultAt("timeout", "kernel '" + kernel + "' did not finish within " +
                                  std::to_string(m_options.timeoutMs / 1000.0).substr(0, 5) + " s " +
                                  where + "; the runner was killed");
  std::string text;
  json resp;
  if (readFile(dir + "/response.json", text)) resp = json::parse(text, nullptr, false);
  if (resp.is_discarded() || !resp.is_object()) {
    std::string why = child.signal ? "was killed by signal " + std::to_string(child.signal)
                                   : "exited with status " + std::to_string(child.exitCode);
    return faultAt("crash", "the runner for kernel '" + kernel + "' " + why + " without a response" +
                                (out.log.empty() ? "" : ": " + out.log.substr(0, 300)));
  }
  out.device = resp.value("device", std::string("cuda")) + " (cuda:" + std::to_string(m_options.device) + ")";
  if (resp.value("environment", false)) {
    const json& e = resp["error"];
    return Status{e.value("api", std::string("cuda")), e.value("message", std::string("no CUDA device")),
                  e.value("code", 0)};
  }
  if (!resp.value("ok", false)) {
    const json e = resp.value("error", json::object());
    const std::string kind = resp.value("fault", e.value("kind", std::string("cuda-error")));
    return faultAt(kind, "kernel '" + kernel + "' failed " + where + " at " +
                             e.value("stage", std::string("run")) + ": " + e.value("api", std::string()) +
                             ": " + e.value("message", std::string()));
  }
  for (const auto& o : resp.value("outputs", json::array())) {
    const size_t i = o.value("index", size_t(0));
    std::string data;
    if (i >= args.size() || !readFile(dir + "/" + o.value("file", std::string()), data) ||
        data.size() != args[i].tensor.data.size())
      return Status{"read", "the runner's output " + std::to_string(i) + " is missing or of the wrong size", 0};
    std::memcpy(args[i].tensor.data.data(), data.data(), data.size());
  }
  out.ran = true;
  out.runMs = resp.value("firstLaunchMs", 0.0);
  for (const auto& t : resp.value("launchesMs", json::array())) m_timings.launchesMs.push_back(t.get<double>());
  m_timings.medianMs = resp.value("medianMs", 0.0);
  m_timings.minMs = resp.value("minMs", 0.0);
  if (!m_timings.launchesMs.empty()) out.runMs = m_timings.medianMs;
  return out;
}

}  // namespace tirx::driver
