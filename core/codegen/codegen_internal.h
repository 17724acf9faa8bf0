// Private to core/codegen: the emitter shared by codegen.cpp (module, kernels, statements),
// codegen_expr.cpp (types, literals, scalar expressions, element addressing) and
// codegen_tile.cpp (TileApply / TileEwise lowering).
#pragma once

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/codegen/codegen.h"
#include "core/ir/half.h"

namespace tirx::codegen::detail {

using ir::floatToBf16Bits;
using ir::floatToHalfBits;

/// C type of an element in memory / registers (16-bit floats are `unsigned short` carriers).
std::string storageType(ir::DType t);
/// C type of a scalar value in expressions (16-bit floats are __half / __nv_bfloat16).
std::string valueType(ir::DType t);
/// Inline-asm constraint letter for a register operand of dtype `t` (f, d, h, r, l).
char constraintOf(ir::DType t);
/// C type bound to a constraint letter.
std::string constraintType(char c);
/// A literal of dtype `t` holding `v` (exact for float32: `%.9g` + f, specials via bit patterns).
std::string floatLiteral(double v, ir::DType t);

/// The dtype of variable `id` in `vars` (int32 when absent).
ir::DType varType(const std::vector<ir::Var>& vars, int id);

struct KernelNames {
  std::vector<std::string> buffer;  ///< by buffer id
  std::vector<std::string> var;     ///< by var id
};

class Emitter {
 public:
  Emitter(const ir::Program& p, const CodegenOptions& o, CodegenResult& r)
      : m_prog(p), m_opt(o), m_res(r) {}

  void emitProgram();

  // --- output -------------------------------------------------------------------------------
  /// Append one line (no trailing newline in `text`).
  void line(const std::string& text);
  /// `#line N "FILE"` then `text`, recorded in the source map.
  void stmt(const SourceSpan& span, const std::string& text);
  /// Begin / end a recorded statement spanning several output lines.
  void begin(const SourceSpan& span);
  void end();
  std::string indent() const { return std::string(size_t(m_depth) * 2, ' '); }
  int m_depth = 0;

  // --- expressions (codegen_expr.cpp) -------------------------------------------------------
  std::string expr(const ir::ExprPtr& e);
  /// `e` converted to the C type `to` (a cast, a half conversion, or nothing).
  std::string exprAs(const ir::ExprPtr& e, ir::DType to);
  /// A float binary operation of dtype `t` (f32 or f64) as the simulator computes it.
  std::string floatArith(ir::BinOp op, const std::string& a, const std::string& b, ir::DType t);
  /// An integer binary operation of dtype `t` with the simulator's wrap-around (`rhs`: the
  /// divisor's expression, a literal divisor needs no -1 guard; may be null).
  std::string intArith(ir::BinOp op, const ir::ExprPtr& rhs, const std::string& a,
                       const std::string& b, ir::DType t);
  /// Element offset (in elements of ref.dtype) of `ref[indices]` as a C expression.
  std::string offsetExpr(const ir::TensorRef& ref, const std::vector<std::string>& coord,
                         const std::vector<int64_t>* constCoord = nullptr);
  /// offsetExpr before the buffer's swizzle (codegen_collective.cpp applies it).
  std::string offsetExprUnswizzled(const ir::TensorRef& ref, const std::vector<std::string>& coord,
                                   const std::vector<int64_t>* constCoord = nullptr);
  /// offsetExprUnswizzled of a region of a tensor with a symbolic non-leading extent: strides
  /// computed from the size parameters (views of such tensors are refused by sema).
  std::string symbolicStrideOffset(const ir::TensorRef& ref, const ir::Buffer& b,
                                   const std::vector<std::string>& coord,
                                   const std::vector<int64_t>* constCoord);
  /// `off` (an element offset of `ref`'s dtype into its buffer) through the buffer's swizzle.
  std::string swizzled(const ir::TensorRef& ref, const std::string& off);
  /// ldmatrix / stmatrix / mma.sync: one asm per repeat (codegen_collective.cpp).
  void emitMatrixCollective(const ir::Stmt& s);
  /// `__shfl_xor_sync(mask, v, lane, width)` and friends (hoisted collective intrinsics).
  std::string shuffleCall(const ir::Expr& e);
  /// An lvalue for element `offset` of the ref's buffer viewed as ref.dtype.
  std::string element(const ir::TensorRef& ref, const std::string& offset);
  /// Pointer to the ref's buffer as `storageType(ref.dtype)*`.
  std::string typedPointer(const ir::TensorRef& ref);
  std::string varName(int id) const;
  std::string bufferName(int id) const;

