// The scalar conformance generator (see scalar_conform.h): random expression trees over every
// dtype, fully parenthesised TIRx text built from the operators and builtins sema accepts in
// kernel expressions — + - * / // % & | ^ << >> unary - ~ not, comparisons, and/or, `x if c
// else y`, T.if_then_else, T.Cast and the typed constructors, T.min/T.max/T.abs/T.fabs,
// T.sqrt/T.rsqrt/T.floor/T.ceil/T.round, T.ceildiv, and at the root of the approximate cases
// T.exp/T.exp2/T.log/T.log2/T.sin/T.cos/T.tanh/T.sigmoid/T.pow. Integer divisors are guarded
// (`(y if y != 0 else 1)`): a zero divisor is a simulator fault and an unspecified GPU value.
// Inputs cycle through each dtype's edge values (±0, subnormals, ±inf, NaN, integer extremes,
// shift amounts around the width) and random bits, rotated per kernel.
#include <algorithm>
#include <map>
#include <sstream>

#include "core/conform/scalar_internal.h"
#include "core/sim/sim_numerics.h"

namespace tirx::conform {

using ir::DType;

namespace scalar {

const std::vector<DTypeInfo>& dtypes() {
  static const std::vector<DTypeInfo> d = {
      {DType::Float32, "float32", "f32"},    {DType::Float16, "float16", "f16"},
      {DType::BFloat16, "bfloat16", "bf16"}, {DType::Float64, "float64", "f64"},
      {DType::Int8, "int8", "i8"},           {DType::Int16, "int16", "i16"},
      {DType::Int32, "int32", "i32"},        {DType::Int64, "int64", "i64"},
      {DType::UInt8, "uint8", "u8"},         {DType::UInt16, "uint16", "u16"},
      {DType::UInt32, "uint32", "u32"},      {DType::UInt64, "uint64", "u64"}};
  return d;
}

namespace {

/// splitmix64: a small, fully specified generator (the same sequence on every platform).
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int below(int n) { return static_cast<int>(next() % static_cast<uint64_t>(n)); }
  bool chance(int percent) { return below(100) < percent; }
};

std::vector<uint64_t> edgeValues(DType t) {
  switch (t) {
    case DType::Float32:
      return {0,          0x80000000, 1,          0x80000001, 0x007fffff, 0x00800000,
              0x80800000, 0x3f800000, 0xbf800000, 0x40200000, 0xc0200000, 0x3f000000,
              0x3fc00000, 0x40400000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
              0x7fc00000, 0x7fa00000, 0xffc00001, 0x4b800001, 0x4f000000, 0xcf000000,
              0x4f800000, 0x5f000000, 0x41200000, 0xc2c80000, 0x33800000};
    case DType::Float16:
      return {0,      0x8000, 1,      0x8001, 0x03ff, 0x0400, 0x3c00,
              0xbc00, 0x3800, 0x4100, 0xc100, 0x3e00, 0x4200, 0x7bff,
              0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7d00, 0x5640, 0x1400};
    case DType::BFloat16:
      return {0,      0x8000, 1,      0x8001, 0x007f, 0x0080, 0x3f80,
              0xbf80, 0x3f00, 0x4020, 0xc020, 0x3fc0, 0x4040, 0x7f7f,
              0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x7fa0, 0x42c8, 0x4f00};
    case DType::Float64:
      return {0,
              0x8000000000000000ull,
              1,
              0x000fffffffffffffull,
              0x0010000000000000ull,
              0x3ff0000000000000ull,
              0xbff0000000000000ull,
              0x4004000000000000ull,
              0xc004000000000000ull,
              0x3ff8000000000000ull,
              0x7fefffffffffffffull,
              0x7ff0000000000000ull,
              0xfff0000000000000ull,
              0x7ff8000000000000ull,
              0x41e0000000000000ull,
              0x43e0000000000000ull,
              0x36a0000000000000ull,
              0x3fb999999999999aull,
              0x4341c37937e08001ull};
    default: {
      const int bits = ir::dtypeBits(t);
      const uint64_t m = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
      const uint64_t top = uint64_t{1} << (bits - 1);
      std::vector<uint64_t> v = {0, 1, m,  top, top - 1, top + 1, m - 1, 2, 3,
                                 7, 8, 31, 32,  33,      63,      64,    65};
      for (uint64_t& x : v) x &= m;
      return v;
    }
  }
}

uint64_t randomBits(Rng& r, DType t) {
  const int bits = ir::dtypeBits(t);
  const uint64_t m = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  uint64_t x = r.next();
  if (t == DType::Float32 && r.chance(70)) {  // moderate exponents: sums and products stay finite
    x = (x & 0x807fffffu) | (static_cast<uint64_t>(127 - 24 + r.below(48)) << 23);
  } else if (t == DType::Float64 && r.chance(70)) {
    x = (x & 0x800fffffffffffffull) | (static_cast<uint64_t>(1023 - 40 + r.below(80)) << 52);
  } else if (t == DType::Float16 && r.chance(70)) {
    x = (x & 0x83ff) | (static_cast<uint64_t>(15 - 8 + r.below(16)) << 10);
  } else if (t == DType::BFloat16 && r.chance(70)) {
    x = (x & 0x807f) | (static_cast<uint64_t>(127 - 24 + r.below(48)) << 7);
  } else if (ir::isInt(t) && r.chance(40)) {
    x = static_cast<uint64_t>(r.below(41) - 20);  // small, signed
  }
  return x & m;
}

}  // namespace

std::vector<uint64_t> inputs(uint64_t seed, int kernel, DType t) {
  Rng r{seed * 0x100000001b3ull + static_cast<uint64_t>(kernel) * 977 +
        static_cast<uint64_t>(t) * 131};
  const std::vector<uint64_t> edges = edgeValues(t);
  std::vector<uint64_t> out(static_cast<size_t>(kScalarThreads) * kVars);
  for (int th = 0; th < kScalarThreads; ++th)
    for (int k = 0; k < kVars; ++k) {
      const size_t i = static_cast<size_t>(th) * kVars + k;
      const bool edge = (th + 3 * k) % 4 != 3;
      out[i] = edge ? edges[(static_cast<size_t>(th) * (k + 1) + static_cast<size_t>(kernel) * 7 +
                             k * 3) %
                            edges.size()]
                    : randomBits(r, t);
    }
  return out;
}

}  // namespace scalar

