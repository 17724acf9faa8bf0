// Statements of the harness interpreter: imports (numpy, torch, tvm, tvm_tirx and math; TIRx
// script modules become opaque names), TIRx definitions (decorated defs bind to kernels), plain
// assignments with unpacking and item assignment, augmented assignment, for/while/if, asserts
// (which become checks), harness-level defs, and print.
#include "core/verify/harness_interp.h"

namespace tirx::verify {

namespace {

bool startsWith(const std::string& s, const char* p) {
  return s.rfind(p, 0) == 0;
}

/// Modules whose functions the harness implements.
bool knownModule(const std::string& m) {
  static const char* kMods[] = {"numpy",
                                "numpy.testing",
                                "numpy.random",
                                "torch",
                                "torch.nn",
                                "torch.nn.functional",
                                "torch.testing",
                                "torch.cuda",
                                "tvm",
                                "tvm.tirx",
                                "tvm.runtime",
                                "tvm.testing",
                                "tvm.nd",
                                "tvm_tirx",
                                "tvm_tirx.runtime",
                                "tvm_tirx.testing",
                                "math"};
  for (const char* k : kMods)
    if (m == k) return true;
  return false;
}

/// Script-side TIRx modules: their names are for sema, the harness treats them as opaque.
bool tirxModule(const std::string& m) {
  return startsWith(m, "tvm.script") || startsWith(m, "tvm_tirx.script") ||
         startsWith(m, "tvm.tirx.layout") || startsWith(m, "tvm_tirx.tirx") ||
         startsWith(m, "tvm.backend") || startsWith(m, "tvm_tirx.backend") || m == "tvm.tirx";
}

}  // namespace

void Interp::bindImport(const ast::Stmt& s) {
  if (s.kind == ast::StmtKind::Import) {
    for (const auto& a : s.names) {
      if (tirxModule(a.name)) {
        globals[a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname] =
            a.asname.empty() ? module(a.name.substr(0, a.name.find('.'))) : opaque();
        continue;
      }
      if (!knownModule(a.name)) {
        error("E0801", a.span,
              "module '" + a.name +
                  "' is not supported by the harness (numpy, torch, tvm, tvm_tirx and math are)");
        return;
      }
      if (!a.asname.empty())
        globals[a.asname] = module(a.name);
      else
        globals[a.name.substr(0, a.name.find('.'))] = module(a.name.substr(0, a.name.find('.')));
    }
    return;
  }
  // from M import a as b
  const std::string& m = s.module;
  if (m == "__future__")
    return;  // `from __future__ import annotations`: annotations are not evaluated here anyway
  for (const auto& a : s.names) {
    const std::string bind = a.asname.empty() ? a.name : a.asname;
    const std::string full = m + "." + a.name;
    if (knownModule(full)) {
      globals[bind] = module(full);
    } else if (tirxModule(m) || startsWith(m, "tvm")) {
      globals[bind] = opaque();
    } else if (knownModule(m)) {
      Py v = attribute(module(m), a.name, a.span);
      if (!v) return;
      globals[bind] = v;
    } else {
      error("E0801", s.span,
            "module '" + m +
                "' is not supported by the harness (numpy, torch, tvm, tvm_tirx and math are)");
      return;
    }
  }
}

std::optional<int64_t> Interp::listIndex(const PyValue& list, const ast::Expr& target,
                                         const std::string& outOfRange) {
  Py iv = eval(*target.args[1]);
  if (!iv) return std::nullopt;
  auto k = toInt(iv, target.args[1]->span);
  if (!k) return std::nullopt;
  const int64_t n = static_cast<int64_t>(list.items.size());
  const int64_t j = *k < 0 ? *k + n : *k;
  if (j < 0 || j >= n) {
    error("E0806", target.span, outOfRange);
    return std::nullopt;
  }
  return j;
}

bool Interp::assign(const ast::Expr& target, const Py& value) {
  switch (target.kind) {
    case ast::ExprKind::Name:
      if (!frames.empty())
        frames.back()[target.text] = value;
      else
        globals[target.text] = value;
      return true;
    case ast::ExprKind::Tuple:
    case ast::ExprKind::List: {
      std::vector<Py> items;
      if (value->kind == PyKind::Tuple || value->kind == PyKind::List) {
        items = value->items;
      } else if (value->kind == PyKind::Array && value->arr->ndim() >= 1) {
        for (int64_t k = 0; k < value->arr->shape[0]; ++k) {
          auto r = getItem(*value->arr, {IndexItem::at(k)}, nullptr);
          items.push_back(array(std::move(*r)));
        }
      } else if (value->kind == PyKind::Opaque) {
        for (size_t k = 0; k < target.args.size(); ++k) items.push_back(opaque());
      } else {
        error("E0804", target.span, "cannot unpack non-sequence " + typeName(value));
        return false;
      }
      if (items.size() != target.args.size()) {
        error("E0804", target.span,
              "cannot unpack " + std::to_string(items.size()) + " values into " +
                  std::to_string(target.args.size()) + " targets");
        return false;
      }
      for (size_t k = 0; k < items.size(); ++k)
        if (!assign(*target.args[k], items[k])) return false;
      return true;
    }
    case ast::ExprKind::Subscript: {
      Py obj = eval(*target.args[0]);
      if (!obj) return false;
      if (obj->kind == PyKind::Opaque) return true;
      if (obj->kind == PyKind::List) {
        const auto j = listIndex(*obj, target, "list assignment index out of range");
        if (!j) return false;
        obj->items[size_t(*j)] = value;
        return true;
      }
      if (obj->kind != PyKind::Array) {
        error("E0804", target.span,
              "'" + typeName(obj) + "' object does not support item assignment");
        return false;
      }
      if (refuseViewWrite(obj, target.span)) return false;
      std::vector<IndexItem> items;
      if (!indexItems(*target.args[1], items)) return false;
      auto v = toArray(value, target.span, obj->arr->dtype, obj->arr->flavor);
      if (!v) return false;
      std::string err;
      if (!setItem(*obj->arr, items, *v, &err)) {
        error("E0806", target.span, err);
        return false;
      }
      return true;
    }
    case ast::ExprKind::Attribute: {
      Py obj = eval(*target.args[0]);
      if (!obj) return false;
      if (obj->kind == PyKind::Opaque) return true;
      error("E0803", target.span, "attribute assignment is not supported by the harness");
      return false;
    }
    default:
      error("E0803", target.span, "cannot assign to this expression");
      return false;
  }
}

namespace {
/// An index that selects one element (an integer per dimension): numpy then returns a scalar,
/// and `a[i, j] += v` is a scalar operation followed by an item assignment (unsafe cast).
bool selectsOneElement(const std::vector<IndexItem>& items, int ndim) {
  if (static_cast<int>(items.size()) != ndim) return false;
  for (const auto& it : items)
    if (it.kind != IndexItem::Kind::Int) return false;
  return true;
}
}  // namespace

bool Interp::refuseViewWrite(const Py& target, SourceSpan span) {
  if (!target->view) return false;
  error("E0803", span,
        "writing into a view (a slice, reshape or transpose of another array) is not "
        "supported by the harness: it holds a copy, so the write would not reach the "
        "original; index the original array instead (a[1:3, 0] += 1)");
  return true;
}

bool Interp::inPlaceResult(ast::Op op, const Array& target, const Py& result, SourceSpan span) {
  // numpy's in-place ufunc: the output operand is the target, so the result dtype must cast to
  // the target's under 'same_kind' and the broadcast shape must be the target's shape.
  const Array& r = *result->arr;
  if (!canCastInPlace(r.dtype, target.dtype, target.flavor)) {
    error("E0804", span,
          std::string("cannot cast the result of '") + ast::opSpelling(op) + "=' from " +
              std::string(ir::dtypeName(r.dtype)) + " to the target's " +
              std::string(ir::dtypeName(target.dtype)) +
              (target.flavor == Flavor::Torch ? "" : " with casting rule 'same_kind'") +
              " (numpy raises UFuncTypeError)");
    return false;
  }
  if (r.shape != target.shape) {
    error("E0804", span,
          "non-broadcastable output operand with shape " + shapeText(target.shape) +
              " doesn't match the broadcast shape " + shapeText(r.shape));
    return false;
  }
  return true;
}

bool Interp::augAssign(const ast::Stmt& s) {
  const ast::Expr& target = *s.targets[0];
  const SourceSpan sp = s.span;
  if (target.kind == ast::ExprKind::Subscript) {
    // Python evaluates the container and the index once, reads the item, applies the operator
    // and writes the result back; numpy's views make a slice update write through.
    Py obj = eval(*target.args[0]);
    if (!obj) return false;
    if (obj->kind == PyKind::Opaque) return static_cast<bool>(eval(*s.value));
    if (obj->kind == PyKind::Array) {
      if (refuseViewWrite(obj, target.span)) return false;
      std::vector<IndexItem> items;
      if (!indexItems(*target.args[1], items)) return false;
      std::string err;
      auto cur = getItem(*obj->arr, items, &err);
      if (!cur) {
        error("E0806", target.span, err);
        return false;
      }
      Py rhs = eval(*s.value);
      if (!rhs) return false;
      const bool element = selectsOneElement(items, obj->arr->ndim());
      cur->origin = -1;
      Py v = binop(s.op, array(std::move(*cur)), rhs, sp);
      if (!v) return false;
      if (v->kind != PyKind::Array) {
        error("E0804", sp, "unsupported in-place operation on an array element");
        return false;
      }
      Array view = makeArray(obj->arr->dtype, v->arr->shape, obj->arr->flavor);
      if (!element) {
        auto shape = getItem(*obj->arr, items, nullptr);
        view.shape = shape->shape;
        if (!inPlaceResult(s.op, view, v, sp)) return false;
      }
      if (!setItem(*obj->arr, items, astype(*v->arr, obj->arr->dtype), &err)) {
        error("E0806", target.span, err);
        return false;
      }
      return true;
    }
    if (obj->kind == PyKind::List) {
      const auto j = listIndex(*obj, target, "list index out of range");
      if (!j) return false;
      Py rhs = eval(*s.value);
      if (!rhs) return false;
      Py v = binop(s.op, obj->items[size_t(*j)], rhs, sp);
      if (!v) return false;
      obj->items[size_t(*j)] = v;
      return true;
    }
    error("E0804", target.span, "'" + typeName(obj) + "' object does not support item assignment");
    return false;
  }
  if (target.kind == ast::ExprKind::Attribute) {
    Py obj = eval(*target.args[0]);
    if (!obj) return false;
    if (obj->kind == PyKind::Opaque) return static_cast<bool>(eval(*s.value));
    error("E0803", target.span, "attribute assignment is not supported by the harness");
    return false;
  }
  if (target.kind != ast::ExprKind::Name) {
    error("E0803", target.span, "illegal expression for augmented assignment");
    return false;
  }
  Py cur = eval(target);
  if (!cur) return false;
  Py rhs = eval(*s.value);
  if (!rhs) return false;
  if (cur->kind == PyKind::List && s.op == ast::Op::Add) {
    // list.__iadd__ extends the object every alias sees.
    if (rhs->kind != PyKind::List && rhs->kind != PyKind::Tuple) {
      error("E0804", sp, "'" + typeName(rhs) + "' object is not iterable");
      return false;
    }
    const std::vector<Py> more = rhs->items;
    cur->items.insert(cur->items.end(), more.begin(), more.end());
    return true;
  }
  Py v = binop(s.op, cur, rhs, sp);
  if (!v) return false;
  if (cur->kind == PyKind::Array && v->kind == PyKind::Array) {
    if (refuseViewWrite(cur, sp)) return false;
    // In place, as numpy: the object (and every name bound to it) changes, its dtype stays.
    if (!inPlaceResult(s.op, *cur->arr, v, sp)) return false;
    Array out = astype(*v->arr, cur->arr->dtype);
    out.flavor = cur->arr->flavor;
    out.onDevice = cur->arr->onDevice;
    out.origin = cur->arr->origin;
    *cur->arr = std::move(out);
    return true;
  }
  return assign(target, v);
}

Py Interp::callFunction(const Py& fn, std::vector<Py>& args, Kwargs& kw, SourceSpan span) {
  const ast::Stmt& d = *fn->def;
  std::map<std::string, Py> locals;
  size_t pos = 0;
  for (const auto& p : d.params) {
    if (p.star || p.doubleStar)
      return error("E0803", p.span, "*args/**kwargs parameters are not supported by the harness");
    Py v;
    if (!p.keywordOnly && pos < args.size()) v = args[pos++];
    for (auto& [k, val] : kw)
      if (k == p.name) v = val;
    if (!v && p.defaultValue) {
      v = eval(*p.defaultValue);
      if (!v) return nullptr;
    }
    if (!v) return error("E0805", span, d.name + "() missing required argument '" + p.name + "'");
    locals[p.name] = v;
  }
  if (pos < args.size())
    return error("E0805", span,
                 d.name + "() takes " + std::to_string(pos) + " positional arguments but " +
                     std::to_string(args.size()) + " were given");
  if (frames.size() > 64) return error("E0807", span, "harness recursion is too deep");
  frames.push_back(std::move(locals));
  m_return = none();
  const Flow f = execBlock(d.body);
  frames.pop_back();
  if (f == Flow::Error) return nullptr;
  Py r = m_return ? m_return : none();
  m_return = nullptr;
  return r;
}

std::optional<std::pair<bool, std::array<int64_t, 3>>> Interp::lazyRange(const ast::Expr& e) {
  // `for i in range(...)` iterates without building the list (a long loop costs steps and
  // budget, not memory); a shadowed `range` is an ordinary call.
  if (e.kind != ast::ExprKind::Call || e.args.empty() || e.args[0]->kind != ast::ExprKind::Name ||
      e.args[0]->text != "range" || !e.keywords.empty())
    return std::nullopt;
  Py callee = eval(*e.args[0]);
  if (!callee) return std::make_pair(false, std::array<int64_t, 3>{});
  if (callee->kind != PyKind::Builtin || callee->s != "builtins.range") return std::nullopt;
  std::vector<int64_t> v;
  for (size_t k = 1; k < e.args.size(); ++k) {
    Py x = eval(*e.args[k]);
    if (!x) return std::make_pair(false, std::array<int64_t, 3>{});
    auto i = toInt(x, e.args[k]->span);
    if (!i) return std::make_pair(false, std::array<int64_t, 3>{});
    v.push_back(*i);
  }
  if (v.empty() || v.size() > 3) {
    error("E0805", e.span, "range expected 1 to 3 arguments, got " + std::to_string(v.size()));
    return std::make_pair(false, std::array<int64_t, 3>{});
  }
  const int64_t start = v.size() >= 2 ? v[0] : 0, stop = v.size() >= 2 ? v[1] : v[0];
  const int64_t step = v.size() == 3 ? v[2] : 1;
  if (step == 0) {
    error("E0804", e.span, "range() arg 3 must not be zero");
    return std::make_pair(false, std::array<int64_t, 3>{});
  }
  return std::make_pair(true, std::array<int64_t, 3>{start, stop, step});
}

Interp::Flow Interp::forRange(const ast::Stmt& s, const std::array<int64_t, 3>& r) {
  const int64_t start = r[0], stop = r[1], step = r[2];
  bool broke = false;
  // Iterate in unsigned arithmetic: `i += step` must not overflow near INT64_MAX.
  for (int64_t i = start; step > 0 ? i < stop : i > stop;) {
    if (!assign(*s.targets[0], integer(i))) return Flow::Error;
    const Flow f = execBlock(s.body);
    if (f == Flow::Error || f == Flow::Return) return f;
    if (f == Flow::Break) {
      broke = true;
      break;
    }
    int64_t next;
    if (__builtin_add_overflow(i, step, &next)) break;
    i = next;
  }
  if (!broke && execBlock(s.orelse) == Flow::Error) return Flow::Error;
  return Flow::Normal;
}

bool Interp::chargeStep(SourceSpan span) {
  if (++steps > ctx.maxSteps) {
    error("E0807", span, "the harness ran more than " + std::to_string(ctx.maxSteps) + " steps");
    return false;
  }
  if (ctx.budget && !ctx.budget->charge()) {
    error("E0807", span, ctx.budget->message());
    return false;
  }
  return true;
}

Interp::Flow Interp::execBlock(const ast::Block& b) {
  for (const auto& s : b) {
    const Flow f = exec(*s);
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

/// `for x in ...`: a lazy range, a tuple or list, or the first axis of an array; then `else`.
Interp::Flow Interp::execFor(const ast::Stmt& s) {
  if (frames.empty()) ++m_statementsRun;
  if (auto r = lazyRange(*s.value)) return r->first ? forRange(s, r->second) : Flow::Error;
  Py it = eval(*s.value);
  if (!it) return Flow::Error;
  std::vector<Py> items;
  if (it->kind == PyKind::Tuple || it->kind == PyKind::List)
    items = it->items;
  else if (it->kind == PyKind::Array && it->arr->ndim() >= 1) {
    for (int64_t k = 0; k < it->arr->shape[0]; ++k)
      items.push_back(array(*getItem(*it->arr, {IndexItem::at(k)}, nullptr)));
  } else {
    error("E0804", s.value->span, "'" + typeName(it) + "' object is not iterable");
    return Flow::Error;
  }
  bool broke = false;
  for (const auto& x : items) {
    if (!assign(*s.targets[0], x)) return Flow::Error;
    const Flow f = execBlock(s.body);
    if (f == Flow::Error || f == Flow::Return) return f;
    if (f == Flow::Break) {
      broke = true;
      break;
    }
  }
  if (!broke && execBlock(s.orelse) == Flow::Error) return Flow::Error;
  return Flow::Normal;
}

/// `assert ...` becomes a check; `assert np.allclose(a, b, ...)` a full comparison check.
Interp::Flow Interp::execAssert(const ast::Stmt& s) {
  if (frames.empty()) ++m_statementsRun;
  const ast::Expr& test = *s.value;
  if (test.kind == ast::ExprKind::Call) {
    Py callee = eval(*test.args[0]);
    if (!callee) return Flow::Error;
    if (callee->kind == PyKind::Builtin &&
        (callee->s == "numpy.allclose" || callee->s == "torch.allclose")) {
      std::vector<Py> args;
      Kwargs kw;
      for (size_t k = 1; k < test.args.size(); ++k) {
        Py v = eval(*test.args[k]);
        if (!v) return Flow::Error;
        args.push_back(v);
      }
      for (const auto& k : test.keywords) {
        Py v = eval(*k.value);
        if (!v) return Flow::Error;
        kw.emplace_back(k.name, v);
      }
      if (!check("assert allclose", args, kw, test)) return Flow::Error;
      return Flow::Normal;
    }
  }
  Py v = eval(test);
  if (!v) return Flow::Error;
  auto t = truth(v, test.span);
  if (!t) return Flow::Error;
  Check c;
  c.kind = "assert";
  c.span = s.span;
  c.pass = *t;
  c.kernel = lastKernel;
  c.device = lastDevice;
  c.name = (lastKernel.empty() ? std::string("assert") : lastKernel) + " (line " +
           std::to_string(s.span.line) + ")";
  if (!*t) {
    c.message = "assertion failed";
    if (s.annotation) {
      Py m = eval(*s.annotation);
      if (m) c.message += ": " + strOf(m);
    }
  }
  ctx.report->checks.push_back(std::move(c));
  return Flow::Normal;
}

Interp::Flow Interp::exec(const ast::Stmt& s) {
  if (m_failed) return Flow::Error;
  if (!chargeStep(s.span)) return Flow::Error;
  switch (s.kind) {
    case ast::StmtKind::Import:
    case ast::StmtKind::ImportFrom:
      bindImport(s);
      break;
    case ast::StmtKind::FunctionDef: {
      if (!s.decorators.empty() && frames.empty()) {  // a TIRx definition: sema's business
        auto v = std::make_shared<PyValue>();
        v->kind = ctx.program->findKernel(s.name) ? PyKind::Kernel : PyKind::Opaque;
        v->s = s.name;
        globals[s.name] = v;
        break;
      }
      auto v = std::make_shared<PyValue>();
      v->kind = PyKind::Function;
      v->s = s.name;
      v->def = &s;
      if (!frames.empty())
        frames.back()[s.name] = v;
      else
        globals[s.name] = v;
      break;
    }
    case ast::StmtKind::Assign: {
      Py v = eval(*s.value);
      if (!v) return Flow::Error;
      if (v->kind != PyKind::Opaque && frames.empty()) ++m_statementsRun;
      for (const auto& t : s.targets)
        if (!assign(*t, v)) return Flow::Error;
      break;
    }
    case ast::StmtKind::AnnAssign: {
      if (!s.value) break;
      Py v = eval(*s.value);
      if (!v) return Flow::Error;
      if (!assign(*s.targets[0], v)) return Flow::Error;
      break;
    }
    case ast::StmtKind::AugAssign:
      if (!augAssign(s)) return Flow::Error;
      break;
    case ast::StmtKind::ExprStmt: {
      if (frames.empty()) ++m_statementsRun;
      if (!eval(*s.value)) return Flow::Error;
      break;
    }
    case ast::StmtKind::For:
      return execFor(s);
    case ast::StmtKind::While: {
      while (true) {
        Py c = eval(*s.value);
        if (!c) return Flow::Error;
        auto t = truth(c, s.value->span);
        if (!t) return Flow::Error;
        if (!*t) break;
        const Flow f = execBlock(s.body);
        if (f == Flow::Error || f == Flow::Return) return f;
        if (f == Flow::Break) break;
      }
      break;
    }
    case ast::StmtKind::If: {
      Py c = eval(*s.value);
      if (!c) return Flow::Error;
      if (c->kind == PyKind::Opaque) break;
      auto t = truth(c, s.value->span);
      if (!t) return Flow::Error;
      return execBlock(*t ? s.body : s.orelse);
    }
    case ast::StmtKind::Return:
      if (frames.empty()) {
        error("E0803", s.span, "'return' outside function");
        return Flow::Error;
      }
      m_return = s.value ? eval(*s.value) : none();
      if (!m_return) return Flow::Error;
      return Flow::Return;
    case ast::StmtKind::Pass:
      break;
    case ast::StmtKind::Break:
      return Flow::Break;
    case ast::StmtKind::Continue:
      return Flow::Continue;
    case ast::StmtKind::Assert:
      return execAssert(s);
    case ast::StmtKind::Del:
      for (const auto& t : s.targets)
        if (t->kind == ast::ExprKind::Name) {
          if (!frames.empty())
            frames.back().erase(t->text);
          else
            globals.erase(t->text);
        }
      break;
    case ast::StmtKind::Global:
      break;
  }
  return Flow::Normal;
}

HarnessSummary Interp::run() {
  HarnessSummary sum;
  const Flow f = execBlock(ctx.module->body);
  sum.kernelCalls = kernelCalls;
  sum.statementsRun = m_statementsRun;
  sum.stoppedByError = f == Flow::Error || m_failed;
  return sum;
}

HarnessSummary runHarness(HarnessContext& ctx) {
  Interp in(ctx);
  return in.run();
}

}  // namespace tirx::verify
