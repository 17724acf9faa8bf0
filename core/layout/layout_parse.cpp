// Evaluation of layout expressions (spec/TIRX.md §1.3) over the script AST:
//
//   layout  := ("TileLayout" | X.TileLayout) "(" spec ")"
//   spec    := term ("+" term)*            order-free; also INT + spec
//   term    := S "[" shard "]" | R "[" shard "]" | offset | "(" spec ")"
//   shard   := extents | extents ":" strides
//   extents := INT | "(" INT ("," INT)* ","? ")" | "()"
//   strides := stride | "(" stride ("," stride)* ","? ")"
//   stride  := INT | INT "@" AXIS | STRING | "(" INT "," STRING ")"
//   offset  := INT | INT "@" AXIS
//
//   value   := layout | compose
//   compose := ("ComposeLayout" | X.ComposeLayout) "(" swz "," layout ["," BOOL] ")"
//            | ("ComposeLayout" | X.ComposeLayout) "(" INT "," INT "," INT "," layout
//              ["," BOOL] ")"
//   swz     := ("SwizzleLayout" | X.SwizzleLayout) "(" INT "," INT "," INT ["," BOOL] ")"
//   (every argument may also be passed by keyword: per_element, swizzle_len, atom_len,
//    tile_layout, swizzle_inner)
//
// INT is any integer expression of literals and LayoutEnv constants (+ - * // % ** << >> and
// unary minus). Offsets accumulate per axis; the first non-empty shard is kept; a later non-empty
// replica replaces an earlier one. Every error is a Diagnostic E0300..E0349 on the exact
// sub-expression; the codes are listed in docs/layout.md.
#include "core/layout/layout_parse.h"

#include <algorithm>
#include <limits>

#include "core/script/parser.h"

namespace tirx {

namespace {

using ast::Expr;
using ast::ExprKind;
using ast::Op;

constexpr int64_t kMaxElements = int64_t{1} << 40;

struct Spec {
  bool hasShard = false;
  std::vector<Iter> shard;
  bool hasReplica = false;
  std::vector<Iter> replica;
  AxisCoord offset;
};

// Combining rule of §1.3: first non-empty shard kept, later non-empty replica replaces, offsets
// merge per axis.
void combine(Spec& a, const Spec& b) {
  if (b.hasShard && (!a.hasShard || (a.shard.empty() && !b.shard.empty()))) {
    a.hasShard = true;
    a.shard = b.shard;
  }
  if (b.hasReplica && (!a.hasReplica || !b.replica.empty())) {
    a.hasReplica = true;
    a.replica = b.replica;
  }
  for (const auto& [axis, v] : b.offset) a.offset[axis] += v;
}

// True when `callee` is `NAME` or `anything.NAME`.
bool isNamed(const Expr& e, const char* name) {
  return (e.kind == ExprKind::Name || e.kind == ExprKind::Attribute) && e.text == name;
}

std::string describe(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Name:
      return "name '" + e.text + "'";
    case ExprKind::Int:
      return "integer " + std::to_string(e.intValue);
    case ExprKind::Float:
      return "a float";
    case ExprKind::Str:
      return "string \"" + e.text + "\"";
    case ExprKind::Bool:
      return "a bool";
    case ExprKind::None:
      return "None";
    case ExprKind::Attribute:
      return "attribute '" + e.text + "'";
    case ExprKind::Subscript:
      return "a subscript";
    case ExprKind::Call:
      return "a call";
    case ExprKind::Tuple:
      return "a tuple of " + std::to_string(e.args.size());
    case ExprKind::List:
      return "a list";
    case ExprKind::Dict:
      return "a dict";
    case ExprKind::Slice:
      return "a slice";
    case ExprKind::Unary:
    case ExprKind::Binary:
      return std::string("a '") + ast::opSpelling(e.op) + "' expression";
    default:
      return "an expression of another kind";
  }
}

class Evaluator {
 public:
  Evaluator(const LayoutEnv& env, Diagnostics& diags) : m_env(env), m_diags(diags) {}