namespace {

using scalar::dtypes;

const scalar::DTypeInfo& infoOf(DType t) {
  for (const auto& d : dtypes())
    if (d.type == t) return d;
  return dtypes().front();
}

// The operands of `+` are unsequenced in C++: GCC evaluates a chain such as
// "(" + expr() + op() + expr() + ")" right to left, clang left to right, so the draws are spelled
// out one statement each, right to left — the order of generator 1, whose records were made by
// GCC builds — and every compiler generates the same expressions (the sanitizer build is clang).
class ExprGen {
 public:
  explicit ExprGen(uint64_t seed) : m_r{seed} {}

  DType randomType() {
    return dtypes()[static_cast<size_t>(m_r.below(static_cast<int>(dtypes().size())))].type;
  }

  std::string expr(DType t, int depth) {
    if (depth <= 0 || m_r.chance(20)) return leaf(t);
    return ir::isFloat(t) ? floatExpr(t, depth) : intExpr(t, depth);
  }

  /// A transcendental of `t` at the root of an exact operand.
  std::string approxExpr(DType t, std::string& name) {
    static const char* names[] = {"exp", "exp2", "log",     "log2", "sin",
                                  "cos", "tanh", "sigmoid", "pow"};
    name = names[m_r.below(9)];
    const std::string a = expr(t, 2);
    if (name == "pow") return "T.pow(" + a + ", " + expr(t, 1) + ")";
    return "T." + name + "(" + a + ")";
  }

 private:
  std::string var(DType t) {
    return std::string(infoOf(t).shortName) + "_" + std::to_string(m_r.below(scalar::kVars));
  }

  std::string literal(DType t) {
    const std::string name = infoOf(t).name;
    if (ir::isFloat(t)) {
      static const char* fl[] = {"0.0", "-0.0", "1.0",   "0.5",  "2.5",     "-1.5",
                                 "3.0", "0.1",  "1e-30", "1e30", "65504.0", "-7.0"};
      return "T." + name + "(" + fl[m_r.below(12)] + ")";
    }
    const int bits = ir::dtypeBits(t);
    const bool sgn = ir::isSigned(t);
    const int64_t hi =
        bits == 64 ? INT64_MAX : (sgn ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1);
    const int64_t lo = sgn ? -hi : 0;  // INT64_MIN has no literal spelling
    const int64_t vals[] = {0, 1, 2, 3, 5, 7, 31, -1, -2, -7, hi, lo, hi - 1, 8, 16};
    int64_t v = vals[m_r.below(15)];
    if (v < lo || v > hi) v = 1;
    return "T." + name + "(" + std::to_string(v) + ")";
  }

