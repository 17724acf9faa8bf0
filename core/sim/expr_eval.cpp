// Scalar expression evaluation for the simulator: typed values, integer arithmetic with the
// wrap-around of the dtype and Python floor division/modulo for `//` and `%` (decision in
// docs/decisions.md; `Div` on integers truncates, as TIR), shifts clamped as PTX shl/shr clamp
// their amount, and float arithmetic exactly as the generated CUDA computes it (DEC-SCALAR-1 in
// docs/decisions.md, the table in docs/simulator.md): every f32/f64 operation rounded once to
// nearest with no contraction (the CUDA is __fadd_rn/__fmul_rn/...), f16/bf16 operations computed
// in f32 and rounded once to the format, min/max as PTX min/max, T.rsqrt as 1/sqrt rounded twice,
// conversions as cvt (float to integer through the 32- or 64-bit cvt.rzi, to f16/bf16 through
// f32). The transcendental intrinsics (exp, log, sin, ...) use the host libm: the GPU's libdevice
// differs within its documented ulp bound (scalarApproxUlps). Also calls of private scalar
// functions (the ewise bodies).
#include <algorithm>
#include <cmath>
#include <map>

#include "core/sim/sim_internal.h"
#include "core/sim/sim_numerics.h"

namespace tirx::sim {

using ir::DType;

Value normalize(Value v, DType t) {
  switch (t) {
    case DType::Float32:
      v.f = static_cast<float>(v.f);
      break;
    case DType::Float16:
      v.f = f16ToF32(f64ToF16(v.f));
      break;
    case DType::BFloat16:
      v.f = bf16ToF32(static_cast<uint16_t>(roundToFormat(v.f, 0, 7, 8, Round::Rn)));
      break;
    case DType::Float64:
      break;
    case DType::Bool:
      v.i = v.i != 0;
      break;
    case DType::Int8:
      v.i = static_cast<int8_t>(v.i);
      break;
    case DType::Int16:
      v.i = static_cast<int16_t>(v.i);
      break;
    case DType::Int32:
      v.i = static_cast<int32_t>(v.i);
      break;
    case DType::UInt8:
      v.i = static_cast<uint8_t>(v.i);
      break;
    case DType::UInt16:
      v.i = static_cast<uint16_t>(v.i);
      break;
    case DType::UInt32:
      v.i = static_cast<uint32_t>(v.i);
      break;
    default:
      break;
  }
  return v;
}

Value bitsToValue(uint64_t b, DType t) {
  Value v;
  switch (t) {
    case DType::Float32:
      v.f = bitsFloat(static_cast<uint32_t>(b));
      break;
    case DType::Float16:
      v.f = f16ToF32(static_cast<uint16_t>(b));
      break;
    case DType::BFloat16:
      v.f = bf16ToF32(static_cast<uint16_t>(b));
      break;
    case DType::Float64:
      v.f = bitsDouble(b);
      break;
    default:
      v.i = static_cast<int64_t>(b);
      v = normalize(v, t);
      break;
  }
  return v;
}

uint64_t valueToBits(const Value& v, DType t) {
  switch (t) {
    case DType::Float32:
      return floatBits(static_cast<float>(v.f));
    case DType::Float16:
      return f64ToF16(v.f);
    case DType::BFloat16:
      return roundToFormat(v.f, 0, 7, 8, Round::Rn);
    case DType::Float64:
      return doubleBits(v.f);
    default: {
      const int bits = ir::dtypeBits(t);
      const uint64_t mask = bits >= 64 ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1);
      return static_cast<uint64_t>(v.i) & mask;
    }
  }
}

namespace {

bool isF(DType t) {
  return ir::isFloat(t);
}

}  // namespace

