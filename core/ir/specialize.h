// Symbolic extents bound at call time (decision "Dynamic shapes" in docs/decisions.md). A kernel
// may declare the leading extent of a tensor parameter with `T.dynamic("n")` or an int scalar
// parameter, and launch a grid computed from such values (`grid=T.ceildiv(n, 256)`). Sema keeps
// those extents symbolic (kSymbolicExtent in tensor refs, Buffer::shapeVars, LaunchConfig::
// gridExprs); a T.dynamic symbol becomes a trailing scalar parameter marked `symbolic` that no call
// writes. Before a run, every executor binds the call: the symbolic values come from the argument
// tensors' shapes (or the scalar arguments), are checked for agreement, and give a kernel with
// concrete shapes and grid. The generated CUDA does not change with the sizes: they are kernel
// parameters and the grid is computed on the host.
#pragma once

#include <string>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/ir/ir.h"
#include "core/ir/values.h"

namespace tirx::ir {

/// True when the kernel has a symbolic extent or a runtime grid not bound yet.
bool hasSymbolicExtents(const Kernel& k);

/// The parameters a call writes: every parameter but the trailing `symbolic` ones.
size_t writtenParamCount(const Kernel& k);

/// Binds a call of `k` with `args` (the written arguments, or every parameter's): appends the
/// symbolic parameters' values, checks that every tensor's symbolic extent agrees with them and
/// that scalar extents are positive, and evaluates the grid (1 ≤ x < 2^31, y, z ≤ 65535). On
/// success `out` is `k` with concrete shapes, layouts, storage and grid and true is returned; on
/// failure `why` (code E0772, at `callSpan` when valid, else at the parameter) names the call and
/// the disagreeing values. Tensors' static dimensions are not checked here (the executor does).
bool bindSymbolicCall(const Kernel& k, std::vector<KernelArg>& args, Kernel& out, Diagnostic& why,
                      SourceSpan callSpan = {});

/// Runs one call of a kernel with symbolic extents, for the simulator and the GPU executor alike:
/// binds the call (bindSymbolicCall), calls `run(concrete, args)` on a copy of `program` in which
/// `k` is the concrete kernel, and hands back only the arguments the caller passed (the bound size
/// arguments are dropped again). A call that cannot be bound is a launch fault on `device`.
template <class Run>
auto runSymbolicCall(const Program& program, const Kernel& k, std::vector<KernelArg>& args,
                     const std::string& device, Run&& run) -> decltype(run(program, args)) {
  Kernel bound;
  Diagnostic why;
  const size_t written = args.size();
  if (!bindSymbolicCall(k, args, bound, why)) {
    RunOutcome out;
    out.device = device;
    out.faults.push_back(Fault{"launch", why});
    return out;
  }
  Program concrete = program;
  for (auto& kk : concrete.kernels)
    if (kk.name == k.name) kk = std::move(bound);
  auto r = run(concrete, args);
  args.resize(written);
  return r;
}

/// The value of a pure integer expression over `vars` (var id → value), exactly; false when it
/// uses anything else, divides by zero or leaves int64.
bool evalHostInt(const Expr& e, const std::vector<std::pair<int, int64_t>>& vars, int64_t& out);

}  // namespace tirx::ir
