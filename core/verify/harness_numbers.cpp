// Python scalars in the harness interpreter: the arithmetic of int, float and bool operands
// (floor division and modulo with Python's signs, ** with negative exponents, ZeroDivisionError,
// OverflowError) and the number builtins int(), float(), bool(), abs(), round() and divmod().
// Python ints are held in int64: a result Python would hold exactly beyond int64 is refused with
// E0803 rather than wrapped; Python exceptions are E0804 diagnostics at the operation.
#include <cmath>

#include "core/verify/harness_interp.h"
#include "core/verify/py_numbers.h"

namespace tirx::verify {

namespace {
const char* kTooBig =
    "the integer result does not fit in 64 bits: the harness holds Python ints as int64";

Py kw(const Kwargs& k, const std::string& name) {
  for (const auto& [n, v] : k)
    if (n == name) return v;
  return nullptr;
}
}  // namespace

Py Interp::checkedInt(std::optional<int64_t> v, SourceSpan span) {
  if (!v) return error("E0803", span, kTooBig);
  return integer(*v);
}

Py Interp::floatToInt(double x, SourceSpan span, const char* what) {
  if (std::isnan(x))
    return error("E0804", span, std::string("cannot convert float NaN to integer (") + what + ")");
  if (std::isinf(x))
    return error("E0804", span,
                 std::string("cannot convert float infinity to integer (") + what + ")");
  if (x >= 9.2233720368547758e18 || x < -9.2233720368547758e18)
    return error("E0803", span, kTooBig);
  return integer(static_cast<int64_t>(x));
}

Py Interp::scalarBinop(ast::Op op, const Py& a, const Py& b, SourceSpan span) {
  const bool flt = a->kind == PyKind::Float || b->kind == PyKind::Float;
  const double x = a->kind == PyKind::Float ? a->f : static_cast<double>(a->i);
  const double y = b->kind == PyKind::Float ? b->f : static_cast<double>(b->i);
  const int64_t ix = a->i, iy = b->i;
  const bool bothBool = a->kind == PyKind::Bool && b->kind == PyKind::Bool;
  switch (op) {
    case ast::Op::Lt:
      return boolean(flt ? x < y : ix < iy);
    case ast::Op::LtE:
      return boolean(flt ? x <= y : ix <= iy);
    case ast::Op::Gt:
      return boolean(flt ? x > y : ix > iy);
    case ast::Op::GtE:
      return boolean(flt ? x >= y : ix >= iy);
    case ast::Op::Add:
      return flt ? real(x + y) : checkedInt(checkedAdd(ix, iy), span);
    case ast::Op::Sub:
      return flt ? real(x - y) : checkedInt(checkedSub(ix, iy), span);
    case ast::Op::Mul:
      return flt ? real(x * y) : checkedInt(checkedMul(ix, iy), span);
    case ast::Op::Div:
      if (y == 0) return error("E0804", span, flt ? "float division by zero" : "division by zero");
      return real(x / y);
    case ast::Op::FloorDiv:
      if (y == 0)
        return error("E0804", span,
                     flt ? "float floor division by zero" : "integer division or modulo by zero");
      return flt ? real(pyFloorDiv(x, y)) : checkedInt(checkedFloorDiv(ix, iy), span);
    case ast::Op::Mod:
      if (y == 0)
        return error("E0804", span, flt ? "float modulo" : "integer division or modulo by zero");
      return flt ? real(pyMod(x, y)) : integer(pyIntMod(ix, iy));
    case ast::Op::Pow: {
      if (!flt && iy >= 0) return checkedInt(checkedPow(ix, iy), span);
      if (x == 0 && y < 0) return error("E0804", span, "0.0 cannot be raised to a negative power");
      if (x < 0 && std::isfinite(y) && y != std::floor(y))
        return error("E0803", span,
                     "a negative number to a fractional power is complex: complex numbers are not "
                     "supported by the harness");
      const double r = std::pow(x, y);
      if (std::isinf(r) && std::isfinite(x) && std::isfinite(y))
        return error("E0804", span, "(34, 'Numerical result out of range')");
      return real(r);
    }
    case ast::Op::BitAnd:
    case ast::Op::BitOr:
    case ast::Op::BitXor:
    case ast::Op::LShift:
    case ast::Op::RShift: {
      if (flt)
        return error("E0804", span,
                     std::string("unsupported operand type(s) for ") + ast::opSpelling(op) + ": '" +
                         typeName(a) + "' and '" + typeName(b) + "'");
      if ((op == ast::Op::LShift || op == ast::Op::RShift) && iy < 0)
        return error("E0804", span, "negative shift count");
      Py r;
      switch (op) {
        case ast::Op::BitAnd:
          r = integer(ix & iy);
          break;
        case ast::Op::BitOr:
          r = integer(ix | iy);
          break;
        case ast::Op::BitXor:
          r = integer(ix ^ iy);
          break;
        case ast::Op::LShift:
          return checkedInt(checkedShl(ix, iy), span);
        default:
          return integer(iy < 64 ? ix >> iy : (ix < 0 ? -1 : 0));
      }
      return bothBool ? boolean(r->i != 0) : r;
    }
    default:
      break;
  }
  return error(
      "E0803", span,
      std::string("operator '") + ast::opSpelling(op) + "' is not supported by the harness");
}

Py Interp::numberBuiltin(const std::string& n, std::vector<Py>& args, Kwargs& kwargs,
                         SourceSpan sp) {
  Py baseArg = args.size() >= 2 && n == "int" ? args[1] : kw(kwargs, "base");
  Py digitsArg = args.size() >= 2 && n == "round" ? args[1] : kw(kwargs, "ndigits");
  const size_t maxArgs = (n == "int" || n == "round" || n == "divmod") ? 2 : 1;
  if (args.size() > maxArgs || (n == "divmod" && args.size() != 2) ||
      (n == "abs" && args.size() != 1) || (n == "round" && args.empty()))
    return error("E0805", sp,
                 n + "() takes " +
                     (n == "divmod"  ? "exactly 2 arguments"
                      : maxArgs == 2 ? "at most 2 arguments"
                                     : "one argument") +
                     " (" + std::to_string(args.size()) + " given)");
  if (args.empty()) return n == "float" ? real(0) : n == "bool" ? boolean(false) : integer(0);
  const Py& v = args[0];
  if (n == "bool") {
    auto t = truth(v, sp);
    if (!t) return nullptr;
    return boolean(*t);
  }
  if (n == "divmod") {
    Py q = binop(ast::Op::FloorDiv, args[0], args[1], sp);
    if (!q) return nullptr;
    Py r = binop(ast::Op::Mod, args[0], args[1], sp);
    if (!r) return nullptr;
    return tuple({q, r});
  }
  if (v->kind == PyKind::Str && (n == "int" || n == "float")) {
    if (n == "float") {
      auto f = parsePyFloat(v->s);
      if (!f) return error("E0804", sp, "could not convert string to float: '" + v->s + "'");
      return real(*f);
    }
    int64_t base = 10;
    if (baseArg) {
      auto b = toInt(baseArg, sp);
      if (!b) return nullptr;
      if (*b != 0 && (*b < 2 || *b > 36))
        return error("E0804", sp, "int() base must be >= 2 and <= 36, or 0");
      base = *b;
    }
    ParseFail why;
    auto i = parsePyInt(v->s, static_cast<int>(base), &why);
    if (!i && why == ParseFail::TooBig)
      return error("E0803", sp, std::string(kTooBig) + " ('" + v->s + "')");
    if (!i)
      return error(
          "E0804", sp,
          "invalid literal for int() with base " + std::to_string(base) + ": '" + v->s + "'");
    return integer(*i);
  }
  if (baseArg && n == "int")
    return error("E0804", sp, "int() can't convert non-string with explicit base");
  if (v->kind == PyKind::Array && n == "abs") {  // ndarray.__abs__: element-wise
    std::string err;
    Array r = unary(UnaryOp::Abs, *v->arr, &err);
    return array(std::move(r));
  }
  if (v->kind == PyKind::Array && v->arr->size() != 1)
    return error("E0804", sp, "only size-1 arrays can be converted to Python scalars");
  const bool isInt = v->kind == PyKind::Int || v->kind == PyKind::Bool ||
                     (v->kind == PyKind::Array && !ir::isFloat(v->arr->dtype));
  if (!isInt && v->kind != PyKind::Float && v->kind != PyKind::Array)
    return error("E0804", sp,
                 n + "() argument must be a string or a real number, not '" + typeName(v) + "'");
  const int64_t iv = v->kind == PyKind::Array ? v->arr->getInt(0) : v->i;
  const double x = v->kind == PyKind::Float   ? v->f
                   : v->kind == PyKind::Array ? v->arr->get(0)
                                              : static_cast<double>(iv);
  if (n == "float") return real(isInt ? static_cast<double>(iv) : x);
  if (n == "int") return isInt ? integer(iv) : floatToInt(std::trunc(x), sp, "int()");
  if (n == "abs") {
    if (!isInt) return real(std::fabs(x));
    if (iv == INT64_MIN) return error("E0803", sp, kTooBig);
    return integer(iv < 0 ? -iv : iv);
  }
  // round
  if (!digitsArg || digitsArg->kind == PyKind::None) {
    if (isInt) return integer(iv);
    return floatToInt(std::nearbyint(x), sp, "round()");  // ties to even (default rounding mode)
  }
  auto d = toInt(digitsArg, sp);
  if (!d) return nullptr;
  if (!isInt) return real(pyRound(x, *d));
  if (*d >= 0) return integer(iv);
  // round(1250, -2) == 1200: ties to even on the multiple of 10**-d
  if (*d < -18) return integer(0);
  int64_t p = 1;
  for (int64_t k = 0; k < -*d; ++k) p *= 10;
  const int64_t q = *checkedFloorDiv(iv, p), r = iv - q * p;
  int64_t up = q;
  if (2 * static_cast<__int128>(r) > p || (2 * static_cast<__int128>(r) == p && (q & 1)))
    up = q + 1;
  return checkedInt(checkedMul(up, p), sp);
}

}  // namespace tirx::verify
