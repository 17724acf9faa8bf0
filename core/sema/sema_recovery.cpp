// Error recovery that reports one root cause. A declaration that sema refuses (a kernel parameter
// with a bad annotation, an allocation with a bad dtype, an assignment whose value has an error)
// still binds its name, as a Refused binding; a later statement that mentions a refused name is
// skipped silently (its own assignment targets become refused in turn), so one bad declaration
// gives one error instead of "unknown name 'B' ... did you mean 'T'?" at every use.
#include <functional>
#include <set>

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
  if (s.kind == ast::StmtKind::AugAssign && !s.targets.empty() && s.targets[0] &&
      mentionsRefused(*s.targets[0]))
    refused = true;
  if (!refused) return false;
  m_body->skippedRefused = true;
  for (const auto& t : s.targets)
    if (t && t->kind == ast::ExprKind::Name) bindRefused(t->text, t->span);
  return true;
}

// ---- module names defined from an unknown name ----
//
// `STAGES = 4 + foo` at module level raises NameError when Python imports the script: the one
// root cause is `foo`, reported at the definition. STAGES is bound as Refused, so its uses (shapes,
// launch sizes, layouts, loop bounds, other constants defined from it) are skipped silently
// instead of each reporting "unknown name" or "cannot be used as a scalar value".
namespace {

/// Names Python provides without an import (the builtins a harness line may use).
bool isPythonBuiltin(const std::string& n) {
  static const char* const kNames[] = {"abs",
                                       "all",
                                       "any",
                                       "ascii",
                                       "bin",
                                       "bool",
                                       "bytearray",
                                       "bytes",
                                       "callable",
                                       "chr",
                                       "complex",
                                       "dict",
                                       "dir",
                                       "divmod",
                                       "enumerate",
                                       "eval",
                                       "exec",
                                       "filter",
                                       "float",
                                       "format",
                                       "frozenset",
                                       "getattr",
                                       "globals",
                                       "hasattr",
                                       "hash",
                                       "hex",
                                       "id",
                                       "input",
                                       "int",
                                       "isinstance",
                                       "issubclass",
                                       "iter",
                                       "len",
                                       "list",
                                       "locals",
                                       "map",
                                       "max",
                                       "min",
                                       "next",
                                       "object",
                                       "oct",
                                       "open",
                                       "ord",
                                       "pow",
                                       "print",
                                       "range",
                                       "repr",
                                       "reversed",
                                       "round",
                                       "set",
                                       "setattr",
                                       "slice",
                                       "sorted",
                                       "str",
                                       "sum",
                                       "super",
                                       "tuple",
                                       "type",
                                       "vars",
                                       "zip",
                                       "__import__",
                                       "__name__",
                                       "__file__",
                                       "__doc__",
                                       "Ellipsis",
                                       "NotImplemented",
                                       "Exception",
                                       "ValueError",
                                       "TypeError",
                                       "RuntimeError",
                                       "AssertionError",
                                       "KeyError",
                                       "IndexError"};
  for (const char* k : kNames)
    if (n == k) return true;
  return false;
}

void collectBoundNames(const ast::Expr& target, std::set<std::string>& out) {
  if (target.kind == ast::ExprKind::Name) out.insert(target.text);
  if (target.kind == ast::ExprKind::Tuple || target.kind == ast::ExprKind::List ||
      target.kind == ast::ExprKind::Starred)
    for (const auto& a : target.args)
      if (a) collectBoundNames(*a, out);
}

void collectBoundNames(const ast::Block& block, std::set<std::string>& out, bool& starImport) {
  for (const auto& sp : block) {
    if (!sp) continue;
    const ast::Stmt& s = *sp;
    for (const auto& t : s.targets)
      if (t) collectBoundNames(*t, out);
    if (s.kind == ast::StmtKind::FunctionDef) out.insert(s.name);
    for (const auto& a : s.names) {
      if (a.name == "*") starImport = true;
      out.insert(!a.asname.empty()                 ? a.asname
                 : s.kind == ast::StmtKind::Import ? a.name.substr(0, a.name.find('.'))
                                                   : a.name);
    }
    // Names bound inside functions are their locals, but a `global` may bind a module name
    // there: every binding anywhere counts (a name is reported only when nothing binds it).
    collectBoundNames(s.body, out, starImport);
    collectBoundNames(s.orelse, out, starImport);
  }
}

/// The names in `e` (not inside a lambda, not attribute names) that nothing in scope binds.
void unboundNames(const ast::Expr& e, const std::function<bool(const std::string&)>& bound,
                  std::vector<const ast::Expr*>& out) {
  if (e.kind == ast::ExprKind::Lambda) return;
  if (e.kind == ast::ExprKind::Name) {
    if (!bound(e.text)) out.push_back(&e);
    return;
  }
  for (const auto& a : e.args)
    if (a) unboundNames(*a, bound, out);
  for (const auto& k : e.keywords)
    if (k.value) unboundNames(*k.value, bound, out);
}

}  // namespace

bool Analyzer::poisonModuleName(const ast::Expr& target, const ast::Expr& value) {
  if (!m_moduleBindings) {
    m_moduleBindings = std::make_unique<std::set<std::string>>();
    collectBoundNames(m_module.body, *m_moduleBindings, m_starImport);
  }
  auto refuse = [&] {
    Binding b;
    b.kind = Binding::Kind::Refused;
    b.span = target.span;
    m_moduleScope.names[target.text] = b;
    return true;
  };
  if (mentionsRefused(value)) return refuse();  // defined from a poisoned name: silent
  if (m_starImport) return false;
  std::vector<const ast::Expr*> unknown;
  unboundNames(
      value,
      [&](const std::string& n) {
        return m_moduleScope.names.count(n) || m_moduleBindings->count(n) || isPythonBuiltin(n);
      },
      unknown);
  if (unknown.empty()) return false;
  for (const ast::Expr* u : unknown) {
    unknownName(*u);
    note(m_diags.back(), target.span,
         "'" + target.text + "' is defined from it, so its uses are not checked until it is fixed");
  }
  return refuse();
}

}  // namespace tirx::sema