  std::optional<TileLayout> layout(const Expr& e) {
    if (e.kind == ExprKind::Name && m_env.layouts.count(e.text)) return m_env.layouts.at(e.text);
    if (isComposeCall(e) || (e.kind == ExprKind::Name && m_env.composeLayouts.count(e.text)))
      return fail("E0313", e.span,
                  "a swizzled layout (ComposeLayout) is not accepted here: expected a TileLayout");
    if (e.kind == ExprKind::Call && !e.args.empty() && isNamed(*e.args[0], "TileLayout")) {
      if (!e.keywords.empty())
        return fail("E0301", e.keywords[0].span,
                    "TileLayout takes no keyword arguments, found '" + e.keywords[0].name + "='");
      if (e.args.size() != 2)
        return fail("E0301", e.span,
                    "TileLayout takes exactly one layout spec, found " +
                        std::to_string(e.args.size() - 1) + " arguments");
      return fromSpec(*e.args[1]);
    }
    return fromSpec(e);
  }

  std::optional<LayoutValue> value(const Expr& e) {
    if (e.kind == ExprKind::Name && m_env.composeLayouts.count(e.text))
      return LayoutValue{m_env.composeLayouts.at(e.text)};
    if (isComposeCall(e)) {
      auto c = compose(e);
      if (!c) return std::nullopt;
      return LayoutValue{std::move(*c)};
    }
    auto t = layout(e);
    if (!t) return std::nullopt;
    return LayoutValue{std::move(*t)};
  }

 private:
  static bool isComposeCall(const Expr& e) {
    return e.kind == ExprKind::Call && !e.args.empty() && isNamed(*e.args[0], "ComposeLayout");
  }

  // Binds a call's arguments to `names` as Python would (positional first, then keywords);
  // missing trailing ones stay null. Reports E0314 on too many, unknown or repeated arguments.
  std::optional<std::vector<const Expr*>> bindArgs(const Expr& call, const char* what,
                                                   const std::vector<std::string>& names,
                                                   const char* signature) {
    std::vector<const Expr*> out(names.size(), nullptr);
    if (call.args.size() - 1 > names.size())
      return fail("E0314", call.span,
                  std::string(what) + " takes at most " + std::to_string(names.size()) +
                      " arguments " + signature + ", found " +
                      std::to_string(call.args.size() - 1));
    for (size_t i = 1; i < call.args.size(); ++i) out[i - 1] = call.args[i].get();
    for (const auto& kw : call.keywords) {
      auto it = std::find(names.begin(), names.end(), kw.name);
      if (it == names.end())
        return fail("E0314", kw.span,
                    std::string(what) + " has no argument '" + kw.name + "' " + signature);
      const size_t i = static_cast<size_t>(it - names.begin());
      if (out[i])
        return fail("E0314", kw.span, std::string(what) + " got argument '" + kw.name + "' twice");
      out[i] = kw.value.get();
    }
    return out;
  }

  std::optional<bool> boolean(const Expr& e, const char* what) {
    if (e.kind == ExprKind::Bool) return e.boolValue;
    return fail("E0314", e.span,
                std::string(what) + " must be True or False, found " + describe(e));
  }

  // swz := SwizzleLayout(per_element, swizzle_len, atom_len, swizzle_inner=True)
  std::optional<Swizzle> swizzleArgs(const Expr& call, const std::vector<const Expr*>& a,
                                     const char* what, const char* signature) {
    Swizzle s;
    const char* names[3] = {"per_element", "swizzle_len", "atom_len"};
    int* fields[3] = {&s.perElement, &s.len, &s.atom};
    for (int i = 0; i < 3; ++i) {
      if (!a[i])
        return fail("E0314", call.span,
                    std::string(what) + " is missing '" + names[i] + "' " + signature);
      auto v = integer(*a[i], names[i]);
      if (!v) return std::nullopt;
      if (*v < 0 || *v > 40)
        return fail(
            "E0315", a[i]->span,
            std::string(names[i]) + " must be between 0 and 40, found " + std::to_string(*v));
      *fields[i] = static_cast<int>(*v);
    }
    return s;
  }

