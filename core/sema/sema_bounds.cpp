// Static bounds checking (E0291): an element access or a tile operand whose index, over every
// reachable block index, thread index and loop variable, reaches outside its tensor is reported by
// the checker, not only by the simulator.
//
// Only what is proven is reported. An index is an affine form (sema_expr.cpp's linearize) over
// independent variables with exact static ranges: threadIdx (0..block-1), blockIdx (0..grid-1),
// the variable of an enclosing `for` with static bounds and no `break` or `continue`, and kernel
// variables assigned exactly once at the kernel's top level (substituted by their value). Over such
// a box the extremes of an affine form are attained at its corners, so they are reached. Enclosing
// guards are respected: a guard `g <= k` whose terms are exactly the index's (`if i < N: A[i]`)
// tightens its range, when the index's values are provably contiguous (so the tightened extreme
// is reached); a guard over other variables only must be satisfiable and independent of the
// other guards; anything else (a guard sharing some variables, `while`, a predicated tile op, a
// load under `and`/`if_then_else`, a non-affine index, a dynamic extent) makes the access silent.
#include <algorithm>
#include <numeric>
#include <set>

#include "core/sema/sema_internal.h"

namespace tirx::sema {

namespace {

using ir::ExprKind;

struct Range {
  int64_t lo = 0, hi = 0;  // inclusive
};

/// `form <= bound` over known atoms.
struct Constraint {
  LinearForm form;
  int64_t bound = 0;
};

struct Context {
  std::vector<Constraint> guards;
  int opaque = 0;  ///< enclosing constructs that make every access below silent
};

class BoundsChecker {
 public:
  BoundsChecker(Analyzer& a, const ir::Kernel& k) : m_a(a), m_k(k) {
    for (int d = 0; d < 3; ++d) {
      m_atoms["t" + std::to_string(d)] = {0, k.launch.block[d] - 1};
      if (!k.launch.gridExprs[d]) m_atoms["b" + std::to_string(d)] = {0, k.launch.grid[d] - 1};
    }
    m_assignCount.assign(k.vars.size(), 0);
    countAssignments(k.body);
    for (const auto& s : k.body)
      if (s.kind == ir::StmtKind::Assign && s.var >= 0 &&
          s.var < static_cast<int>(m_assignCount.size()) && m_assignCount[s.var] == 1)
        m_single[s.var] = s.value.get();
  }

  void run() {
    Context c;
    walk(m_k.body, c);
  }

 private:
  void countAssignments(const std::vector<ir::Stmt>& body) {
    for (const auto& s : body) {
      if ((s.kind == ir::StmtKind::Assign || s.kind == ir::StmtKind::For) && s.var >= 0 &&
          s.var < static_cast<int>(m_assignCount.size()))
        ++m_assignCount[s.var];
      countAssignments(s.body);
      countAssignments(s.orelse);
    }
  }

  /// A `break` or `continue` of this loop: the accesses after it see fewer values of the variable.
  static bool hasBreak(const std::vector<ir::Stmt>& body) {
    for (const auto& s : body) {
      if (s.kind == ir::StmtKind::Break || s.kind == ir::StmtKind::Continue) return true;
      // A break or continue of a nested loop leaves only that loop.
      if (s.kind != ir::StmtKind::For && s.kind != ir::StmtKind::While &&
          (hasBreak(s.body) || hasBreak(s.orelse)))
        return true;
    }
    return false;
  }