Value castTo(const Value& v, DType from, DType to) {
  if (from == to) return v;  // values are kept normalised to their dtype
  Value r;
  const bool toHalf = to == DType::Float16 || to == DType::BFloat16;
  if (isF(to)) {
    // As the generated CUDA converts: an integer is converted once to the destination (to f32
    // for f16/bf16: `__float2half_rn((float)x)`), an f64 goes to f16/bf16 through f32; every step
    // rounds to nearest once. A 64-bit integer is converted directly, never through a double.
    if (isF(from)) {
      r.f = toHalf && from == DType::Float64 ? static_cast<double>(static_cast<float>(v.f)) : v.f;
    } else if (to == DType::Float64) {
      r.f = from == DType::UInt64 ? static_cast<double>(static_cast<uint64_t>(v.i))
                                  : static_cast<double>(v.i);
    } else {
      r.f = from == DType::UInt64
                ? static_cast<double>(static_cast<float>(static_cast<uint64_t>(v.i)))
                : static_cast<double>(static_cast<float>(v.i));
    }
  } else if (isF(from)) {
    // As on the GPU: the CUDA is tirx_f2i_rz/tirx_f2ui_rz/tirx_f2ll_rz/... (tirx_d2... from
    // f64), inline cvt.rzi.{s,u}{32,64}.f{32,64}: saturating, NaN → 0 or 1 << (N-1); 8- and
    // 16-bit integers keep the low bits of the 32-bit result (normalize below); bool is `x != 0`,
    // true for NaN.
    const bool wide = ir::dtypeBits(to) == 64, sgn = ir::isSigned(to);
    const uint64_t b = floatToIntBits(v.f, from == DType::Float64, wide ? 64 : 32, sgn, Round::Rz);
    if (to == DType::Bool)
      r.i = v.f != 0 || std::isnan(v.f);
    else if (wide)
      r.i = static_cast<int64_t>(b);
    else
      r.i = sgn ? static_cast<int32_t>(b) : static_cast<int64_t>(static_cast<uint32_t>(b));
  } else {
    r.i = v.i;
    if (to == DType::Bool) r.i = v.i != 0;
  }
  return normalize(r, to);
}

namespace {

bool isHalfType(DType t) {
  return t == DType::Float16 || t == DType::BFloat16;
}

/// PTX min.f64/max.f64 (the f32 rule of minF32/maxF32 in double: one NaN gives the other
/// operand, -0 orders below +0).
double minMaxF64(double a, double b, bool isMin) {
  const bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) return na && nb ? bitsDouble(kDefaultNaN64) : (na ? b : a);
  if (a == b) return std::signbit(a) == isMin ? a : b;
  return (a < b) == isMin ? a : b;
}

}  // namespace

double floatBinary(ir::BinOp op, double a, double b, DType t) {
  if (t == DType::Float64) {
    switch (op) {
      case ir::BinOp::Add:
        return addF64(a, b, Round::Rn);
      case ir::BinOp::Sub:
        return subF64(a, b, Round::Rn);
      case ir::BinOp::Mul:
        return mulF64(a, b, Round::Rn);
      case ir::BinOp::Div:
      case ir::BinOp::TruncDiv:
        return divF64(a, b, Round::Rn);
      case ir::BinOp::Min:
        return minMaxF64(a, b, true);
      case ir::BinOp::Max:
        return minMaxF64(a, b, false);
      default:
        return std::nan("");
    }
  }
  // f32, and f16/bf16 computed in f32 (the caller rounds the result to the format once).
  const float fa = static_cast<float>(a), fb = static_cast<float>(b);
  switch (op) {
    case ir::BinOp::Add:
      return addF32(fa, fb, Round::Rn);
    case ir::BinOp::Sub:
      return subF32(fa, fb, Round::Rn);
    case ir::BinOp::Mul:
      return mulF32(fa, fb, Round::Rn);
    case ir::BinOp::Div:
    case ir::BinOp::TruncDiv:
      return divF32(fa, fb, Round::Rn);
    case ir::BinOp::Min:
      return minF32(fa, fb, false);
    case ir::BinOp::Max:
      return maxF32(fa, fb, false);
    default:
      return std::nan("");
  }
}

int scalarApproxUlps(const std::string& name, DType t) {
  // CUDA C++ Programming Guide, "Mathematical Functions" (maximum ulp error of the libdevice
  // functions, full range, no -use_fast_math), plus one ulp for the host libm's own error.
  static const std::map<std::string, std::pair<int, int>> bound = {
      {"exp", {2, 1}}, {"exp2", {2, 1}}, {"log", {1, 1}}, {"log2", {1, 1}},   {"sin", {2, 2}},
      {"cos", {2, 2}}, {"tanh", {2, 2}}, {"pow", {4, 2}}, {"sigmoid", {3, 2}}};
  const auto it = bound.find(name);
  if (it == bound.end()) return 0;
  if (isHalfType(t)) return 1;  // rounded to 11 or 8 bits: at most one ulp of the format apart
  return (t == DType::Float64 ? it->second.second : it->second.first) + 1;
}