  std::optional<Swizzle> swizzleLayout(const Expr& e) {
    if (!(e.kind == ExprKind::Call && !e.args.empty() && isNamed(*e.args[0], "SwizzleLayout")))
      return fail("E0314", e.span,
                  "expected SwizzleLayout(per_element, swizzle_len, atom_len) or an integer, "
                  "found " +
                      describe(e));
    const char* sig = "(per_element, swizzle_len, atom_len, swizzle_inner=True)";
    auto a = bindArgs(e, "SwizzleLayout",
                      {"per_element", "swizzle_len", "atom_len", "swizzle_inner"}, sig);
    if (!a) return std::nullopt;
    auto s = swizzleArgs(e, *a, "SwizzleLayout", sig);
    if (!s) return std::nullopt;
    if ((*a)[3]) {
      auto inner = boolean(*(*a)[3], "swizzle_inner");
      if (!inner) return std::nullopt;
      s->inner = *inner;
    }
    return s;
  }

  // compose := ComposeLayout(per_element, swizzle_len, atom_len, tile_layout, swizzle_inner=True)
  //          | ComposeLayout(SwizzleLayout(...), tile_layout)
  std::optional<ComposeLayout> compose(const Expr& e) {
    ComposeLayout out;
    const Expr* tileExpr = nullptr;
    const Expr* innerExpr = nullptr;
    const bool tvmForm = e.args.size() >= 2 && e.args[1]->kind == ExprKind::Call &&
                         !e.args[1]->args.empty() && isNamed(*e.args[1]->args[0], "SwizzleLayout");
    if (tvmForm) {
      if (!e.keywords.empty() || e.args.size() > 3)
        return fail("E0314", e.span,
                    "ComposeLayout(SwizzleLayout(...), tile_layout) takes exactly two positional "
                    "arguments");
      auto s = swizzleLayout(*e.args[1]);
      if (!s) return std::nullopt;
      out.swizzle = *s;
      if (e.args.size() < 3)
        return fail("E0314", e.span,
                    "ComposeLayout(SwizzleLayout(...), tile_layout) is missing the tile layout");
      tileExpr = e.args[2].get();
    } else {
      const char* sig = "(per_element, swizzle_len, atom_len, tile_layout, swizzle_inner=True)";
      auto a =
          bindArgs(e, "ComposeLayout",
                   {"per_element", "swizzle_len", "atom_len", "tile_layout", "swizzle_inner"}, sig);
      if (!a) return std::nullopt;
      auto s = swizzleArgs(e, *a, "ComposeLayout", sig);
      if (!s) return std::nullopt;
      out.swizzle = *s;
      if (!(*a)[3])
        return fail("E0314", e.span, std::string("ComposeLayout is missing 'tile_layout' ") + sig);
      tileExpr = (*a)[3];
      innerExpr = (*a)[4];
    }
    if (innerExpr) {
      auto inner = boolean(*innerExpr, "swizzle_inner");
      if (!inner) return std::nullopt;
      out.swizzle.inner = *inner;
    }
    if (const std::string w = checkSwizzle(out.swizzle); !w.empty())
      return fail("E0315", e.span, w);
    if (!out.swizzle.inner && out.swizzle.len > 0)
      return fail("E0316", innerExpr ? innerExpr->span : e.span,
                  "swizzle_inner=False is not supported: the hardware (TMA, wgmma) swizzles only "
                  "the inner direction, so no shared-memory instruction could use this layout");
    auto tile = layout(*tileExpr);
    if (!tile) return std::nullopt;
    if (const std::string w = checkComposeTile(*tile); !w.empty())
      return fail("E0317", tileExpr->span, w);
    out.tile = std::move(*tile);
    return out;
  }

