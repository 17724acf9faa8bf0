// The parent side of the runner protocol (docs/runner.md): compile (cached), write the request and
// the argument files to a temporary directory — the bytes the caller gave, a poison marker for
// undefined elements — start `tirx runner`, wait under the timeout and the job's budget, read the
// response defensively and turn CUDA errors, crashes, hangs, cancellations and malformed responses
// into Faults naming the kernel.
#include "core/driver/cuda_executor.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "core/device/cuda_driver.h"
#include "core/driver/child_process.h"
#include "core/driver/compile.h"
#include "core/driver/runner_protocol.h"
#include "core/ir/buffer_access.h"
#include "core/ir/shared_memory.h"
#include "core/ir/specialize.h"

namespace tirx::driver {

namespace {

std::string selfExe() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

/// The first bytes of the child's log, for a message (the log may be huge or binary).
std::string logExcerpt(const std::string& path) {
  std::string text;
  std::ifstream in(path, std::ios::binary);
  char buf[4096];
  in.read(buf, sizeof buf);
  text.assign(buf, size_t(in.gcount()));
  for (char& c : text)  // printable ASCII only: the log may be binary junk from a dying child
    if (c == '\n' || c == '\t')
      c = ' ';
    else if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126)
      c = '?';
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.size() > 300) text = text.substr(0, 300) + "…";
  return text;
}

std::string secondsText(double s) {
  std::string t = std::to_string(s);
  t.erase(t.find_last_not_of('0') + 1);
  if (!t.empty() && t.back() == '.') t.pop_back();
  return t;
}

/// Removes the request directory unless asked to keep it.
struct TempDir {
  std::string path;
  bool keep = false;
  ~TempDir() {
    if (!keep && !path.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  }
};

}  // namespace

std::string findRunner() {
  if (const char* env = std::getenv("TIRX_RUNNER"); env && *env && ::access(env, X_OK) == 0)
    return env;
  const std::string self = selfExe();
  if (self.empty()) return {};
  const std::filesystem::path dir = std::filesystem::path(self).parent_path();
  for (const auto& cand :
       {dir / "tirx", dir / ".." / "bin" / "tirx", dir / ".." / ".." / "bin" / "tirx"})
    if (::access(cand.c_str(), X_OK) == 0) return std::filesystem::weakly_canonical(cand).string();
  return {};
}

bool runnerOverridden() {
  const char* env = std::getenv("TIRX_RUNNER");
  return env && *env;
}

bool gpuPathAvailable(std::string* why) {
  if (runnerOverridden() || device::driverLibraryPresent()) return true;
  if (why) *why = "no CUDA driver found (libcuda.so.1)";
  return false;
}

CudaExecutor::CudaExecutor(CudaExecutorOptions options) : m_options(std::move(options)) {}

std::string CudaExecutor::name() const {
  return m_options.remote ? m_options.remote->text() : "cuda:" + std::to_string(m_options.device);
}

Result<ir::RunOutcome> CudaExecutor::run(const ir::Program& program, const std::string& kernel,
                                         std::vector<ir::KernelArg>& args) {
  m_sanitizer.reset();
  auto r = runOnce(program, kernel, args);
  if (!r || !m_sanitizer) return r;
  if (m_options.onSanitizerReport) m_options.onSanitizerReport(*m_sanitizer);
  const ir::Kernel* k = program.findKernel(kernel);
  addSanitizerFaults(*m_sanitizer, kernel, k ? k->span : SourceSpan{}, *r);
  return r;
}