namespace {

/// Float intrinsic on the dtype's precision (f16/bf16 arrive as f32): sqrt, rsqrt, floor, ceil,
/// round and abs are exact IEEE operations as the CUDA computes them; the others use libm.
double floatIntrinsic(const std::string& n, double x, double y, DType t, bool& known) {
  known = true;
  if (t == DType::Float64) {
    if (n == "sqrt") return sqrtF64(x, Round::Rn);
    if (n == "rsqrt") return divF64(1.0, sqrtF64(x, Round::Rn), Round::Rn);
    if (n == "abs" || n == "fabs") return std::fabs(x);
    if (n == "floor") return std::floor(x);
    if (n == "ceil") return std::ceil(x);
    if (n == "round") return std::nearbyint(x);
    if (n == "exp") return std::exp(x);
    if (n == "exp2") return std::exp2(x);
    if (n == "log") return std::log(x);
    if (n == "log2") return std::log2(x);
    if (n == "tanh") return std::tanh(x);
    if (n == "sigmoid") return divF64(1.0, addF64(1.0, std::exp(-x), Round::Rn), Round::Rn);
    if (n == "sin") return std::sin(x);
    if (n == "cos") return std::cos(x);
    if (n == "pow") return std::pow(x, y);
    known = false;
    return 0;
  }
  const float a = static_cast<float>(x), b = static_cast<float>(y);
  if (n == "sqrt") return sqrtF32(a, Round::Rn);
  if (n == "rsqrt") return divF32(1.0f, sqrtF32(a, Round::Rn), Round::Rn);
  if (n == "abs" || n == "fabs") return std::fabs(a);
  if (n == "floor") return std::floor(a);
  if (n == "ceil") return std::ceil(a);
  if (n == "round") return std::nearbyint(a);
  if (n == "exp") return std::exp(a);
  if (n == "exp2") return std::exp2(a);
  if (n == "log") return std::log(a);
  if (n == "log2") return std::log2(a);
  if (n == "tanh") return std::tanh(a);
  if (n == "sigmoid") return divF32(1.0f, addF32(1.0f, std::exp(-a), Round::Rn), Round::Rn);
  if (n == "sin") return std::sin(a);
  if (n == "cos") return std::cos(a);
  if (n == "pow") return std::pow(a, b);
  known = false;
  return 0;
}

// Signed 64-bit division without undefined behaviour: INT64_MIN / -1 wraps to INT64_MIN (the
// two's-complement result, as PTX div.s64 and every narrower dtype after wrap-around) and its
// remainder is 0. `b` is never 0 here.
int64_t truncDiv(int64_t a, int64_t b) {
  return b == -1 ? static_cast<int64_t>(0 - static_cast<uint64_t>(a)) : a / b;
}
int64_t truncMod(int64_t a, int64_t b) {
  return b == -1 ? 0 : a % b;
}
int64_t floorDiv(int64_t a, int64_t b) {
  const int64_t q = truncDiv(a, b);
  return (truncMod(a, b) != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
int64_t floorMod(int64_t a, int64_t b) {
  const int64_t m = truncMod(a, b);
  return (m != 0 && ((m < 0) != (b < 0))) ? m + b : m;
}
int64_t wrapNeg(int64_t a) {
  return static_cast<int64_t>(0 - static_cast<uint64_t>(a));
}

}  // namespace

namespace {
/// Runs a scalar function body (Assign, If and Return only, spec §3.3). Returns true on Return.
bool runBody(Runner& r, const ir::ScalarFunction& f, const std::vector<ir::Stmt>& body,
             std::vector<Value>& frame, Thread& t, int instr, Value& out) {
  for (const ir::Stmt& s : body) {
    switch (s.kind) {
      case ir::StmtKind::Assign:
        if (s.var >= 0 && s.var < static_cast<int>(frame.size()) && s.value)
          frame[s.var] =
              castTo(r.eval(*s.value, t, frame, instr), s.value->dtype, f.vars[s.var].dtype);
        break;
      case ir::StmtKind::Return:
        out = s.value ? castTo(r.eval(*s.value, t, frame, instr), s.value->dtype, f.ret) : Value{};
        return true;
      case ir::StmtKind::If: {
        const bool c = s.value && r.eval(*s.value, t, frame, instr).i != 0;
        if (runBody(r, f, c ? s.body : s.orelse, frame, t, instr, out)) return true;
        break;
      }
      default:
        break;
    }
  }
  return false;
}
}  // namespace

Value Runner::callFunction(int func, const Value* argv, int argc, Thread& t, int instr) {
  if (func < 0 || func >= static_cast<int>(program.functions.size())) {
    fault("internal", "E0750", instr, "call of an unknown scalar function", true);
    return {};
  }
  const ir::ScalarFunction& f = program.functions[func];
  // One frame per call depth, reused across calls (no allocation per element). A deque keeps
  // the caller's frame where it is while a nested call adds the next one.
  if (callDepth > 64) {
    fault("internal", "E0750", instr, "scalar function calls nest too deeply", true);
    return {};
  }
  if (framePool.size() <= callDepth) framePool.resize(callDepth + 1);
  std::vector<Value>& frame = framePool[callDepth];
  frame.assign(f.vars.size(), Value{});
  for (int i = 0; i < argc && i < static_cast<int>(f.params.size()); ++i)
    if (f.params[i] >= 0 && f.params[i] < static_cast<int>(frame.size()))
      frame[f.params[i]] = normalize(argv[i], f.vars[f.params[i]].dtype);
  ++callDepth;
  Value out;
  const bool returned = runBody(*this, f, f.body, frame, t, instr, out);
  --callDepth;
  if (returned) return out;
  if (!fatal)
    fault("internal", "E0750", instr, "scalar function '" + f.name + "' ended without a return",
          true);
  return {};
}

/// An element load: bounds, layout, bank record, then the bits as a value.
Value Runner::evalLoad(const ir::Expr& e, Thread& t, std::vector<Value>& vars, int instr) {
  Value r;
  if (!e.tensor) return r;
  const FastRef& f = fast(*e.tensor);
  int64_t coord[ir::kMaxTensorRank] = {};
  if (e.args.size() > static_cast<size_t>(ir::kMaxTensorRank)) {
    fault("internal", "E0750", instr,
          "a load of more than " + std::to_string(ir::kMaxTensorRank) + " indices", true);
    return r;
  }
  const int rank = static_cast<int>(e.args.size());
  for (int d = 0; d < rank; ++d) coord[d] = eval(*e.args[d], t, vars, instr).i;
  for (int d = 0; d < rank; ++d) {
    const int64_t ext = d < static_cast<int>(e.tensor->shape.size()) ? e.tensor->shape[d] : 1;
    if (coord[d] < 0 || coord[d] >= ext) {
      fault("oob", e.tensor->scope == ir::MemScope::Global ? "E0710" : "E0711", instr,
            "index " + std::to_string(coord[d]) + " is out of bounds for dimension " +
                std::to_string(d) + " of '" + e.tensor->text + "' with extent " +
                std::to_string(ext) + " in " + threadName(cta, t.tid),
            true);
      return r;
    }
  }
  Resolved res;
  if (!resolve(f, coord, rank, t, instr, res)) return r;
  if (e.tensor->scope == ir::MemScope::Shared)
    recordShared(t, instr, 1 + t.loadSeq++, 0, sharedByte(*e.tensor, res.m), f.elemBytes, *e.tensor,
                 false);
  uint64_t bits = 0;
  if (!loadElem(t, *e.tensor, res.m, f.elemBytes, reinterpret_cast<uint8_t*>(&bits), instr,
                f.elemBytes))
    return r;
  return bitsToValue(bits, e.tensor->dtype);
}

/// A comparison of two operands of the common dtype `ct`: 1 or 0.
static int64_t compareValues(ir::BinOp op, DType ct, const Value& a, const Value& b) {
  if (isF(ct)) {
    switch (op) {
      case ir::BinOp::Eq:
        return a.f == b.f;
      case ir::BinOp::Ne:
        return a.f != b.f;
      case ir::BinOp::Lt:
        return a.f < b.f;
      case ir::BinOp::Le:
        return a.f <= b.f;
      case ir::BinOp::Gt:
        return a.f > b.f;
      default:
        return a.f >= b.f;
    }
  } else {
    const bool u = ct == DType::UInt64;
    const auto ua = static_cast<uint64_t>(a.i), ub = static_cast<uint64_t>(b.i);
    switch (op) {
      case ir::BinOp::Eq:
        return a.i == b.i;
      case ir::BinOp::Ne:
        return a.i != b.i;
      case ir::BinOp::Lt:
        return u ? ua < ub : a.i < b.i;
      case ir::BinOp::Le:
        return u ? ua <= ub : a.i <= b.i;
      case ir::BinOp::Gt:
        return u ? ua > ub : a.i > b.i;
      default:
        return u ? ua >= ub : a.i >= b.i;
    }
  }
}

/// Float arithmetic in `ct` as the CUDA computes it: one rounding per operation (f16/bf16 in f32,
/// then to the format); `//` and `%` on floats are refused by sema and only reach here from the IR.
static double floatArithmetic(ir::BinOp op, DType ct, const Value& a, const Value& b) {
  switch (op) {
    case ir::BinOp::FloorDiv:
      return std::floor(floatBinary(ir::BinOp::Div, a.f, b.f, ct));
    case ir::BinOp::Mod:
    case ir::BinOp::TruncMod: {
      double m =
          ct == DType::Float64 ? std::fmod(a.f, b.f) : double(std::fmod(float(a.f), float(b.f)));
      if (op == ir::BinOp::Mod && m != 0 && ((m < 0) != (b.f < 0))) m += b.f;
      return m;
    }
    default:
      return floatBinary(op, a.f, b.f, ct);
  }
}

/// Binary, Compare and Logical expressions: operands promoted to the wider dtype, arithmetic as
/// the generated CUDA does it.
Value Runner::evalBinary(const ir::Expr& e, Thread& t, std::vector<Value>& vars, int instr) {
  Value r;
  if (e.args.size() < 2) return r;
  const ir::Expr& ea = *e.args[0];
  const ir::Expr& eb = *e.args[1];
  if (e.kind == ir::ExprKind::Logical) {
    const Value a = eval(ea, t, vars, instr);
    const bool av = isF(ea.dtype) ? a.f != 0 : a.i != 0;
    if (e.op == ir::BinOp::And && !av) return r;
    if (e.op == ir::BinOp::Or && av) {
      r.i = 1;
      return r;
    }
    const Value b = eval(eb, t, vars, instr);
    r.i = isF(eb.dtype) ? b.f != 0 : b.i != 0;
    return r;
  }
  // Operands are promoted to the wider of the two dtypes (sema usually made them equal).
  const DType ct =
      e.kind == ir::ExprKind::Compare
          ? (isF(ea.dtype) || isF(eb.dtype) ? (isF(ea.dtype) ? ea.dtype : eb.dtype) : ea.dtype)
          : e.dtype;
  const Value a = castTo(eval(ea, t, vars, instr), ea.dtype, ct);
  const Value b = castTo(eval(eb, t, vars, instr), eb.dtype, ct);
  if (e.kind == ir::ExprKind::Compare) {
    r.i = compareValues(e.op, ct, a, b);
    return r;
  }
  if (isF(ct)) {
    r.f = floatArithmetic(e.op, ct, a, b);
    return normalize(r, ct);
  }
  const bool uns = !ir::isSigned(ct);
  switch (e.op) {
    case ir::BinOp::Add:
      r.i = static_cast<int64_t>(static_cast<uint64_t>(a.i) + static_cast<uint64_t>(b.i));
      break;
    case ir::BinOp::Sub:
      r.i = static_cast<int64_t>(static_cast<uint64_t>(a.i) - static_cast<uint64_t>(b.i));
      break;
    case ir::BinOp::Mul:
      r.i = static_cast<int64_t>(static_cast<uint64_t>(a.i) * static_cast<uint64_t>(b.i));
      break;
    case ir::BinOp::Div:
    case ir::BinOp::TruncDiv:
    case ir::BinOp::FloorDiv:
    case ir::BinOp::Mod:
    case ir::BinOp::TruncMod:
      if (b.i == 0) {
        fault("divzero", "E0760", instr, "integer division by zero in " + threadName(cta, t.tid),
              false);
        return r;
      }
      if (uns && ct == DType::UInt64) {
        const auto ua = static_cast<uint64_t>(a.i), ub = static_cast<uint64_t>(b.i);
        const bool isDiv =
            e.op == ir::BinOp::Div || e.op == ir::BinOp::TruncDiv || e.op == ir::BinOp::FloorDiv;
        r.i = static_cast<int64_t>(isDiv ? ua / ub : ua % ub);
      } else if (e.op == ir::BinOp::FloorDiv) {
        r.i = floorDiv(a.i, b.i);
      } else if (e.op == ir::BinOp::Mod) {
        r.i = floorMod(a.i, b.i);
      } else if (e.op == ir::BinOp::TruncMod) {
        r.i = truncMod(a.i, b.i);
      } else {
        r.i = truncDiv(a.i, b.i);
      }
      break;
    case ir::BinOp::Min:
      r.i = uns && ct == DType::UInt64 ? static_cast<int64_t>(std::min<uint64_t>(a.i, b.i))
                                       : std::min(a.i, b.i);
      break;
    case ir::BinOp::Max:
      r.i = uns && ct == DType::UInt64 ? static_cast<int64_t>(std::max<uint64_t>(a.i, b.i))
                                       : std::max(a.i, b.i);
      break;
    case ir::BinOp::BitAnd:
      r.i = a.i & b.i;
      break;
    case ir::BinOp::BitOr:
      r.i = a.i | b.i;
      break;
    case ir::BinOp::BitXor:
      r.i = a.i ^ b.i;
      break;
    case ir::BinOp::Shl:
      r.i = (b.i >= 0 && b.i < 64) ? static_cast<int64_t>(static_cast<uint64_t>(a.i) << b.i) : 0;
      break;
    case ir::BinOp::Shr:
      if (b.i < 0 || b.i >= 64)
        r.i = (!uns && a.i < 0) ? -1 : 0;
      else
        r.i = uns ? static_cast<int64_t>(static_cast<uint64_t>(a.i) >> b.i) : a.i >> b.i;
      break;
    default:
      break;
  }
  return normalize(r, ct);
}

/// `elect_sync`, integer abs/min/max, and the float intrinsics of floatIntrinsic.
Value Runner::evalIntrinsic(const ir::Expr& e, Thread& t, std::vector<Value>& vars, int instr) {
  Value r;
  if (e.name == "elect_sync") {  // every lane executes it (sema): the elected lane is lane 0
    r.i = t.tid % 32 == 0 ? 1 : 0;
    return r;
  }
  if (e.args.empty()) return r;
  const ir::Expr& a0 = *e.args[0];
  if (e.name == "abs" && !isF(e.dtype)) {
    Value v = castTo(eval(a0, t, vars, instr), a0.dtype, e.dtype);
    // Unsigned values are their own magnitude (a uint64 above 2^63 is held as a negative i);
    // |INT64_MIN| wraps to itself, as abs.s64.
    if (ir::isSigned(e.dtype) && v.i < 0) v.i = wrapNeg(v.i);
    return normalize(v, e.dtype);
  }
  if ((e.name == "min" || e.name == "max") && e.args.size() >= 2) {
    const Value a = castTo(eval(a0, t, vars, instr), a0.dtype, e.dtype);
    const Value b = castTo(eval(*e.args[1], t, vars, instr), e.args[1]->dtype, e.dtype);
    if (isF(e.dtype)) {
      r.f = floatBinary(e.name == "min" ? ir::BinOp::Min : ir::BinOp::Max, a.f, b.f, e.dtype);
    } else if (e.dtype == DType::UInt64) {
      const auto ua = static_cast<uint64_t>(a.i), ub = static_cast<uint64_t>(b.i);
      r.i = static_cast<int64_t>(e.name == "min" ? std::min(ua, ub) : std::max(ua, ub));
    } else {
      r.i = e.name == "min" ? std::min(a.i, b.i) : std::max(a.i, b.i);
    }
    return normalize(r, e.dtype);
  }
  const DType ft = isF(e.dtype) ? e.dtype : DType::Float32;
  const double x = castTo(eval(a0, t, vars, instr), a0.dtype, ft).f;
  const double y =
      e.args.size() > 1 ? castTo(eval(*e.args[1], t, vars, instr), e.args[1]->dtype, ft).f : 0;
  bool known = false;
  r.f = floatIntrinsic(e.name, x, y, ft, known);
  if (!known) {
    fault("unsupported", "E0751", instr,
          "the simulator does not model the intrinsic '" + e.name + "'", true);
    return {};
  }
  return castTo(normalize(r, ft), ft, e.dtype);
}

/// A call of a private scalar function: arguments evaluated and cast to its parameter dtypes.
Value Runner::evalCall(const ir::Expr& e, Thread& t, std::vector<Value>& vars, int instr) {
  // Any number of arguments: on the stack up to 16, on the heap beyond.
  Value small[16];
  std::vector<Value> big;
  const int argc = static_cast<int>(e.args.size());
  if (argc > 16) big.resize(argc);
  Value* argv = argc > 16 ? big.data() : small;
  for (int i = 0; i < argc; ++i) argv[i] = eval(*e.args[i], t, vars, instr);
  if (e.func >= 0 && e.func < static_cast<int>(program.functions.size())) {
    const auto& f = program.functions[e.func];
    for (int i = 0; i < argc && i < static_cast<int>(f.params.size()); ++i)
      argv[i] = castTo(argv[i], e.args[i]->dtype, f.vars[f.params[i]].dtype);
  }
  return callFunction(e.func, argv, argc, t, instr);
}

Value Runner::eval(const ir::Expr& e, Thread& t, std::vector<Value>& vars, int instr) {
  Value r;
  switch (e.kind) {
    case ir::ExprKind::IntImm:
    case ir::ExprKind::BoolImm:
      r.i = e.intValue;
      return isF(e.dtype) ? castTo(r, DType::Int64, e.dtype) : normalize(r, e.dtype);
    case ir::ExprKind::FloatImm:
      if (isF(e.dtype)) {  // the CUDA literal of an f16/bf16 constant is its f32 value rounded
        r.f = e.dtype == DType::Float64 ? e.floatValue
                                        : static_cast<double>(static_cast<float>(e.floatValue));
        return normalize(r, e.dtype);
      }
      r.f = e.floatValue;
      return castTo(r, ir::DType::Float64, e.dtype);
    case ir::ExprKind::Var:
      if (e.var >= 0 && e.var < static_cast<int>(vars.size())) return vars[e.var];
      return r;
    case ir::ExprKind::ThreadIdx:
      r.i = t.idx[std::clamp(e.dim, 0, 2)];
      return r;
    case ir::ExprKind::BlockIdx:
      r.i = ctaIdx[std::clamp(e.dim, 0, 2)];
      return r;
    case ir::ExprKind::BlockDim:
      r.i = kernel.launch.block[std::clamp(e.dim, 0, 2)];
      return r;
    case ir::ExprKind::GridDim:
      r.i = kernel.launch.grid[std::clamp(e.dim, 0, 2)];
      return r;
    case ir::ExprKind::Load:
      return evalLoad(e, t, vars, instr);
    case ir::ExprKind::Unary: {
      if (e.args.empty()) return r;
      const ir::Expr& a = *e.args[0];
      Value v = eval(a, t, vars, instr);
      if (e.op == ir::BinOp::Neg) {
        if (isF(e.dtype))
          v.f = -castTo(v, a.dtype, e.dtype).f;
        else
          v.i = wrapNeg(v.i);
      } else if (e.op == ir::BinOp::Not) {
        v.i = isF(a.dtype) ? v.f == 0 : v.i == 0;
      } else {
        v.i = ~v.i;
      }
      return normalize(v, e.dtype);
    }
    case ir::ExprKind::Binary:
    case ir::ExprKind::Compare:
    case ir::ExprKind::Logical:
      return evalBinary(e, t, vars, instr);
    case ir::ExprKind::Select: {
      if (e.args.size() < 3) return r;
      const Value c = eval(*e.args[0], t, vars, instr);
      const bool cv = isF(e.args[0]->dtype) ? c.f != 0 : c.i != 0;
      const ir::Expr& pick = cv ? *e.args[1] : *e.args[2];
      return castTo(eval(pick, t, vars, instr), pick.dtype, e.dtype);
    }
    case ir::ExprKind::Intrinsic:
      return evalIntrinsic(e, t, vars, instr);
    case ir::ExprKind::Cast: {
      if (e.args.empty()) return r;
      return castTo(eval(*e.args[0], t, vars, instr), e.args[0]->dtype, e.dtype);
    }
    case ir::ExprKind::Call:
      return evalCall(e, t, vars, instr);
  }
  return r;
}

}  // namespace tirx::sim