  std::optional<TileLayout> fromSpec(const Expr& e) {
    auto s = spec(e);
    if (!s) return std::nullopt;
    if (!s->hasShard && !s->hasReplica)
      return fail("E0312", e.span, "a layout needs an S[...] or R[...] term, found only offsets");
    TileLayout l;
    l.shard = std::move(s->shard);
    l.replica = std::move(s->replica);
    for (const auto& [axis, v] : s->offset)
      if (v != 0) l.offset[axis] = v;
    if (!fitsInt64(l))
      return fail("E0310", e.span,
                  "layout is too large: more than 2^40 elements or offsets overflow");
    return l;
  }

  static bool fitsInt64(const TileLayout& l) {
    int64_t n = 1, span = 0;
    for (const auto* v : {&l.shard, &l.replica})
      for (const Iter& it : *v) {
        int64_t term = 0;
        if (v == &l.shard && __builtin_mul_overflow(n, it.extent, &n)) return false;
        if (__builtin_mul_overflow(it.extent - 1, it.stride, &term)) return false;
        if (__builtin_add_overflow(span, term, &span)) return false;
      }
    for (const auto& [a, v] : l.offset)
      if (__builtin_add_overflow(span, v, &span)) return false;
    return n <= kMaxElements && span < (int64_t{1} << 62);
  }

  std::optional<Spec> spec(const Expr& e) {
    if (isIntExpr(e)) {
      auto v = offsetValue(e);
      if (!v) return std::nullopt;
      Spec s;
      s.offset["m"] = *v;
      return s;
    }
    if (e.kind == ExprKind::Binary && e.op == Op::Add) {
      auto a = spec(*e.args[0]);
      auto b = spec(*e.args[1]);
      if (!a || !b) return std::nullopt;
      combine(*a, *b);
      return a;
    }
    if (e.kind == ExprKind::Binary && e.op == Op::MatMul) {
      auto v = offsetValue(*e.args[0]);
      auto ax = axis(*e.args[1]);
      if (!v || !ax) return std::nullopt;
      Spec s;
      s.offset[*ax] = *v;
      return s;
    }
    if (e.kind == ExprKind::Subscript && (isNamed(*e.args[0], "S") || isNamed(*e.args[0], "R"))) {
      auto iters = shard(*e.args[1]);
      if (!iters) return std::nullopt;
      Spec s;
      if (e.args[0]->text == "S") {
        s.hasShard = true;
        s.shard = std::move(*iters);
      } else {
        s.hasReplica = true;
        s.replica = std::move(*iters);
      }
      return s;
    }
    if (e.kind == ExprKind::Name && m_env.layouts.count(e.text))
      return fail("E0300", e.span,
                  "layout '" + e.text + "' cannot be combined with '+'; write its spec instead");
    if (e.kind == ExprKind::Name && !knownAxis(e.text))
      return fail("E0305", e.span, "unknown name '" + e.text + "' in a layout expression");
    return fail("E0300", e.span,
                "expected a layout term (S[...], R[...] or an offset such as 1 @ laneid), found " +
                    describe(e));
  }

  // shard := extents | extents ":" strides
  std::optional<std::vector<Iter>> shard(const Expr& index) {
    if (index.kind == ExprKind::Slice) {
      const Expr* lower = index.args.size() > 0 ? index.args[0].get() : nullptr;
      const Expr* upper = index.args.size() > 1 ? index.args[1].get() : nullptr;
      if (!lower) return fail("E0309", index.span, "expected extents before ':' in a shard");
      if (!upper) return fail("E0309", index.span, "expected strides after ':' in a shard");
      if (index.args.size() > 2 && index.args[2])
        return fail("E0309", index.args[2]->span,
                    "a shard takes 'extents : strides', found a second ':'");
      auto ext = extents(*lower);
      if (!ext) return std::nullopt;
      return withStrides(*ext, *upper);
    }
    auto ext = extents(index);
    if (!ext) return std::nullopt;
    // Extents only: row-major contiguous on m.
    std::vector<Iter> iters(ext->size());
    int64_t stride = 1;
    for (size_t i = ext->size(); i-- > 0;) {
      iters[i] = Iter{(*ext)[i], stride, "m"};
      if (__builtin_mul_overflow(stride, (*ext)[i], &stride))
        return fail("E0310", index.span,
                    "layout is too large: more than 2^40 elements or offsets overflow");
    }
    return iters;
  }

