// `@T.macro` (decision L-2 in docs/decisions.md), as TVMScript spells it: a module-level
// `@T.macro def name(params): body` whose body is inlined at each statement-level call
// `name(args)` in a kernel (or a private scalar function). As in TVM's TIRMacro:
//   - arguments bind by Python's rules (positional, keyword, defaults evaluated at module scope);
//     an argument may be a tensor/tile or view, a layout, a dtype, a static int or float, or any
//     scalar expression, which is substituted (not copied into a variable) where the body uses it;
//   - hygienic (the default): the body's free names resolve at the definition (module scope);
//     `@T.macro(hygienic=False)`: they resolve at the call site, the caller's locals included;
//   - every name the body binds is local to one expansion (a fresh variable each time), so two
//     expansions never share a variable and the body never assigns the caller's variables;
//   - a macro produces no value: using a call as an expression, and `return` in the body, are
//     errors.
// Diagnostics found in the body are reported at the call site with a note at the body's line.
#include <algorithm>

#include "core/sema/sema_internal.h"

namespace tirx::sema {

namespace {

bool containsReturn(const ast::Block& block, const ast::Stmt** where) {
  for (const auto& s : block) {
    if (!s || s->kind == ast::StmtKind::FunctionDef) continue;
    if (s->kind == ast::StmtKind::Return) {
      *where = s.get();
      return true;
    }
    if (containsReturn(s->body, where) || containsReturn(s->orelse, where)) return true;
  }
  return false;
}

}  // namespace

void Analyzer::bindMacro(const ast::Stmt& def, const ast::Expr& decorator) {
  MacroDef m;
  m.def = &def;
  bool ok = true;
  if (decorator.kind == ast::ExprKind::Call) {
    ok = checkCallShape(decorator, "T.macro", 0, 0, {"hygienic"});
    if (const ast::Expr* h = keyword(decorator, "hygienic")) {
      if (h->kind != ast::ExprKind::Bool) {
        error("E0126", h->span, "hygienic= expects True or False, found '" + text(h->span) + "'");
        ok = false;
      } else {
        m.hygienic = h->boolValue;
      }
    }
  }
  for (const auto& p : def.params) {
    if (p.star || p.doubleStar) {
      error("E0126", p.span, "macro parameters cannot be *args or **kwargs; name each parameter");
      ok = false;
    }
  }
  if (const ast::Stmt* r = nullptr; containsReturn(def.body, &r)) {
    auto& d = error("E0126", r->span, "a T.macro body is inlined as statements and cannot return");
    note(d, def.nameSpan,
         "macro '" + def.name +
             "' is defined here; write its results into a tile or tensor argument");
    ok = false;
  }
  Binding b;
  b.span = def.nameSpan;
  if (!ok) {
    b.kind = Binding::Kind::Refused;  // reported here; its calls stay silent
  } else {
    b.kind = Binding::Kind::Macro;
    b.macro = static_cast<int>(m_macros.size());
    m_macros.push_back(m);
  }
  m_moduleScope.names[def.name] = b;
}

std::optional<Binding> Analyzer::macroArgument(const ast::Expr& e) {
  // A name is passed as what it is bound to: a tile, a layout, a variable, a constant, a macro.
  if (e.kind == ast::ExprKind::Name) {
    if (const Binding* b = lookup(e.text)) {
      useSymbol(b->symbol, e.span);
      return *b;
    }
    unknownName(e);
    return std::nullopt;
  }
  Binding b;
  b.span = e.span;
  if (e.kind == ast::ExprKind::Str) {
    if (auto t = ir::parseDType(e.text); t && *t != ir::DType::Void) {
      b.kind = Binding::Kind::DTypeConst;
      b.intValue = static_cast<int64_t>(*t);
      return b;
    }
    error("E0126", e.span,
          "a macro argument is a tensor, layout, dtype or scalar value, found the string \"" +
              e.text + "\"");
    return std::nullopt;
  }
  if (auto t = moduleDTypeAlias(e)) {  // T.float16
    b.kind = Binding::Kind::DTypeConst;
    b.intValue = static_cast<int64_t>(*t);
    return b;
  }
  if (m_body && !m_body->inFunction && isTensorExpr(e)) {
    auto ref = lowerTensor(e);
    if (!ref) return std::nullopt;
    b.kind = Binding::Kind::Tensor;
    b.tensor = ref;
    return b;
  }
  const std::string head = e.kind == ast::ExprKind::Call || e.kind == ast::ExprKind::Subscript
                               ? builtinPath(*e.args[0])
                               : std::string();
  if (head == "T.TileLayout" || head == "T.S" || head == "T.R") {
    auto l = layoutArg(e);
    if (!l) return std::nullopt;
    b.kind = Binding::Kind::Layout;
    b.index = static_cast<int>(m_layouts.size());
    m_layouts.push_back(*l);
    return b;
  }
  const size_t before = m_diags.size();
  if (auto v = staticInt(e, false)) {  // shapes, loop bounds and extents stay static in the body
    b.kind = Binding::Kind::IntConst;
    b.intValue = *v;
    return b;
  }
  if (m_diags.size() != before) return std::nullopt;
  Scalar s = lowerScalar(e);
  if (!s.ok()) return std::nullopt;
  b.kind = Binding::Kind::ScalarExpr;
  b.expr = s.expr;
  b.literal = s.literal;
  return b;
}

void Analyzer::expandMacro(const ast::Expr& call, const Binding& macro,
                           std::vector<ir::Stmt>& out) {
  const MacroDef& m = m_macros[size_t(macro.macro)];
  const ast::Stmt& def = *m.def;
  const std::string display = "macro '" + def.name + "'";
  if (std::count(m_expanding.begin(), m_expanding.end(), macro.macro) > 0 ||
      m_expanding.size() >= 16) {
    auto& d = error("E0126", call.span,
                    display + " expands itself (macros are inlined, so they cannot recurse)");
    note(d, def.nameSpan, display + " is defined here");
    return;
  }
  // Bind the arguments by Python's rules.
  std::vector<const ast::Expr*> given(def.params.size(), nullptr);
  bool ok = true;
  const size_t npos = call.args.size() - 1;
  for (size_t i = 1; i < call.args.size(); ++i) {
    const ast::Expr& a = *call.args[i];
    if (a.kind == ast::ExprKind::Starred) {
      error("E0102", a.span, display + " does not accept *arguments");
      return;
    }
    if (i - 1 >= def.params.size() || def.params[i - 1].keywordOnly) {
      error("E0102", a.span,
            display + " takes " + std::to_string(def.params.size()) + " argument" +
                (def.params.size() == 1 ? "" : "s") + ", found " + std::to_string(npos));
      return;
    }
    given[i - 1] = &a;
  }
  for (const auto& k : call.keywords) {
    auto it = std::find_if(def.params.begin(), def.params.end(),
                           [&](const ast::Param& p) { return p.name == k.name; });
    if (it == def.params.end()) {
      std::vector<std::string> names;
      for (const auto& p : def.params) names.push_back(p.name);
      auto& d = error("E0103", k.span,
                      display + " has no parameter '" + (k.name.empty() ? "**" : k.name) + "'");
      if (const std::string best = closestName(k.name, names); !best.empty())
        note(d, k.span, "did you mean '" + best + "'?");
      ok = false;
      continue;
    }
    const size_t idx = size_t(it - def.params.begin());
    if (given[idx]) {
      error("E0102", k.span, display + " got two values for parameter '" + k.name + "'");
      ok = false;
      continue;
    }
    given[idx] = k.value.get();
  }
  if (!ok) return;  // as Python: a wrong keyword is the error, not the parameter it left unset
  std::vector<std::pair<std::string, Binding>> params;
  for (size_t i = 0; i < def.params.size(); ++i) {
    const ast::Param& p = def.params[i];
    std::optional<Binding> b;
    if (given[i]) {
      b = macroArgument(*given[i]);
    } else if (p.defaultValue) {
      // A default is evaluated where the macro is defined: the module scope.
      Scope caller = std::move(m_body->locals);
      m_body->locals = Scope{};
      b = macroArgument(*p.defaultValue);
      m_body->locals = std::move(caller);
    } else {
      auto& d =
          error("E0104", call.span, display + " needs an argument for parameter '" + p.name + "'");
      note(d, p.span, "parameter '" + p.name + "' has no default");
      ok = false;
      continue;
    }
    if (!b) {
      ok = false;
      continue;
    }
    b->expansion = -1;  // owned by the caller: an assignment in the body makes a new local
    params.emplace_back(p.name, std::move(*b));
  }
  if (!ok) return;

  // Inline the body in its own scope.
  Scope caller = std::move(m_body->locals);
  m_body->locals = m.hygienic ? Scope{} : caller;
  if (!m.hygienic)
    for (auto& [n, b] : m_body->locals.names)
      if (b.expansion == m_expansion) b.expansion = -1;  // the caller's: read, never assigned
  for (auto& [n, b] : params) m_body->locals.names[n] = std::move(b);
  const int outer = m_expansion;
  m_expansion = ++m_expansionCount;
  m_expanding.push_back(macro.macro);
  countAssignments(def.body);  // the body's names join the kernel's counts (sema_affine.cpp)
  const size_t diagsBefore = m_diags.size();
  lowerBlock(def.body, out);
  // Each finding in the body is this call's: reported here, with the body's line as a note.
  for (size_t i = diagsBefore; i < m_diags.size(); ++i) {
    Diagnostic& d = m_diags[i];
    d.notes.insert(d.notes.begin(), DiagNote{d.span, "in " + display + ", expanded at line " +
                                                         std::to_string(call.span.line)});
    d.span = call.span;
  }
  m_expanding.pop_back();
  m_expansion = outer;
  m_body->locals = std::move(caller);
}

}  // namespace tirx::sema
