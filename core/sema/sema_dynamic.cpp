// Symbolic extents (decision "Dynamic shapes" in docs/decisions.md): the leading extent of a
// `T.Tensor` parameter, and one more of its dimensions, may be `T.dynamic("n")`, a module symbol
// `n = T.dynamic("n")`, or an int scalar parameter declared before it; the grid may be an integer
// expression over such values
// (`grid=T.ceildiv(n, 256)`). Tile shapes stay static: a tile operand with a symbolic extent, a
// view of such a tensor and an open slice of its symbolic dimension are E0292. The extents are
// bound per call by the executors (core/ir/specialize.h).
#include <algorithm>

#include "core/sema/sema_internal.h"

namespace tirx::sema {

namespace {

/// Is `e` a kernel parameter's variable (scalar or symbolic)?
bool isParamVar(const ir::Kernel& k, int var) {
  return std::any_of(k.params.begin(), k.params.end(),
                     [var](const ir::KernelParam& p) { return !p.isTensor && p.var == var; });
}

/// Integer arithmetic over parameters and constants, which the host can evaluate (ir::evalHostInt).
bool hostComputable(const ir::Expr& e, const ir::Kernel& k) {
  switch (e.kind) {
    case ir::ExprKind::IntImm:
      return true;
    case ir::ExprKind::Var:
      return isParamVar(k, e.var);
    case ir::ExprKind::Cast:
    case ir::ExprKind::Unary:
    case ir::ExprKind::Binary: {
      using B = ir::BinOp;
      if (e.kind == ir::ExprKind::Unary && e.op != B::Neg) return false;
      if (e.kind == ir::ExprKind::Binary && e.op != B::Add && e.op != B::Sub && e.op != B::Mul &&
          e.op != B::FloorDiv && e.op != B::Mod && e.op != B::TruncDiv && e.op != B::TruncMod &&
          e.op != B::Min && e.op != B::Max)
        return false;
      return ir::isInt(e.dtype) &&
             std::all_of(e.args.begin(), e.args.end(),
                         [&](const ir::ExprPtr& a) { return a && hostComputable(*a, k); });
    }
    case ir::ExprKind::Intrinsic:
      return (e.name == "min" || e.name == "max") &&
             std::all_of(e.args.begin(), e.args.end(),
                         [&](const ir::ExprPtr& a) { return a && hostComputable(*a, k); });
    case ir::ExprKind::Select: {  // the exact T.ceildiv: (a % b != 0) ? a // b + 1 : a // b
      using B = ir::BinOp;
      const ir::Expr* c = e.args.size() == 3 && e.args[0] ? e.args[0].get() : nullptr;
      const bool compare = c && c->kind == ir::ExprKind::Compare &&
                           (c->op == B::Eq || c->op == B::Ne || c->op == B::Lt || c->op == B::Le ||
                            c->op == B::Gt || c->op == B::Ge);
      return compare && ir::isInt(e.dtype) &&
             std::all_of(c->args.begin(), c->args.end(),
                         [&](const ir::ExprPtr& a) { return a && hostComputable(*a, k); }) &&
             e.args[1] && hostComputable(*e.args[1], k) && e.args[2] &&
             hostComputable(*e.args[2], k);
    }
    default:
      return false;
  }
}

}  // namespace

bool Analyzer::tensorParamShape(const ast::Expr& an, ir::Buffer& buf, ir::Kernel& k,
                                std::vector<ir::KernelParam>& pending) {
  const ast::Expr& sh = *an.args[1];
  std::vector<const ast::Expr*> dims;
  if (sh.kind == ast::ExprKind::Tuple || sh.kind == ast::ExprKind::List)
    for (const auto& d : sh.args) dims.push_back(d.get());
  else
    dims.push_back(&sh);
  // Which dimensions are symbolic, and by which name.
  auto symbolName = [&](const ast::Expr& d) -> std::string {
    if (d.kind == ast::ExprKind::Call && builtinPath(*d.args[0]) == "T.dynamic")
      return d.args.size() == 2 && d.args[1]->kind == ast::ExprKind::Str ? d.args[1]->text
                                                                         : std::string("?");
    if (d.kind != ast::ExprKind::Name) return {};
    const Binding* b = lookup(d.text);
    if (!b) return {};
    if (b->kind == Binding::Kind::Dynamic) return d.text;
    const bool pendingVar =
        std::any_of(pending.begin(), pending.end(),
                    [&](const ir::KernelParam& p) { return p.var == b->index; });
    if (b->kind == Binding::Kind::Var && (isParamVar(k, b->index) || pendingVar) &&
        ir::isInt((*m_body->vars)[b->index].dtype))
      return d.text;
    return {};
  };
  bool any = false;
  for (const ast::Expr* d : dims) any = any || !symbolName(*d).empty();
  if (!any) return staticShape(sh, "E0113", "tensor", "a tensor shape", buf.shape);

  bool ok = true;
  for (const char* kw : {"strides", "layout"})
    if (const ast::Expr* x = keyword(an, kw)) {
      error("E0292", x->span,
            std::string("a tensor with a symbolic extent has the default row-major layout; ") + kw +
                "= is not supported with it");
      ok = false;
    }
  buf.shapeVars.assign(dims.size(), -1);
  buf.extentMultiple.assign(dims.size(), 1);
  buf.extentMultipleWhy.assign(dims.size(), std::string());
  int innerSymbolic = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    const ast::Expr& d = *dims[i];
    const std::string name = symbolName(d);
    if (name.empty()) {
      const size_t before = m_diags.size();
      auto v = staticInt(d, false);
      if (!v && m_diags.size() == before)
        error("E0113", d.span,
              "tensor dimensions must be static positive integers or a symbolic extent, found '" +
                  text(d.span) + "'");
      else if (v && *v <= 0)
        error("E0113", d.span, "tensor dimensions must be positive, found " + std::to_string(*v));
      if (!v || *v <= 0) ok = false;
      buf.shape.push_back(v.value_or(1));
      continue;
    }
    if (i != 0 && ++innerSymbolic > 1) {
      auto& e = error("E0292", d.span,
                      "at most one dimension after the leading one may be symbolic, found '" +
                          name + "' as dimension " + std::to_string(i));
      note(e, d.span,
           "the strides are computed from the symbolic extents; one of them besides the leading "
           "extent is supported");
      ok = false;
    }
    if (name == "?") {
      error("E0292", d.span,
            "T.dynamic expects the symbol's name as a string, found '" + text(d.span) + "'");
      ok = false;
      buf.shape.push_back(1);
      continue;
    }
    // A symbol already bound in this kernel (a scalar parameter, or a symbol another tensor
    // introduced) is used; a module symbol or an inline T.dynamic makes a new trailing parameter.
    int var = -1;
    if (const auto it = m_body->locals.names.find(name);
        it != m_body->locals.names.end() && it->second.kind == Binding::Kind::Var) {
      var = it->second.index;
    } else {
      var = newVar(name, ir::DType::Int32, d.span, false);
      ir::KernelParam kp;
      kp.name = name;
      kp.isTensor = false;
      kp.symbolic = true;
      kp.var = var;
      kp.dtype = ir::DType::Int32;
      kp.span = d.span;
      pending.push_back(kp);
      Binding b;
      b.kind = Binding::Kind::Var;
      b.index = var;
      b.span = d.span;
      ir::Symbol sym;
      sym.kind = ir::Symbol::Kind::Scalar;
      sym.name = name;
      sym.kernel = k.name;
      sym.span = d.span;
      sym.dtype = ir::DType::Int32;
      b.symbol = addSymbol(std::move(sym));
      m_body->locals.names[name] = b;
    }
    buf.shapeVars[i] = var;
    buf.shape.push_back(i == 0 ? ir::kSymbolicExtent : ir::kSymbolicInnerExtent);
  }
  if (ok && dims.size() > static_cast<size_t>(ir::kMaxTensorRank)) {
    error("E0242", sh.span,
          "a tensor of " + std::to_string(dims.size()) + " dimensions; at most " +
              std::to_string(ir::kMaxTensorRank) + " are supported");
    ok = false;
  }
  // Rows of at most 2^22 elements keep every product with the symbolic extent (2^40 + 1) in int64;
  // a symbolic non-leading extent counts as 2^16 + 1 (ir::kSymbolicInnerExtent) here.
  int64_t inner = 1;
  for (size_t i = 1; ok && i < buf.shape.size(); ++i)
    if (__builtin_mul_overflow(inner, buf.shape[i], &inner) || inner > (int64_t{1} << 22)) {
      error("E0292", sh.span,
            innerSymbolic
                ? "a tensor with a symbolic non-leading extent holds at most 63 static elements "
                  "per index of it"
                : "a tensor with a symbolic extent holds at most 2^22 elements per leading index");
      ok = false;
    }
  return ok;
}

