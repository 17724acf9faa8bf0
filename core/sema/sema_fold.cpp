// Constant folding of integer literals with Python semantics, shared by the two folding paths of
// sema (static integers such as shapes and module constants, and literal arithmetic inside
// kernel code): `//` and `%` floor (the remainder takes the divisor's sign), `>>` is an arithmetic
// shift by any non-negative count, `**` is exact. Python integers are unbounded; TIRx values are
// at most 64 bits, so a fold whose exact value leaves int64 is an error at that expression
// (decision D-INT64 in docs/decisions.md), never a wrap-around. Every operation here is free of
// undefined behaviour for all int64 inputs (checked builtins, no INT64_MIN / -1).
#include <limits>

#include "core/sema/sema_internal.h"

namespace tirx::sema {

namespace {
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

IntFold ok(int64_t v) {
  return IntFold{IntFold::Status::Ok, v};
}
IntFold fail(IntFold::Status s) {
  return IntFold{s, 0};
}
}  // namespace

IntFold foldIntUnary(ast::Op op, int64_t a) {
  switch (op) {
    case ast::Op::Pos:
      return ok(a);
    case ast::Op::Neg:
      return a == kMin ? fail(IntFold::Status::Overflow) : ok(-a);
    case ast::Op::Invert:
      return ok(~a);
    default:
      return fail(IntFold::Status::Unsupported);
  }
}

IntFold foldIntBinary(ast::Op op, int64_t a, int64_t b) {
  int64_t r = 0;
  switch (op) {
    case ast::Op::Add:
      return __builtin_add_overflow(a, b, &r) ? fail(IntFold::Status::Overflow) : ok(r);
    case ast::Op::Sub:
      return __builtin_sub_overflow(a, b, &r) ? fail(IntFold::Status::Overflow) : ok(r);
    case ast::Op::Mul:
      return __builtin_mul_overflow(a, b, &r) ? fail(IntFold::Status::Overflow) : ok(r);
    case ast::Op::FloorDiv:
    case ast::Op::Mod: {
      if (b == 0) return fail(IntFold::Status::DivisionByZero);
      if (b == -1) {
        // a // -1 = -a (overflows for INT64_MIN only); a % -1 = 0. Never evaluate INT64_MIN / -1.
        if (op == ast::Op::Mod) return ok(0);
        return a == kMin ? fail(IntFold::Status::Overflow) : ok(-a);
      }
      int64_t q = a / b, m = a % b;
      if (m != 0 && ((m < 0) != (b < 0))) {  // Python floors: the remainder has the divisor's sign
        q -= 1;
        m += b;
      }
      return ok(op == ast::Op::FloorDiv ? q : m);
    }
    case ast::Op::BitAnd:
      return ok(a & b);
    case ast::Op::BitOr:
      return ok(a | b);
    case ast::Op::BitXor:
      return ok(a ^ b);
    case ast::Op::LShift: {
      if (b < 0) return fail(IntFold::Status::NegativeShift);
      if (a == 0) return ok(0);
      if (b >= 64) return fail(IntFold::Status::Overflow);
      if (b == 63) return a == -1 ? ok(kMin) : fail(IntFold::Status::Overflow);  // 2^63 is no int64
      // a << b == a * 2^b exactly when it stays in range (Python shifts are multiplications).
      return __builtin_mul_overflow(a, int64_t{1} << b, &r) ? fail(IntFold::Status::Overflow)
                                                            : ok(r);
    }
    case ast::Op::RShift:
      if (b < 0) return fail(IntFold::Status::NegativeShift);
      if (b >= 63) return ok(a < 0 ? -1 : 0);
      return ok(a >> b);  // arithmetic shift = floor division by 2^b (defined in C++20)
    case ast::Op::Pow: {
      if (b < 0)
        return fail(a == 0 ? IntFold::Status::DivisionByZero : IntFold::Status::NegativeExponent);
      if (b == 0) return ok(1);
      if (a == 0 || a == 1) return ok(a);
      if (a == -1) return ok(b % 2 == 0 ? 1 : -1);
      r = 1;  // |a| >= 2: the loop overflows within 64 steps
      for (int64_t i = 0; i < b; ++i)
        if (__builtin_mul_overflow(r, a, &r)) return fail(IntFold::Status::Overflow);
      return ok(r);
    }
    default:
      return fail(IntFold::Status::Unsupported);
  }
}

bool Analyzer::reportFoldError(const IntFold& f, SourceSpan span) {
  if (f.ok()) return false;
  if (m_quietFolds) {
    m_foldFailedQuietly = true;
    return true;
  }
  const std::string what = "'" + text(span) + "'";
  switch (f.status) {
    case IntFold::Status::Ok:
      return false;
    case IntFold::Status::Overflow:
      error("E0240", span,
            "integer overflow: " + what +
                " does not fit in 64 bits (TIRx integers are at most int64)");
      return true;
    case IntFold::Status::DivisionByZero:
      error("E0156", span, "integer division by zero");
      return true;
    case IntFold::Status::NegativeShift:
      error("E0244", span, "negative shift count in " + what);
      return true;
    case IntFold::Status::NegativeExponent:
      error("E0244", span, "negative exponent in " + what + " (the result would be a float)");
      return true;
    case IntFold::Status::Unsupported:
      error("E0151", span, "operator is not supported on integer constants in " + what);
      return true;
  }
  return true;
}

bool fitsDType(int64_t v, ir::DType t) {
  switch (t) {
    case ir::DType::Bool:
      return v == 0 || v == 1;
    case ir::DType::Int8:
      return v >= INT8_MIN && v <= INT8_MAX;
    case ir::DType::Int16:
      return v >= INT16_MIN && v <= INT16_MAX;
    case ir::DType::Int32:
      return v >= INT32_MIN && v <= INT32_MAX;
    case ir::DType::Int64:
      return true;
    case ir::DType::UInt8:
      return v >= 0 && v <= UINT8_MAX;
    case ir::DType::UInt16:
      return v >= 0 && v <= UINT16_MAX;
    case ir::DType::UInt32:
      return v >= 0 && v <= UINT32_MAX;
    case ir::DType::UInt64:
      return v >= 0;  // literals never exceed INT64_MAX
    default:
      return true;
  }
}

ir::DType Analyzer::concreteLiteralType(const Scalar& a, const Scalar& b) {
  if (a.expr->kind == ir::ExprKind::FloatImm || b.expr->kind == ir::ExprKind::FloatImm)
    return ir::DType::Float32;
  if (a.expr->dtype == ir::DType::Int64 || b.expr->dtype == ir::DType::Int64)
    return ir::DType::Int64;
  return literalIntType(a.expr->intValue) == ir::DType::Int64 ||
                 literalIntType(b.expr->intValue) == ir::DType::Int64
             ? ir::DType::Int64
             : ir::DType::Int32;
}

void Analyzer::literalOutOfRange(int64_t v, ir::DType t, SourceSpan span, const std::string& what) {
  auto& d = error("E0241", span,
                  "integer " + std::to_string(v) + " does not fit in " +
                      std::string(ir::dtypeName(t)) + " (" + what + ")");
  note(d, span,
       "TIRx does not wrap literals; use a wider dtype such as T.int64(...) or a value in range");
}

ir::DType literalIntType(int64_t v) {
  return fitsDType(v, ir::DType::Int32) ? ir::DType::Int32 : ir::DType::Int64;
}

ir::ExprPtr mkLiteralInt(int64_t v, SourceSpan span) {
  return mkInt(v, span, literalIntType(v));
}

}  // namespace tirx::sema