  std::optional<std::vector<int64_t>> extents(const Expr& e) {
    std::vector<const Expr*> items;
    if (e.kind == ExprKind::Tuple) {
      for (const auto& a : e.args) items.push_back(a.get());
    } else {
      items.push_back(&e);
    }
    std::vector<int64_t> out;
    for (const Expr* item : items) {
      if (item->kind == ExprKind::Slice)
        return fail("E0309", item->span,
                    "a shard takes 'extents : strides', found a slice inside the extents");
      auto v = integer(*item, "an extent");
      if (!v) return std::nullopt;
      if (*v <= 0)
        return fail("E0303", item->span, "extent must be positive, found " + std::to_string(*v));
      out.push_back(*v);
    }
    return out;
  }

  std::optional<std::vector<Iter>> withStrides(const std::vector<int64_t>& ext, const Expr& e) {
    std::vector<const Expr*> items;
    const bool pair = ext.size() == 1 && e.kind == ExprKind::Tuple && e.args.size() == 2 &&
                      e.args[0]->kind != ExprKind::Str && e.args[1]->kind == ExprKind::Str;
    if (e.kind == ExprKind::Tuple && !pair) {
      for (const auto& a : e.args) items.push_back(a.get());
    } else {
      items.push_back(&e);
    }
    if (items.size() != ext.size())
      return fail("E0302", e.span,
                  "extents and strides differ in length: " + std::to_string(ext.size()) +
                      " extents, " + std::to_string(items.size()) + " strides");
    std::vector<Iter> out;
    for (size_t i = 0; i < items.size(); ++i) {
      auto s = stride(*items[i]);
      if (!s) return std::nullopt;
      s->extent = ext[i];
      out.push_back(*s);
    }
    return out;
  }

  // stride := INT | INT "@" AXIS | STRING | "(" INT "," STRING ")"
  std::optional<Iter> stride(const Expr& e) {
    Iter it;
    if (e.kind == ExprKind::Str) {
      auto ax = axis(e);
      if (!ax) return std::nullopt;
      it.stride = 1;
      it.axis = *ax;
      return it;
    }
    std::optional<int64_t> v;
    const Expr* valueExpr = &e;
    if (e.kind == ExprKind::Binary && e.op == Op::MatMul) {
      valueExpr = e.args[0].get();
      v = integer(*valueExpr, "a stride");
      auto ax = axis(*e.args[1]);
      if (!v || !ax) return std::nullopt;
      it.axis = *ax;
    } else if (e.kind == ExprKind::Tuple && e.args.size() == 2 &&
               e.args[1]->kind == ExprKind::Str) {
      valueExpr = e.args[0].get();
      v = integer(*valueExpr, "a stride");
      auto ax = axis(*e.args[1]);
      if (!v || !ax) return std::nullopt;
      it.axis = *ax;
    } else if (isIntExpr(e)) {
      v = integer(e, "a stride");
      if (!v) return std::nullopt;
    } else {
      return fail(
          "E0306", e.span,
          "expected a stride (INT, INT @ axis, \"axis\" or (INT, \"axis\")), found " + describe(e));
    }
    if (*v < 0)
      return fail("E0307", valueExpr->span,
                  "stride must not be negative, found " + std::to_string(*v));
    it.stride = *v;
    return it;
  }

  std::optional<int64_t> offsetValue(const Expr& e) {
    auto v = integer(e, "an offset");
    if (v && *v < 0)
      return fail("E0308", e.span, "offset must not be negative, found " + std::to_string(*v));
    return v;
  }

  bool knownAxis(const std::string& name) const {
    return axisKind(name) != AxisKind::Unknown || m_env.axisAliases.count(name);
  }

