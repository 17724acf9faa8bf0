// Statements, expressions and operators of the harness interpreter, with Python semantics: int
// and float arithmetic (floor division and modulo), sequences, truthiness, tuple unpacking in
// assignments and for-loops, chained comparisons, and numpy/torch arithmetic with dtype promotion
// for arrays (numpy 1.24 value-based promotion of Python scalars and 0-d arrays; torch weak
// scalars).
#include <algorithm>
#include <cmath>

#include "core/verify/harness_interp.h"
#include "core/verify/py_numbers.h"

namespace tirx::verify {

Py Interp::none() {
  return std::make_shared<PyValue>();
}
Py Interp::boolean(bool v) {
  auto p = std::make_shared<PyValue>();
  p->kind = PyKind::Bool;
  p->b = v;
  p->i = v;
  return p;
}
Py Interp::integer(int64_t v) {
  auto p = std::make_shared<PyValue>();
  p->kind = PyKind::Int;
  p->i = v;
  return p;
}
Py Interp::real(double v) {
  auto p = std::make_shared<PyValue>();
  p->kind = PyKind::Float;
  p->f = v;
  return p;
}
Py Interp::str(std::string v) {
  auto p = std::make_shared<PyValue>();
  p->kind = PyKind::Str;
  p->s = std::move(v);
  return p;
}
Py Interp::tuple(std::vector<Py> v) {
  auto p = std::make_shared<PyValue>();
  p->kind = PyKind::Tuple;
  p->items = std::move(v);
  return p;
}
Py Interp::list(std::vector<Py> v) {
  auto p = tuple(std::move(v));
  p->kind = PyKind::List;
  return p;
}
Py Interp::array(Array a) {
  auto p = std::make_shared<PyValue>();
  p->kind = PyKind::Array;
  p->flavor = a.flavor;
  p->arr = std::make_shared<Array>(std::move(a));
  return p;
}
Py Interp::opaque() {
  auto p = std::make_shared<PyValue>();
  p->kind = PyKind::Opaque;
  return p;
}
Py Interp::module(std::string name) {
  auto p = std::make_shared<PyValue>();
  p->kind = PyKind::Module;
  p->s = std::move(name);
  return p;
}
Py Interp::builtin(std::string name) {
  auto p = std::make_shared<PyValue>();
  p->kind = PyKind::Builtin;
  p->s = std::move(name);
  return p;
}
Py Interp::dtypeValue(DType t, Flavor f) {
  auto p = std::make_shared<PyValue>();
  p->kind = PyKind::DType;
  p->dtype = t;
  p->flavor = f;
  return p;
}

Py Interp::error(const std::string& code, SourceSpan span, std::string message) {
  if (!m_failed) ctx.report->errors.push_back(makeError(code, span, std::move(message)));
  m_failed = true;
  return nullptr;
}

std::string Interp::typeName(const Py& v) const {
  switch (v->kind) {
    case PyKind::None:
      return "None";
    case PyKind::Bool:
      return "bool";
    case PyKind::Int:
      return "int";
    case PyKind::Float:
      return "float";
    case PyKind::Str:
      return "str";
    case PyKind::Tuple:
      return "tuple";
    case PyKind::List:
      return "list";
    case PyKind::Dict:
      return "dict";
    case PyKind::Array:
      return v->flavor == Flavor::Torch ? "torch.Tensor" : "numpy.ndarray";
    case PyKind::Module:
      return "module '" + v->s + "'";
    case PyKind::Builtin:
      return "function '" + v->s + "'";
    case PyKind::Method:
      return "method '" + v->s + "'";
    case PyKind::DType:
      return "dtype";
    case PyKind::Kernel:
      return "TIRx function '" + v->s + "'";
    case PyKind::Compiled:
      return "compiled kernel '" + v->s + "'";
    case PyKind::Device:
      return "device";
    case PyKind::Slice:
      return "slice";
    case PyKind::Ellipsis:
      return "ellipsis";
    case PyKind::Opaque:
      return "TIRx object";
    case PyKind::Function:
      return "function";
  }
  return "object";
}

std::optional<bool> Interp::truth(const Py& v, SourceSpan span) {
  switch (v->kind) {
    case PyKind::None:
      return false;
    case PyKind::Bool:
      return v->b;
    case PyKind::Int:
      return v->i != 0;
    case PyKind::Float:
      return v->f != 0;
    case PyKind::Str:
      return !v->s.empty();
    case PyKind::Tuple:
    case PyKind::List:
    case PyKind::Dict:
      return !v->items.empty();
    case PyKind::Array:
      if (v->arr->size() != 1) {
        error("E0804", span, "the truth value of an array with more than one element is ambiguous");
        return std::nullopt;
      }
      return v->arr->get(0) != 0;
    default:
      return true;
  }
}

std::optional<int64_t> Interp::toInt(const Py& v, SourceSpan span) {
  if (v->kind == PyKind::Int || v->kind == PyKind::Bool) return v->i;
  if (v->kind == PyKind::Array && v->arr->size() == 1 && !ir::isFloat(v->arr->dtype))
    return v->arr->getInt(0);
  error("E0804", span, "expected an integer, found " + typeName(v));
  return std::nullopt;
}

std::optional<double> Interp::toReal(const Py& v, SourceSpan span) {
  if (v->kind == PyKind::Int || v->kind == PyKind::Bool) return static_cast<double>(v->i);
  if (v->kind == PyKind::Float) return v->f;
  if (v->kind == PyKind::Array && v->arr->size() == 1) return v->arr->get(0);
  error("E0804", span, "expected a number, found " + typeName(v));
  return std::nullopt;
}

std::optional<std::vector<int64_t>> Interp::toShape(const std::vector<Py>& args, SourceSpan span) {
  std::vector<int64_t> shape;
  if (args.size() == 1 && (args[0]->kind == PyKind::Tuple || args[0]->kind == PyKind::List)) {
    for (const auto& x : args[0]->items) {
      auto n = toInt(x, span);
      if (!n) return std::nullopt;
      shape.push_back(*n);
    }
    return shape;
  }
  for (const auto& x : args) {
    auto n = toInt(x, span);
    if (!n) return std::nullopt;
    shape.push_back(*n);
  }
  return shape;
}

namespace {
void flattenNested(const Py& v, std::vector<Py>& out, std::vector<int64_t>& shape, size_t depth,
                   bool& ragged) {
  if (v->kind == PyKind::List || v->kind == PyKind::Tuple) {
    const int64_t n = static_cast<int64_t>(v->items.size());
    if (shape.size() <= depth)
      shape.push_back(n);
    else if (shape[depth] != n)
      ragged = true;
    for (const auto& x : v->items) flattenNested(x, out, shape, depth + 1, ragged);
  } else {
    if (shape.size() > depth) ragged = true;
    out.push_back(v);
  }
}
}  // namespace

std::optional<Array> Interp::toArray(const Py& v, SourceSpan span, std::optional<DType> dtype,
                                     Flavor f) {
  if (v->kind == PyKind::Array) {
    if (dtype && *dtype != v->arr->dtype) return astype(*v->arr, *dtype);
    return *v->arr;
  }
  std::vector<Py> leaves;
  std::vector<int64_t> shape;
  bool ragged = false;
  flattenNested(v, leaves, shape, 0, ragged);
  if (ragged) {
    error("E0804", span, "cannot make an array from a ragged nested sequence");
    return std::nullopt;
  }
  bool anyFloat = false, allBool = !leaves.empty();
  std::optional<DType> arrDt;
  for (const auto& x : leaves) {
    if (x->kind == PyKind::Float)
      anyFloat = true;
    else if (x->kind == PyKind::Array && x->arr->size() == 1) {
      arrDt = arrDt ? promote(*arrDt, x->arr->dtype, f) : x->arr->dtype;
    } else if (x->kind != PyKind::Int && x->kind != PyKind::Bool) {
      error("E0804", span, "cannot make an array from " + typeName(x));
      return std::nullopt;
    }
    if (x->kind != PyKind::Bool) allBool = false;
  }
  DType t = dtype.value_or(anyFloat ? (f == Flavor::Torch ? DType::Float32 : DType::Float64)
                                    : (allBool ? DType::Bool : DType::Int64));
  if (!dtype && arrDt && !anyFloat) t = *arrDt;
  Array a = makeArray(t, shape, f);
  for (size_t i = 0; i < leaves.size(); ++i) {
    const Py& x = leaves[i];
    if (x->kind == PyKind::Float)
      a.set(i, x->f);
    else if (x->kind == PyKind::Array && !ir::isFloat(t) && !ir::isFloat(x->arr->dtype))
      a.setInt(i, x->arr->getInt(0));
    else if (x->kind == PyKind::Array)
      a.set(i, x->arr->get(0));
    else if (ir::isFloat(t))
      a.set(i, static_cast<double>(x->i));
    else
      a.setInt(i, x->i);
  }
  return a;
}

namespace {
bool isNumber(const Py& v) {
  return v->kind == PyKind::Int || v->kind == PyKind::Float || v->kind == PyKind::Bool;
}
/// A Python number or an array as an operand of numpy's value-based promotion.
PromoOperand promoOperand(const Py& v) {
  PromoOperand p;
  if (v->kind == PyKind::Array) {
    p.dtype = v->arr->dtype;
    p.scalar = v->arr->ndim() == 0;
    if (p.scalar && v->arr->size() == 1) {
      p.f = v->arr->get(0);
      p.i = v->arr->getInt(0);
    }
    return p;
  }
  p.scalar = true;
  p.dtype = v->kind == PyKind::Float  ? DType::Float64
            : v->kind == PyKind::Bool ? DType::Bool
                                      : DType::Int64;
  p.f = v->f;
  p.i = v->i;
  return p;
}
BinaryOp arrayOp(ast::Op op, bool& ok) {
  ok = true;
  switch (op) {
    case ast::Op::Add:
      return BinaryOp::Add;
    case ast::Op::Sub:
      return BinaryOp::Sub;
    case ast::Op::Mul:
      return BinaryOp::Mul;
    case ast::Op::Div:
      return BinaryOp::TrueDiv;
    case ast::Op::FloorDiv:
      return BinaryOp::FloorDiv;
    case ast::Op::Mod:
      return BinaryOp::Mod;
    case ast::Op::Pow:
      return BinaryOp::Pow;
    case ast::Op::BitAnd:
      return BinaryOp::And;
    case ast::Op::BitOr:
      return BinaryOp::Or;
    case ast::Op::BitXor:
      return BinaryOp::Xor;
    case ast::Op::LShift:
      return BinaryOp::Shl;
    case ast::Op::RShift:
      return BinaryOp::Shr;
    case ast::Op::Eq:
      return BinaryOp::Eq;
    case ast::Op::NotEq:
      return BinaryOp::Ne;
    case ast::Op::Lt:
      return BinaryOp::Lt;
    case ast::Op::LtE:
      return BinaryOp::Le;
    case ast::Op::Gt:
      return BinaryOp::Gt;
    case ast::Op::GtE:
      return BinaryOp::Ge;
    default:
      ok = false;
      return BinaryOp::Add;
  }
}
}  // namespace

/// `a @ b`, numpy.matmul, torch.matmul / torch.mm: numpy promotes the two dtypes, torch requires
/// them equal (its "expected m1 and m2 to have the same dtype"); the work is charged to the budget.
Py Interp::matmulOp(const Py& a, const Py& b, SourceSpan span) {
  const Flavor fl = (a->kind == PyKind::Array && a->arr->flavor == Flavor::Torch) ||
                            (b->kind == PyKind::Array && b->arr->flavor == Flavor::Torch)
                        ? Flavor::Torch
                        : Flavor::Numpy;
  if (isNumber(a) || isNumber(b))
    return error("E0804", span, "matmul: Input operand does not have enough dimensions");
  auto x = toArray(a, span, {}, fl), y = toArray(b, span, {}, fl);
  if (!x || !y) return nullptr;
  if (fl == Flavor::Torch && x->dtype != y->dtype)
    return error("E0804", span,
                 "expected m1 and m2 to have the same dtype, but got: " +
                     std::string(ir::dtypeName(x->dtype)) +
                     " != " + std::string(ir::dtypeName(y->dtype)));
  const DType rt = promote(x->dtype, y->dtype, fl);
  const int64_t k = x->ndim() > 0 ? x->shape.back() : 0;
  if (ctx.budget && !ctx.budget->charge(std::max<int64_t>(1, x->size()) / std::max<int64_t>(1, k) *
                                        std::max<int64_t>(1, y->size())))
    return error("E0807", span, ctx.budget->message());
  std::string err;
  auto r = matmul(*x, *y, rt, &err);
  if (!r) return error("E0804", span, err);
  r->flavor = fl;
  r->onDevice = (a->kind == PyKind::Array && a->arr->onDevice) ||
                (b->kind == PyKind::Array && b->arr->onDevice);
  return array(std::move(*r));
}

Py Interp::binop(ast::Op op, const Py& a, const Py& b, SourceSpan span) {
  if (a->kind == PyKind::Opaque || b->kind == PyKind::Opaque) return opaque();
  if (op == ast::Op::Is || op == ast::Op::IsNot) {
    // None, True and False are singletons in Python.
    bool same = a == b || (a->kind == PyKind::None && b->kind == PyKind::None) ||
                (a->kind == PyKind::Bool && b->kind == PyKind::Bool && a->b == b->b);
    return boolean(op == ast::Op::Is ? same : !same);
  }
  if (op == ast::Op::In || op == ast::Op::NotIn) {
    if (b->kind != PyKind::Tuple && b->kind != PyKind::List && b->kind != PyKind::Str)
      return error("E0804", span, "'in' needs a sequence, found " + typeName(b));
    bool found = false;
    if (b->kind == PyKind::Str) {
      found = a->kind == PyKind::Str && b->s.find(a->s) != std::string::npos;
    } else {
      for (const auto& x : b->items) {
        Py eq = binop(ast::Op::Eq, a, x, span);
        if (!eq) return nullptr;
        if (eq->kind == PyKind::Bool && eq->b) found = true;
      }
    }
    return boolean(op == ast::Op::In ? found : !found);
  }
  if (std::optional<Py> r = strOperator(op, a, b, span)) return *r;
  if (op == ast::Op::MatMul && (a->kind == PyKind::Array || b->kind == PyKind::Array))
    return matmulOp(a, b, span);
  if (a->kind == PyKind::Array || b->kind == PyKind::Array) {
    bool ok;
    const BinaryOp bo = arrayOp(op, ok);
    if (!ok)
      return error(
          "E0803", span,
          std::string("operator '") + ast::opSpelling(op) + "' is not supported on arrays");
    const Py& arrSide = a->kind == PyKind::Array ? a : b;
    const Py& other = a->kind == PyKind::Array ? b : a;
    const Flavor fl = (a->kind == PyKind::Array && a->arr->flavor == Flavor::Torch) ||
                              (b->kind == PyKind::Array && b->arr->flavor == Flavor::Torch)
                          ? Flavor::Torch
                          : Flavor::Numpy;
    DType rt;
    std::optional<Array> oa, ob;
    if (other->kind == PyKind::Array) {
      rt = fl == Flavor::Numpy ? numpyResultType(promoOperand(a), promoOperand(b))
                               : promote(a->arr->dtype, b->arr->dtype, fl);
      oa = *a->arr;
      ob = *b->arr;
    } else if (isNumber(other)) {
      rt = fl == Flavor::Numpy ? numpyResultType(promoOperand(a), promoOperand(b))
                               : promoteWeak(arrSide->arr->dtype, other->kind == PyKind::Float,
                                             other->kind == PyKind::Bool, fl);
      Array s = makeArray(rt, {}, fl);
      if (other->kind == PyKind::Float)
        s.set(0, other->f);
      else if (ir::isFloat(rt))
        s.set(0, static_cast<double>(other->i));
      else
        s.setInt(0, other->i);
      oa = a->kind == PyKind::Array ? *a->arr : s;
      ob = b->kind == PyKind::Array ? *b->arr : s;
    } else if (other->kind == PyKind::List || other->kind == PyKind::Tuple) {
      auto o = toArray(other, span, {}, fl);
      if (!o) return nullptr;
      rt = promote(arrSide->arr->dtype, o->dtype, fl);
      oa = a->kind == PyKind::Array ? *a->arr : *o;
      ob = b->kind == PyKind::Array ? *b->arr : *o;
    } else {
      return error("E0804", span,
                   std::string("unsupported operand types for ") + ast::opSpelling(op) + ": " +
                       typeName(a) + " and " + typeName(b));
    }
    if (bo == BinaryOp::TrueDiv && !ir::isFloat(rt))
      rt = fl == Flavor::Torch ? DType::Float32 : DType::Float64;
    if (rt == DType::Bool && bo == BinaryOp::Sub)
      return error("E0804", span,
                   fl == Flavor::Numpy
                       ? "numpy boolean subtract, the `-` operator, is not supported, use the "
                         "bitwise_xor, the `^` operator, or the logical_xor function instead."
                       : "Subtraction, the `-` operator, with two bool tensors is not supported. "
                         "Use the `^` or `logical_xor()` operator instead.");
    // numpy has no bool loops for these: the first loop that takes bools is int8's.
    if (rt == DType::Bool && fl == Flavor::Numpy &&
        (bo == BinaryOp::FloorDiv || bo == BinaryOp::Mod || bo == BinaryOp::Pow ||
         bo == BinaryOp::Shl || bo == BinaryOp::Shr))
      rt = DType::Int8;
    std::string err;
    // Element-wise work counts against the verify's budget like simulated work.
    if (ctx.budget && !ctx.budget->charge(std::max<int64_t>(oa->size(), ob->size())))
      return error("E0807", span, ctx.budget->message());
    auto r = binary(bo, *oa, *ob, rt, &err);
    if (!r) return error("E0804", span, err);
    r->flavor = fl;
    return array(std::move(*r));
  }
  // Sequences.
  if ((a->kind == PyKind::Str && b->kind == PyKind::Str) && op == ast::Op::Add)
    return str(a->s + b->s);
  if ((a->kind == PyKind::Tuple || a->kind == PyKind::List) && a->kind == b->kind &&
      op == ast::Op::Add) {
    auto items = a->items;
    items.insert(items.end(), b->items.begin(), b->items.end());
    auto r = tuple(std::move(items));
    r->kind = a->kind;
    return r;
  }
  if ((a->kind == PyKind::Tuple || a->kind == PyKind::List) && b->kind == PyKind::Int &&
      op == ast::Op::Mul) {
    std::vector<Py> items;
    for (int64_t k = 0; k < b->i && k < 1'000'000; ++k)
      items.insert(items.end(), a->items.begin(), a->items.end());
    auto r = tuple(std::move(items));
    r->kind = a->kind;
    return r;
  }
  if (op == ast::Op::Eq || op == ast::Op::NotEq) {
    bool eq;
    if (isNumber(a) && isNumber(b)) {
      const double x = a->kind == PyKind::Float ? a->f : static_cast<double>(a->i);
      const double y = b->kind == PyKind::Float ? b->f : static_cast<double>(b->i);
      eq = (a->kind != PyKind::Float && b->kind != PyKind::Float) ? a->i == b->i : x == y;
    } else if (a->kind == PyKind::Str && b->kind == PyKind::Str) {
      eq = a->s == b->s;
    } else if ((a->kind == PyKind::Tuple || a->kind == PyKind::List) && a->kind == b->kind) {
      eq = a->items.size() == b->items.size();
      for (size_t k = 0; eq && k < a->items.size(); ++k) {
        Py e = binop(ast::Op::Eq, a->items[k], b->items[k], span);
        if (!e) return nullptr;
        eq = e->kind == PyKind::Bool && e->b;
      }
    } else if (a->kind == PyKind::DType && b->kind == PyKind::DType) {
      eq = a->dtype == b->dtype;
    } else {
      eq = a == b || (a->kind == PyKind::None && b->kind == PyKind::None);
    }
    return boolean(op == ast::Op::Eq ? eq : !eq);
  }
  if (!isNumber(a) || !isNumber(b))
    return error("E0804", span,
                 std::string("unsupported operand types for ") + ast::opSpelling(op) + ": " +
                     typeName(a) + " and " + typeName(b));
  return scalarBinop(op, a, b, span);
}

Py Interp::lookup(const std::string& name, SourceSpan span) {
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) return f->second;
    break;  // Python: locals then globals (no closures over harness defs)
  }
  auto g = globals.find(name);
  if (g != globals.end()) return g->second;
  static const char* kBuiltins[] = {
      "range",      "len",      "print",  "list",   "tuple",     "int",  "float", "bool",
      "abs",        "min",      "max",    "zip",    "enumerate", "str",  "sum",   "round",
      "isinstance", "reversed", "sorted", "divmod", "format",    "repr", "ascii"};
  for (const char* b : kBuiltins)
    if (name == b) return builtin(std::string("builtins.") + b);
  return error("E0802", span, "name '" + name + "' is not defined");
}