  std::string leaf(DType t) { return m_r.chance(80) ? var(t) : literal(t); }

  std::string castFrom(DType t, int depth) {
    const DType from = randomType();
    const std::string a = expr(from, depth - 1);
    if (m_r.chance(50)) return "T.Cast(\"" + std::string(infoOf(t).name) + "\", " + a + ")";
    return "T." + std::string(infoOf(t).name) + "(" + a + ")";
  }

  std::string cond(int depth) {
    const int k = m_r.below(10);
    if ((k == 0 || k == 1) && depth > 1) {
      const std::string b = cond(depth - 1), a = cond(depth - 1);
      return "(" + a + (k == 0 ? " and " : " or ") + b + ")";
    }
    if (k == 2) return "(not " + cond(depth - 1) + ")";
    if (k == 3) return "T.Cast(\"bool\", " + expr(randomType(), depth - 1) + ")";
    static const char* cmp[] = {"==", "!=", "<", "<=", ">", ">="};
    const DType e = randomType();
    const std::string b = expr(e, depth - 1);
    const char* op = cmp[m_r.below(6)];
    const std::string a = expr(e, depth - 1);
    return "(" + a + " " + op + " " + b + ")";
  }

  std::string select(DType t, int depth) {
    const std::string a = expr(t, depth - 1), b = expr(t, depth - 1), c = cond(depth - 1);
    if (m_r.chance(50)) return "(" + a + " if " + c + " else " + b + ")";
    return "T.if_then_else(" + c + ", " + a + ", " + b + ")";
  }

  std::string minMax(DType t, int depth) {
    const std::string b = expr(t, depth - 1), a = expr(t, depth - 1);
    return std::string(m_r.chance(50) ? "T.min(" : "T.max(") + a + ", " + b + ")";
  }

  /// "(a op b)" with b drawn first, then the operator, then a (generator 1's order).
  template <size_t N>
  std::string binary(DType t, int depth, const char* const (&ops)[N]) {
    const std::string b = expr(t, depth - 1);
    const char* op = ops[m_r.below(static_cast<int>(N))];
    const std::string a = expr(t, depth - 1);
    return "(" + a + " " + op + " " + b + ")";
  }

  std::string floatExpr(DType t, int depth) {
    switch (m_r.below(9)) {
      case 0:
      case 1:
      case 2: {
        static const char* const ops[] = {"+", "-", "*", "/"};
        return binary(t, depth, ops);
      }
      case 3: {  // the contraction candidate: a * b + c and c - a * b
        const std::string b = expr(t, depth - 1), a = expr(t, depth - 1);
        const std::string p = "(" + a + " * " + b + ")";
        return m_r.chance(50) ? "(" + p + " + " + expr(t, depth - 1) + ")"
                              : "(" + expr(t, depth - 1) + " - " + p + ")";
      }
      case 4:
        return minMax(t, depth);
      case 5: {
        static const char* fns[] = {"T.sqrt",  "T.rsqrt", "T.floor", "T.ceil",
                                    "T.round", "T.abs",   "T.fabs"};
        if (m_r.chance(15)) return "(-" + expr(t, depth - 1) + ")";
        const std::string a = expr(t, depth - 1);
        return std::string(fns[m_r.below(7)]) + "(" + a + ")";
      }
      case 6:
      case 7:
        return castFrom(t, depth);
      default:
        return select(t, depth);
    }
  }

  std::string divisor(DType t, int depth) {
    const std::string d = expr(t, std::min(depth, 1));
    return "(" + d + " if " + d + " != 0 else 1)";
  }

