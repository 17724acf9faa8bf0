// An ir::Executor that runs tirx's generated CUDA as host C++: the kernel's CUDA source (codegen),
// tests/support/host_cuda_shim.h for the device intrinsics, and a driver loop that calls the kernel
// once per thread of the launch, in order, are compiled with the host C++ compiler under UBSan
// (undefined behaviour in the generated code stops the run with its script line: NVRTC may
// assume it away) and run in a child process. It serves the kernels of independent threads —
// scalar math, element stores — and refuses the rest (shared memory, barriers, shuffles, inline
// PTX) with a Status: its one use is to compare the CUDA's semantics with the simulator's where no
// GPU is (tst_scalar_host_slow: the scalar-conform expressions, bit for bit).
#pragma once

#include <string>
#include <vector>

#include "core/ir/values.h"

namespace tirx::testing {

class HostCudaExecutor : public ir::Executor {
 public:
  /// `compiler`: the host C++ compiler; `shimDir`: the folder of host_cuda_shim.h; `workDir`: a
  /// folder for the sources, the binary and the argument files (created; the caller removes it).
  HostCudaExecutor(std::string compiler, std::string shimDir, std::string workDir);
  std::string name() const override { return "host C++ (" + m_compiler + ")"; }
  Result<ir::RunOutcome> run(const ir::Program& program, const std::string& kernel,
                             std::vector<ir::KernelArg>& args) override;
  /// The compiler's or the run's log of the last call (for a failing test's message).
  const std::string& lastLog() const { return m_log; }

 private:
  std::string m_compiler, m_shimDir, m_workDir, m_log;
  int m_runs = 0;
};

}  // namespace tirx::testing