bool Interp::indexItems(const ast::Expr& index, std::vector<IndexItem>& items) {
  auto one = [&](const ast::Expr& e) -> bool {
    IndexItem it;
    if (e.kind == ast::ExprKind::Slice) {
      it.kind = IndexItem::Kind::Slice;
      std::optional<int64_t>* parts[3] = {&it.start, &it.stop, &it.step};
      for (int k = 0; k < 3; ++k) {
        if (k >= static_cast<int>(e.args.size()) || !e.args[k]) continue;
        Py v = eval(*e.args[k]);
        if (!v) return false;
        if (v->kind == PyKind::None) continue;
        auto n = toInt(v, e.args[k]->span);
        if (!n) return false;
        *parts[k] = *n;
      }
      items.push_back(it);
      return true;
    }
    Py v = eval(e);
    if (!v) return false;
    if (v->kind == PyKind::Ellipsis)
      it.kind = IndexItem::Kind::Ellipsis;
    else if (v->kind == PyKind::None)
      it.kind = IndexItem::Kind::NewAxis;
    else if (v->kind == PyKind::Slice) {
      it.kind = IndexItem::Kind::Slice;
      std::optional<int64_t>* parts[3] = {&it.start, &it.stop, &it.step};
      for (int k = 0; k < 3; ++k)
        if (v->items[k]->kind != PyKind::None) *parts[k] = v->items[k]->i;
    } else {
      auto n = toInt(v, e.span);
      if (!n) return false;
      it.value = *n;
    }
    items.push_back(it);
    return true;
  };
  if (index.kind == ast::ExprKind::Tuple && !index.parenthesized) {
    for (const auto& x : index.args)
      if (!one(*x)) return false;
    return true;
  }
  if (index.kind == ast::ExprKind::Tuple) {
    for (const auto& x : index.args)
      if (!one(*x)) return false;
    return true;
  }
  return one(index);
}