  std::string intExpr(DType t, int depth) {
    switch (m_r.below(11)) {
      case 0:
      case 1: {
        static const char* const ops[] = {"+", "-", "*"};
        return binary(t, depth, ops);
      }
      case 2: {
        static const char* ops[] = {"//", "%", "/"};
        const std::string d = divisor(t, depth - 1);
        const char* op = ops[m_r.below(3)];
        const std::string a = expr(t, depth - 1);
        return "(" + a + " " + op + " " + d + ")";
      }
      case 3: {
        if (m_r.chance(25)) {
          const std::string d = divisor(t, depth - 1), a = expr(t, depth - 1);
          return "T.ceildiv(" + a + ", " + d + ")";
        }
        static const char* const ops[] = {"&", "|", "^"};
        return binary(t, depth, ops);
      }
      case 4: {
        const std::string b = expr(t, depth - 1);
        const char* op = m_r.chance(50) ? " << " : " >> ";
        const std::string a = expr(t, depth - 1);
        return "(" + a + op + b + ")";
      }
      case 5:
        return minMax(t, depth);
      case 6: {
        const int k = m_r.below(3);
        const std::string a = expr(t, depth - 1);
        return k == 0 ? "(-" + a + ")" : k == 1 ? "(~" + a + ")" : "T.abs(" + a + ")";
      }
      case 7:
      case 8:
        return castFrom(t, depth);
      case 9:
        if (m_r.chance(30))
          return "T.Cast(\"" + std::string(infoOf(t).name) + "\", " + cond(depth - 1) + ")";
        [[fallthrough]];
      default:
        return select(t, depth);
    }
  }

  scalar::Rng m_r;
};

}  // namespace

std::vector<ScalarCase> scalarCases(const ScalarConformOptions& options) {
  ExprGen g(options.seed);
  std::vector<ScalarCase> out;
  const int n = std::max(0, options.expressions);
  for (int i = 0; i < n; ++i) {
    ScalarCase c;
    c.dtype = dtypes()[static_cast<size_t>(i) % dtypes().size()].type;
    // One float case in three puts a libdevice transcendental at the root.
    if (ir::isFloat(c.dtype) && (i / 12) % 3 == 0) {
      c.text = g.approxExpr(c.dtype, c.approx);
      c.ulps = sim::scalarApproxUlps(c.approx, c.dtype);
    } else {
      c.text = g.expr(c.dtype, 4);
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<ScalarKernel> scalarKernels(const std::vector<ScalarCase>& cases,
                                        const ScalarConformOptions& options) {
  std::vector<ScalarKernel> out;
  const size_t per = static_cast<size_t>(std::max(1, options.perKernel));
  for (const bool approx : {false, true}) {
    std::vector<size_t> which;
    for (size_t i = 0; i < cases.size(); ++i)
      if (cases[i].approx.empty() != approx) which.push_back(i);
    for (size_t b = 0; b < which.size(); b += per) {
      ScalarKernel k;
      k.name = "scalar_" + std::to_string(out.size());
      k.approx = approx;
      k.cases.assign(which.begin() + static_cast<std::ptrdiff_t>(b),
                     which.begin() + static_cast<std::ptrdiff_t>(std::min(which.size(), b + per)));
      std::map<DType, int> rows;
      std::ostringstream body;
      for (size_t ci : k.cases) {
        const ScalarCase& c = cases[ci];
        body << "    O_" << infoOf(c.dtype).name << "[" << rows[c.dtype]++ << ", t] = " << c.text
             << "\n";
      }
      std::ostringstream s;
      s << "# Generated by `tirx scalar-conform` (core/conform, generator " << kScalarGenerator
        << ", seed " << options.seed << "): each of " << kScalarThreads
        << " threads loads its inputs and\n"
        << "# stores the value of every expression.\n"
        << "from tvm.script import tirx as T\n\n\n@T.function\ndef " << k.name << "(\n";
      for (const auto& d : dtypes())
        s << "    I_" << d.name << ": T.Tensor((" << kScalarThreads << ", " << scalar::kVars
          << "), \"" << d.name << "\"),\n";
      for (const auto& d : dtypes())
        if (rows.count(d.type))
          s << "    O_" << d.name << ": T.Tensor((" << rows[d.type] << ", " << kScalarThreads
            << "), \"" << d.name << "\"),\n";
      s << "):\n    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=" << kScalarThreads
        << "))\n"
        << "    t = T.cuda.thread_idx(\"x\")\n";
      for (const auto& d : dtypes())
        for (int v = 0; v < scalar::kVars; ++v)
          s << "    " << d.shortName << "_" << v << " = I_" << d.name << "[t, " << v << "]\n";
      s << body.str();
      k.script = s.str();
      out.push_back(std::move(k));
    }
  }
  return out;
}

}  // namespace tirx::conform
