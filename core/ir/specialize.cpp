// Binding of symbolic extents per call (see specialize.h): values from argument shapes and scalar
// arguments, agreement checks, the host-side grid, and the concrete kernel the executors run.
#include "core/ir/specialize.h"

#include <algorithm>

namespace tirx::ir {

namespace {

bool fits(__int128 v) {
  return v >= INT64_MIN && v <= INT64_MAX;
}

/// A scalar argument's bits as an exact integer of its dtype.
bool scalarInt(const KernelArg& a, int64_t& out) {
  const uint64_t b = a.scalarBits;
  switch (a.scalarType) {
    case DType::Int8:
      out = static_cast<int8_t>(b);
      return true;
    case DType::Int16:
      out = static_cast<int16_t>(b);
      return true;
    case DType::Int32:
      out = static_cast<int32_t>(b);
      return true;
    case DType::Int64:
      out = static_cast<int64_t>(b);
      return true;
    case DType::UInt8:
      out = static_cast<uint8_t>(b);
      return true;
    case DType::UInt16:
      out = static_cast<uint16_t>(b);
      return true;
    case DType::UInt32:
      out = static_cast<uint32_t>(b);
      return true;
    case DType::UInt64:
      if (b > static_cast<uint64_t>(INT64_MAX)) return false;
      out = static_cast<int64_t>(b);
      return true;
    default:
      return false;
  }
}

std::string dimsText(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

/// Rewrites every tensor reference of a bound kernel whose buffer had symbolic extents: the
/// references carry copies of the buffer's layout and shape, which the binding made concrete.
/// A reference with the buffer's own layout (the tensor, a region or an element of it) takes the
/// bound layout and layout shape, and a symbolic extent it kept the bound value; views (refused by
/// sema on tensors with symbolic strides) keep theirs.
class RefRebinder {
 public:
  RefRebinder(const std::vector<Buffer>& unbound, const std::vector<Buffer>& bound,
              const std::vector<bool>& affected)
      : m_old(unbound), m_bufs(bound), m_affected(affected) {}

  void stmts(std::vector<Stmt>& body) {
    for (auto& s : body) stmt(s);
  }

 private:
  const std::vector<Buffer>& m_old;
  const std::vector<Buffer>& m_bufs;
  const std::vector<bool>& m_affected;

  bool hits(const TensorRef& r) const {
    return r.buffer >= 0 && size_t(r.buffer) < m_affected.size() && m_affected[size_t(r.buffer)];
  }

  void fix(TensorRef& r) {
    for (auto& l : r.lo) l = expr(l);
    if (!hits(r)) return;
    // A view keeps its own layout (a dtype view of a region of a tensor whose leading extent
    // was symbolic: its strides are static and stay right).
    const Buffer& old = m_old[size_t(r.buffer)];
    if (!(r.layout == old.layout) || r.layoutShape != old.shape) return;
    const Buffer& b = m_bufs[size_t(r.buffer)];
    for (size_t s = 0; s < r.shape.size(); ++s) {
      if (!isSymbolicExtent(r.shape[s])) continue;
      for (size_t d = 0; d < r.dimMap.size() && d < b.shape.size(); ++d)
        if (r.dimMap[d] == static_cast<int>(s)) r.shape[s] = b.shape[d];
    }
    r.layout = b.layout;
    r.layoutShape = b.shape;
  }

  std::shared_ptr<const TensorRef> ref(const std::shared_ptr<const TensorRef>& r) {
    if (!r) return r;
    auto c = std::make_shared<TensorRef>(*r);
    fix(*c);
    return c;
  }

  /// Does `e` read an affected tensor anywhere?
  bool reads(const Expr& e) const {
    if (e.tensor &&
        (hits(*e.tensor) || std::any_of(e.tensor->lo.begin(), e.tensor->lo.end(),
                                        [&](const ExprPtr& l) { return l && reads(*l); })))
      return true;
    return std::any_of(e.args.begin(), e.args.end(),
                       [&](const ExprPtr& a) { return a && reads(*a); });
  }

  ExprPtr expr(const ExprPtr& e) {
    if (!e || !reads(*e)) return e;
    auto c = std::make_shared<Expr>(*e);
    for (auto& a : c->args) a = expr(a);
    if (c->tensor) c->tensor = ref(c->tensor);
    return c;
  }

  void operand(TileOperand& o) {
    o.scalar = expr(o.scalar);
    if (!o.isScalar) fix(o.tensor);
  }

  void stmt(Stmt& s) {
    s.value = expr(s.value);
    s.start = expr(s.start);
    s.stop = expr(s.stop);
    s.step = expr(s.step);
    for (auto& i : s.indices) i = expr(i);
    if (s.tensor) s.tensor = ref(s.tensor);
    if (s.apply) {
      auto a = std::make_shared<TileApply>(*s.apply);
      for (auto& o : a->operands) operand(o);
      a->pred = expr(a->pred);
      a->srcSize = expr(a->srcSize);
      a->ignoreSrc = expr(a->ignoreSrc);
      s.apply = a;
    }
    if (s.ewise) {
      auto w = std::make_shared<TileEwise>(*s.ewise);
      fix(w->dst);
      for (auto& o : w->inputs) operand(o);
      s.ewise = w;
    }
    if (s.tma) {  // sema refuses TMA on a tensor with symbolic extents; its coordinates may read
                  // one
      auto t = std::make_shared<TmaCopy>(*s.tma);
      for (auto& c : t->coords) c = expr(c);
      for (auto& c : t->mbarIndex) c = expr(c);
      s.tma = t;
    }
    if (s.async) {
      auto a = std::make_shared<AsyncOp>(*s.async);
      for (auto& c : a->barIndex) c = expr(c);
      a->value = expr(a->value);
      s.async = a;
    }
    stmts(s.body);
    stmts(s.orelse);
  }
};

}  // namespace

bool hasSymbolicExtents(const Kernel& k) {
  for (const auto& g : k.launch.gridExprs)
    if (g) return true;
  for (const auto& b : k.buffers)
    for (int v : b.shapeVars)
      if (v >= 0) return true;
  return false;
}

size_t writtenParamCount(const Kernel& k) {
  size_t n = 0;
  for (const auto& p : k.params) n += p.symbolic ? 0 : 1;
  return n;
}

bool evalHostInt(const Expr& e, const std::vector<std::pair<int, int64_t>>& vars, int64_t& out) {
  auto sub = [&](size_t i, int64_t& v) {
    return i < e.args.size() && e.args[i] && evalHostInt(*e.args[i], vars, v);
  };
  int64_t a = 0, b = 0;
  __int128 r = 0;
  switch (e.kind) {
    case ExprKind::IntImm:
      out = e.intValue;
      return true;
    case ExprKind::Var:
      for (const auto& [id, v] : vars)
        if (id == e.var) return out = v, true;
      return false;
    case ExprKind::Cast:
      if (!isInt(e.dtype) || !sub(0, a)) return false;
      out = a;
      return true;
    case ExprKind::Unary:
      if (e.op != BinOp::Neg || !sub(0, a) || a == INT64_MIN) return false;
      out = -a;
      return true;
    case ExprKind::Intrinsic:
    case ExprKind::Binary: {
      if (!sub(0, a) || !sub(1, b)) return false;
      BinOp op = e.op;
      if (e.kind == ExprKind::Intrinsic) {
        if (e.name == "min")
          op = BinOp::Min;
        else if (e.name == "max")
          op = BinOp::Max;
        else
          return false;
      }
      switch (op) {
        case BinOp::Add:
          r = static_cast<__int128>(a) + b;
          break;
        case BinOp::Sub:
          r = static_cast<__int128>(a) - b;
          break;
        case BinOp::Mul:
          r = static_cast<__int128>(a) * b;
          break;
        case BinOp::Min:
          r = std::min(a, b);
          break;
        case BinOp::Max:
          r = std::max(a, b);
          break;
        case BinOp::FloorDiv:
        case BinOp::Mod: {
          if (b == 0 || (a == INT64_MIN && b == -1)) return false;
          int64_t q = a / b, m = a % b;
          if (m != 0 && ((m < 0) != (b < 0))) --q, m += b;
          r = op == BinOp::FloorDiv ? q : m;
          break;
        }
        case BinOp::TruncDiv:
        case BinOp::TruncMod:
          if (b == 0 || (a == INT64_MIN && b == -1)) return false;
          r = op == BinOp::TruncDiv ? a / b : a % b;
          break;
        default:
          return false;
      }
      if (!fits(r)) return false;
      out = static_cast<int64_t>(r);
      return true;
    }
    case ExprKind::Select: {
      // The exact T.ceildiv lowers to (a % b != 0) ? a // b + 1 : a // b (DEC-SCALAR-7).
      const Expr* c = e.args.size() == 3 && e.args[0] ? e.args[0].get() : nullptr;
      if (!c || c->kind != ExprKind::Compare || c->args.size() != 2) return false;
      int64_t l = 0, rr = 0;
      if (!c->args[0] || !c->args[1] || !evalHostInt(*c->args[0], vars, l) ||
          !evalHostInt(*c->args[1], vars, rr))
        return false;
      bool take = false;
      switch (c->op) {
        case BinOp::Eq:
          take = l == rr;
          break;
        case BinOp::Ne:
          take = l != rr;
          break;
        case BinOp::Lt:
          take = l < rr;
          break;
        case BinOp::Le:
          take = l <= rr;
          break;
        case BinOp::Gt:
          take = l > rr;
          break;
        case BinOp::Ge:
          take = l >= rr;
          break;
        default:
          return false;
      }
      return sub(take ? 1 : 2, out);
    }
    default:
      return false;
  }
}

bool bindSymbolicCall(const Kernel& k, std::vector<KernelArg>& args, Kernel& out, Diagnostic& why,
                      SourceSpan callSpan) {
  const size_t written = writtenParamCount(k);
  auto fail = [&](SourceSpan at, std::string message) {
    why = makeError("E0772", callSpan.valid() ? callSpan : at, std::move(message));
    return false;
  };
  if (args.size() != written && args.size() != k.params.size())
    return fail(k.span, "kernel '" + k.name + "' takes " + std::to_string(written) +
                            " arguments, found " + std::to_string(args.size()));
  // Values of the symbolic vars: scalar parameters first, then the first tensor giving each.
  std::vector<std::pair<int, int64_t>> values;
  std::vector<std::string> origin;  // how each value was bound, for messages
  auto find = [&](int var) -> const int64_t* {
    for (const auto& [id, v] : values)
      if (id == var) return &v;
    return nullptr;
  };
  for (size_t i = 0; i < written && i < args.size(); ++i) {
    const KernelParam& p = k.params[i];
    if (p.isTensor || args[i].isTensor) continue;
    int64_t v = 0;
    if (scalarInt(args[i], v)) {
      values.emplace_back(p.var, v);
      origin.push_back("argument '" + p.name + "' = " + std::to_string(v));
    }
  }
  for (size_t i = 0; i < written && i < args.size(); ++i) {
    const KernelParam& p = k.params[i];
    if (!p.isTensor || !args[i].isTensor || p.buffer < 0 ||
        p.buffer >= static_cast<int>(k.buffers.size()))
      continue;
    const Buffer& b = k.buffers[p.buffer];
    const auto& shape = args[i].tensor.shape;
    for (size_t d = 0; d < b.shapeVars.size(); ++d) {
      const int var = b.shapeVars[d];
      if (var < 0) continue;
      if (d >= shape.size())
        return fail(p.span, "argument '" + p.name + "' of '" + k.name + "' has " +
                                std::to_string(shape.size()) + " dimensions, the parameter " +
                                std::to_string(b.shape.size()));
      const std::string varName = var < static_cast<int>(k.vars.size()) ? k.vars[var].name : "?";
      if (const int64_t* v = find(var)) {
        if (*v != shape[d]) {
          std::string from;
          for (size_t j = 0; j < values.size(); ++j)
            if (values[j].first == var) from = origin[j];
          return fail(p.span, "call of '" + k.name + "': argument '" + p.name + "' has shape " +
                                  dimsText(shape) + ", so its extent '" + varName + "' would be " +
                                  std::to_string(shape[d]) + ", but " + from);
        }
      } else {
        values.emplace_back(var, shape[d]);
        origin.push_back("argument '" + p.name + "' has shape " + dimsText(shape) + " ('" +
                         varName + "' = " + std::to_string(shape[d]) + ")");
      }
    }
  }
  out = k;
  // The symbolic parameters no call writes.
  if (args.size() == written) {
    for (size_t i = written; i < k.params.size(); ++i) {
      const KernelParam& p = k.params[i];
      const int64_t* v = find(p.var);
      if (!v)
        return fail(p.span, "call of '" + k.name + "': no tensor argument gives the extent '" +
                                p.name + "'");
      KernelArg a;
      a.isTensor = false;
      a.scalarType = p.dtype;
      a.scalarBits = static_cast<uint64_t>(static_cast<uint32_t>(static_cast<int32_t>(*v)));
      if (*v > INT32_MAX)
        return fail(p.span, "call of '" + k.name + "': extent '" + p.name +
                                "' = " + std::to_string(*v) + " does not fit int32");
      args.push_back(a);
    }
  }
  // Every extent that keeps a proven memory atom aligned (Buffer::extentMultiple).
  for (const auto& b : k.buffers)
    for (size_t d = 0; d < b.shapeVars.size() && d < b.extentMultiple.size(); ++d) {
      const int64_t* v = b.shapeVars[d] >= 0 ? find(b.shapeVars[d]) : nullptr;
      if (!v || b.extentMultiple[d] <= 1 || *v % b.extentMultiple[d] == 0) continue;
      const std::string varName =
          b.shapeVars[d] < static_cast<int>(k.vars.size()) ? k.vars[b.shapeVars[d]].name : "?";
      return fail(b.span, "call of '" + k.name + "': the extent '" + varName + "' of '" + b.name +
                              "' is " + std::to_string(*v) + ", but " +
                              (d < b.extentMultipleWhy.size() ? b.extentMultipleWhy[d]
                                                              : std::string("a memory atom")) +
                              " needs a multiple of " + std::to_string(b.extentMultiple[d]) +
                              " to stay aligned");
    }
  // Concrete shapes.
  std::vector<bool> affected(out.buffers.size(), false);
  for (auto& b : out.buffers) {
    bool changed = false;
    for (size_t d = 0; d < b.shapeVars.size() && d < b.shape.size(); ++d) {
      if (b.shapeVars[d] < 0) continue;
      const int64_t* v = find(b.shapeVars[d]);
      const std::string varName =
          b.shapeVars[d] < static_cast<int>(k.vars.size()) ? k.vars[b.shapeVars[d]].name : "?";
      if (!v)
        return fail(b.span, "call of '" + k.name + "': the extent '" + varName + "' of '" + b.name +
                                "' is not bound");
      if (*v <= 0)
        return fail(b.span, "call of '" + k.name + "': the extent '" + varName + "' of '" + b.name +
                                "' is " + std::to_string(*v) + "; extents are positive");
      b.shape[d] = *v;
      changed = true;
    }
    if (hasSymbolicStrides(b)) b.boundShapeVars = b.shapeVars;
    b.shapeVars.clear();
    b.extentMultiple.clear();
    b.extentMultipleWhy.clear();
    if (!changed) continue;
    if (b.id >= 0 && size_t(b.id) < affected.size()) affected[size_t(b.id)] = true;
    int64_t n = 1;
    for (int64_t e : b.shape)
      if (__builtin_mul_overflow(n, e, &n) || n > (int64_t{1} << 40))
        return fail(b.span, "call of '" + k.name + "': '" + b.name + "' of shape " +
                                dimsText(b.shape) + " has more than 2^40 elements");
    b.layout = TileLayout::rowMajor(b.shape);
    b.storageElems = n;
  }
  if (std::find(affected.begin(), affected.end(), true) != affected.end())
    RefRebinder(k.buffers, out.buffers, affected).stmts(out.body);
  // The grid, on the host.
  for (int d = 0; d < 3; ++d) {
    const ExprPtr& g = k.launch.gridExprs[size_t(d)];
    if (!g) continue;
    int64_t v = 0;
    if (!evalHostInt(*g, values, v))
      return fail(k.launchSpan, "call of '" + k.name + "': the grid extent " +
                                    std::string(1, "xyz"[d]) + " cannot be computed");
    const int64_t limit = d == 0 ? INT32_MAX : 65535;
    if (v < 1 || v > limit)
      return fail(k.launchSpan, "call of '" + k.name + "': the grid extent " +
                                    std::string(1, "xyz"[d]) + " is " + std::to_string(v) +
                                    "; it must be from 1 to " + std::to_string(limit));
    out.launch.grid[size_t(d)] = v;
    out.launch.gridExprs[size_t(d)] = nullptr;
  }
  return true;
}

}  // namespace tirx::ir