Py Interp::subscript(const Py& obj, const ast::Expr& index, SourceSpan span) {
  if (obj->kind == PyKind::Opaque) return opaque();
  if (obj->kind == PyKind::Array) {
    std::vector<IndexItem> items;
    if (!indexItems(index, items)) return nullptr;
    std::string err;
    auto r = getItem(*obj->arr, items, &err);
    if (!r) return error("E0806", span, err);
    r->origin = -1;
    bool element = static_cast<int>(items.size()) == obj->arr->ndim();
    for (const auto& it : items) element = element && it.kind == IndexItem::Kind::Int;
    Py v = array(std::move(*r));
    v->view = !element;  // basic indexing gives a view; one element gives a scalar
    return v;
  }
  if (obj->kind == PyKind::Tuple || obj->kind == PyKind::List || obj->kind == PyKind::Str) {
    Py iv = eval(index);
    if (!iv) return nullptr;
    const int64_t n = obj->kind == PyKind::Str ? static_cast<int64_t>(obj->s.size())
                                               : static_cast<int64_t>(obj->items.size());
    if (iv->kind == PyKind::Slice || index.kind == ast::ExprKind::Slice) {
      std::vector<IndexItem> items;
      if (!indexItems(index, items)) return nullptr;
      Array idx = arange(0, static_cast<double>(n), 1, DType::Int64, Flavor::Numpy);
      std::string err;
      auto sel = getItem(idx, items, &err);
      if (!sel) return error("E0806", span, err);
      if (obj->kind == PyKind::Str) {
        std::string s;
        for (int64_t k = 0; k < sel->size(); ++k) s += obj->s[sel->getInt(k)];
        return str(s);
      }
      std::vector<Py> out;
      for (int64_t k = 0; k < sel->size(); ++k) out.push_back(obj->items[sel->getInt(k)]);
      auto r = tuple(std::move(out));
      r->kind = obj->kind;
      return r;
    }
    auto k = toInt(iv, index.span);
    if (!k) return nullptr;
    int64_t j = *k < 0 ? *k + n : *k;
    if (j < 0 || j >= n) return error("E0806", span, typeName(obj) + " index out of range");
    if (obj->kind == PyKind::Str) return str(std::string(1, obj->s[j]));
    return obj->items[j];
  }
  if (obj->kind == PyKind::Dict) {
    Py key = eval(index);
    if (!key) return nullptr;
    for (size_t k = 0; k + 1 < obj->items.size(); k += 2) {
      Py eq = binop(ast::Op::Eq, obj->items[k], key, span);
      if (eq && eq->kind == PyKind::Bool && eq->b) return obj->items[k + 1];
    }
    return error("E0806", span, "key " + reprOf(key) + " not found");
  }
  return error("E0804", span, "'" + typeName(obj) + "' object is not subscriptable");
}

