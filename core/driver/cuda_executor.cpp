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
#include "core/driver/scratch_dir.h"
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
      f.diag.message =
          "kernel '" + kernel + "' was stopped by " + tool +
          " on cuda:" + std::to_string(m_options.device) +
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
    out.faults.push_back(
        {"sanitizer", makeError("E0959", at, rep.summaryText() + " for kernel '" + kernel + "'")});
  else if (rep.findings == 0 && rep.errors > 0)
    out.faults.push_back(
        {"sanitizer",
         makeError("E0959", at,
                   rep.summaryText() + " that name no kernel location" +
                       (rep.firstApiError.empty() ? "" : " (first: " + rep.firstApiError + ")"))});
}

namespace {

/// The programs a local or remote run needs: the runner binary and, under --sanitize,
/// compute-sanitizer.
struct RunTools {
  std::string runner, sanitizer;
};

/// Where the tools are, or why this executor cannot run a kernel at all (no driver, no runner, a
/// sanitizer that is not there or not possible over ssh, a remote simulator without the script).
Result<RunTools> findRunTools(const CudaExecutorOptions& o) {
  // The runner reports a missing driver itself; checking here saves a compile and a process.
  const bool explicitRunner = !o.runnerPath.empty() || runnerOverridden();
  const bool remote = o.remote.has_value(), remoteSim = remote && o.remote->sim;
  if (!remote && !explicitRunner && !device::driverLibraryPresent())
    return Status{"dlopen", "no CUDA driver (libcuda.so.1 not found)", 0};
  RunTools t;
  t.runner = o.runnerPath.empty() ? findRunner() : o.runnerPath;
  if (!remote && (t.runner.empty() || ::access(t.runner.c_str(), X_OK) != 0))
    return Status{"runner", "cannot find the tirx binary to run kernels in (set TIRX_RUNNER)", 0};
  if (remote && o.sanitize != SanitizerTool::None)
    return Status{"compute-sanitizer",
                  "--sanitize is not available for ssh:// devices (run tirx on the host)", 0};
  if (remoteSim && o.scriptSource.empty())
    return Status{
        "run", "the remote simulator needs the script's text (CudaExecutorOptions::scriptSource)",
        0};
  if (o.sanitize != SanitizerTool::None) {
    t.sanitizer = o.sanitizerPath.empty() ? findComputeSanitizer() : o.sanitizerPath;
    if (t.sanitizer.empty() || ::access(t.sanitizer.c_str(), X_OK) != 0)
      return Status{
          "compute-sanitizer",
          "compute-sanitizer not found (looked in PATH, $CUDA_HOME/bin and /usr/local/cuda/bin); "
          "it comes with the CUDA toolkit, or run without --sanitize",
          0};
  }
  return t;
}

/// The kernel compiled for the run. Compiled here, also for a remote GPU: the host needs only a
/// driver and `tirx runner`, and the generated code does not depend on the host's toolkit
/// (docs/decisions.md). A compile error is an environment failure of the run, with the messages.
Result<CompileProducts> compileForRun(const ir::Program& program, const std::string& kernel,
                                      const std::string& scriptFile, int sm) {
  CompileOptions co;
  co.sm = sm;
  co.kernel = kernel;
  co.sass = false;
  auto c = compileProgram(program, scriptFile, co);
  if (!c) return c.error();
  if (!c->ok) {
    std::string msg;
    for (const auto& d : c->diagnostics) msg += formatGcc(d, scriptFile);
    return Status{"compile", "kernel '" + kernel + "' did not compile:\n" + msg, 0};
  }
  return std::move(*c);
}

/// One tensor argument into the request: its bytes and definedness mask as files in `dir` (none
/// for an argument with no defined element), and whether it comes back (the kernel writes it).
Status addTensorArg(const ir::HostTensor& t, size_t i, bool written, bool trackDefined,
                    const std::string& dir, RunnerRequest& req, std::vector<std::string>& sent) {
  RunnerArg ra;
  ra.isTensor = true;
  ra.dtype = t.dtype;
  ra.shape = t.shape;
  ra.bytes = t.data.size();
  ra.download = written;
  const int64_t undefined = t.undefinedCount();
  ra.undefined = undefined == 0           ? Undefined::None
                 : undefined == t.numel() ? Undefined::All
                                          : Undefined::Some;
  if (ra.undefined != Undefined::None && trackDefined) req.passes = 2;
  const std::string n = std::to_string(i);
  if (ra.undefined != Undefined::All) {
    ra.file = "arg" + n + ".bin";
    if (!writeWholeFile(dir + "/" + ra.file, t.data.data(), t.data.size()))
      return Status{"write", "cannot write argument " + n + " to " + dir, errno};
    sent.push_back(ra.file);
  }
  if (ra.undefined == Undefined::Some) {
    ra.maskFile = "mask" + n + ".bin";
    if (!writeWholeFile(dir + "/" + ra.maskFile, t.defined.data(), t.defined.size()))
      return Status{"write", "cannot write the mask of argument " + n + " to " + dir, errno};
    sent.push_back(ra.maskFile);
  }
  req.args.push_back(std::move(ra));
  return {};
}

/// The kernel's TMA descriptors as the runner encodes them (decision TC-T1).
std::vector<RunnerTensorMap> tensorMapsOf(const ir::Kernel& k) {
  std::vector<RunnerTensorMap> out;
  for (const ir::TensorMap& m : k.tensorMaps) {
    RunnerTensorMap t;
    t.arg = size_t(m.param);
    t.name = k.params[size_t(m.param)].name;
    t.dtype = m.dtype;
    t.baseBytes = uint64_t(m.baseElems * ir::dtypeBytes(m.dtype));
    for (int64_t v : m.dims) t.dims.push_back(uint64_t(v));
    for (int64_t v : m.strideBytes) t.strides.push_back(uint64_t(v));
    for (int64_t v : m.box) t.box.push_back(uint32_t(v));
    t.swizzle = m.swizzle;
    t.oobNan = m.oobNan;
    out.push_back(std::move(t));
  }
  return out;
}

/// The request of one run written to `dir` (request.json, the kernel image unless the remote
/// simulator runs it, the argument files); `sent` lists the files a remote host needs.
Result<RunnerRequest> writeRequest(const ir::Kernel& k, std::vector<ir::KernelArg>& args,
                                   const CompileProducts& compiled, const CudaExecutorOptions& o,
                                   int sm, const std::string& dir, std::vector<std::string>& sent) {
  const bool remote = o.remote.has_value(), remoteSim = remote && o.remote->sim;
  // Undefined elements carry the poison the simulator also sees; the request says where they are.
  for (auto& a : args)
    if (a.isTensor) a.tensor.poisonUndefined(ir::kPoisonByte);
  const ir::BufferAccess access = ir::bufferAccess(k);
  RunnerRequest req;
  req.kernel = k.name;
  req.device = remote ? o.remote->device : o.device;
  if (remoteSim) {
    req.mode = "sim";
    req.script = o.scriptSource;
    req.scriptFile = std::filesystem::path(o.scriptFile).filename().string();
    req.sm = sm;
  }
  sent = {"request.json"};
  for (int d = 0; d < 3; ++d) {
    req.grid[size_t(d)] = k.launch.grid[size_t(d)];
    req.block[size_t(d)] = k.launch.block[size_t(d)];
  }
  req.dynamicSmem = ir::planSharedMemory(k).launchDynamicBytes;
  req.warmup = o.warmup;
  req.repeats = o.repeats > 1 ? o.repeats : 0;
  if (!remoteSim) {
    if (!writeWholeFile(dir + "/kernel.cubin", compiled.cubin.data(), compiled.cubin.size()) ||
        !writeWholeFile(dir + "/kernel.ptx", compiled.ptx.data(), compiled.ptx.size()))
      return Status{"write", "cannot write the kernel image to " + dir, errno};
    sent.push_back("kernel.cubin");
    sent.push_back("kernel.ptx");
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].isTensor) {
      RunnerArg ra;
      ra.isTensor = false;
      ra.bits = args[i].scalarBits;
      req.args.push_back(ra);
      continue;
    }
    const bool written = access.isWritten(k.params[i].buffer);
    if (Status st = addTensorArg(args[i].tensor, i, written, o.trackDefined, dir, req, sent);
        !st.message.empty())
      return st;
  }
  req.tensorMaps = tensorMapsOf(k);
  const std::string reqText = requestToJson(req);
  if (!writeWholeFile(dir + "/request.json", reqText.data(), reqText.size()))
    return Status{"write", "cannot write the request to " + dir, errno};
  return req;
}

