// The walker over Kernel IR statements and expressions for queries, and the one buffer-access
// analysis built on it: which buffers a kernel reads and which it writes. The simulator (which
// outputs get provenance), the GPU executor (which arguments to upload and copy back), device
// comparison, bundles, the studio's tile-op uses, and the queries "first wgmma line" (compile),
// "tile-op lines" (the debugger), "scalar ops of a body" and "work units of an expression or a
// function" (the simulator's step cost) and "register tiles a statement references" (the register
// estimate) all use it, so that they cannot disagree on what a statement touches (they did: the
// simulator's own walk missed TMA stores). Walks that carry state down the tree — sema's (scopes,
// bounds, assignment counts), codegen's declaration depth and emission, the register estimate's
// loop ends and setmaxnreg budgets, the simulator's compiler, the printer, the specializer's
// rewrite — recurse themselves: a pre-order callback cannot tell them where a body ends.
//
// Access rules (spec §2.6 operand order: the destination first):
//   Store            writes its tensor; Load expressions anywhere read theirs
//   tile.apply       operand 0 is written (ld/mma/shfl registers, st/stmatrix/cp.async memory),
//                    every other tensor operand is read
//   tile.ewise       dst written, tensor inputs read
//   TMA copy         a load reads the global view and writes the shared box; a store the reverse
//   wgmma            D read and written (accumulate), A (shared or registers) and B read
//   async op         the mbarrier object is read and written (init, arrive, wait, inval)
#pragma once

#include <functional>
#include <vector>

#include "core/ir/ir.h"

namespace tirx::ir {

/// Calls `fn` on every statement of `body` and of the bodies nested in it, pre-order (a loop or
/// `if` before its body, the body before `orelse`).
void forEachStmt(const std::vector<Stmt>& body, const std::function<void(const Stmt&)>& fn);

/// Calls `fn` on every expression node reachable from `s` itself (not from its nested bodies):
/// values, indices, loop bounds, predicates, scalar operands, TMA coordinates, mbarrier indices
/// and the region starts of every tensor it names — each node once, children after parents.
void forEachExpr(const Stmt& s, const std::function<void(const Expr&)>& fn);

/// Calls `fn` on `e` and every expression node below it: its arguments and the region starts of a
/// tensor it loads, each node once, children after parents.
void forEachExpr(const Expr& e, const std::function<void(const Expr&)>& fn);

/// Calls `fn` on every tensor `s` names itself (not its nested bodies, not Load expressions): a
/// store's tensor, tile-op operands, TMA views and mbar=, an async op's mbarrier. `operand` is the
/// position in the call as written (the destination 0); `write` and `read` follow the access
/// rules above.
using TensorFn = std::function<void(const TensorRef&, int operand, bool write, bool read)>;
void forEachTensor(const Stmt& s, const TensorFn& fn);

/// Per buffer id of a kernel: read and/or written anywhere in its body.
struct BufferAccess {
  std::vector<bool> reads, writes;
  bool isRead(int buffer) const {
    return buffer >= 0 && size_t(buffer) < reads.size() && reads[size_t(buffer)];
  }
  bool isWritten(int buffer) const {
    return buffer >= 0 && size_t(buffer) < writes.size() && writes[size_t(buffer)];
  }
};

/// The accesses of `kernel` (sized to kernel.buffers; ids out of range are ignored).
BufferAccess bufferAccess(const Kernel& kernel);

/// One operand of a tile op (tile.apply, tile.ewise, a TMA copy, wgmma) that names a buffer.
struct TileOpUse {
  const Stmt* stmt = nullptr;  ///< into the kernel's body (valid while the kernel lives)
  std::string opcode;          ///< the PTX spelling, or "tile.ewise"
  int operand = 0;             ///< position in the call as written, the destination 0
  bool write = false;          ///< the op writes this operand
  int64_t atom = 1;            ///< tile.apply: the operand's trailing atom extent; else 1
};
/// Every tile-op operand of `kernel` that is `buffer` (or a view or region of it), in program
/// order; an op naming the buffer twice gives two uses. The studio's layout view lists these
/// for a symbol through ir::Symbol::buffer (never by name).
std::vector<TileOpUse> tileOpUses(const Kernel& kernel, int buffer);

/// Per kernel parameter: a tensor the kernel writes (it must be copied back after a run).
std::vector<bool> writtenParams(const Kernel& kernel);
/// Per kernel parameter: a tensor the kernel writes and never reads (its input need not be sent).
std::vector<bool> writeOnlyParams(const Kernel& kernel);

}  // namespace tirx::ir
