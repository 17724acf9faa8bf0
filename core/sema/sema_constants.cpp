// Module-level float constants (decision L-1 in docs/decisions.md): `LOG2E = 1.4426950408889634`,
// `SCALE = 1 / 8`, `SM_SCALE = 1.0 / math.sqrt(64)`. The value is folded with Python's semantics
// in double precision; at each use in TIRx code it is a bare Python float literal (spec §4.8): it
// takes the dtype of the other operand (rounded once from the double), and float32 where nothing
// gives one — as TVMScript turns a captured Python float into a constant of the operand's dtype.
// Integer-only expressions stay integer constants (sema.cpp); anything else stays a harness value.
#include <cmath>

#include "core/sema/sema_internal.h"

namespace tirx::sema {

namespace {

struct Number {
  double f = 0;
  int64_t i = 0;
  bool isFloat = false;
  double value() const { return isFloat ? f : static_cast<double>(i); }
};

std::optional<Number> floatResult(double v) {
  if (!std::isfinite(v)) return std::nullopt;  // inf/nan (or a Python error): a harness value
  return Number{v, 0, true};
}

}  // namespace

std::optional<double> Analyzer::staticFloat(const ast::Expr& value) {
  using K = ast::ExprKind;
  std::function<std::optional<Number>(const ast::Expr&)> fold =
      [&](const ast::Expr& e) -> std::optional<Number> {
    switch (e.kind) {
      case K::Int:
        return Number{0, e.intValue, false};
      case K::Float:
        return floatResult(e.floatValue);
      case K::Name: {
        const Binding* b = lookup(e.text);
        if (b && b->kind == Binding::Kind::IntConst) return Number{0, b->intValue, false};
        if (b && b->kind == Binding::Kind::FloatConst) return Number{b->floatValue, 0, true};
        return std::nullopt;
      }
      case K::Attribute: {  // math.pi, math.e
        const ast::Expr& base = *e.args[0];
        const Binding* b = base.kind == K::Name && base.text == "math" ? lookup("math") : nullptr;
        if (!b || b->kind != Binding::Kind::Foreign) return std::nullopt;
        if (e.text == "pi") return Number{M_PI, 0, true};
        if (e.text == "e") return Number{M_E, 0, true};
        return std::nullopt;
      }
      case K::Call: {  // math.sqrt(x), math.exp, math.log, math.log2
        const ast::Expr& callee = *e.args[0];
        if (callee.kind != K::Attribute || e.args.size() != 2 || !e.keywords.empty())
          return std::nullopt;
        const ast::Expr& base = *callee.args[0];
        const Binding* b = base.kind == K::Name && base.text == "math" ? lookup("math") : nullptr;
        if (!b || b->kind != Binding::Kind::Foreign) return std::nullopt;
        auto x = fold(*e.args[1]);
        if (!x) return std::nullopt;
        const double v = x->value();
        if (callee.text == "sqrt" && v >= 0) return floatResult(std::sqrt(v));
        if (callee.text == "exp") return floatResult(std::exp(v));
        if (callee.text == "log" && v > 0) return floatResult(std::log(v));
        if (callee.text == "log2" && v > 0) return floatResult(std::log2(v));
        return std::nullopt;
      }
      case K::Unary: {
        auto a = fold(*e.args[0]);
        if (!a) return std::nullopt;
        if (e.op == ast::Op::Pos) return a;
        if (e.op != ast::Op::Neg) return std::nullopt;
        if (a->isFloat) return floatResult(-a->f);
        const IntFold f = foldIntUnary(e.op, a->i);
        return f.ok() ? std::optional<Number>(Number{0, f.value, false}) : std::nullopt;
      }
      case K::Binary: {
        auto a = fold(*e.args[0]);
        auto b = a ? fold(*e.args[1]) : std::nullopt;
        if (!a || !b) return std::nullopt;
        const bool ints = !a->isFloat && !b->isFloat;
        if (ints && e.op != ast::Op::Div && !(e.op == ast::Op::Pow && b->i < 0)) {
          const IntFold f = foldIntBinary(e.op, a->i, b->i);
          return f.ok() ? std::optional<Number>(Number{0, f.value, false}) : std::nullopt;
        }
        const double x = a->value(), y = b->value();
        switch (e.op) {
          case ast::Op::Add:
            return floatResult(x + y);
          case ast::Op::Sub:
            return floatResult(x - y);
          case ast::Op::Mul:
            return floatResult(x * y);
          case ast::Op::Div:
            return y == 0 ? std::nullopt : floatResult(x / y);
          case ast::Op::FloorDiv:
            return y == 0 ? std::nullopt : floatResult(std::floor(x / y));
          case ast::Op::Mod:
            return y == 0 ? std::nullopt : floatResult(x - y * std::floor(x / y));
          case ast::Op::Pow:
            return x == 0 && y < 0 ? std::nullopt : floatResult(std::pow(x, y));
          default:
            return std::nullopt;
        }
      }
      default:
        return std::nullopt;
    }
  };
  auto n = fold(value);
  if (!n || !n->isFloat) return std::nullopt;
  return n->f;
}

}  // namespace tirx::sema
