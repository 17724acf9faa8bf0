// Scalar-math conformance (`tirx scalar-conform`): a deterministic generator of random scalar
// expressions over every dtype a kernel computes in (float32, float16, bfloat16, float64, the
// signed and unsigned 8- to 64-bit integers), built from every operator and builtin sema accepts
// in kernel expressions, emitted as batched TIRx kernels (one CTA of 128 threads; each thread
// loads its own edge-value inputs — ±0, subnormals, infinities, NaN, integer extremes, random —
// and stores every expression's value). The kernels run on the simulator and, when a device is
// given, on the GPU; the two are compared bit for bit (a NaN matches any NaN), except the
// libdevice transcendentals (T.exp, T.log, ...), which stand at the root of their expression and
// must agree within sim::scalarApproxUlps. With `compile`, every kernel also goes through NVRTC
// and its PTX is checked for the instructions DEC-SCALAR-1 promises (no fma, no .approx in the
// exact kernels). Device answers can be recorded and replayed against the simulator later.
// docs/simulator.md ("Scalar math"), docs/decisions.md (DEC-SCALAR-1).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diag/result.h"
#include "core/ir/dtype.h"
#include "core/ir/values.h"

namespace tirx::conform {

/// Version of the expression and input generator: a recorded file names it.
inline constexpr int kScalarGenerator = 1;
/// Threads of every generated kernel (one input vector each).
inline constexpr int kScalarThreads = 128;

struct ScalarConformOptions {
  uint64_t seed = 22;
  int expressions = 2400;
  int perKernel = 120;  ///< expressions per generated kernel
  int sm = 90;
  bool compile = false;  ///< also NVRTC-compile every kernel and check its PTX
};

/// One generated expression: its TIRx text, result dtype, and the transcendental at its root
/// ("" for a bit-exact expression).
struct ScalarCase {
  std::string text;
  ir::DType dtype = ir::DType::Float32;
  std::string approx;
  int ulps = 0;  ///< allowed distance in ulp of `dtype` when `approx` is set
};

/// A generated kernel: its script, whether it holds the approximate cases, and its cases in the
/// order of their output rows per dtype.
struct ScalarKernel {
  std::string name, script;
  bool approx = false;
  std::vector<size_t> cases;
};

/// The generated expressions (deterministic in `seed`).
std::vector<ScalarCase> scalarCases(const ScalarConformOptions& options);
/// The kernels evaluating `cases`: exact and approximate cases in separate kernels.
std::vector<ScalarKernel> scalarKernels(const std::vector<ScalarCase>& cases,
                                        const ScalarConformOptions& options);

/// One differing evaluation.
struct ScalarDiff {
  size_t caseIndex = 0;
  std::string text;  ///< the expression
  ir::DType dtype = ir::DType::Float32;
  int thread = 0;
  std::vector<std::string> inputs;  ///< the thread's inputs the expression reads, "name=0x…"
  uint64_t simulator = 0, device = 0;
};

struct ScalarReport {
  std::string device;  ///< "" when only the simulator ran
  int expressions = 0, kernels = 0;
  int64_t evaluations = 0;  ///< expressions × threads compared (or run, without a device)
  int exactExpressions = 0, approxExpressions = 0;
  int disagreements = 0;  ///< expressions whose values differ on some thread
  /// Replay: expressions the record keeps by digest only (the device gave the simulator's bits of
  /// that day) whose simulator bits no longer have that digest. The device's bits are not known,
  /// so they are neither agreements nor disagreements: record the device again.
  int stale = 0;
  std::vector<ScalarCase> staleExamples;  ///< the first few
  std::vector<ScalarDiff> examples;       ///< the first few
  std::vector<std::string> failures;      ///< kernels that did not check, compile or run
  std::vector<std::string> ptxProblems;   ///< `compile`: instructions DEC-SCALAR-1 forbids/needs
  std::string recordJson;  ///< the device's answers (recordScalar), when a device ran
  bool passed() const {
    return disagreements == 0 && stale == 0 && failures.empty() && ptxProblems.empty();
  }
};

using ScalarProgress = std::function<void(int done, int total)>;

/// Generate, (compile,) run on the simulator and, when `device` is not null, on the device, and
/// compare. A Status only for an environment failure of the device (no driver, no runner).
Result<ScalarReport> runScalarConformance(ir::Executor* device, const ScalarConformOptions& options,
                                          const ScalarProgress& progress = {});

/// Compare the simulator with a recorded file of device answers (the JSON of
/// ScalarReport::recordJson). Fails on malformed JSON or another generator/seed/count.
Result<ScalarReport> replayScalarRecord(std::string_view json, const ScalarProgress& progress = {});

/// Whether two results of dtype `t` agree: equal bits, both NaN, or (ulps > 0) within `ulps`
/// representable values of each other.
bool scalarAgree(ir::DType t, uint64_t a, uint64_t b, int ulps);

/// The PTX instructions DEC-SCALAR-1 forbids in a kernel of exact scalar math and finds there
/// ("fma.rn.f32 at line 12"); empty when the PTX is clean.
std::vector<std::string> forbiddenScalarPtx(std::string_view ptx);

}  // namespace tirx::conform