  // AXIS := a registered axis name, an alias from LayoutEnv, `X.name` (Axis.laneid, T.Axis.m,
  // axis.warpid) or, in stride position, a string.
  std::optional<std::string> axis(const Expr& e) {
    std::string name;
    if (e.kind == ExprKind::Name || e.kind == ExprKind::Attribute || e.kind == ExprKind::Str) {
      name = e.text;
      if (e.kind == ExprKind::Name) {
        auto it = m_env.axisAliases.find(name);
        if (it != m_env.axisAliases.end()) name = it->second;
      }
    } else {
      return fail("E0304", e.span,
                  "expected an axis (laneid, warpid, m, ...), found " + describe(e));
    }
    if (axisKind(name) == AxisKind::Unknown)
      return fail("E0304", e.span, "unknown axis '" + name + "'");
    return name;
  }

  // Structural test: literals, known integer constants and arithmetic over them.
  bool isIntExpr(const Expr& e) const {
    switch (e.kind) {
      case ExprKind::Int:
        return true;
      case ExprKind::Name:
        return m_env.ints.count(e.text) > 0;
      case ExprKind::Unary:
        return (e.op == Op::Neg || e.op == Op::Pos) && isIntExpr(*e.args[0]);
      case ExprKind::Binary:
        switch (e.op) {
          case Op::Add:
          case Op::Sub:
          case Op::Mul:
          case Op::FloorDiv:
          case Op::Mod:
          case Op::Pow:
          case Op::LShift:
          case Op::RShift:
            return isIntExpr(*e.args[0]) && isIntExpr(*e.args[1]);
          default:
            return false;
        }
      case ExprKind::Call:
        if (!isMinMaxAbs(e)) return false;
        for (size_t i = 1; i < e.args.size(); ++i)
          if (!isIntExpr(*e.args[i])) return false;
        return true;
      default:
        return false;
    }
  }

  /// Python's `max(a, b, ...)`, `min(...)` and `abs(x)` on integers (`S[(4, max(POLY, 8))]`), as
  /// module integer constants fold them (decision STATIC-IF-1).
  bool isMinMaxAbs(const Expr& e) const {
    if (!ast::isIntBuiltinCall(e)) return false;
    const std::string& f = e.args[0]->text;
    return !m_env.ints.count(f) && !m_env.layouts.count(f) && !m_env.composeLayouts.count(f);
  }

  std::optional<int64_t> integer(const Expr& e, const char* what) {
    switch (e.kind) {
      case ExprKind::Int:
        return e.intValue;
      case ExprKind::Name: {
        auto it = m_env.ints.find(e.text);
        if (it != m_env.ints.end()) return it->second;
        return fail("E0305", e.span,
                    std::string("unknown name '") + e.text + "': expected " + what +
                        " (an integer or a module-level integer constant)");
      }
      case ExprKind::Unary:
        if (e.op == Op::Neg || e.op == Op::Pos) {
          auto v = integer(*e.args[0], what);
          if (!v) return std::nullopt;
          if (e.op == Op::Pos) return v;
          if (*v == std::numeric_limits<int64_t>::min()) return overflow(e);
          return -*v;
        }
        break;
      case ExprKind::Call: {
        if (!isMinMaxAbs(e)) break;
        const std::string& f = e.args[0]->text;
        std::optional<int64_t> acc;
        for (size_t i = 1; i < e.args.size(); ++i) {
          auto v = integer(*e.args[i], what);
          if (!v) return std::nullopt;
          if (f == "abs") {
            if (*v == std::numeric_limits<int64_t>::min()) return overflow(e);
            return *v < 0 ? -*v : *v;
          }
          if (!acc || (f == "max" ? *v > *acc : *v < *acc)) acc = v;
        }
        return acc;
      }
      case ExprKind::Binary: {
        if (!isArith(e.op)) break;
        auto a = integer(*e.args[0], what);
        auto b = integer(*e.args[1], what);
        if (!a || !b) return std::nullopt;
        return arith(e, *a, *b);
      }
      default:
        break;
    }
    return fail("E0305", e.span,
                std::string("expected ") + what + " (an integer), found " + describe(e));
  }