/// A call: the callee, positional arguments (with `*seq` spread) and keywords, then call().
Py Interp::evalCall(const ast::Expr& e) {
  Py callee = eval(*e.args[0]);
  if (!callee) return nullptr;
  std::vector<Py> args;
  Kwargs kw;
  for (size_t k = 1; k < e.args.size(); ++k) {
    if (e.args[k]->kind == ast::ExprKind::Starred) {
      Py v = eval(*e.args[k]->args[0]);
      if (!v) return nullptr;
      if (v->kind != PyKind::Tuple && v->kind != PyKind::List)
        return error("E0804", e.args[k]->span, "argument after * must be a sequence");
      args.insert(args.end(), v->items.begin(), v->items.end());
      continue;
    }
    Py v = eval(*e.args[k]);
    if (!v) return nullptr;
    args.push_back(v);
  }
  for (const auto& k : e.keywords) {
    if (k.name.empty())
      return error("E0803", k.span, "'**' arguments are not supported by the harness");
    Py v = eval(*k.value);
    if (!v) return nullptr;
    kw.emplace_back(k.name, v);
  }
  return call(callee, args, kw, e);
}

/// `not x`, `-x`, `+x`, `~x` on arrays, ints, bools and floats.
Py Interp::evalUnary(const ast::Expr& e) {
  Py v = eval(*e.args[0]);
  if (!v) return nullptr;
  if (v->kind == PyKind::Opaque) return v;
  if (e.op == ast::Op::Not) {
    auto t = truth(v, e.span);
    if (!t) return nullptr;
    return boolean(!*t);
  }
  if (v->kind == PyKind::Array) {
    if (e.op == ast::Op::Pos) return v;
    std::string err;
    Array r = unary(e.op == ast::Op::Neg ? UnaryOp::Neg : UnaryOp::Invert, *v->arr, &err);
    if (!err.empty()) return error("E0804", e.span, err);
    return array(std::move(r));
  }
  if (v->kind == PyKind::Int || v->kind == PyKind::Bool) {
    if (e.op == ast::Op::Neg) return checkedInt(checkedSub(0, v->i), e.span);
    if (e.op == ast::Op::Pos) return integer(v->i);
    return integer(~v->i);
  }
  if (v->kind == PyKind::Float && e.op != ast::Op::Invert)
    return real(e.op == ast::Op::Neg ? -v->f : v->f);
  return error(
      "E0804", e.span,
      std::string("bad operand type for unary ") + ast::opSpelling(e.op) + ": " + typeName(v));
}