  /// The affine form of `e` with single-assignment variables substituted; nullopt when not affine.
  std::optional<LinearForm> form(const ir::Expr& e, int depth = 0) {
    auto f = linearize(e);
    if (!f || depth > 8) return depth > 8 ? std::nullopt : f;
    LinearForm out;
    out.constant = f->constant;
    for (const auto& [key, coef] : f->terms) {
      std::optional<LinearForm> sub;
      if (key.size() > 1 && key[0] == 'v') {
        const int var = std::atoi(key.c_str() + 1);
        if (auto loop = m_loops.find(var); loop != m_loops.end()) {
          sub = loop->second;
        } else {
          auto it = m_single.find(var);
          if (it == m_single.end()) return std::nullopt;
          sub = form(*it->second, depth + 1);
          if (!sub) return std::nullopt;
        }
      } else {
        sub = LinearForm{};
        sub->terms[key] = 1;
      }
      if (!addScaled(out, *sub, coef)) return std::nullopt;
    }
    return out;
  }

  static bool addScaled(LinearForm& out, const LinearForm& f, int64_t k) {
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

  /// The exact range of a form over the box (every term a known atom).
  std::optional<Range> rangeOf(const LinearForm& f) const {
    __int128 lo = f.constant, hi = f.constant;
    for (const auto& [key, c] : f.terms) {
      auto it = m_atoms.find(key);
      if (it == m_atoms.end()) return std::nullopt;
      const __int128 a = static_cast<__int128>(c) * it->second.lo,
                     b = static_cast<__int128>(c) * it->second.hi;
      lo += std::min(a, b);
      hi += std::max(a, b);
    }
    if (lo < INT64_MIN || hi > INT64_MAX) return std::nullopt;
    return Range{static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
  }

  /// Step of the value set of the terms of `f` when it is contiguous in that step (every value
  /// from min to max in steps of the gcd is reached), 0 otherwise.
  int64_t contiguousStep(const LinearForm& f) const {
    std::vector<std::pair<int64_t, int64_t>> parts;  // |coef|, atom extent - 1
    int64_t g = 0;
    for (const auto& [key, c] : f.terms) {
      const Range r = m_atoms.at(key);
      if (r.hi == r.lo) continue;
      parts.emplace_back(c < 0 ? -c : c, r.hi - r.lo);
      g = std::gcd(g, c < 0 ? -c : c);
    }
    if (g == 0) return 1;
    std::sort(parts.begin(), parts.end());
    __int128 reach = 0;  // the values 0..reach (in units of g) are all reached by the parts so far
    for (const auto& [c, n] : parts) {
      if (c / g > reach + 1) return 0;
      reach += static_cast<__int128>(c / g) * n;
    }
    return g;
  }

  /// Constraints of a condition known to be `truth`; false when it is not analysable.
  bool constraintsOf(const ir::Expr& e, bool truth, std::vector<Constraint>& out) {
    if (e.kind == ExprKind::Unary && e.op == ir::BinOp::Not)
      return constraintsOf(*e.args[0], !truth, out);
    if (e.kind == ExprKind::Logical) {
      if ((e.op == ir::BinOp::And) != truth) return false;  // a disjunction
      return constraintsOf(*e.args[0], truth, out) && constraintsOf(*e.args[1], truth, out);
    }
    if (e.kind != ExprKind::Compare || !ir::isInt(e.args[0]->dtype) || !ir::isInt(e.args[1]->dtype))
      return false;
    auto l = form(*e.args[0]), r = form(*e.args[1]);
    if (!l || !r || !addScaled(*l, *r, -1)) return false;
    for (const auto& [key, c] : l->terms)
      if (!m_atoms.count(key)) return false;
    // l - r  op  0, as d <= k constraints.
    ir::BinOp op = e.op;
    if (!truth) {
      switch (op) {
        case ir::BinOp::Lt:
          op = ir::BinOp::Ge;
          break;
        case ir::BinOp::Le:
          op = ir::BinOp::Gt;
          break;
        case ir::BinOp::Gt:
          op = ir::BinOp::Le;
          break;
        case ir::BinOp::Ge:
          op = ir::BinOp::Lt;
          break;
        case ir::BinOp::Eq:
          op = ir::BinOp::Ne;
          break;
        default:
          op = ir::BinOp::Eq;
          break;
      }
    }
    LinearForm neg;
    if (!addScaled(neg, *l, -1)) return false;
    const int64_t c = l->constant;
    LinearForm d = *l;
    d.constant = 0;
    LinearForm nd = neg;
    nd.constant = 0;
    // d + c op 0
    switch (op) {
      case ir::BinOp::Lt:
        out.push_back({d, -c - 1});
        return true;
      case ir::BinOp::Le:
        out.push_back({d, -c});
        return true;
      case ir::BinOp::Gt:
        out.push_back({nd, c - 1});
        return true;
      case ir::BinOp::Ge:
        out.push_back({nd, c});
        return true;
      case ir::BinOp::Eq:
        out.push_back({d, -c});
        out.push_back({nd, c});
        return true;
      default:
        return false;  // != is not convex
    }
  }

  static bool sameTerms(const LinearForm& a, const LinearForm& b, int sign) {
    if (a.terms.size() != b.terms.size()) return false;
    for (const auto& [key, c] : a.terms) {
      auto it = b.terms.find(key);
      if (it == b.terms.end() || it->second != sign * c) return false;
    }
    return true;
  }
  static bool disjoint(const LinearForm& a, const LinearForm& b) {
    for (const auto& [key, c] : a.terms)
      if (b.terms.count(key)) return false;
    return true;
  }

  /// The reachable range of `f` under the guards of `c`; nullopt when not proven (or unreachable).
  std::optional<Range> reachable(const LinearForm& f, const Context& c) const {
    if (c.opaque) return std::nullopt;
    auto box = rangeOf(f);
    if (!box) return std::nullopt;
    LinearForm terms = f;
    terms.constant = 0;
    int64_t lo = box->lo, hi = box->hi;  // tightened bounds on f
    std::vector<const Constraint*> others;
    for (const auto& g : c.guards) {
      if (g.form.terms.empty()) {
        if (0 > g.bound) return std::nullopt;  // never true: unreachable
        continue;
      }
      if (sameTerms(g.form, terms, 1)) {
        hi = std::min<int64_t>(hi, g.bound + f.constant);
      } else if (sameTerms(g.form, terms, -1)) {
        lo = std::max<int64_t>(lo, f.constant - g.bound);
      } else if (disjoint(g.form, terms)) {
        others.push_back(&g);
      } else {
        return std::nullopt;
      }
    }
    // Guards over other variables: each satisfiable, and no two sharing a variable (then they
    // constrain independent variables and are jointly satisfiable).
    for (size_t i = 0; i < others.size(); ++i) {
      auto r = rangeOf(others[i]->form);
      if (!r || r->lo > others[i]->bound) return std::nullopt;
      for (size_t j = 0; j < i; ++j)
        if (!disjoint(others[i]->form, others[j]->form)) return std::nullopt;
    }
    if (lo == box->lo && hi == box->hi) return *box;
    const int64_t step = contiguousStep(terms);
    if (step == 0) return std::nullopt;
    // Values are box->lo + step·j; the reachable ones lie in [lo, hi].
    auto up = [&](int64_t v) { return box->lo + (v - box->lo + step - 1) / step * step; };
    auto down = [&](int64_t v) { return box->lo + (v - box->lo) / step * step; };
    if (hi < box->lo || lo > box->hi) return std::nullopt;
    const int64_t rlo = up(std::max(lo, box->lo)), rhi = down(std::min(hi, box->hi));
    if (rlo > rhi) return std::nullopt;
    return Range{rlo, rhi};
  }

  std::string rangesNote(const LinearForm& f) const {
    std::string out;
    for (const auto& [key, c] : f.terms) {
      auto it = m_atoms.find(key);
      if (it == m_atoms.end()) continue;
      std::string name;
      // Launch atoms are "t0".."t2" / "b0".."b2"; loop atoms are "L<var>" with any number of
      // digits.
      const int axis = key.size() == 2 ? key[1] - '0' : 0;
      const char xyz = "xyz"[std::clamp(axis, 0, 2)];
      if (key[0] == 't')
        name = std::string("threadIdx.") + xyz +
               " (block=" + std::to_string(m_k.launch.block[axis]) + ")";
      else if (key[0] == 'b')
        name = std::string("blockIdx.") + xyz + " (grid=" + std::to_string(m_k.launch.grid[axis]) +
               ")";
      else {
        const int var = std::atoi(key.c_str() + 1);
        const auto& loop = m_loops.at(var);
        name = "loop variable '" +
               (var >= 0 && var < static_cast<int>(m_k.vars.size()) ? m_k.vars[var].name : key) +
               "'";
        out += (out.empty() ? "" : ", ") + name + " ranges over " + std::to_string(loop.constant) +
               ".." + std::to_string(loop.constant + it->second.hi * loop.terms.begin()->second);
        continue;
      }
      out += (out.empty() ? "" : ", ") + name + " ranges over " + std::to_string(it->second.lo) +
             ".." + std::to_string(it->second.hi);
    }
    return out;
  }

  /// Checks coordinate `lo + [0, extent)` against dimension `dim` of extent `size`.
  void checkCoord(const ir::Expr* loExpr, const ir::Expr* idxExpr, int64_t extent, int64_t size,
                  size_t dim, const std::string& what, SourceSpan span, const Context& c) {
    if (size <= 0 || ir::isSymbolicExtent(size))
      return;  // a symbolic extent: the simulator checks it
    LinearForm f;
    for (const ir::Expr* e : {loExpr, idxExpr}) {
      if (!e) continue;
      auto fe = form(*e);
      if (!fe || !addScaled(f, *fe, 1)) return;
    }
    if (f.terms.empty()) return;  // constants are checked where the region is written (E0137)
    auto r = reachable(f, c);
    if (!r) return;
    const int64_t last = r->hi + extent - 1;
    if (r->lo >= 0 && last < size) return;
    const int64_t bad = r->lo < 0 ? r->lo : last;
    auto& d = m_a.error("E0291", span,
                        what + " reaches index " + std::to_string(bad) + " of dimension " +
                            std::to_string(dim) + " (extent " + std::to_string(size) +
                            ") for some reachable block, thread or loop index");
    const std::string ranges = rangesNote(f);
    if (!ranges.empty()) m_a.note(d, span, ranges);
  }

  /// A tile operand or a region: every layout coordinate's start over its extent.
  void checkRegion(const ir::TensorRef& t, const Context& c) {
    for (size_t d = 0; d < t.layoutShape.size() && d < t.lo.size(); ++d) {
      if (!t.lo[d]) continue;
      const int64_t extent = t.dimMap[d] >= 0 ? t.shape[t.dimMap[d]] : 1;
      checkCoord(t.lo[d].get(), nullptr, extent, t.layoutShape[d], d, "region '" + t.text + "'",
                 t.span, c);
    }
  }

  /// An element access `t[indices]`.
  void checkElement(const ir::TensorRef& t, const std::vector<ir::ExprPtr>& indices,
                    SourceSpan span, const std::string& what, const Context& c) {
    for (size_t d = 0; d < t.layoutShape.size(); ++d) {
      const int k = d < t.dimMap.size() ? t.dimMap[d] : -1;
      const ir::Expr* idx =
          k >= 0 && k < static_cast<int>(indices.size()) ? indices[k].get() : nullptr;
      const ir::Expr* lo = d < t.lo.size() ? t.lo[d].get() : nullptr;
      if (!idx && !lo) continue;
      checkCoord(lo, idx, 1, t.layoutShape[d], d, what, span, c);
    }
  }

  void expr(const ir::Expr& e, const Context& c) {
    if (e.kind == ExprKind::Load && e.tensor)
      checkElement(*e.tensor, e.args, e.span, "access '" + m_a.text(e.span) + "'", c);
    if (e.kind == ExprKind::Logical || e.kind == ExprKind::Select) {
      // The later operands are evaluated only under the first: leave them unproven.
      expr(*e.args[0], c);
      Context inner = c;
      ++inner.opaque;
      for (size_t i = 1; i < e.args.size(); ++i) expr(*e.args[i], inner);
      return;
    }
    for (const auto& a : e.args)
      if (a) expr(*a, c);
  }

  void operand(const ir::TileOperand& op, const Context& c) {
    if (op.isScalar) {
      if (op.scalar) expr(*op.scalar, c);
      return;
    }
    checkRegion(op.tensor, c);
  }

  void walk(const std::vector<ir::Stmt>& body, const Context& c) {
    for (const auto& s : body) {
      switch (s.kind) {
        case ir::StmtKind::Assign:
        case ir::StmtKind::Return:
          if (s.value) expr(*s.value, c);
          break;
        case ir::StmtKind::Store:
          if (s.value) expr(*s.value, c);
          for (const auto& i : s.indices)
            if (i) expr(*i, c);
          if (s.tensor)
            checkElement(*s.tensor, s.indices, s.span, "store to '" + s.tensor->text + "'", c);
          break;
        case ir::StmtKind::Apply: {
          if (!s.apply) break;
          Context inner = c;
          if (s.apply->pred) ++inner.opaque;  // a predicated op may skip its accesses
          for (const auto& op : s.apply->operands) operand(op, inner);
          break;
        }
        case ir::StmtKind::Ewise:
          if (!s.ewise) break;
          checkRegion(s.ewise->dst, c);
          for (const auto& op : s.ewise->inputs) operand(op, c);
          break;
        case ir::StmtKind::For: {
          for (const auto* e : {s.start.get(), s.stop.get(), s.step.get()})
            if (e) expr(*e, c);
          Context inner = c;
          auto a = s.start ? constValue(*s.start) : std::optional<int64_t>(0);
          auto b = s.stop ? constValue(*s.stop) : std::nullopt;
          auto st = s.step ? constValue(*s.step) : std::optional<int64_t>(1);
          const bool known = a && b && st && *st > 0 && *b > *a && s.var >= 0 &&
                             s.var < static_cast<int>(m_assignCount.size()) &&
                             m_assignCount[s.var] == 1 && !hasBreak(s.body);
          // The variable is start + step·j with j an atom over 0..trips-1 (exact for any step).
          const std::string atom = "L" + std::to_string(s.var);
          if (known) {
            m_atoms[atom] = {0, (*b - 1 - *a) / *st};
            LinearForm f;
            f.constant = *a;
            f.terms[atom] = *st;
            m_loops[s.var] = f;
          } else {
            ++inner.opaque;
          }
          walk(s.body, inner);
          m_atoms.erase(atom);
          m_loops.erase(s.var);
          break;
        }
        case ir::StmtKind::While: {
          Context inner = c;
          ++inner.opaque;
          if (s.value) expr(*s.value, c);
          walk(s.body, inner);
          break;
        }
        case ir::StmtKind::If: {
          if (s.value) expr(*s.value, c);
          Context then = c, orelse = c;
          if (!s.value || !constraintsOf(*s.value, true, then.guards)) ++then.opaque;
          if (!s.value || !constraintsOf(*s.value, false, orelse.guards)) ++orelse.opaque;
          walk(s.body, then);
          walk(s.orelse, orelse);
          break;
        }
        default:
          break;
      }
    }
  }

  Analyzer& m_a;
  const ir::Kernel& m_k;
  std::map<std::string, Range> m_atoms;
  std::vector<int> m_assignCount;
  std::map<int, const ir::Expr*> m_single;
  std::map<int, LinearForm>
      m_loops;  ///< enclosing loops with static bounds: var = start + step·L<var>
};

}  // namespace

void Analyzer::checkStaticBounds(const ir::Kernel& k) {
  BoundsChecker(*this, k).run();
}

}  // namespace tirx::sema
