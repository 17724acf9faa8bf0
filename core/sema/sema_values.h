// Private to core/sema: the values the Analyzer works with — what a name is bound to (Binding,
// Scope), a scalar being lowered (Scalar), affine forms (LinearForm, VarForm), Python-exact integer
// folding (IntFold), the scalar-expression builders, and RefEval (a tensor view evaluated through
// its compiled layout). Plain values and free functions: no Analyzer state.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/ir.h"
#include "core/layout/compiled_layout.h"
#include "core/sema/sema.h"

namespace tirx::sema {

/// What a name is bound to.
struct Binding {
  enum class Kind {
    Namespace,      ///< `T` (tvm.script.tirx / tvm_tirx.script.tirx)
    LayoutBuilder,  ///< S, R, TileLayout, Axis imported from *.tirx.layout
    Axis,           ///< laneid, warpid, ... from *.backend.cuda.axis
    IntConst,       ///< module-level integer constant (or kernel-local static)
    FloatConst,     ///< module-level float constant: floatValue (sema_constants.cpp)
    Layout,         ///< module-level TileLayout constant
    Function,       ///< private scalar function (index into Program::functions)
    ComposeLayout,  ///< module-level ComposeLayout constant (index into m_composeLayouts)
    Kernel,         ///< @T.function kernel
    Tensor,         ///< a buffer or a view of one (kernel scope)
    Var,            ///< a scalar variable (kernel or function scope)
    Refused,        ///< a declaration already reported as an error: uses are skipped silently
    Macro,          ///< module-level `@T.macro` def: macro (sema_macro.cpp)
    ScalarExpr,     ///< a macro parameter bound to a scalar expression: expr, literal
    Dynamic,  ///< module-level `n = T.dynamic("n")`: a symbolic extent (decision "Dynamic shapes")
    DTypeConst,  ///< module-level dtype alias (`dtype = T.float16`): intValue is the ir::DType
    Foreign,     ///< anything that is not TIRx (numpy, torch, harness values): not checked
  } kind = Kind::Foreign;
  int64_t intValue = 0;
  int index = -1;   ///< layout index, function index, var id
  int symbol = -1;  ///< Program::symbols index, -1 if none
  std::shared_ptr<const ir::TensorRef> tensor;
  SourceSpan span;
  /// A module integer whose exact value leaves int64 (`BIG = 1 << 70`): legal Python for the
  /// harness, an error (reported at this expression, once) when TIRx code uses the name.
  const ast::Expr* failedFold = nullptr;
  double floatValue = 0;  ///< FloatConst
  int macro = -1;         ///< Macro: index into Analyzer::m_macros
  int expansion = 0;      ///< the macro expansion that bound a local name (0: the kernel itself)
  ir::ExprPtr expr;       ///< ScalarExpr: the argument, substituted at each use
  bool literal = false;   ///< ScalarExpr: a bare Python literal (adopts the other operand's dtype)
};

/// A bare Python literal adopts the dtype of the other operand (spec §4.8).
struct Scalar {
  ir::ExprPtr expr;
  bool literal = false;  ///< untyped Python int/float literal (or a fold of them)
  bool ok() const { return expr != nullptr; }
};

/// Affine form of an int expression: constant + Σ coeff·atom (atoms keyed by a canonical text).
struct LinearForm {
  int64_t constant = 0;
  std::map<std::string, int64_t> terms;
  bool isConstant() const;
  int64_t divisor() const;  ///< gcd of the constant and every coefficient (0 when all zero)
};
std::optional<LinearForm> linearize(const ir::Expr& e);

/// The definition of a variable bound by one statement: its whole form when `stable` (the same
/// value wherever it is read), else `g·@atom + residue` (sema_affine.cpp).
struct VarForm {
  LinearForm form;
  bool stable = false;
};

/// Scalar expression builders.
ir::ExprPtr mkInt(int64_t v, SourceSpan span = {}, ir::DType t = ir::DType::Int32);
ir::ExprPtr mkFloat(double v, ir::DType t, SourceSpan span = {});
ir::ExprPtr mkBinary(ir::BinOp op, ir::ExprPtr a, ir::ExprPtr b, ir::DType t, SourceSpan span = {});
ir::ExprPtr mkThread(ir::ExprKind k, int dim, SourceSpan span = {});
std::optional<int64_t> constValue(const ir::Expr& e);

/// Integer constant folding with Python semantics (sema_fold.cpp): exact, or a reason why not.
struct IntFold {
  enum class Status { Ok, Overflow, DivisionByZero, NegativeShift, NegativeExponent, Unsupported };
  Status status = Status::Ok;
  int64_t value = 0;
  bool ok() const { return status == Status::Ok; }
};
/// `op` is Pos, Neg or Invert.
IntFold foldIntUnary(ast::Op op, int64_t a);
/// `op` is Add, Sub, Mul, FloorDiv, Mod, Pow, BitAnd, BitOr, BitXor, LShift or RShift.
IntFold foldIntBinary(ast::Op op, int64_t a, int64_t b);
/// True when `v` is representable in the integer (or bool) dtype `t`; true for float dtypes.
bool fitsDType(int64_t v, ir::DType t);
/// The dtype of a bare Python int literal: int32 when it fits, else int64.
ir::DType literalIntType(int64_t v);
ir::ExprPtr mkLiteralInt(int64_t v, SourceSpan span);

/// Local (register/stack) bytes one thread may allocate: CUDA's local-memory limit per thread
/// (512 KiB); sema rejects more with E0243.
constexpr int64_t kMaxLocalBytesPerThread = 512 * 1024;

/// True when the element count of `shape` exceeds 2^40 (or overflows): such shapes are rejected so
/// that every later product fits in int64.
inline bool tooManyElements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    if (d <= 0 || __builtin_mul_overflow(n, d, &n) || n > (int64_t(1) << 40)) return d > 0;
  return false;
}