  // --- tile ops (codegen_tile.cpp) ----------------------------------------------------------
  void emitApply(const ir::Stmt& s);
  // The parts of emitApply (codegen_tile.cpp): one repeat's asm operands, then its statement.
  struct ApplyAsm;
  void applyOperands(const ir::TileApply& a, const std::vector<PtxOperandSpec>& specs,
                     const std::vector<SlotPlan>& plans, int64_t r, ApplyAsm& as);
  std::string applyAsmLine(const ir::TileApply& a, const std::vector<PtxOperandSpec>& specs,
                           const ApplyAsm& as);
  void emitEwise(const ir::Stmt& s);
  /// Group coordinate variable names of a scope (thread: none; warp: lane; ...).
  std::vector<std::string> groupVars(ir::ExecScope scope) const;

  // --- TMA (codegen_tma.cpp) ------------------------------------------------------------------
  void emitTma(const ir::Stmt& s);
  /// The 32-bit shared-window address of `ref[coord]`.
  std::string sharedAddress(const ir::TensorRef& ref, const std::vector<std::string>& coord);

  // --- wgmma (codegen_wgmma.cpp) ---------------------------------------------------------------
  /// One asm per (k-step, m-repeat) with runtime descriptors and register pinning.
  void emitWgmma(const ir::Stmt& s);
  /// The "+f"/"+r" operands of every register wgmma statement `w` reads or writes asynchronously
  /// (its accumulators, and its A registers in the rs form).
  std::vector<std::string> wgmmaRegisterOperands(const ir::Wgmma& w, bool withA);
  /// One empty `asm volatile("" : OPERAND :: "memory")` per operand, 8 a line (TIRx's
  /// noop_barrier): the compiler must assume each register changes here.
  void pinRegisters(const std::vector<std::string>& operands);
  /// The accumulators pinned after each `wgmma.wait_group` of the kernel being emitted, so that
  /// plain (non-volatile) code reading them stays behind the wait: those of the wgmma statements
  /// emitted so far and of every wgmma inside a loop being emitted (its next iteration's). An
  /// accumulator first written after the wait is not pinned there (it has no value to read yet).
  std::vector<std::string> m_wgmmaAccumulators;
  std::set<std::string> m_pinnedSet;
  void noteAccumulators(const std::vector<std::string>& operands);
  /// The accumulators of every wgmma in a loop body (nested ones included), before emitting it.
  void noteLoopAccumulators(const std::vector<ir::Stmt>& body);

  // --- asynchronous protocol (codegen_async.cpp) ---------------------------------------------
  /// cp.async / bulk groups, mbarrier operations, proxy fences: inline asm with "memory" clobbers.
  void emitAsync(const ir::Stmt& s);

  // --- statements (codegen.cpp) -------------------------------------------------------------
  void emitStmts(const std::vector<ir::Stmt>& body);
  void emitStmt(const ir::Stmt& s);
  /// An IR statement the generator cannot lower although sema accepted it: E0999, "internal
  /// error: …" (codegen.h, kInternalErrorCode).
  void internalError(const SourceSpan& span, const std::string& what);
  /// Render `v` converted from value dtype `from` to storage of dtype `to` (e.g. __half → bits).
  std::string toStorage(const std::string& v, ir::DType from, ir::DType to);
  std::string fromStorage(const std::string& v, ir::DType t);

  const ir::Program& m_prog;
  const CodegenOptions& m_opt;
  CodegenResult& m_res;
  const ir::Kernel* m_kernel = nullptr;          ///< kernel being emitted (null in functions)
  const std::vector<ir::Var>* m_vars = nullptr;  ///< vars of the current body
  KernelNames m_names;
  std::set<int> m_declared;    ///< var ids declared so far
  std::set<int> m_inlineDecl;  ///< var ids declared at their first assignment
  std::ostringstream m_out;
  int m_lineNo = 0;  ///< lines written so far
  int m_openScriptLine = 0, m_openFirst = 0;
  int m_tmp = 0;  ///< counter for temporaries
  bool m_usesFp16 = false;
  bool m_usesTensorMaps = false;  ///< some kernel takes CUtensorMap parameters
  bool m_usesSm90a = false;       ///< wgmma / setmaxnreg: compile for sm_90a
  bool m_usesElect = false;       ///< T.cuda.elect_sync(): emit tirx_elect_sync
};

}  // namespace tirx::codegen::detail
