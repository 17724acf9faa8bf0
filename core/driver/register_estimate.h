// The register facts of a compile (core/toolchain/register_facts.h) as the compile products carry
// them: measured from nvdisasm's two listings when the toolchain produced both, otherwise an
// estimate from the Kernel IR, and in both cases each line's register budget from the program's
// setmaxnreg statements and ptxas' allocation.
//
// The estimate (decision "Register gutter: estimate vs measured" in docs/decisions.md): per
// statement, the 32-bit registers of every per-thread register tile (T.alloc_local) live there —
// from its first to its last reference in program order, widened to a whole loop when the tile is
// referenced both inside and outside the loop (its value crosses the back edge) — plus
// kScalarRegisters for addresses, indices and loop counters; a line's figure is the largest of its
// statements. It knows nothing of spills and is always labelled `Estimate`.
#pragma once

#include <string>

#include "core/ir/ir.h"
#include "core/toolchain/register_facts.h"
#include "core/toolchain/toolchain.h"

namespace tirx::driver {

/// Registers the estimate adds to the tiles for scalars (addresses, indices, loop counters).
constexpr int kScalarRegisters = 8;
/// What one thread may address on sm_90 without setmaxnreg (ptxas' limit).
constexpr int kMaxThreadRegisters = 255;

/// The IR estimate of every statement line of every kernel; `why` (e.g. "no nvdisasm") goes into
/// the status. Kernel totals take `resources` (allocated registers, spill bytes) when given.
toolchain::RegisterFacts estimateRegisterFacts(
    const ir::Program& program, const std::vector<toolchain::KernelResources>& resources,
    const std::string& why);

/// Set each line's budget: the value of the setmaxnreg statement in force at the line (one in the
/// same block or an enclosing one, earlier in program order), else the kernel's allocated
/// registers (ptxas), else kMaxThreadRegisters.
void applyRegisterBudgets(toolchain::RegisterFacts& facts, const ir::Program& program);

/// Measured facts when `products` holds both nvdisasm listings and they join, else the estimate
/// (its status says why nothing was measured); budgets applied.
toolchain::RegisterFacts registerFacts(const ir::Program& program,
                                       const toolchain::CompileProducts& products,
                                       const std::string& scriptFile);

}  // namespace tirx::driver