  static bool isArith(Op op) {
    return op == Op::Add || op == Op::Sub || op == Op::Mul || op == Op::FloorDiv || op == Op::Mod ||
           op == Op::Pow || op == Op::LShift || op == Op::RShift;
  }

  std::optional<int64_t> arith(const Expr& e, int64_t a, int64_t b) {
    int64_t r = 0;
    switch (e.op) {
      case Op::Add:
        if (__builtin_add_overflow(a, b, &r)) return overflow(e);
        return r;
      case Op::Sub:
        if (__builtin_sub_overflow(a, b, &r)) return overflow(e);
        return r;
      case Op::Mul:
        if (__builtin_mul_overflow(a, b, &r)) return overflow(e);
        return r;
      case Op::FloorDiv:
      case Op::Mod: {
        if (b == 0) return fail("E0311", e.args[1]->span, "integer division by zero");
        if (a == std::numeric_limits<int64_t>::min() && b == -1) return overflow(e);
        int64_t q = a / b, m = a % b;
        if (m != 0 && ((m < 0) != (b < 0))) {  // Python floors
          q -= 1;
          m += b;
        }
        return e.op == Op::FloorDiv ? q : m;
      }
      case Op::Pow: {
        if (b < 0)
          return fail("E0305", e.args[1]->span,
                      "expected a non-negative integer exponent, found " + std::to_string(b));
        if (a == 0 || a == 1) return b == 0 ? 1 : a;
        if (a == -1) return b % 2 == 0 ? 1 : -1;
        r = 1;  // |a| >= 2: overflows within 64 steps, so the loop is short
        for (int64_t i = 0; i < b; ++i)
          if (__builtin_mul_overflow(r, a, &r)) return overflow(e);
        return r;
      }
      case Op::LShift:
        if (b < 0 || b >= 63 ||
            (a != 0 && (a > (std::numeric_limits<int64_t>::max() >> b) || a < 0)))
          return overflow(e);
        return a << b;
      case Op::RShift:
        if (b < 0) return overflow(e);
        return b >= 63 ? (a < 0 ? -1 : 0) : (a >> b);
      default:
        break;
    }
    return overflow(e);
  }

  std::optional<int64_t> overflow(const Expr& e) {
    return fail("E0310", e.span, "integer expression overflows 64 bits");
  }

  std::nullopt_t fail(const char* code, const SourceSpan& span, std::string message) {
    m_diags.push_back(makeError(code, span, std::move(message)));
    return std::nullopt;
  }

  const LayoutEnv& m_env;
  Diagnostics& m_diags;
};

}  // namespace

std::optional<TileLayout> layoutFromExpr(const ast::Expr& expr, const LayoutEnv& env,
                                         Diagnostics& diags) {
  return Evaluator(env, diags).layout(expr);
}

std::optional<LayoutValue> layoutValueFromExpr(const ast::Expr& expr, const LayoutEnv& env,
                                               Diagnostics& diags) {
  return Evaluator(env, diags).value(expr);
}

std::optional<LayoutValue> parseLayoutValueText(const std::string& text, Diagnostics& diags) {
  ExprParseResult parsed = parseExpression(text);
  diags.insert(diags.end(), parsed.diagnostics.begin(), parsed.diagnostics.end());
  if (!parsed.expr || hasErrors(parsed.diagnostics)) return std::nullopt;
  return layoutValueFromExpr(*parsed.expr, LayoutEnv{}, diags);
}

std::optional<TileLayout> parseLayoutText(const std::string& text, Diagnostics& diags) {
  ExprParseResult parsed = parseExpression(text);
  diags.insert(diags.end(), parsed.diagnostics.begin(), parsed.diagnostics.end());
  if (!parsed.expr || hasErrors(parsed.diagnostics)) return std::nullopt;
  return layoutFromExpr(*parsed.expr, LayoutEnv{}, diags);
}

}  // namespace tirx