/// Copy the runner's outputs back into `args`: every tensor the kernel writes, with its
/// definedness after the run when the run tracked it. Returns why an output is unusable (the
/// runner's fault, reported as a crash), "" when every one came back whole.
std::string readOutputs(const RunnerResponse& resp, const RunnerRequest& req, bool tracked,
                        const std::string& dir, std::vector<ir::KernelArg>& args) {
  std::vector<bool> seen(args.size(), false);
  for (const RunnerOutput& o : resp.outputs) {
    const std::string bad = "the runner for kernel '" + req.kernel + "' returned a bad output " +
                            std::to_string(o.index) + ": ";
    if (o.index >= args.size() || !args[o.index].isTensor || seen[o.index])
      return bad + "no such tensor argument, or returned twice";
    seen[o.index] = true;
    ir::HostTensor& t = args[o.index].tensor;
    std::string data;
    if (!readWholeFile(dir + "/" + o.file, data, t.data.size()) || data.size() != t.data.size())
      return bad + "'" + o.file + "' is missing or not " + std::to_string(t.data.size()) + " bytes";
    std::memcpy(t.data.data(), data.data(), data.size());
    if (!tracked) continue;
    if (o.undefined == 0) {
      t.defined.clear();
      continue;
    }
    std::string mask;
    if (!readWholeFile(dir + "/" + o.maskFile, mask, size_t(t.numel())) ||
        mask.size() != size_t(t.numel()))
      return bad + "mask '" + o.maskFile + "' is missing or not " + std::to_string(t.numel()) +
             " bytes";
    t.defined.assign(mask.begin(), mask.end());
    t.poisonUndefined(ir::kPoisonByte);
  }
  for (size_t i = 0; i < args.size(); ++i)
    if (req.args[i].isTensor && req.args[i].download && !seen[i])
      return "the runner for kernel '" + req.kernel + "' did not return output " +
             std::to_string(i);
  return {};
}

}  // namespace

