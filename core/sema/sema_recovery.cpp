// Error recovery that reports one root cause. A declaration that sema refuses (a kernel parameter
// with a bad annotation, an allocation with a bad dtype, an assignment whose value has an error)
// still binds its name, as a Refused binding; a later statement that mentions a refused name is
// skipped silently (its own assignment targets become refused in turn), so one bad declaration
// gives one error instead of "unknown name 'B' ... did you mean 'T'?" at every use.
#include "core/sema/sema_internal.h"

namespace tirx::sema {

void Analyzer::bindRefused(const std::string& name, SourceSpan span) {
  if (!m_body || name.empty()) return;
  Binding b;
  b.kind = Binding::Kind::Refused;
  b.span = span;
  m_body->locals.names[name] = b;
}

bool Analyzer::mentionsRefused(const ast::Expr& e) {
  if (e.kind == ast::ExprKind::Name) {
    const Binding* b = lookup(e.text);
    return b && b->kind == Binding::Kind::Refused;
  }
  for (const auto& a : e.args)
    if (a && mentionsRefused(*a)) return true;
  for (const auto& k : e.keywords)
    if (k.value && mentionsRefused(*k.value)) return true;
  return false;
}

bool Analyzer::skipRefusedStmt(const ast::Stmt& s) {
  if (!m_body) return false;
  bool refused = s.value && mentionsRefused(*s.value);
  // A subscript target (`B[i] = ...`) uses its tensor; a name target is only (re)bound.
  for (const auto& t : s.targets)
    if (t && t->kind != ast::ExprKind::Name && mentionsRefused(*t)) refused = true;
  if (s.kind == ast::StmtKind::AugAssign && !s.targets.empty() && s.targets[0] && mentionsRefused(*s.targets[0]))
    refused = true;
  if (!refused) return false;
  for (const auto& t : s.targets)
    if (t && t->kind == ast::ExprKind::Name) bindRefused(t->text, t->span);
  return true;
}

}  // namespace tirx::sema