void CudaExecutor::addSanitizerFaults(const SanitizerReport& rep, const std::string& kernel,
                                      SourceSpan at, ir::RunOutcome& out) const {
  const std::string tool = "compute-sanitizer " + std::string(sanitizerToolName(rep.tool));
  // A launch failure after findings is the sanitizer stopping the kernel, not a fault of its own.
  const bool found = rep.findings > 0 || rep.errors > 0;
  for (ir::Fault& f : out.faults)
    if (found && f.diag.code == "E0950") {
      f.kind = "sanitizer-stop";
      f.diag.message = "kernel '" + kernel + "' was stopped by " + tool + " on cuda:" +
                       std::to_string(m_options.device) +
                       " after the error it reported (the launch failed because of the sanitizer, " +
                       f.diag.message.substr(f.diag.message.find(" at ") == std::string::npos
                                                 ? 0
                                                 : f.diag.message.find(" at ") + 1) +
                       ")";
    }
  for (const Diagnostic& d : rep.diagnostics)
    out.faults.push_back({d.code == "E0955" || d.code == "W0955" ? "race" : "sanitizer", d});
  if (!out.ran) return;  // killed or faulted: a missing summary says nothing more
  if (!rep.summary)
    out.faults.push_back({"sanitizer", makeError("E0959", at, rep.summaryText() + " for kernel '" + kernel + "'")});
  else if (rep.findings == 0 && rep.errors > 0)
    out.faults.push_back(
        {"sanitizer", makeError("E0959", at,
                                rep.summaryText() + " that name no kernel location" +
                                    (rep.firstApiError.empty() ? "" : " (first: " + rep.firstApiError + ")"))});
}

