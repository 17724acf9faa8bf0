// Private scalar functions (`@T.function(private=True)`), the bodies of T.cuda.tile.ewise and
// helpers callable from other TIRx code. Decision OPEN-10: a body may contain scalar bindings
// (plain, annotated, augmented), if/elif/else, returns, `pass`, and calls of intrinsics and of
// private functions defined earlier in the file (no recursion); it must return a value on every
// path. Loops, memory accesses, allocations, tile operations, barriers and thread indices are
// errors, and lambdas are not accepted as ewise functions.
#include "core/sema/sema_internal.h"

namespace tirx::sema {

bool Analyzer::returnsOnAllPaths(const ast::Block& block) const {
  for (const auto& s : block) {
    if (!s) continue;
    if (s->kind == ast::StmtKind::Return) return true;
    if (s->kind == ast::StmtKind::If && !s->orelse.empty() && returnsOnAllPaths(s->body) &&
        returnsOnAllPaths(s->orelse))
      return true;
  }
  return false;
}

void Analyzer::lowerFunctionBody(const ast::Block& block, std::vector<ir::Stmt>& out) {
  lowerBlock(block, out);
}

void Analyzer::analyzeScalarFunction(const ast::Stmt& s) {
  ir::ScalarFunction f;
  f.name = s.name;
  f.span = s.nameSpan;
  m_body = std::make_unique<BodyContext>();
  m_body->inFunction = true;
  m_body->function = &f;
  m_body->vars = &f.vars;
  bool sigOk = true;
  for (const auto& p : s.params) {
    if (p.star || p.doubleStar) {
      error("E0202", p.span, "scalar function parameters cannot be *args or **kwargs");
      sigOk = false;
      continue;
    }
    if (!p.annotation) {
      error("E0202", p.span,
            "parameter '" + p.name + "' of scalar function '" + s.name +
                "' needs a type annotation such as T.float32");
      sigOk = false;
      continue;
    }
    auto t = dtypeArg(*p.annotation, false);
    if (!t) {
      error("E0202", p.annotation->span,
            "parameter '" + p.name +
                "' must be annotated with a scalar type such as T.float32, found '" +
                text(p.annotation->span) + "'");
      sigOk = false;
      continue;
    }
    const int var = newVar(p.name, *t, p.span, false);
    f.params.push_back(var);
    Binding b;
    b.kind = Binding::Kind::Var;
    b.index = var;
    b.span = p.span;
    ir::Symbol sym;
    sym.kind = ir::Symbol::Kind::Scalar;
    sym.name = p.name;
    sym.kernel = s.name;
    sym.span = p.span;
    sym.dtype = *t;
    b.symbol = addSymbol(std::move(sym));
    m_body->locals.names[p.name] = b;
  }
  if (!s.returns) {
    error("E0202", s.nameSpan,
          "scalar function '" + s.name + "' needs a return annotation such as -> T.float32");
    sigOk = false;
  } else if (auto t = dtypeArg(*s.returns, false)) {
    f.ret = *t;
  } else {
    error("E0202", s.returns->span,
          "the return annotation must be a scalar type such as T.float32, found '" +
              text(s.returns->span) + "'");
    sigOk = false;
  }
  m_body->returnType = f.ret;
  if (sigOk) {
    lowerFunctionBody(s.body, f.body);
    if (!returnsOnAllPaths(s.body)) {
      auto& d = error("E0200", s.nameSpan,
                      "scalar function '" + s.name + "' does not return a value on every path");
      if (!s.body.empty() && s.body.back())
        note(d, s.body.back()->span,
             "control reaches the end of the function after this statement");
    }
  }
  m_body.reset();
  ir::Symbol sym;
  sym.kind = ir::Symbol::Kind::Function;
  sym.name = s.name;
  sym.span = s.nameSpan;
  sym.dtype = f.ret;
  Binding b;
  b.kind = Binding::Kind::Function;
  b.index = static_cast<int>(m_program.functions.size());
  b.symbol = addSymbol(std::move(sym));
  b.span = s.nameSpan;
  m_moduleScope.names[s.name] = b;
  m_program.functions.push_back(std::move(f));
}

}  // namespace tirx::sema