/// Closest candidate for a misspelt name ("did you mean"), empty when nothing is close.
std::string closestName(const std::string& name, const std::vector<std::string>& candidates);
/// The asynchronous statement spellings (`T.ptx.mbarrier.init.shared.b64`, ...) for "did you mean".
std::vector<std::string> asyncStatementNames();
/// Every dotted builtin the checker knows (sema.cpp; published through builtin_docs.h).
const std::vector<std::string>& knownBuiltins();
/// Signature and description of each asynchronous statement (sema_async.cpp), by name.
struct AsyncStatementDoc {
  std::string name, signature, doc;
};
std::vector<AsyncStatementDoc> asyncStatementDocs();

/// A full lexical scope: kernel/function locals over the module scope.
struct Scope {
  std::map<std::string, Binding> names;
};

/// A TensorRef evaluated through a compiled layout: (m, linear thread) of a coordinate.
struct RefEval {
  const ir::TensorRef& t;
  CompiledLayout cl;
  std::vector<int64_t> rs, lo;
  explicit RefEval(const ir::TensorRef& ref, const std::vector<int64_t>* loOverride = nullptr)
      : t(ref), cl(ref.layout) {
    const size_t n = ref.layoutShape.size();
    rs.assign(n, 1);
    for (size_t d = n; d-- > 1;) rs[d - 1] = rs[d] * ref.layoutShape[d];
    lo.assign(n, 0);
    for (size_t d = 0; d < n; ++d) {
      if (loOverride)
        lo[d] = (*loOverride)[d];
      else if (d < ref.lo.size() && ref.lo[d])
        lo[d] = constValue(*ref.lo[d]).value_or(0);  // dynamic starts count as 0
    }
  }
  CompiledLayout::Point at(const std::vector<int64_t>& coord) const {
    int64_t flat = 0;
    for (size_t d = 0; d < rs.size(); ++d) {
      const int src = d < t.dimMap.size() ? t.dimMap[d] : static_cast<int>(d);
      flat += (lo[d] + (src >= 0 && size_t(src) < coord.size() ? coord[src] : 0)) * rs[d];
    }
    CompiledLayout::Point p = cl.applyFlat(flat);
    p.m += t.elemOffset;
    return p;
  }
};

}  // namespace tirx::sema
