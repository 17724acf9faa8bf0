// SASS through an external disassembler: nvdisasm (preferred, with line info) or cuobjdump,
// found on PATH or in the CUDA directory. A machine without either reports
// "no disassembler found" and the rest of the pipeline carries on.
#include "core/toolchain/toolchain.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

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

bool isExecutable(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

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

/// Run a command and capture its stdout; false when it could not run or exited non-zero.
bool capture(const std::string& cmd, std::string& out) {
  FILE* f = ::popen(cmd.c_str(), "r");
  if (!f) return false;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  return ::pclose(f) == 0;
}

}  // namespace

std::string findDisassembler() {
  std::string t = findTool("nvdisasm");
  if (t.empty()) t = findTool("cuobjdump");
  return t;
}

/// Disassemble a cubin; `status` names the tool used or why none ran.
std::string disassemble(const std::vector<uint8_t>& cubin, std::string& status, double& ms) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string tool = findDisassembler();
  if (tool.empty()) {
    status = "no disassembler found (nvdisasm or cuobjdump on PATH or in " + cudaHome() + "/bin)";
    return {};
  }
  char path[] = "/tmp/tirx_cubin_XXXXXX";
  const int fd = ::mkstemp(path);
  if (fd < 0) {
    status = "cannot create a temporary file for the cubin";
    return {};
  }
  ::close(fd);
  {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(cubin.data()), std::streamsize(cubin.size()));
  }
  const bool nvdisasm = tool.size() >= 8 && tool.compare(tool.size() - 8, 8, "nvdisasm") == 0;
  const std::string cmd = nvdisasm ? "'" + tool + "' -c -g '" + path + "' 2>&1"
                                   : "'" + tool + "' -sass '" + path + "' 2>&1";
  std::string out;
  const bool ok = capture(cmd, out);
  ::unlink(path);
  status = ok ? (nvdisasm ? "nvdisasm" : "cuobjdump") : "disassembler failed: " + out.substr(0, 400);
  ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return ok ? out : std::string();
}

}  // namespace tirx::toolchain
