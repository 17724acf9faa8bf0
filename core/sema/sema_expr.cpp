// Scalar expressions: literals, typed constructors (T.float32(2)), variables, thread/block
// indices, arithmetic with Python semantics (spec §4.8: `//` and `%` floor on ints, bare literals
// adopt the other operand's dtype, no implicit casts between typed operands), comparisons,
// boolean operators, intrinsics (T.exp, ...), calls of private scalar functions and element
// loads. Also the affine forms used for region extents and alignment proofs.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/sema/sema_internal.h"

namespace tirx::sema {

using ir::DType;
using ir::ExprKind;

ir::ExprPtr mkInt(int64_t v, SourceSpan span, DType t) {
  auto e = std::make_shared<ir::Expr>();
  e->kind = t == DType::Bool ? ExprKind::BoolImm : ExprKind::IntImm;
  e->dtype = t;
  e->intValue = v;
  e->floatValue = static_cast<double>(v);
  e->span = span;
  return e;
}

ir::ExprPtr mkFloat(double v, DType t, SourceSpan span) {
  auto e = std::make_shared<ir::Expr>();
  e->kind = ExprKind::FloatImm;
  e->dtype = t;
  e->floatValue = v;
  e->span = span;
  return e;
}

ir::ExprPtr mkBinary(ir::BinOp op, ir::ExprPtr a, ir::ExprPtr b, DType t, SourceSpan span) {
  auto e = std::make_shared<ir::Expr>();
  const bool cmp = op == ir::BinOp::Eq || op == ir::BinOp::Ne || op == ir::BinOp::Lt ||
                   op == ir::BinOp::Le || op == ir::BinOp::Gt || op == ir::BinOp::Ge;
  const bool logical = op == ir::BinOp::And || op == ir::BinOp::Or;
  e->kind = cmp ? ExprKind::Compare : logical ? ExprKind::Logical : ExprKind::Binary;
  e->op = op;
  e->dtype = t;
  e->args = {std::move(a), std::move(b)};
  e->span = span;
  return e;
}

ir::ExprPtr mkThread(ExprKind k, int dim, SourceSpan span) {
  auto e = std::make_shared<ir::Expr>();
  e->kind = k;
  e->dim = dim;
  e->dtype = DType::Int32;
  e->span = span;
  return e;
}

std::optional<int64_t> constValue(const ir::Expr& e) {
  if (e.kind == ExprKind::IntImm || e.kind == ExprKind::BoolImm) return e.intValue;
  return std::nullopt;
}

bool LinearForm::isConstant() const {
  return terms.empty();
}

int64_t LinearForm::divisor() const {
  // In uint64: |INT64_MIN| = 2^63 has no int64 value; 2^62 divides it and is a sound answer.
  auto mag = [](int64_t v) {
    return v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  };
  uint64_t g = mag(constant);
  for (const auto& [k, c] : terms) g = std::gcd(g, mag(c));
  return g > static_cast<uint64_t>(INT64_MAX) ? int64_t{1} << 62 : static_cast<int64_t>(g);
}

namespace {
/// A canonical text of a pure integer expression (no loads, no calls), equal for two expressions
/// exactly when they are built the same way; nullopt for an impure one.
std::optional<std::string> pureKey(const ir::Expr& e) {
  std::string k;
  switch (e.kind) {
    case ExprKind::IntImm:
      return std::to_string(e.intValue);
    case ExprKind::Var:
      return "v" + std::to_string(e.var);
    case ExprKind::ThreadIdx:
      return "t" + std::to_string(e.dim);
    case ExprKind::BlockIdx:
      return "b" + std::to_string(e.dim);
    case ExprKind::BlockDim:
      return "bd" + std::to_string(e.dim);
    case ExprKind::GridDim:
      return "gd" + std::to_string(e.dim);
    case ExprKind::Unary:
    case ExprKind::Binary:
    case ExprKind::Compare:
    case ExprKind::Logical:
    case ExprKind::Select:
    case ExprKind::Cast:
    case ExprKind::Intrinsic:
      k = "(" + std::to_string(static_cast<int>(e.kind)) + ":" +
          std::to_string(static_cast<int>(e.op)) + ":" + e.name + ":" +
          std::string(ir::dtypeName(e.dtype));
      for (const auto& a : e.args) {
        if (!a) return std::nullopt;
        auto ak = pureKey(*a);
        if (!ak) return std::nullopt;
        k += " " + *ak;
      }
      return k + ")";
    default:
      return std::nullopt;
  }
}

/// A non-affine pure integer expression (`bx % 2`, `i * j`) as one opaque atom: its value is some
/// integer, the same wherever the same expression appears, so `bx % 2 * 4 + 4 - bx % 2 * 4` is 4.
std::optional<LinearForm> opaqueAtom(const ir::Expr& e) {
  if (!ir::isInt(e.dtype)) return std::nullopt;
  auto k = pureKey(e);
  if (!k) return std::nullopt;
  LinearForm f;
  f.terms["@" + *k] = 1;
  return f;
}
}  // namespace

std::optional<LinearForm> linearize(const ir::Expr& e) {
  // Every coefficient is exact: a form whose arithmetic would leave int64 is "not affine".
  LinearForm f;
  switch (e.kind) {
    case ExprKind::IntImm:
      f.constant = e.intValue;
      return f;
    case ExprKind::Var:
      f.terms["v" + std::to_string(e.var)] = 1;
      return f;
    case ExprKind::ThreadIdx:
      f.terms["t" + std::to_string(e.dim)] = 1;
      return f;
    case ExprKind::BlockIdx:
      f.terms["b" + std::to_string(e.dim)] = 1;
      return f;
    case ExprKind::Unary:
      if (e.op == ir::BinOp::Neg) {
        auto a = linearize(*e.args[0]);
        if (!a) return std::nullopt;
        if (__builtin_sub_overflow(int64_t{0}, a->constant, &a->constant)) return std::nullopt;
        for (auto& [k, c] : a->terms)
          if (__builtin_sub_overflow(int64_t{0}, c, &c)) return std::nullopt;
        return a;
      }
      return opaqueAtom(e);
    case ExprKind::Binary: {
      if (e.op != ir::BinOp::Add && e.op != ir::BinOp::Sub && e.op != ir::BinOp::Mul)
        return opaqueAtom(e);
      auto a = linearize(*e.args[0]);
      auto b = linearize(*e.args[1]);
      if (!a || !b) return std::nullopt;
      if (e.op == ir::BinOp::Add || e.op == ir::BinOp::Sub) {
        const bool add = e.op == ir::BinOp::Add;
        auto combine = [add](int64_t x, int64_t y, int64_t& out) {
          return add ? __builtin_add_overflow(x, y, &out) : __builtin_sub_overflow(x, y, &out);
        };
        if (combine(a->constant, b->constant, a->constant)) return std::nullopt;
        for (const auto& [k, c] : b->terms) {
          int64_t& t = a->terms[k];
          if (combine(t, c, t)) return std::nullopt;
          if (t == 0) a->terms.erase(k);
        }
        return a;
      }
      if (e.op == ir::BinOp::Mul) {
        if (!a->isConstant() && !b->isConstant()) return opaqueAtom(e);
        LinearForm& v = a->isConstant() ? *b : *a;
        const int64_t k = a->isConstant() ? a->constant : b->constant;
        if (__builtin_mul_overflow(v.constant, k, &v.constant)) return std::nullopt;
        for (auto& [n, c] : v.terms)
          if (__builtin_mul_overflow(c, k, &c)) return std::nullopt;
        if (k == 0) v.terms.clear();
        return v;
      }
      return std::nullopt;
    }
    default:
      return opaqueAtom(e);
  }
}

bool Analyzer::threadDependent(const ir::Expr& e) const {
  switch (e.kind) {
    case ExprKind::ThreadIdx:
      return true;
    case ExprKind::Intrinsic:
      if (e.name == "elect_sync") return true;
      break;
    case ExprKind::Var:
      return m_body && e.var >= 0 && e.var < static_cast<int>(m_body->varThreadDep.size()) &&
             m_body->varThreadDep[e.var];
    case ExprKind::Load:
      if (e.tensor && e.tensor->scope == ir::MemScope::Local) return true;
      break;
    default:
      break;
  }
  for (const auto& a : e.args)
    if (a && threadDependent(*a)) return true;
  if (e.tensor)
    for (const auto& l : e.tensor->lo)
      if (l && threadDependent(*l)) return true;
  return false;
}

Scalar Analyzer::coerce(Scalar s, DType t, SourceSpan span, const char* what) {
  if (!s.ok()) return s;
  if (s.expr->dtype == t) return Scalar{s.expr, false};
  if (s.literal) {
    const ir::Expr& e = *s.expr;
    if (ir::isFloat(t)) {
      const double v =
          e.kind == ExprKind::FloatImm ? e.floatValue : static_cast<double>(e.intValue);
      return Scalar{mkFloat(v, t, e.span), false};
    }
    if ((ir::isInt(t) || t == DType::Bool) && e.kind != ExprKind::FloatImm) {
      if (!fitsDType(e.intValue, t)) {
        literalOutOfRange(e.intValue, t, span, what);
        return Scalar{};
      }
      return Scalar{mkInt(e.intValue, e.span, t), false};
    }
  }
  error("E0150", span,
        std::string(what) + " expects " + std::string(ir::dtypeName(t)) + ", found " +
            (s.literal ? "a float literal" : std::string(ir::dtypeName(s.expr->dtype))) +
            " (no implicit conversions; use T.Cast)");
  return Scalar{};
}

bool Analyzer::unify(Scalar& a, Scalar& b, SourceSpan span, const std::string& opText) {
  if (!a.ok() || !b.ok()) return false;
  if (a.literal && b.literal) {
    // Python folds literal arithmetic: int op float → float (int32 and int64 literals stay ints).
    if ((a.expr->kind == ExprKind::FloatImm) != (b.expr->kind == ExprKind::FloatImm)) {
      if (a.expr->kind != ExprKind::FloatImm)
        a.expr = mkFloat(double(a.expr->intValue), DType::Float32, a.expr->span);
      if (b.expr->kind != ExprKind::FloatImm)
        b.expr = mkFloat(double(b.expr->intValue), DType::Float32, b.expr->span);
    }
    return true;
  }
  if (a.literal) {
    a = coerce(a, b.expr->dtype, a.expr->span, ("operand of '" + opText + "'").c_str());
    return a.ok();
  }
  if (b.literal) {
    b = coerce(b, a.expr->dtype, b.expr->span, ("operand of '" + opText + "'").c_str());
    return b.ok();
  }
  if (a.expr->dtype != b.expr->dtype) {
    auto& d = error("E0150", span,
                    "operands of '" + opText +
                        "' have different types: " + std::string(ir::dtypeName(a.expr->dtype)) +
                        " and " + std::string(ir::dtypeName(b.expr->dtype)));
    note(d, span,
         "TIRx does not convert implicitly; use T.Cast(\"" +
             std::string(ir::dtypeName(a.expr->dtype)) + "\", x) on one side");
    return false;
  }
  return true;
}

ir::ExprPtr Analyzer::asBool(Scalar s, SourceSpan span) {
  if (!s.ok()) return nullptr;
  const DType t = s.expr->dtype;
  if (t == DType::Bool) return s.expr;
  if (ir::isInt(t)) return mkBinary(ir::BinOp::Ne, s.expr, mkInt(0, span, t), DType::Bool, span);
  error("E0152", span,
        "a condition must be a bool or an integer, found " + std::string(ir::dtypeName(t)));
  return nullptr;
}

ir::ExprPtr Analyzer::lowerIndex(const ast::Expr& e) {
  Scalar s = lowerScalar(e);
  if (!s.ok()) return nullptr;
  if (s.literal && s.expr->kind == ExprKind::FloatImm) {
    error("E0141", e.span, "an index must be an integer, found '" + text(e.span) + "'");
    return nullptr;
  }
  if (s.literal) return mkLiteralInt(s.expr->intValue, e.span);  // int64 beyond int32
  if (!ir::isInt(s.expr->dtype)) {
    error("E0141", e.span,
          "an index must be an integer, found " + std::string(ir::dtypeName(s.expr->dtype)));
    return nullptr;
  }
  return s.expr;
}

namespace {
ir::BinOp binOpOf(ast::Op op, bool isFloat, bool& ok) {
  ok = true;
  switch (op) {
    case ast::Op::Add:
      return ir::BinOp::Add;
    case ast::Op::Sub:
      return ir::BinOp::Sub;
    case ast::Op::Mul:
      return ir::BinOp::Mul;
    case ast::Op::Div:
      return ir::BinOp::Div;
    case ast::Op::FloorDiv:
      ok = !isFloat;
      return ir::BinOp::FloorDiv;
    case ast::Op::Mod:
      ok = !isFloat;
      return ir::BinOp::Mod;
    case ast::Op::BitAnd:
      ok = !isFloat;
      return ir::BinOp::BitAnd;
    case ast::Op::BitOr:
      ok = !isFloat;
      return ir::BinOp::BitOr;
    case ast::Op::BitXor:
      ok = !isFloat;
      return ir::BinOp::BitXor;
    case ast::Op::LShift:
      ok = !isFloat;
      return ir::BinOp::Shl;
    case ast::Op::RShift:
      ok = !isFloat;
      return ir::BinOp::Shr;
    default:
      ok = false;
      return ir::BinOp::Add;
  }
}

}  // namespace

Scalar Analyzer::lowerBinary(const ast::Expr& e, ast::Op op, Scalar a, Scalar b, SourceSpan span) {
  const std::string opText = ast::opSpelling(op);
  if (!unify(a, b, span, opText)) return Scalar{};
  if (a.literal && b.literal) return foldLiterals(op, a, b, span);
  const DType t = a.expr->dtype;
  bool ok = true;
  const ir::BinOp bop = binOpOf(op, ir::isFloat(t), ok);
  if (!ok || t == DType::Bool) {
    error("E0151", span,
          "operator '" + opText + "' is not supported on " + std::string(ir::dtypeName(t)));
    return Scalar{};
  }
  if ((bop == ir::BinOp::FloorDiv || bop == ir::BinOp::Mod || bop == ir::BinOp::Div) &&
      ir::isInt(t) && constValue(*b.expr) == 0) {
    error("E0156", span, "integer division by zero");
    return Scalar{};
  }
  (void)e;
  return Scalar{mkBinary(bop, a.expr, b.expr, t, span), false};
}

Scalar Analyzer::foldLiterals(ast::Op op, const Scalar& a, const Scalar& b, SourceSpan span) {
  const std::string opText = ast::opSpelling(op);
  const bool isFloat = a.expr->kind == ExprKind::FloatImm || b.expr->kind == ExprKind::FloatImm;
  if (isFloat) {
    // Python float arithmetic on the literals (unify made both float); the value is rounded to
    // float32 when it meets a typed operand.
    const double x = a.expr->floatValue, y = b.expr->floatValue;
    switch (op) {
      case ast::Op::Add:
        return Scalar{mkFloat(x + y, DType::Float32, span), true};
      case ast::Op::Sub:
        return Scalar{mkFloat(x - y, DType::Float32, span), true};
      case ast::Op::Mul:
        return Scalar{mkFloat(x * y, DType::Float32, span), true};
      case ast::Op::Div:
        if (y == 0) {
          error("E0156", span, "float division by zero");
          return Scalar{};
        }
        return Scalar{mkFloat(x / y, DType::Float32, span), true};
      default:
        error("E0151", span, "operator '" + opText + "' is not supported on float literals");
        return Scalar{};
    }
  }
  const int64_t x = a.expr->intValue, y = b.expr->intValue;
  if (op == ast::Op::Div) {  // true division of ints is a float in Python
    if (y == 0) {
      error("E0156", span, "integer division by zero");
      return Scalar{};
    }
    return Scalar{mkFloat(double(x) / double(y), DType::Float32, span), true};
  }
  if (op == ast::Op::Pow && y < 0) {  // int ** negative int is a float in Python
    if (x == 0) {
      error("E0156", span, "0 cannot be raised to a negative power (division by zero)");
      return Scalar{};
    }
    return Scalar{mkFloat(std::pow(double(x), double(y)), DType::Float32, span), true};
  }
  const IntFold f = foldIntBinary(op, x, y);
  if (f.status == IntFold::Status::Unsupported) {
    error("E0151", span, "operator '" + opText + "' is not supported on integer literals");
    return Scalar{};
  }
  if (reportFoldError(f, span)) return Scalar{};
  return Scalar{mkLiteralInt(f.value, span), true};
}

Scalar Analyzer::lowerCompare(const ast::Expr& e) {
  ir::ExprPtr result;
  Scalar left = lowerScalar(*e.args[0]);
  for (size_t i = 0; i < e.ops.size() && i + 1 < e.args.size(); ++i) {
    Scalar right = lowerScalar(*e.args[i + 1]);
    Scalar l = left, r = right;
    const ast::Op op = e.ops[i];
    ir::BinOp bop;
    switch (op) {
      case ast::Op::Eq:
        bop = ir::BinOp::Eq;
        break;
      case ast::Op::NotEq:
        bop = ir::BinOp::Ne;
        break;
      case ast::Op::Lt:
        bop = ir::BinOp::Lt;
        break;
      case ast::Op::LtE:
        bop = ir::BinOp::Le;
        break;
      case ast::Op::Gt:
        bop = ir::BinOp::Gt;
        break;
      case ast::Op::GtE:
        bop = ir::BinOp::Ge;
        break;
      default:
        error("E0151", e.span,
              std::string("operator '") + ast::opSpelling(op) + "' is not supported in TIRx code");
        return Scalar{};
    }
    if (!unify(l, r, e.span, ast::opSpelling(op))) return Scalar{};
    if (l.literal && r.literal) {  // both literals: int32/int64/float32, one dtype for both
      const DType t = concreteLiteralType(l, r);
      l = coerce(l, t, e.span, "comparison");
      r = coerce(r, t, e.span, "comparison");
      if (!l.ok() || !r.ok()) return Scalar{};
    }
    auto c = mkBinary(bop, l.expr, r.expr, DType::Bool, e.span);
    result = result ? mkBinary(ir::BinOp::And, result, c, DType::Bool, e.span) : c;
    left = right;
  }
  return Scalar{result, false};
}

/// A name used as a scalar: a module constant, a variable or a macro argument (E0155 otherwise).
Scalar Analyzer::lowerScalarName(const ast::Expr& e) {
  const Binding* b = lookup(e.text);
  if (!b) {
    unknownName(e);
    return Scalar{};
  }
  useSymbol(b->symbol, e.span);
  if (b->failedFold) {
    reportModuleFold(*b);
    return Scalar{};
  }
  if (b->kind == Binding::Kind::IntConst) return Scalar{mkLiteralInt(b->intValue, e.span), true};
  // A module float constant is a bare Python float at each use (decision L-1).
  if (b->kind == Binding::Kind::FloatConst)
    return Scalar{mkFloat(b->floatValue, DType::Float32, e.span), true};
  if (b->kind == Binding::Kind::ScalarExpr) return Scalar{b->expr, b->literal};  // a macro argument
  if (b->kind == Binding::Kind::Var) {
    auto v = std::make_shared<ir::Expr>();
    v->kind = ExprKind::Var;
    v->var = b->index;
    v->dtype = (*m_body->vars)[b->index].dtype;
    v->span = e.span;
    return Scalar{v, false};
  }
  if (b->kind == Binding::Kind::Tensor) {
    error("E0155", e.span, "'" + e.text + "' is a tensor; a scalar expression is expected here");
    return Scalar{};
  }
  error("E0155", e.span, "'" + e.text + "' cannot be used as a scalar value");
  return Scalar{};
}

/// A unary operator on a scalar (+, -, ~, not), folded when its operand is a literal.
Scalar Analyzer::lowerUnary(const ast::Expr& e) {
  Scalar a = lowerScalar(*e.args[0]);
  if (!a.ok()) return a;
  if (e.op == ast::Op::Pos) return a;
  if (e.op == ast::Op::Not) {
    auto c = asBool(a, e.args[0]->span);
    if (!c) return Scalar{};
    auto u = std::make_shared<ir::Expr>();
    u->kind = ExprKind::Unary;
    u->op = ir::BinOp::Not;
    u->dtype = DType::Bool;
    u->args = {c};
    u->span = e.span;
    return Scalar{u, false};
  }
  if (a.literal) {
    if (e.op == ast::Op::Neg && a.expr->kind == ExprKind::FloatImm)
      return Scalar{mkFloat(-a.expr->floatValue, DType::Float32, e.span), true};
    if (e.op == ast::Op::Invert && a.expr->kind == ExprKind::FloatImm) {
      error("E0151", e.span, "operator '~' is not supported on float literals");
      return Scalar{};
    }
    const IntFold f = foldIntUnary(e.op, a.expr->intValue);
    if (reportFoldError(f, e.span)) return Scalar{};
    return Scalar{mkLiteralInt(f.value, e.span), true};
  }
  const DType t = a.expr->dtype;
  if ((e.op == ast::Op::Neg && t == DType::Bool) || (e.op == ast::Op::Invert && !ir::isInt(t))) {
    error("E0151", e.span,
          std::string("operator '") + ast::opSpelling(e.op) + "' is not supported on " +
              std::string(ir::dtypeName(t)));
    return Scalar{};
  }
  auto u = std::make_shared<ir::Expr>();
  u->kind = ExprKind::Unary;
  u->op = e.op == ast::Op::Neg ? ir::BinOp::Neg : ir::BinOp::Invert;
  u->dtype = t;
  u->args = {a.expr};
  u->span = e.span;
  return Scalar{u, false};
}

Scalar Analyzer::lowerScalar(const ast::Expr& e) {
  using K = ast::ExprKind;
  switch (e.kind) {
    case K::Int: {
      if (e.intValue > INT32_MAX || e.intValue < INT32_MIN)
        return Scalar{mkInt(e.intValue, e.span, DType::Int64), true};
      return Scalar{mkInt(e.intValue, e.span), true};
    }
    case K::Float:
      return Scalar{mkFloat(e.floatValue, DType::Float32, e.span), true};
    case K::Bool:
      return Scalar{mkInt(e.boolValue ? 1 : 0, e.span, DType::Bool), false};
    case K::Name:
      return lowerScalarName(e);
    case K::Unary:
      return lowerUnary(e);
    case K::Binary: {
      Scalar a = lowerScalar(*e.args[0]);
      Scalar b = lowerScalar(*e.args[1]);
      if (!a.ok() || !b.ok()) return Scalar{};
      return lowerBinary(e, e.op, a, b, e.span);
    }
    case K::Compare:
      return lowerCompare(e);
    case K::BoolOp: {
      ir::ExprPtr acc;
      for (const auto& arg : e.args) {
        auto c = asBool(lowerScalar(*arg), arg->span);
        if (!c) return Scalar{};
        acc = acc ? mkBinary(e.op == ast::Op::And ? ir::BinOp::And : ir::BinOp::Or, acc, c,
                             DType::Bool, e.span)
                  : c;
      }
      return Scalar{acc, false};
    }
    case K::IfExp: {
      auto c = asBool(lowerScalar(*e.args[1]), e.args[1]->span);
      Scalar a = lowerScalar(*e.args[0]);
      Scalar b = lowerScalar(*e.args[2]);
      if (!c || !unify(a, b, e.span, "if-else")) return Scalar{};
      if (a.literal && b.literal) {
        // A select is not a literal: both branches take one concrete dtype (int32/int64/float32).
        const DType t = concreteLiteralType(a, b);
        a = coerce(a, t, e.span, "if-else");
        b = coerce(b, t, e.span, "if-else");
        if (!a.ok() || !b.ok()) return Scalar{};
      }
      auto s = std::make_shared<ir::Expr>();
      s->kind = ExprKind::Select;
      s->dtype = a.expr->dtype;
      s->args = {c, a.expr, b.expr};
      s->span = e.span;
      return Scalar{s, false};
    }
    case K::Call:
      return lowerCall(e);
    case K::Subscript:
      return lowerLoad(e);
    case K::Attribute: {
      const std::string p = builtinPath(e);
      if (!p.empty()) {
        error("E0155", e.span,
              "'" + p + "' is not a scalar value; did you forget the call parentheses?");
        return Scalar{};
      }
      error("E0107", e.span, "unsupported expression '" + text(e.span) + "' in TIRx code");
      return Scalar{};
    }
    case K::Str:
      error("E0155", e.span, "a string is not a scalar value");
      return Scalar{};
    case K::FString:
      error("E0107", e.span, "f-strings are not supported in TIRx code");
      return Scalar{};
    case K::Lambda:
      error("E0107", e.span, "lambda expressions are not supported here");
      return Scalar{};
    default:
      error("E0107", e.span, "unsupported expression '" + text(e.span) + "' in TIRx code");
      return Scalar{};
  }
}

Scalar Analyzer::lowerCall(const ast::Expr& e) {
  const ast::Expr& callee = *e.args[0];
  if (callee.kind == ast::ExprKind::Name) {
    const Binding* b = lookup(callee.text);
    if (!b && m_body && m_body->function && callee.text == m_body->function->name) {
      error("E0204", callee.span,
            "scalar function '" + callee.text + "' cannot call itself (no recursion)");
      return Scalar{};
    }
    if (!b) {
      unknownName(callee);
      auto it = m_functionDefs.find(callee.text);
      if (it != m_functionDefs.end())
        note(m_diags.back(), it->second,
             "'" + callee.text + "' is defined later; define scalar functions before their uses");
      return Scalar{};
    }
    useSymbol(b->symbol, callee.span);
    if (b->kind == Binding::Kind::Function) return lowerFunctionCall(e, b->index);
    if (b->kind == Binding::Kind::Kernel) {
      error("E0204", callee.span,
            "'" + callee.text +
                "' is a kernel; only private scalar functions can be called from TIRx code");
      return Scalar{};
    }
    if (b->kind == Binding::Kind::Macro) {
      error("E0155", e.span,
            "macro '" + callee.text + "' does not produce a value; call it as a statement");
      return Scalar{};
    }
    error("E0107", callee.span, "'" + callee.text + "' cannot be called in TIRx code");
    return Scalar{};
  }
  if (isAsyncStatement(e)) {
    error("E0155", e.span,
          "'" + text(callee.span) + "' does not produce a value; call it as a statement");
    return Scalar{};
  }
  const std::string p = builtinPath(callee);
  if (p.empty()) {
    if (callee.kind == ast::ExprKind::Attribute && callee.text == "view") {
      error("E0155", e.span, "a tensor view is not a scalar value");
      return Scalar{};
    }
    error("E0107", callee.span, "unsupported call '" + text(callee.span) + "' in TIRx code");
    return Scalar{};
  }
  return lowerBuiltinCall(e, p);
}

Scalar Analyzer::lowerFunctionCall(const ast::Expr& e, int func) {
  const ir::ScalarFunction& f = m_program.functions[func];
  const std::string display = f.name;
  const int npos = static_cast<int>(e.args.size()) - 1;
  if (npos != static_cast<int>(f.params.size()) || !e.keywords.empty()) {
    auto& d =
        error("E0204", e.span,
              "'" + f.name + "' takes " + std::to_string(f.params.size()) + " positional argument" +
                  (f.params.size() == 1 ? "" : "s") + ", found " + std::to_string(npos) +
                  (e.keywords.empty() ? "" : " and keyword arguments"));
    note(d, f.span, "'" + f.name + "' is defined here");
    return Scalar{};
  }
  auto c = std::make_shared<ir::Expr>();
  c->kind = ExprKind::Call;
  c->func = func;
  c->dtype = f.ret;
  c->span = e.span;
  for (size_t i = 0; i < f.params.size(); ++i) {
    const ir::Var& pv = f.vars[f.params[i]];
    Scalar a = coerce(lowerScalar(*e.args[i + 1]), pv.dtype, e.args[i + 1]->span,
                      ("parameter '" + pv.name + "' of " + f.name).c_str());
    if (!a.ok()) return Scalar{};
    c->args.push_back(a.expr);
  }
  return Scalar{c, false};
}

/// Typed constructors (`T.float32(2)`, `T.int32(x)`) and `T.Cast` / `T.cast`; nullopt when `p`
/// names neither.
std::optional<Scalar> Analyzer::lowerCastCall(const ast::Expr& e, const std::string& p) {
  const SourceSpan span = e.span;
  auto arg = [&](int i) -> const ast::Expr& { return *e.args[i + 1]; };
  // Typed constructors: T.float32(2), T.int32(x).
  if (p.size() > 2) {
    if (auto t = ir::parseDType(p.substr(2)); t && *t != DType::Void) {
      if (!checkCallShape(e, p, 1, 1, {})) return Scalar{};
      Scalar v = lowerScalar(arg(0));
      if (!v.ok()) return v;
      if (v.literal) {
        if (v.expr->kind == ExprKind::FloatImm && !ir::isFloat(*t)) {
          error("E0150", arg(0).span, p + " expects an integer value, found a float literal");
          return Scalar{};
        }
        if (ir::isFloat(*t)) return Scalar{mkFloat(v.expr->floatValue, *t, span), false};
        if (*t == DType::Bool) return Scalar{mkInt(v.expr->intValue != 0, span, *t), false};
        if (!fitsDType(v.expr->intValue, *t)) {
          literalOutOfRange(v.expr->intValue, *t, arg(0).span, p.c_str());
          return Scalar{};
        }
        return Scalar{mkInt(v.expr->intValue, span, *t), false};
      }
      if (v.expr->dtype == *t) return Scalar{v.expr, false};
      auto c = std::make_shared<ir::Expr>();
      c->kind = ExprKind::Cast;
      c->dtype = *t;
      c->args = {v.expr};
      c->span = span;
      return Scalar{c, false};
    }
  }
  if (p == "T.Cast" || p == "T.cast") {
    if (!checkCallShape(e, p, 2, 2, {})) return Scalar{};
    const bool dtypeFirst = p == "T.Cast";
    auto t = dtypeArg(arg(dtypeFirst ? 0 : 1));
    Scalar v = lowerScalar(arg(dtypeFirst ? 1 : 0));
    if (!t || !v.ok()) return Scalar{};
    if (v.literal) v = coerce(v, concreteLiteralType(v, v), span, p.c_str());
    auto c = std::make_shared<ir::Expr>();
    c->kind = ExprKind::Cast;
    c->dtype = *t;
    c->args = {v.expr};
    c->span = span;
    return Scalar{c, false};
  }
  return std::nullopt;
}

/// Thread and block indices (spec §4.4), the linear thread, lane and warp ids and
/// `T.cuda.elect_sync()`; nullopt when `p` names none of them.
std::optional<Scalar> Analyzer::lowerThreadIndexCall(const ast::Expr& e, const std::string& p) {
  const SourceSpan span = e.span;
  auto arg = [&](int i) -> const ast::Expr& { return *e.args[i + 1]; };
  const int nargs = static_cast<int>(e.args.size()) - 1;
  auto dimArg = [&](int& dim) -> bool {
    dim = 0;
    if (nargs == 0) return true;
    const ast::Expr& a = arg(0);
    if (a.kind == ast::ExprKind::Str && (a.text == "x" || a.text == "y" || a.text == "z")) {
      dim = a.text[0] - 'x';
      return true;
    }
    if (a.kind == ast::ExprKind::Int && a.intValue >= 0 && a.intValue <= 2) {
      dim = int(a.intValue);
      return true;
    }
    error("E0105", a.span, p + " expects \"x\", \"y\" or \"z\", found '" + text(a.span) + "'");
    return false;
  };
  const struct {
    const char* name;
    ExprKind kind;
  } indexCalls[] = {{"T.cuda.thread_idx", ExprKind::ThreadIdx},
                    {"T.cuda.block_idx", ExprKind::BlockIdx},
                    {"T.cuda.block_dim", ExprKind::BlockDim},
                    {"T.cuda.grid_dim", ExprKind::GridDim}};
  for (const auto& ic : indexCalls) {
    if (p == ic.name) {
      if (m_body && m_body->inFunction) {
        error("E0201", span, p + " cannot be used in a scalar function");
        return Scalar{};
      }
      if (!checkCallShape(e, p, 1, 1, {})) return Scalar{};
      int dim = 0;
      if (!dimArg(dim)) return Scalar{};
      return Scalar{mkThread(ic.kind, dim, span), false};
    }
  }
  if (p == "T.cuda.linear_thread_id" || p == "T.cuda.lane_id" || p == "T.cuda.warp_id") {
    if (m_body && m_body->inFunction) {
      error("E0201", span, p + " cannot be used in a scalar function");
      return Scalar{};
    }
    if (!checkCallShape(e, p, 0, 0, {})) return Scalar{};
    ir::ExprPtr lin = mkThread(ExprKind::ThreadIdx, 0, span);
    if (m_body && m_body->kernel) {
      const auto& b = m_body->kernel->launch.block;
      if (b[1] > 1 || b[2] > 1) {
        auto y = mkBinary(ir::BinOp::Mul, mkThread(ExprKind::ThreadIdx, 1, span), mkInt(b[0], span),
                          DType::Int32, span);
        lin = mkBinary(ir::BinOp::Add, lin, y, DType::Int32, span);
        if (b[2] > 1) {
          auto z = mkBinary(ir::BinOp::Mul, mkThread(ExprKind::ThreadIdx, 2, span),
                            mkInt(b[0] * b[1], span), DType::Int32, span);
          lin = mkBinary(ir::BinOp::Add, lin, z, DType::Int32, span);
        }
      }
    }
    if (p == "T.cuda.lane_id")
      return Scalar{mkBinary(ir::BinOp::Mod, lin, mkInt(32, span), DType::Int32, span), false};
    if (p == "T.cuda.warp_id")
      return Scalar{mkBinary(ir::BinOp::FloorDiv, lin, mkInt(32, span), DType::Int32, span), false};
    return Scalar{lin, false};
  }
  // `T.cuda.elect_sync()`: true in one lane of the warp (elect.sync _|p, 0xffffffff; every lane
  // must execute it, so the elected lane is lane 0).
  if (p == "T.cuda.elect_sync") {
    if (m_body && m_body->inFunction) {
      error("E0201", span, p + " cannot be used in a scalar function");
      return Scalar{};
    }
    if (!checkCallShape(e, p, 0, 0, {})) return Scalar{};
    if (m_body && !m_body->laneDivergence.empty()) {
      auto& d = error("E0224", span,
                      "T.cuda.elect_sync() inside control flow that may differ between the lanes "
                      "of a warp; all 32 lanes must execute it");
      note(d, m_body->laneDivergence.back(),
           "this condition is not warp-uniform (it depends on the lane)");
      return Scalar{};
    }
    auto c = std::make_shared<ir::Expr>();
    c->kind = ExprKind::Intrinsic;
    c->name = "elect_sync";
    c->dtype = DType::Bool;
    c->span = span;
    return Scalar{c, false};
  }
  return std::nullopt;
}

/// Intrinsics (spec §4.8): unary float functions, abs, max/min/pow/ceildiv, if_then_else;
/// nullopt when `p` names none of them.
std::optional<Scalar> Analyzer::lowerIntrinsicCall(const ast::Expr& e, const std::string& p) {
  const SourceSpan span = e.span;
  auto arg = [&](int i) -> const ast::Expr& { return *e.args[i + 1]; };
  static const std::vector<std::string> unaryFloat = {"exp",   "exp2", "log",     "log2",  "sqrt",
                                                      "rsqrt", "tanh", "sigmoid", "floor", "ceil",
                                                      "round", "sin",  "cos",     "fabs"};
  const std::string name = p.size() > 2 ? p.substr(2) : p;
  auto mkIntrinsic = [&](const std::string& n, std::vector<ir::ExprPtr> args, DType t) {
    auto c = std::make_shared<ir::Expr>();
    c->kind = ExprKind::Intrinsic;
    c->name = n;
    c->dtype = t;
    c->args = std::move(args);
    c->span = span;
    return Scalar{c, false};
  };
  if (std::find(unaryFloat.begin(), unaryFloat.end(), name) != unaryFloat.end() || name == "abs") {
    if (!checkCallShape(e, p, 1, 1, {})) return Scalar{};
    Scalar a = lowerScalar(arg(0));
    if (!a.ok()) return a;
    if (a.literal) a = coerce(a, DType::Float32, arg(0).span, p.c_str());
    const DType t = a.expr->dtype;
    if (name == "abs" ? t == DType::Bool : !ir::isFloat(t)) {
      error("E0153", arg(0).span,
            p + " expects a floating-point argument, found " + std::string(ir::dtypeName(t)));
      return Scalar{};
    }
    return mkIntrinsic(name, {a.expr}, t);
  }
  if (name == "max" || name == "min" || name == "pow" || name == "ceildiv") {
    if (!checkCallShape(e, p, 2, 2, {})) return Scalar{};
    Scalar a = lowerScalar(arg(0)), b = lowerScalar(arg(1));
    if (!unify(a, b, span, name)) return Scalar{};
    if (a.literal && b.literal) {
      const DType lt = concreteLiteralType(a, b);
      a = coerce(a, lt, span, p.c_str());
      b = coerce(b, lt, span, p.c_str());
      if (!a.ok() || !b.ok()) return Scalar{};
    }
    const DType t = a.expr->dtype;
    if (name == "ceildiv" && !ir::isInt(t)) {
      error("E0153", span,
            "T.ceildiv expects integer arguments, found " + std::string(ir::dtypeName(t)));
      return Scalar{};
    }
    if (name == "pow" && !ir::isFloat(t)) {
      error("E0153", span,
            "T.pow expects floating-point arguments, found " + std::string(ir::dtypeName(t)));
      return Scalar{};
    }
    if (name == "max" || name == "min")
      return Scalar{
          mkBinary(name == "max" ? ir::BinOp::Max : ir::BinOp::Min, a.expr, b.expr, t, span),
          false};
    if (name == "ceildiv") {
      // a // b + (a % b != 0) with floor division, for every integer type: the exact ceiling,
      // wrapped to the type only where it does not fit (ceildiv(INT_MIN, -1)), DEC-SCALAR-6.
      // -((-a) // b) is wrong where -a wraps (int16 ceildiv(-32768, 253) gave 130, not -129;
      // unsigned ceildiv(7, 2) gave 2^63 + 4) and (a + b - 1) // b overflows.
      auto q = mkBinary(ir::BinOp::FloorDiv, a.expr, b.expr, t, span);
      auto rem = mkBinary(ir::BinOp::Mod, a.expr, b.expr, t, span);
      auto s = std::make_shared<ir::Expr>();
      s->kind = ExprKind::Select;
      s->dtype = t;
      s->span = span;
      s->args = {mkBinary(ir::BinOp::Ne, rem, mkInt(0, span, t), DType::Bool, span),
                 mkBinary(ir::BinOp::Add, q, mkInt(1, span, t), t, span), q};
      return Scalar{ir::ExprPtr(s), false};
    }
    return mkIntrinsic(name, {a.expr, b.expr}, t);
  }
  if (name == "if_then_else") {
    if (!checkCallShape(e, p, 3, 3, {})) return Scalar{};
    auto c = asBool(lowerScalar(arg(0)), arg(0).span);
    Scalar a = lowerScalar(arg(1)), b = lowerScalar(arg(2));
    if (!c || !unify(a, b, span, "T.if_then_else")) return Scalar{};
    auto s = std::make_shared<ir::Expr>();
    s->kind = ExprKind::Select;
    s->dtype = a.expr->dtype;
    s->args = {c, a.expr, b.expr};
    s->span = span;
    return Scalar{s, false};
  }
  return std::nullopt;
}

Scalar Analyzer::lowerBuiltinCall(const ast::Expr& e, const std::string& p) {
  if (p.rfind("T.cuda.__shfl", 0) == 0) return lowerShuffleCall(e, p);
  const SourceSpan span = e.span;
  if (std::optional<Scalar> s = lowerCastCall(e, p)) return *s;
  if (std::optional<Scalar> s = lowerThreadIndexCall(e, p)) return *s;
  if (std::optional<Scalar> s = lowerIntrinsicCall(e, p)) return *s;
  const auto& known = std::vector<std::string>{
      "T.cuda.tile.apply", "T.cuda.tile.ewise", "T.cuda.cta_sync", "T.cuda.warp_sync",
      "T.alloc_local",     "T.alloc_shared",    "T.device_entry"};
  if (std::find(known.begin(), known.end(), p) != known.end()) {
    error("E0155", span, p + " does not produce a value; call it as a statement");
    return Scalar{};
  }
  unknownBuiltin(e.args[0] ? *e.args[0] : e, p);
  return Scalar{};
}

}  // namespace tirx::sema
