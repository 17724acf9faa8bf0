// SASS through an external disassembler: nvdisasm (preferred, with line info) or cuobjdump,
// found on PATH or in the CUDA directory. A machine without either reports
// "no disassembler found" and the rest of the pipeline carries on. With nvdisasm, a second pass
// (`-plr -lrm count`) gives the live registers per instruction (register_facts.h). Every run is
// bounded: at most kMaxOutput bytes are read, and `timeout` (when installed) stops a hung tool.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/toolchain/toolchain.h"

#ifndef TIRX_CUDA_HOME
#define TIRX_CUDA_HOME "/usr/local/cuda"
#endif

namespace tirx::toolchain {

/// The CUDA directory: $CUDA_HOME, $CUDA_PATH, the configured toolkit root, /usr/local/cuda.
std::string cudaHome() {
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* v = std::getenv(var); v && *v) return v;
  const std::string configured = TIRX_CUDA_HOME;
  return configured.empty() ? "/usr/local/cuda" : configured;
}

namespace {

bool isExecutable(const std::string& path) {
  return ::access(path.c_str(), X_OK) == 0;
}

std::string findTool(const std::string& name) {
  if (const char* path = std::getenv("PATH")) {
    std::istringstream in(path);
    std::string dir;
    while (std::getline(in, dir, ':'))
      if (!dir.empty() && isExecutable(dir + "/" + name)) return dir + "/" + name;
  }
  for (const std::string& dir : {cudaHome() + "/bin", std::string("/usr/local/cuda/bin")})
    if (isExecutable(dir + "/" + name)) return dir + "/" + name;
  return {};
}

/// Bounds on one disassembler run: bytes of output kept, and seconds (through coreutils timeout).
constexpr size_t kMaxOutput = size_t(64) << 20;
constexpr int kTimeoutSeconds = 120;

/// Run a command and capture its stdout (at most kMaxOutput bytes; `truncated` says when more
/// came); false when it could not run, exited non-zero or was cut off.
bool capture(const std::string& cmd, std::string& out, bool& truncated) {
  truncated = false;
  FILE* f = ::popen(cmd.c_str(), "r");
  if (!f) return false;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
    if (out.size() + n > kMaxOutput) {
      truncated = true;  // closing the pipe ends the tool with SIGPIPE
      break;
    }
    out.append(buf, n);
  }
  return ::pclose(f) == 0 && !truncated;
}

/// `cmd` under coreutils' timeout when it is installed.
std::string bounded(const std::string& cmd) {
  const std::string t = findTool("timeout");
  return t.empty() ? cmd : "'" + t + "' " + std::to_string(kTimeoutSeconds) + " " + cmd;
}

/// One disassembler run on the cubin at `path`; `status` is `name` or why it failed.
std::string runTool(const std::string& cmd, const std::string& name, std::string& status) {
  std::string out;
  bool truncated = false;
  const bool ok = capture(bounded(cmd), out, truncated);
  if (ok) {
    status = name;
    return out;
  }
  status = truncated
               ? name + " failed: more than " + std::to_string(kMaxOutput >> 20) + " MiB of output"
               : name + " failed: " + out.substr(0, 400);
  return {};
}

}  // namespace

std::string findDisassembler() {
  std::string t = findTool("nvdisasm");
  if (t.empty()) t = findTool("cuobjdump");
  return t;
}

/// Disassemble `p.cubin` into p.sass (and, with nvdisasm, p.sassLiveRanges); the statuses name the
/// tool used or why none ran.
void disassemble(CompileProducts& p) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string tool = findDisassembler();
  p.sassLiveStatus = "not run: needs nvdisasm";
  if (tool.empty()) {
    p.sassStatus =
        "no disassembler found (nvdisasm or cuobjdump on PATH or in " + cudaHome() + "/bin)";
    return;
  }
  char path[] = "/tmp/tirx_cubin_XXXXXX";
  const int fd = ::mkstemp(path);
  if (fd < 0) {
    p.sassStatus = "cannot create a temporary file for the cubin";
    return;
  }
  ::close(fd);
  {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(p.cubin.data()), std::streamsize(p.cubin.size()));
  }
  const bool nvdisasm = tool.size() >= 8 && tool.compare(tool.size() - 8, 8, "nvdisasm") == 0;
  const std::string quoted = "'" + tool + "' ";
  if (nvdisasm) {
    // -gi: line records with the call site of inlined bodies (docs/decisions.md, SRCMAP-1).
    p.sass = runTool(quoted + "-c -gi '" + path + "' 2>&1", "nvdisasm", p.sassStatus);
    // nvdisasm ignores -g while printing life ranges: a second pass, joined by address later.
    if (!p.sass.empty())
      p.sassLiveRanges = runTool(quoted + "-c -plr -lrm count '" + path + "' 2>&1", "nvdisasm -plr",
                                 p.sassLiveStatus);
  } else {
    p.sass = runTool(quoted + "-sass '" + path + "' 2>&1", "cuobjdump", p.sassStatus);
    p.sassLiveStatus = "not run: cuobjdump prints no life ranges (needs nvdisasm)";
  }
  ::unlink(path);
  if (!p.sassStatus.empty() && p.sass.empty() && p.sassStatus.find("failed") == std::string::npos)
    p.sassStatus += " printed nothing";
  p.sassMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace tirx::toolchain
