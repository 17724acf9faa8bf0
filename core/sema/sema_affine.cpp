// Affine forms through assigned variables (issue 13): `base = bx * 256` then
// `A[base : base + 256]` is proven aligned exactly as `A[bx * 256 : bx * 256 + 256]`.
//
// Before a kernel body is lowered, countAssignments counts the statements that bind each name
// (`=`, annotated `=`, `op=`; a `for` target counts as many). A name bound by exactly one statement
// has one definition, so every value it ever holds is that statement's value at some execution:
//   - a *stable* definition (its form reads only thread and block indices, scalar parameters never
//     reassigned, and other stable definitions) holds the same value at every use: the variable is
//     replaced by the whole form;
//   - any other definition (`i = k * 4 + 2` with `k` a loop variable) is only known modulo the gcd
//     g of its coefficients: the variable becomes `g·@i + (c mod g)`, an opaque atom that keeps
//     what alignment needs (`i + 2` is a multiple of 4) and nothing it does not.
// A name bound twice, or by `+=`, a loop variable, or a scalar parameter assigned in the body (it
// held the argument before) stays an unknown atom, as before.
// affineForm is what region extents and region starts' known divisors (loMultiple) use.
#include "core/sema/sema_internal.h"

namespace tirx::sema {

namespace {

void countTarget(const ast::Expr& t, int weight, std::map<std::string, int>& counts) {
  if (t.kind == ast::ExprKind::Name) counts[t.text] += weight;
  if (t.kind == ast::ExprKind::Tuple || t.kind == ast::ExprKind::List)
    for (const auto& x : t.args)
      if (x) countTarget(*x, weight, counts);
}

/// Adds k·f to out; false when a coefficient leaves int64.
bool addScaled(LinearForm& out, const LinearForm& f, int64_t k) {
  int64_t t;
  if (__builtin_mul_overflow(f.constant, k, &t) ||
      __builtin_add_overflow(out.constant, t, &out.constant))
    return false;
  for (const auto& [key, c] : f.terms) {
    int64_t& slot = out.terms[key];
    if (__builtin_mul_overflow(c, k, &t) || __builtin_add_overflow(slot, t, &slot)) return false;
    if (slot == 0) out.terms.erase(key);
  }
  return true;
}

}  // namespace

void Analyzer::countAssignments(const ast::Block& block) {
  auto& counts = m_body->assignCount;
  for (const auto& s : block) {
    if (!s) continue;
    switch (s->kind) {
      case ast::StmtKind::Assign:
      case ast::StmtKind::AnnAssign:
      case ast::StmtKind::AugAssign:
        for (const auto& t : s->targets)
          if (t) countTarget(*t, 1, counts);
        break;
      case ast::StmtKind::For:  // a loop variable takes many values
        if (!s->targets.empty() && s->targets[0]) countTarget(*s->targets[0], 2, counts);
        break;
      default:
        break;
    }
    countAssignments(s->body);
    countAssignments(s->orelse);
  }
}

std::optional<LinearForm> Analyzer::affineForm(const ir::Expr& e) const {
  auto f = linearize(e);
  if (!f || !m_body || m_body->varForms.empty()) return f;
  LinearForm out;
  out.constant = f->constant;
  for (const auto& [key, coef] : f->terms) {
    if (key.size() > 1 && key[0] == 'v') {
      const int var = std::atoi(key.c_str() + 1);
      if (auto it = m_body->varForms.find(var); it != m_body->varForms.end()) {
        if (!addScaled(out, it->second.form, coef)) return f;
        continue;
      }
    }
    LinearForm atom;
    atom.terms[key] = 1;
    if (!addScaled(out, atom, coef)) return f;
  }
  return out;
}

bool Analyzer::stableAtom(const std::string& key) const {
  if (key.empty()) return false;
  if (key[0] == 't' || key[0] == 'b') return true;  // threadIdx, blockIdx
  if (key[0] == 'v') {
    const int var = std::atoi(key.c_str() + 1);
    if (auto it = m_body->varForms.find(var); it != m_body->varForms.end())
      return it->second.stable;
    // A scalar parameter that no statement reassigns.
    if (!m_body->kernel) return false;
    for (const auto& p : m_body->kernel->params)
      if (!p.isTensor && p.var == var) {
        auto c = m_body->assignCount.find(p.name);
        return c == m_body->assignCount.end() || c->second == 0;
      }
    return false;
  }
  // An opaque atom (`bx % 2`) over indices only: its text names no variable.
  return key[0] == '@' && key.find('v') == std::string::npos;
}

void Analyzer::noteAffineDef(int var, const std::string& name, const ir::Expr& value) {
  if (!m_body || !m_body->kernel || var < 0 || !ir::isInt(value.dtype)) return;
  auto c = m_body->assignCount.find(name);
  if (c == m_body->assignCount.end() || c->second != 1) return;
  // A parameter assigned in the body held the argument before: two values, not one definition.
  for (const auto& p : m_body->kernel->params)
    if (!p.isTensor && p.var == var) return;
  auto f = affineForm(value);
  if (!f) return;
  VarForm vf;
  vf.stable = true;
  for (const auto& [key, coef] : f->terms) vf.stable = vf.stable && stableAtom(key);
  if (vf.stable) {
    vf.form = *f;
  } else {
    // Only the residue modulo the gcd of the coefficients is known.
    LinearForm g = *f;
    g.constant = 0;
    const int64_t step = g.divisor();
    vf.form.terms["@v" + std::to_string(var) + "#"] = step;
    vf.form.constant = step == 0 ? f->constant : ((f->constant % step) + step) % step;
  }
  m_body->varForms[var] = std::move(vf);
}

}  // namespace tirx::sema