Result<ir::RunOutcome> CudaExecutor::runOnce(const ir::Program& program, const std::string& kernel,
                                             std::vector<ir::KernelArg>& args) {
  m_timings = {};
  const ir::Kernel* k = program.findKernel(kernel);
  if (!k) return Status{"run", "no kernel named '" + kernel + "'", 0};
  if (ir::hasSymbolicExtents(*k)) {
    // The sizes are kernel parameters and the grid is computed here, on the host (specialize.h).
    return ir::runSymbolicCall(program, *k, args, name(), [&](const ir::Program& concrete, std::vector<ir::KernelArg>& a) {
      return runOnce(concrete, kernel, a);
    });
  }
  if (args.size() != k->params.size())
    return Status{"run",
                  "kernel '" + kernel + "' takes " + std::to_string(k->params.size()) +
                      " arguments, " + std::to_string(args.size()) + " given",
                  0};
  // The runner reports a missing driver itself; checking here saves a compile and a process.
  const bool explicitRunner = !m_options.runnerPath.empty() || runnerOverridden();
  const bool remote = m_options.remote.has_value(), remoteSim = remote && m_options.remote->sim;
  if (!remote && !explicitRunner && !device::driverLibraryPresent())
    return Status{"dlopen", "no CUDA driver (libcuda.so.1 not found)", 0};
  const std::string runner = m_options.runnerPath.empty() ? findRunner() : m_options.runnerPath;
  if (!remote && (runner.empty() || ::access(runner.c_str(), X_OK) != 0))
    return Status{"runner", "cannot find the tirx binary to run kernels in (set TIRX_RUNNER)", 0};
  if (remote && m_options.sanitize != SanitizerTool::None)
    return Status{"compute-sanitizer", "--sanitize is not available for ssh:// devices (run tirx on the host)", 0};
  if (remoteSim && m_options.scriptSource.empty())
    return Status{"run", "the remote simulator needs the script's text (CudaExecutorOptions::scriptSource)", 0};
  const SanitizerTool tool = m_options.sanitize;
  std::string sanitizer;
  if (tool != SanitizerTool::None) {
    sanitizer = m_options.sanitizerPath.empty() ? findComputeSanitizer() : m_options.sanitizerPath;
    if (sanitizer.empty() || ::access(sanitizer.c_str(), X_OK) != 0)
      return Status{"compute-sanitizer",
                    "compute-sanitizer not found (looked in PATH, $CUDA_HOME/bin and /usr/local/cuda/bin); "
                    "it comes with the CUDA toolkit, or run without --sanitize",
                    0};
  }

  ir::RunOutcome out;
  const std::string where = "on " + name();
  auto faultAt = [&](const std::string& kind, const std::string& code, const std::string& message) {
    ir::Fault f;
    f.kind = kind;
    f.diag = makeError(code, k->span, message);
    out.faults.push_back(std::move(f));
    out.ran = false;
    return out;
  };
  if (m_budget && !m_budget->poll())
    return faultAt(m_budget->stop() == BudgetStop::Time ? "timeout" : "cancelled",
                   m_budget->stop() == BudgetStop::Time ? "E0951" : "E0953",
                   "kernel '" + kernel + "' was not started " + where + ": " + m_budget->message());

  // Compile here, also for a remote GPU: the host needs only a driver and `tirx runner`, and the
  // generated code does not depend on the host's toolkit (docs/decisions.md). The remote
  // simulator needs no compile products at all.
  CompileOptions co;
  co.sm = m_options.sm > 0 ? m_options.sm : program.targetSm;
  co.kernel = kernel;
  co.sass = false;
  CompileProducts compiled;
  if (!remoteSim) {
    auto c = compileProgram(program, m_options.scriptFile, co);
    if (!c) return c.error();
    compiled = std::move(*c);
    out.compileMs = compiled.timings.totalMs;
    if (!compiled.ok) {
      std::string msg;
      for (const auto& d : compiled.diagnostics) msg += formatGcc(d, m_options.scriptFile);
      return Status{"compile", "kernel '" + kernel + "' did not compile:\n" + msg, 0};
    }
  }

  char tmpl[] = "/tmp/tirx_run_XXXXXX";
  if (!::mkdtemp(tmpl)) return Status{"mkdtemp", "cannot create a temporary directory", errno};
  const TempDir dir{tmpl, m_options.keepTemp};

  // Undefined elements carry the poison the simulator also sees; the request says where they are.
  for (auto& a : args)
    if (a.isTensor) a.tensor.poisonUndefined(ir::kPoisonByte);
  const ir::BufferAccess access = ir::bufferAccess(*k);
  RunnerRequest req;
  req.kernel = kernel;
  req.device = remote ? m_options.remote->device : m_options.device;
  if (remoteSim) {
    req.mode = "sim";
    req.script = m_options.scriptSource;
    req.scriptFile = std::filesystem::path(m_options.scriptFile).filename().string();
    req.sm = co.sm;
    req.cubin.clear();
    req.ptx.clear();
  }
  std::vector<std::string> sent{"request.json"};
  for (int d = 0; d < 3; ++d) {
    req.grid[size_t(d)] = k->launch.grid[size_t(d)];
    req.block[size_t(d)] = k->launch.block[size_t(d)];
  }
  req.dynamicSmem = ir::planSharedMemory(*k).launchDynamicBytes;
  req.warmup = m_options.warmup;
  req.repeats = m_options.repeats > 1 ? m_options.repeats : 0;
  if (!remoteSim) {
    if (!writeWholeFile(dir.path + "/kernel.cubin", compiled.cubin.data(), compiled.cubin.size()) ||
        !writeWholeFile(dir.path + "/kernel.ptx", compiled.ptx.data(), compiled.ptx.size()))
      return Status{"write", "cannot write the kernel image to " + dir.path, errno};
    sent.push_back("kernel.cubin");
    sent.push_back("kernel.ptx");
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const ir::KernelArg& a = args[i];
    RunnerArg ra;
    ra.isTensor = a.isTensor;
    if (!a.isTensor) {
      ra.bits = a.scalarBits;
      req.args.push_back(ra);
      continue;
    }
    const ir::HostTensor& t = a.tensor;
    ra.dtype = t.dtype;
    ra.shape = t.shape;
    ra.bytes = t.data.size();
    ra.download = access.isWritten(k->params[i].buffer);
    const int64_t undefined = t.undefinedCount();
    ra.undefined = undefined == 0           ? Undefined::None
                   : undefined == t.numel() ? Undefined::All
                                            : Undefined::Some;
    if (ra.undefined != Undefined::None && m_options.trackDefined) req.passes = 2;
    const std::string n = std::to_string(i);
    if (ra.undefined != Undefined::All) {
      ra.file = "arg" + n + ".bin";
      if (!writeWholeFile(dir.path + "/" + ra.file, t.data.data(), t.data.size()))
        return Status{"write", "cannot write argument " + n + " to " + dir.path, errno};
      sent.push_back(ra.file);
    }
    if (ra.undefined == Undefined::Some) {
      ra.maskFile = "mask" + n + ".bin";
      if (!writeWholeFile(dir.path + "/" + ra.maskFile, t.defined.data(), t.defined.size()))
        return Status{"write", "cannot write the mask of argument " + n + " to " + dir.path, errno};
      sent.push_back(ra.maskFile);
    }
    req.args.push_back(std::move(ra));
  }
  for (const ir::TensorMap& m : k->tensorMaps) {  // decision TC-T1
    RunnerTensorMap t;
    t.arg = size_t(m.param);
    t.name = k->params[size_t(m.param)].name;
    t.dtype = m.dtype;
    t.baseBytes = uint64_t(m.baseElems * ir::dtypeBytes(m.dtype));
    for (int64_t v : m.dims) t.dims.push_back(uint64_t(v));
    for (int64_t v : m.strideBytes) t.strides.push_back(uint64_t(v));
    for (int64_t v : m.box) t.box.push_back(uint32_t(v));
    t.swizzle = m.swizzle;
    t.oobNan = m.oobNan;
    req.tensorMaps.push_back(std::move(t));
  }
  const std::string reqText = requestToJson(req);
  if (!writeWholeFile(dir.path + "/request.json", reqText.data(), reqText.size()))
    return Status{"write", "cannot write the request to " + dir.path, errno};

  // A job with a time limit (--timeout) is bounded by it instead of the runner's own timeout.
  const bool jobLimit = m_budget && m_budget->limits().maxSeconds > 0;
  const int timeoutMs =
      tool == SanitizerTool::None ? m_options.timeoutMs : sanitizedTimeoutMs(tool, m_options.timeoutMs);
  std::vector<std::string> argv{runner, "runner", dir.path + "/request.json", dir.path + "/response.json"};
  if (tool != SanitizerTool::None)
    argv = sanitizerArgv(sanitizer, tool, dir.path + "/sanitizer.log", m_options.sanitizerPrintLimit, argv);
  const int limitMs = jobLimit ? std::numeric_limits<int>::max() : timeoutMs;
  ChildResult child;
  if (remote) {
    const RemoteRun rr = runRemote(*m_options.remote, dir.path, sent, limitMs, m_budget);
    if (!rr.status.message.empty()) return rr.status;
    if (rr.dropped)
      return faultAt("connection", "E0954",
                     "the connection to " + name() + " dropped while kernel '" + kernel + "' ran: " + rr.dropReason);
    child = rr.child;
  } else {
    child = runChild(argv[0], argv, dir.path + "/runner.log", limitMs, m_budget);
  }
  if (tool != SanitizerTool::None && child.started) {
    std::string log;
    readWholeFile(dir.path + "/sanitizer.log", log, kMaxProtocolText);  // absent: no report
    m_sanitizer = parseSanitizerReport(log, tool, m_options.scriptFile, m_options.scriptSource, k->span);
  }
  if (!child.started)
    return Status{
        "fork", "cannot start the runner process: " + std::string(std::strerror(child.startErrno)),
        child.startErrno};
  out.log = logExcerpt(dir.path + "/runner.log");
  if (child.stop == ChildStop::Timeout)
    return faultAt("timeout", "E0951",
                   "kernel '" + kernel + "' did not finish within " +
                       secondsText(timeoutMs / 1000.0) + " s " + where +
                       "; the runner was killed");
  if (child.stop == ChildStop::Budget)
    return faultAt(m_budget->stop() == BudgetStop::Time ? "timeout" : "cancelled",
                   m_budget->stop() == BudgetStop::Time ? "E0951" : "E0953",
                   "kernel '" + kernel + "' was stopped " + where + ": " + m_budget->message() +
                       "; the runner was killed");
  const std::string how = child.signal ? "was killed by " + signalName(child.signal)
                                       : "exited with status " + std::to_string(child.exitCode);
  const std::string logTail = out.log.empty() ? std::string() : " (runner output: " + out.log + ")";
  std::string text;
  if (!readWholeFile(dir.path + "/response.json", text, kMaxProtocolText))
    return faultAt(
        "crash", "E0952",
        "the runner for kernel '" + kernel + "' " + how + " without a response" + logTail);
  auto resp = parseResponse(text);
  if (!resp)
    return faultAt("crash", "E0952",
                   "the runner for kernel '" + kernel + "' " + how +
                       " and wrote a malformed response: " + resp.error().message + logTail);
  out.device = (resp->device.empty() ? std::string("cuda") : resp->device) + " (" + name() + ")";
  if (resp->environment) return Status{resp->error.api, resp->error.message, resp->error.code};
  if (!resp->ok) {
    const RunnerError& e = resp->error;
    const std::string kind = !resp->fault.empty() ? resp->fault
                             : !e.kind.empty()    ? e.kind
                                                  : "cuda-error";
    return faultAt(kind, "E0950",
                   "kernel '" + kernel + "' failed " + where + " at " +
                       (e.stage.empty() ? "run" : e.stage) + ": " +
                       (e.api.empty() ? "" : e.api + ": ") + e.message);
  }
  for (const RunnerFault& f : resp->faults) out.faults.push_back({f.kind, f.diag});
  if (!resp->ran) {  // the remote simulator stopped at a fatal fault
    out.ran = false;
    return out;
  }
  // Outputs: every tensor the kernel writes comes back, with its definedness after the run.
  std::vector<bool> seen(args.size(), false);
  for (const RunnerOutput& o : resp->outputs) {
    const std::string bad = "the runner for kernel '" + kernel + "' returned a bad output " +
                            std::to_string(o.index) + ": ";
    if (o.index >= args.size() || !args[o.index].isTensor || seen[o.index])
      return faultAt("crash", "E0952", bad + "no such tensor argument, or returned twice");
    seen[o.index] = true;
    ir::HostTensor& t = args[o.index].tensor;
    std::string data;
    if (!readWholeFile(dir.path + "/" + o.file, data, t.data.size()) ||
        data.size() != t.data.size())
      return faultAt(
          "crash", "E0952",
          bad + "'" + o.file + "' is missing or not " + std::to_string(t.data.size()) + " bytes");
    std::memcpy(t.data.data(), data.data(), data.size());
    if (req.passes < 2 && !remoteSim) continue;
    if (o.undefined == 0) {
      t.defined.clear();
      continue;
    }
    std::string mask;
    if (!readWholeFile(dir.path + "/" + o.maskFile, mask, size_t(t.numel())) ||
        mask.size() != size_t(t.numel()))
      return faultAt("crash", "E0952",
                     bad + "mask '" + o.maskFile + "' is missing or not " +
                         std::to_string(t.numel()) + " bytes");
    t.defined.assign(mask.begin(), mask.end());
    t.poisonUndefined(ir::kPoisonByte);
  }
  for (size_t i = 0; i < args.size(); ++i)
    if (req.args[i].isTensor && req.args[i].download && !seen[i])
      return faultAt(
          "crash", "E0952",
          "the runner for kernel '" + kernel + "' did not return output " + std::to_string(i));
  out.ran = true;
  out.runMs = resp->firstLaunchMs;
  m_timings.launchesMs = resp->launchesMs;
  m_timings.medianMs = resp->medianMs;
  m_timings.minMs = resp->minMs;
  if (!m_timings.launchesMs.empty()) out.runMs = m_timings.medianMs;
  return out;
}

}  // namespace tirx::driver
