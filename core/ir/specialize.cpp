// Binding of symbolic extents per call (see specialize.h): values from argument shapes and scalar
// arguments, agreement checks, the host-side grid, and the concrete kernel the executors run.
#include "core/ir/specialize.h"

#include <algorithm>

namespace tirx::ir {

namespace {

bool fits(__int128 v) { return v >= INT64_MIN && v <= INT64_MAX; }

/// A scalar argument's bits as an exact integer of its dtype.
bool scalarInt(const KernelArg& a, int64_t& out) {
  const uint64_t b = a.scalarBits;
  switch (a.scalarType) {
    case DType::Int8: out = static_cast<int8_t>(b); return true;
    case DType::Int16: out = static_cast<int16_t>(b); return true;
    case DType::Int32: out = static_cast<int32_t>(b); return true;
    case DType::Int64: out = static_cast<int64_t>(b); return true;
    case DType::UInt8: out = static_cast<uint8_t>(b); return true;
    case DType::UInt16: out = static_cast<uint16_t>(b); return true;
    case DType::UInt32: out = static_cast<uint32_t>(b); return true;
    case DType::UInt64:
      if (b > static_cast<uint64_t>(INT64_MAX)) return false;
      out = static_cast<int64_t>(b);
      return true;
    default: return false;
  }
}

std::string dimsText(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

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
  auto sub = [&](size_t i, int64_t& v) { return i < e.args.size() && e.args[i] && evalHostInt(*e.args[i], vars, v); };
  int64_t a = 0, b = 0;
  __int128 r = 0;
  switch (e.kind) {
    case ExprKind::IntImm: out = e.intValue; return true;
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
        if (e.name == "min") op = BinOp::Min;
        else if (e.name == "max") op = BinOp::Max;
        else return false;
      }
      switch (op) {
        case BinOp::Add: r = static_cast<__int128>(a) + b; break;
        case BinOp::Sub: r = static_cast<__int128>(a) - b; break;
        case BinOp::Mul: r = static_cast<__int128>(a) * b; break;
        case BinOp::Min: r = std::min(a, b); break;
        case BinOp::Max: r = std::max(a, b); break;
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
        default: return false;
      }
      if (!fits(r)) return false;
      out = static_cast<int64_t>(r);
      return true;
    }
    default: return false;
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
    return fail(k.span, "kernel '" + k.name + "' takes " + std::to_string(written) + " arguments, found " +
                            std::to_string(args.size()));
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
    if (!p.isTensor || !args[i].isTensor || p.buffer < 0 || p.buffer >= static_cast<int>(k.buffers.size())) continue;
    const Buffer& b = k.buffers[p.buffer];
    const auto& shape = args[i].tensor.shape;
    for (size_t d = 0; d < b.shapeVars.size(); ++d) {
      const int var = b.shapeVars[d];
      if (var < 0) continue;
      if (d >= shape.size())
        return fail(p.span, "argument '" + p.name + "' of '" + k.name + "' has " + std::to_string(shape.size()) +
                                " dimensions, the parameter " + std::to_string(b.shape.size()));
      const std::string varName = var < static_cast<int>(k.vars.size()) ? k.vars[var].name : "?";
      if (const int64_t* v = find(var)) {
        if (*v != shape[d]) {
          std::string from;
          for (size_t j = 0; j < values.size(); ++j)
            if (values[j].first == var) from = origin[j];
          return fail(p.span, "call of '" + k.name + "': argument '" + p.name + "' has shape " + dimsText(shape) +
                                  ", so its extent '" + varName + "' would be " + std::to_string(shape[d]) +
                                  ", but " + from);
        }
      } else {
        values.emplace_back(var, shape[d]);
        origin.push_back("argument '" + p.name + "' has shape " + dimsText(shape) + " ('" + varName + "' = " +
                         std::to_string(shape[d]) + ")");
      }
    }
  }
  out = k;
  // The symbolic parameters no call writes.
  if (args.size() == written) {
    for (size_t i = written; i < k.params.size(); ++i) {
      const KernelParam& p = k.params[i];
      const int64_t* v = find(p.var);
      if (!v) return fail(p.span, "call of '" + k.name + "': no tensor argument gives the extent '" + p.name + "'");
      KernelArg a;
      a.isTensor = false;
      a.scalarType = p.dtype;
      a.scalarBits = static_cast<uint64_t>(static_cast<uint32_t>(static_cast<int32_t>(*v)));
      if (*v > INT32_MAX) return fail(p.span, "call of '" + k.name + "': extent '" + p.name + "' = " + std::to_string(*v) + " does not fit int32");
      args.push_back(a);
    }
  }
  // Concrete shapes.
  for (auto& b : out.buffers) {
    bool changed = false;
    for (size_t d = 0; d < b.shapeVars.size() && d < b.shape.size(); ++d) {
      if (b.shapeVars[d] < 0) continue;
      const int64_t* v = find(b.shapeVars[d]);
      const std::string varName = b.shapeVars[d] < static_cast<int>(k.vars.size()) ? k.vars[b.shapeVars[d]].name : "?";
      if (!v) return fail(b.span, "call of '" + k.name + "': the extent '" + varName + "' of '" + b.name + "' is not bound");
      if (*v <= 0) return fail(b.span, "call of '" + k.name + "': the extent '" + varName + "' of '" + b.name + "' is " + std::to_string(*v) + "; extents are positive");
      b.shape[d] = *v;
      changed = true;
    }
    b.shapeVars.clear();
    if (!changed) continue;
    int64_t n = 1;
    for (int64_t e : b.shape)
      if (__builtin_mul_overflow(n, e, &n) || n > (int64_t{1} << 40))
        return fail(b.span, "call of '" + k.name + "': '" + b.name + "' of shape " + dimsText(b.shape) + " has more than 2^40 elements");
    b.layout = TileLayout::rowMajor(b.shape);
    b.storageElems = n;
  }
  // The grid, on the host.
  for (int d = 0; d < 3; ++d) {
    const ExprPtr& g = k.launch.gridExprs[size_t(d)];
    if (!g) continue;
    int64_t v = 0;
    if (!evalHostInt(*g, values, v))
      return fail(k.launchSpan, "call of '" + k.name + "': the grid extent " + std::string(1, "xyz"[d]) + " cannot be computed");
    const int64_t limit = d == 0 ? INT32_MAX : 65535;
    if (v < 1 || v > limit)
      return fail(k.launchSpan, "call of '" + k.name + "': the grid extent " + std::string(1, "xyz"[d]) + " is " +
                                    std::to_string(v) + "; it must be from 1 to " + std::to_string(limit));
    out.launch.grid[size_t(d)] = v;
    out.launch.gridExprs[size_t(d)] = nullptr;
  }
  return true;
}

}  // namespace tirx::ir
