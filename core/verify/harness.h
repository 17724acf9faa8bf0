// The harness interpreter (private to core/verify): runs the module-level statements of a script
// that are not TIRx — imports of numpy/torch/tvm, assignments, loops, calls — with Python
// semantics on the AST. TIRx names (T, S, TileLayout, laneid, layouts) evaluate to an opaque value
// that absorbs every operation, decorated defs bind to kernels, `tvm.tirx.compile(...)` and
// `tvm_tirx.compile(...)` give a callable handle that runs the kernel through a callback, and the
// comparison calls become Checks. The first harness error (E08xx) stops the interpretation, as a
// Python exception would; failed checks do not (every check is reported).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/diag/budget.h"
#include "core/ir/ir.h"
#include "core/script/ast.h"
#include "core/sim/simulator.h"
#include "core/verify/array.h"
#include "core/verify/compare.h"
#include "core/verify/verify.h"

namespace tirx::verify {

enum class PyKind {
  None,
  Bool,
  Int,
  Float,
  Str,
  Tuple,
  List,
  Dict,
  Array,
  Module,
  Builtin,
  Method,
  DType,
  Kernel,
  Compiled,
  Device,
  Slice,
  Ellipsis,
  Opaque,
  Function
};

struct PyValue;
using Py = std::shared_ptr<PyValue>;

struct PyValue {
  PyKind kind = PyKind::None;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;               ///< Str text; Module/Builtin/Method qualified name; Kernel name
  std::vector<Py> items;       ///< Tuple/List; Dict as k0,v0,k1,v1; Slice start,stop,step
  std::shared_ptr<Array> arr;  ///< Array (shared: kernels write outputs in place)
  DType dtype = DType::Float32;
  Flavor flavor = Flavor::Numpy;
  Py self;  ///< Method receiver
  /// An Array that numpy/torch would return as a view of another array (a slice, a reshape, a
  /// transpose). The harness holds a copy, so writes into it are refused (they would not reach
  /// the original); reads are exact.
  bool view = false;
  const ast::Stmt* def = nullptr;  ///< Function
};

/// The result of one kernel call made by the harness.
struct HarnessRun {
  bool ok = false;    ///< outputs are valid (no fatal fault, device available)
  std::string error;  ///< why not, for the harness diagnostic
  std::string device;
  ir::Provenance provenance;  ///< the run outcome's; empty when the run was not on the simulator
};

struct HarnessContext {
  const ast::Module* module = nullptr;
  const ir::Program* program = nullptr;
  Report* report = nullptr;
  int64_t maxSteps = 10'000'000;
  /// The verify's work budget (time limit, cancellation): every harness step and element-wise
  /// array operation is charged to it; null = no budget.
  WorkBudget* budget = nullptr;
  /// Runs `kernel` with `args` (updated in place).
  std::function<HarnessRun(const std::string& kernel, std::vector<ir::KernelArg>& args,
                           SourceSpan call)>
      runKernel;
};

/// What the harness did.
struct HarnessSummary {
  int kernelCalls = 0;
  int statementsRun = 0;  ///< module-level statements that were harness code (not TIRx)
  bool stoppedByError = false;
};

HarnessSummary runHarness(HarnessContext& ctx);

}  // namespace tirx::verify