/// A comparison chain `a < b <= c` as Python evaluates it (arrays: one comparison only).
Py Interp::evalCompare(const ast::Expr& e) {
  Py left = eval(*e.args[0]);
  if (!left) return nullptr;
  Py result;
  for (size_t k = 0; k < e.ops.size(); ++k) {
    Py right = eval(*e.args[k + 1]);
    if (!right) return nullptr;
    Py r = binop(e.ops[k], left, right, e.span);
    if (!r) return nullptr;
    if (r->kind == PyKind::Array || r->kind == PyKind::Opaque) {
      if (e.ops.size() > 1)
        return error("E0803", e.span, "chained comparisons of arrays are not supported");
      return r;
    }
    auto t = truth(r, e.span);
    if (!t) return nullptr;
    if (!*t) return boolean(false);
    result = r;
    left = right;
  }
  return result ? result : boolean(true);
}

Py Interp::eval(const ast::Expr& e) {
  if (m_failed) return nullptr;
  if (!chargeStep(e.span)) return nullptr;
  switch (e.kind) {
    case ast::ExprKind::Name:
      return lookup(e.text, e.span);
    case ast::ExprKind::Int:
      return integer(e.intValue);
    case ast::ExprKind::Float:
      return real(e.floatValue);
    case ast::ExprKind::Str:
      return str(e.text);
    case ast::ExprKind::Bool:
      return boolean(e.boolValue);
    case ast::ExprKind::None:
      return none();
    case ast::ExprKind::Attribute: {
      Py obj = eval(*e.args[0]);
      if (!obj) return nullptr;
      return attribute(obj, e.text, e.span);
    }
    case ast::ExprKind::Subscript: {
      Py obj = eval(*e.args[0]);
      if (!obj) return nullptr;
      return subscript(obj, *e.args[1], e.span);
    }
    case ast::ExprKind::Call:
      return evalCall(e);
    case ast::ExprKind::Tuple:
    case ast::ExprKind::List: {
      std::vector<Py> items;
      for (const auto& a : e.args) {
        Py v = eval(*a);
        if (!v) return nullptr;
        items.push_back(v);
      }
      return e.kind == ast::ExprKind::Tuple ? tuple(std::move(items)) : list(std::move(items));
    }
    case ast::ExprKind::Dict: {
      std::vector<Py> items;
      for (const auto& a : e.args) {
        Py v = eval(*a);
        if (!v) return nullptr;
        items.push_back(v);
      }
      auto d = tuple(std::move(items));
      d->kind = PyKind::Dict;
      return d;
    }
    case ast::ExprKind::Slice: {
      std::vector<Py> parts;
      for (int k = 0; k < 3; ++k) {
        if (k < static_cast<int>(e.args.size()) && e.args[k]) {
          Py v = eval(*e.args[k]);
          if (!v) return nullptr;
          parts.push_back(v);
        } else {
          parts.push_back(none());
        }
      }
      auto s = tuple(std::move(parts));
      s->kind = PyKind::Slice;
      return s;
    }
    case ast::ExprKind::Unary:
      return evalUnary(e);
    case ast::ExprKind::Binary: {
      Py a = eval(*e.args[0]);
      if (!a) return nullptr;
      Py b = eval(*e.args[1]);
      if (!b) return nullptr;
      return binop(e.op, a, b, e.span);
    }
    case ast::ExprKind::Compare:
      return evalCompare(e);
    case ast::ExprKind::BoolOp: {
      Py v;
      for (const auto& a : e.args) {
        v = eval(*a);
        if (!v) return nullptr;
        auto t = truth(v, a->span);
        if (!t) return nullptr;
        if (e.op == ast::Op::And && !*t) return v;
        if (e.op == ast::Op::Or && *t) return v;
      }
      return v;
    }
    case ast::ExprKind::IfExp: {
      Py c = eval(*e.args[1]);
      if (!c) return nullptr;
      auto t = truth(c, e.args[1]->span);
      if (!t) return nullptr;
      return eval(*t ? *e.args[0] : *e.args[2]);
    }
    case ast::ExprKind::Lambda:
      return error("E0803", e.span, "lambda expressions are not supported by the harness");
    case ast::ExprKind::Starred:
      return error("E0803", e.span, "starred expressions are only supported in call arguments");
    case ast::ExprKind::FString:
      return evalFString(e);
    case ast::ExprKind::FormattedValue:
      break;  // only inside an FString
  }
  return error("E0803", e.span, "unsupported expression");
}

}  // namespace tirx::verify