ir::ExprPtr Analyzer::runtimeGridExtent(const ast::Expr& e, const ir::Kernel& k) {
  const size_t before = m_diags.size();
  Scalar s = lowerScalar(e);
  if (!s.ok()) {
    if (m_diags.size() == before)
      error("E0120", e.span, "grid extents must be integers, found '" + text(e.span) + "'");
    return nullptr;
  }
  if (!ir::isInt(s.expr->dtype)) {
    error("E0120", e.span,
          "grid extents must be integers, found " + std::string(ir::dtypeName(s.expr->dtype)) +
              " '" + text(e.span) + "'");
    return nullptr;
  }
  if (!hostComputable(*s.expr, k)) {
    auto& d =
        error("E0120", e.span,
              "a runtime grid extent is integer arithmetic (+, -, *, //, %, T.ceildiv, T.min, "
              "T.max) over scalar parameters, symbolic extents and constants, found '" +
                  text(e.span) + "'");
    note(d, e.span,
         "the grid is computed on the host before the launch (decision \"Dynamic shapes\")");
    return nullptr;
  }
  return s.expr;
}

bool Analyzer::staticOperand(const ir::TensorRef& r, SourceSpan span) {
  for (size_t d = 0; d < r.shape.size(); ++d) {
    if (!ir::isSymbolicExtent(r.shape[d])) continue;
    auto& e = error("E0292", span,
                    "tile operand '" + r.text + "' has a symbolic extent in dimension " +
                        std::to_string(d) + "; tile shapes stay static");
    note(e, span, "take a region with a static extent, e.g. " + r.text + "[i * 4 : i * 4 + 4]");
    return false;
  }
  return true;
}

}  // namespace tirx::sema
