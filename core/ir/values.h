// Host-side values exchanged between the harness (core/verify), the simulator (core/sim) and the
// GPU runner (core/device): tensors as raw bytes with dtype and shape, kernel arguments, and the
// Executor interface every backend implements.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/diag/result.h"
#include "core/ir/dtype.h"

namespace tirx::ir {

struct Program;

/// A dense row-major host tensor. `data.size() == Π shape · dtypeBytes(dtype)`.
struct HostTensor {
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;
  int64_t numel() const;
};

/// One kernel argument in signature order: a tensor (in/out) or a scalar given by its bits.
struct KernelArg {
  bool isTensor = true;
  HostTensor tensor;
  DType scalarType = DType::Int32;
  uint64_t scalarBits = 0;
};

/// A runtime fault found while running a kernel (race, out-of-bounds, uninitialised read, illegal
/// address, timeout). `diag` points at the script line; `kind` is a short tag ("race", "oob",
/// "uninit", "misaligned", "deadlock", "illegal-address", "timeout", "launch", "budget" (the
/// work budget is spent, its time is up or the job was cancelled), "memory" (simulator limit)).
struct Fault {
  std::string kind;
  Diagnostic diag;
};

struct RunOutcome {
  bool ran = false;             ///< the kernel ran to completion (outputs are valid)
  std::vector<Fault> faults;
  double compileMs = 0, runMs = 0;
  std::string device;           ///< "simulator", "NVIDIA H200 (cuda:0)"
  std::string log;              ///< extra text (toolchain log, runner stderr)
};

/// A backend that runs a kernel of a Program on host tensors. `args` are updated in place
/// (outputs). Environment failures (no driver, NVRTC failed) come back as Status.
class Executor {
 public:
  virtual ~Executor() = default;
  virtual std::string name() const = 0;
  virtual Result<RunOutcome> run(const Program& program, const std::string& kernel,
                                 std::vector<KernelArg>& args) = 0;
};

}  // namespace tirx::ir
