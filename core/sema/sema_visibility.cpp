// Kernels the checker would not see (issue 8): a script must never "check nothing" in silence.
// A def under a decorator that is not TIRx's (`@foo`, a misspelt `@t.function` whose name is not
// defined, a Python decorator) is E0109 or E0117; a TIRx kernel defined inside a Python function
// (a builder returning a prim_func) or inside a module-level if/for/while is E0118, reported at
// the builder's call with the way to write it; a file without any kernel is E0119.
#include <algorithm>

#include "core/sema/sema_internal.h"

namespace tirx::sema {

namespace {

/// The leftmost name of `a.b.c` or `a.b(...)`; null when the chain does not start at a name.
const ast::Expr* rootName(const ast::Expr& e) {
  const ast::Expr* p = &e;
  while (p) {
    if (p->kind == ast::ExprKind::Name) return p;
    if ((p->kind == ast::ExprKind::Attribute || p->kind == ast::ExprKind::Call) && !p->args.empty())
      p = p->args[0].get();
    else
      return nullptr;
  }
  return nullptr;
}

/// Calls of the module-level function `name` anywhere inside `e`.
void findCalls(const ast::Expr& e, const std::string& name, std::vector<SourceSpan>& out) {
  if (e.kind == ast::ExprKind::Call && !e.args.empty() && e.args[0] &&
      e.args[0]->kind == ast::ExprKind::Name && e.args[0]->text == name)
    out.push_back(e.span);
  for (const auto& a : e.args)
    if (a) findCalls(*a, name, out);
  for (const auto& k : e.keywords)
    if (k.value) findCalls(*k.value, name, out);
}

void findCalls(const ast::Block& b, const std::string& name, std::vector<SourceSpan>& out) {
  for (const auto& s : b) {
    if (!s || s->kind == ast::StmtKind::FunctionDef) continue;
    for (const auto& t : s->targets)
      if (t) findCalls(*t, name, out);
    if (s->value) findCalls(*s->value, name, out);
    findCalls(s->body, name, out);
    findCalls(s->orelse, name, out);
  }
}

/// Decorated defs inside `b` (at any depth), with the statement kind that hides them.
void findHiddenDefs(const ast::Block& b, std::vector<const ast::Stmt*>& out) {
  for (const auto& s : b) {
    if (!s) continue;
    if (s->kind == ast::StmtKind::FunctionDef && !s->decorators.empty()) out.push_back(s.get());
    findHiddenDefs(s->body, out);
    findHiddenDefs(s->orelse, out);
  }
}

const char* compoundName(ast::StmtKind k) {
  switch (k) {
    case ast::StmtKind::If:
      return "an if statement";
    case ast::StmtKind::For:
      return "a for loop";
    case ast::StmtKind::While:
      return "a while loop";
    default:
      return "a compound statement";
  }
}

}  // namespace

bool Analyzer::checkForeignDecorator(const ast::Stmt& s, const ast::Expr& dec) {
  const ast::Expr& head = dec.kind == ast::ExprKind::Call ? *dec.args[0] : dec;
  const std::string shown = text(head.span);
  const ast::Expr* root = rootName(head);
  if (root && !lookup(root->text)) {
    // Python would stop here with a NameError; the checker says which import is missing.
    auto& d = error(
        "E0117", root->span,
        "name '" + root->text + "' is not defined: '" + s.name +
            "' is not checked as a kernel (TIRx kernels need 'from tvm.script import tirx as T')");
    bool haveT = false;
    for (const auto& [n, b] : m_moduleScope.names)
      haveT = haveT || b.kind == Binding::Kind::Namespace;
    if (root->text != "T" && haveT && shown.find(".function") != std::string::npos)
      note(d, head.span, "did you mean '@T.function'?");
    return true;
  }
  auto& d = error(
      "E0109", head.span,
      "decorator '" + shown + "' is not a TIRx decorator: '" + s.name +
          "' would not be checked or verified as a kernel; kernels are written with @T.function");
  (void)d;
  return true;
}

void Analyzer::checkHiddenKernels() {
  for (const auto& sp : m_module.body) {
    if (!sp) continue;
    const ast::Stmt& s = *sp;
    std::vector<const ast::Stmt*> hidden;
    if (s.kind == ast::StmtKind::FunctionDef) {
      if (!s.decorators.empty()) continue;  // a kernel itself (nested defs are its business)
      findHiddenDefs(s.body, hidden);
      if (hidden.empty()) continue;
      const ast::Stmt& k = *hidden.front();
      std::vector<SourceSpan> calls;
      findCalls(m_module.body, s.name, calls);
      const std::string msg =
          "'" + s.name + "' builds the kernel '" + k.name +
          "' inside a Python function, which the checker and the harness cannot run: define '" +
          k.name +
          "' at module level with @T.function (sizes as module-level constants) and "
          "compile it directly";
      if (calls.empty()) {
        auto& d = error("E0118", k.decorators.front()->span, msg);
        note(d, s.nameSpan, "builder function defined here");
      } else {
        for (const auto& c : calls) {
          auto& d = error("E0118", c, msg);
          note(d, k.nameSpan, "kernel defined here");
        }
      }
      continue;
    }
    if (s.kind == ast::StmtKind::If || s.kind == ast::StmtKind::For ||
        s.kind == ast::StmtKind::While) {
      findHiddenDefs(s.body, hidden);
      findHiddenDefs(s.orelse, hidden);
      for (const ast::Stmt* k : hidden)
        error("E0118", k->nameSpan,
              "the kernel '" + k->name + "' is defined inside " + compoundName(s.kind) +
                  ", where the checker does not see it: define it at module level");
    }
  }
}

void Analyzer::requireKernel() {
  // A file of private scalar functions is still checked (sema analyses them); verify then reports
  // that it ran no check.
  if (!m_program.kernels.empty() || !m_program.functions.empty()) return;
  for (const auto& d : m_diags)
    if (d.severity == Severity::Error) return;  // already not "checking nothing"
  SourceSpan start;                             // the first line of the file
  start.line = 1;
  start.col = 1;
  const std::string& src = m_module.source;
  start.length = static_cast<int>(std::min(src.find('\n'), src.size()));
  if (start.length == 0 && !src.empty()) start.length = 1;  // an empty first line: its newline
  error("E0119", start,
        "no TIRx kernel in this file: nothing would be checked or verified (a kernel is a "
        "module-level def decorated with @T.function)");
}

}  // namespace tirx::sema