Result<ir::RunOutcome> CudaExecutor::runOnce(const ir::Program& program, const std::string& kernel,
                                             std::vector<ir::KernelArg>& args) {
  m_timings = {};
  const ir::Kernel* k = program.findKernel(kernel);
  if (!k) return Status{"run", "no kernel named '" + kernel + "'", 0};
  if (ir::hasSymbolicExtents(*k)) {
    // The sizes are kernel parameters and the grid is computed here, on the host (specialize.h).
    return ir::runSymbolicCall(program, *k, args, name(),
                               [&](const ir::Program& concrete, std::vector<ir::KernelArg>& a) {
                                 return runOnce(concrete, kernel, a);
                               });
  }
  if (args.size() != k->params.size())
    return Status{"run",
                  "kernel '" + kernel + "' takes " + std::to_string(k->params.size()) +
                      " arguments, " + std::to_string(args.size()) + " given",
                  0};
  const Result<RunTools> tools = findRunTools(m_options);
  if (!tools) return tools.error();
  const bool remote = m_options.remote.has_value(), remoteSim = remote && m_options.remote->sim;
  const SanitizerTool tool = m_options.sanitize;

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

  // The remote simulator needs no compile products at all.
  const int sm = m_options.sm > 0 ? m_options.sm : program.targetSm;
  CompileProducts compiled;
  if (!remoteSim) {
    auto c = compileForRun(program, kernel, m_options.scriptFile, sm);
    if (!c) return c.error();
    compiled = std::move(*c);
    out.compileMs = compiled.timings.totalMs;
  }

  const ScratchDir dir("tirx_run", m_options.keepTemp);
  if (dir.path().empty()) return Status{"mkdtemp", "cannot create a temporary directory", errno};
  std::vector<std::string> sent;
  const Result<RunnerRequest> req =
      writeRequest(*k, args, compiled, m_options, sm, dir.path(), sent);
  if (!req) return req.error();

  // A job with a time limit (--timeout) is bounded by it instead of the runner's own timeout.
  const bool jobLimit = m_budget && m_budget->limits().maxSeconds > 0;
  const int timeoutMs = tool == SanitizerTool::None ? m_options.timeoutMs
                                                    : sanitizedTimeoutMs(tool, m_options.timeoutMs);
  std::vector<std::string> argv{tools->runner, "runner", dir.path() + "/request.json",
                                dir.path() + "/response.json"};
  if (tool != SanitizerTool::None)
    argv = sanitizerArgv(tools->sanitizer, tool, dir.path() + "/sanitizer.log",
                         m_options.sanitizerPrintLimit, argv);
  const int limitMs = jobLimit ? std::numeric_limits<int>::max() : timeoutMs;
  ChildResult child;
  if (remote) {
    const RemoteRun rr = runRemote(*m_options.remote, dir.path(), sent, limitMs, m_budget);
    if (!rr.status.message.empty()) return rr.status;
    if (rr.dropped)
      return faultAt("connection", "E0954",
                     "the connection to " + name() + " dropped while kernel '" + kernel +
                         "' ran: " + rr.dropReason);
    child = rr.child;
  } else {
    child = runChild(argv[0], argv, dir.path() + "/runner.log", limitMs, m_budget);
  }
  if (tool != SanitizerTool::None && child.started) {
    std::string log;
    readWholeFile(dir.path() + "/sanitizer.log", log, kMaxProtocolText);  // absent: no report
    m_sanitizer =
        parseSanitizerReport(log, tool, m_options.scriptFile, m_options.scriptSource, k->span);
  }
  if (!child.started)
    return Status{
        "fork", "cannot start the runner process: " + std::string(std::strerror(child.startErrno)),
        child.startErrno};
  out.log = logExcerpt(dir.path() + "/runner.log");
  if (child.stop == ChildStop::Timeout)
    return faultAt("timeout", "E0951",
                   "kernel '" + kernel + "' did not finish within " +
                       secondsText(timeoutMs / 1000.0) + " s " + where + "; the runner was killed");
  if (child.stop == ChildStop::Budget)
    return faultAt(m_budget->stop() == BudgetStop::Time ? "timeout" : "cancelled",
                   m_budget->stop() == BudgetStop::Time ? "E0951" : "E0953",
                   "kernel '" + kernel + "' was stopped " + where + ": " + m_budget->message() +
                       "; the runner was killed");
  const std::string how = child.signal ? "was killed by " + signalName(child.signal)
                                       : "exited with status " + std::to_string(child.exitCode);
  const std::string logTail = out.log.empty() ? std::string() : " (runner output: " + out.log + ")";
  std::string text;
  if (!readWholeFile(dir.path() + "/response.json", text, kMaxProtocolText))
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
  if (const std::string bad =
          readOutputs(*resp, *req, req->passes >= 2 || remoteSim, dir.path(), args);
      !bad.empty())
    return faultAt("crash", "E0952", bad);
  out.ran = true;
  out.runMs = resp->firstLaunchMs;
  m_timings.launchesMs = resp->launchesMs;
  m_timings.medianMs = resp->medianMs;
  m_timings.minMs = resp->minMs;
  if (!m_timings.launchesMs.empty()) out.runMs = m_timings.medianMs;
  return out;
}

}  // namespace tirx::driver
