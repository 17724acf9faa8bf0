// Types, literals, scalar expressions and element addressing for the CUDA generator. Offsets are
// emitted as integer arithmetic that NVRTC folds: a layout that is row-major on `m` (the usual
// global/shared case) gives `scale · flat + offset`; any other layout the mixed-radix
// div/mod chain of spec §1.4.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/codegen/codegen_internal.h"
#include "core/layout/compiled_layout.h"

namespace tirx::codegen::detail {

using ir::DType;
using ir::ExprKind;

std::string storageType(DType t) {
  switch (t) {
    case DType::Bool:
      return "unsigned char";
    case DType::Int8:
      return "signed char";
    case DType::Int16:
      return "short";
    case DType::Int32:
      return "int";
    case DType::Int64:
      return "long long";
    case DType::UInt8:
      return "unsigned char";
    case DType::UInt16:
      return "unsigned short";
    case DType::UInt32:
      return "unsigned";
    case DType::UInt64:
      return "unsigned long long";
    case DType::Float16:
      return "unsigned short";
    case DType::BFloat16:
      return "unsigned short";
    case DType::Float32:
      return "float";
    case DType::Float64:
      return "double";
    case DType::Void:
      return "void";
  }
  return "int";
}

std::string valueType(DType t) {
  switch (t) {
    case DType::Bool:
      return "bool";
    case DType::Float16:
      return "__half";
    case DType::BFloat16:
      return "__nv_bfloat16";
    default:
      return storageType(t);
  }
}

/// An 8- or 16-bit integer result computed in 32 bits (`r`), brought back to its type through the
/// prelude's opaque cvt (tirx_s16 …, DEC-SCALAR-6): NVRTC then computes every narrow operation in
/// 32-bit registers and never emits the .s16/.b16 arithmetic that the H100's code got wrong at
/// the type's wrap-around (-(-32768) compared as +32768).
std::string narrowed(DType t, const std::string& r) {
  const char* fn = t == DType::Int8    ? "tirx_s8"
                   : t == DType::Int16 ? "tirx_s16"
                   : t == DType::UInt8 ? "tirx_u8"
                                       : "tirx_u16";
  return "(" + storageType(t) + ")" + fn + "(" + r + ")";
}

char constraintOf(DType t) {
  switch (t) {
    case DType::Float32:
      return 'f';
    case DType::Float64:
      return 'd';
    case DType::Int16:
    case DType::UInt16:
    case DType::Float16:
    case DType::BFloat16:
      return 'h';
    case DType::Int64:
    case DType::UInt64:
      return 'l';
    default:
      return 'r';
  }
}

std::string constraintType(char c) {
  switch (c) {
    case 'f':
      return "float";
    case 'd':
      return "double";
    case 'h':
      return "unsigned short";
    case 'l':
      return "unsigned long long";
    default:
      return "unsigned";
  }
}

std::string floatLiteral(double v, DType t) {
  char buf[64];
  if (t == DType::Float16 || t == DType::BFloat16) {
    const uint16_t bits =
        t == DType::Float16 ? floatToHalfBits(float(v)) : floatToBf16Bits(float(v));
    std::snprintf(buf, sizeof buf, "%s((unsigned short)0x%04x)",
                  t == DType::Float16 ? "__ushort_as_half" : "__ushort_as_bfloat16", bits);
    return buf;
  }
  if (t == DType::Float32) {
    const float f = float(v);
    if (!std::isfinite(f)) {
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      std::snprintf(buf, sizeof buf, "__int_as_float(0x%08x)", bits);
      return buf;
    }
    std::snprintf(buf, sizeof buf, "%.9g", double(f));
  } else {
    if (!std::isfinite(v)) {
      uint64_t bits;
      std::memcpy(&bits, &v, 8);
      std::snprintf(buf, sizeof buf, "__longlong_as_double(0x%016llxLL)", (unsigned long long)bits);
      return buf;
    }
    std::snprintf(buf, sizeof buf, "%.17g", v);
  }
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  if (t == DType::Float32) s += "f";
  return s;
}

namespace {

std::string intLiteral(int64_t v, DType t) {
  std::string s = std::to_string(v);
  switch (t) {
    case DType::Int64:
      return s + "LL";
    case DType::UInt64:
      return s + "ULL";
    case DType::UInt32:
      return s + "u";
    case DType::Bool:
      return v ? "true" : "false";
    default:
      if (v > INT32_MAX || v < INT32_MIN) return s + "LL";
      return s;
  }
}

bool isIntLiteral(const std::string& s, int64_t& v) {
  if (s.empty()) return false;
  size_t i = (s[0] == '-') ? 1 : 0;
  if (i >= s.size()) return false;
  for (size_t k = i; k < s.size(); ++k)
    if (!std::isdigit(static_cast<unsigned char>(s[k]))) return false;
  v = std::stoll(s);
  return true;
}

/// The scale `c` when the layout's `m` component is `c · flat + offset` for every logical index.
std::optional<int64_t> rowMajorScale(const TileLayout& l) {
  int64_t expect = 0, prod = 1;
  for (auto it = l.shard.rbegin(); it != l.shard.rend(); ++it) {
    if (it->extent == 1) continue;
    if (it->axis != "m") return std::nullopt;
    if (expect == 0) expect = it->stride;
    if (it->stride != expect * prod) return std::nullopt;
    prod *= it->extent;
  }
  return expect == 0 ? 1 : expect;
}

/// The `m` offset of layout coordinate `kc[d] + sym[d]` computed dimension by dimension, when the
/// shard refines the layout shape (each dimension's extent is the product of a run of consecutive
/// iters): then the mixed-radix digits of dimension d come from its own coordinate alone, so no
/// flattened index mixes the dimensions, and a dimension held by one iter contributes a plain
/// multiple (a region start `ks` of a (4, ...) view with stride 16 becomes `ks * 16`). The
/// outermost digit of a dimension takes no `%`: coordinates are inside their extents (sema and the
/// simulator check regions). Null when the shard does not refine the shape.
std::optional<std::string> perDimensionOffset(const TileLayout& l,
                                              const std::vector<int64_t>& shape,
                                              const std::vector<int64_t>& kc,
                                              const std::vector<std::string>& sym, int64_t mOff) {
  const auto& sh = l.shard;
  std::vector<std::pair<size_t, size_t>> runs;  // [first, last) iters of each dimension
  size_t k = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    const size_t first = k;
    int64_t prod = 1;
    while (prod < shape[d] && k < sh.size()) {
      if (sh[k].extent <= 0) return std::nullopt;
      prod *= sh[k++].extent;
    }
    if (prod != shape[d]) return std::nullopt;
    runs.push_back({first, k});
  }
  for (; k < sh.size(); ++k)
    if (sh[k].extent != 1) return std::nullopt;
  int64_t constant = mOff;
  std::string terms;
  for (size_t d = 0; d < shape.size(); ++d) {
    const auto [first, last] = runs[d];
    // Non-trivial iters of the run that move `m`, innermost first, with their inner extents.
    std::vector<std::pair<const Iter*, int64_t>> digits;
    int64_t inner = 1;
    size_t outermost = last;  // the run's outermost iter of extent > 1
    for (size_t i = last; i-- > first;) {
      if (sh[i].extent != 1) outermost = i;
      if (sh[i].axis == "m" && sh[i].extent != 1 && sh[i].stride != 0)
        digits.push_back({&sh[i], inner});
      inner *= sh[i].extent;
    }
    if (sym[d].empty()) {
      for (const auto& [it, in] : digits) constant += (kc[d] / in) % it->extent * it->stride;
      continue;
    }
    const std::string c = kc[d] == 0 ? sym[d]
                                     : "(" + sym[d] + (kc[d] > 0 ? " + " : " - ") +
                                           std::to_string(std::abs(kc[d])) + ")";
    const bool oneDigit =
        digits.size() == 1 && digits[0].first == &sh[outermost] && digits[0].second == 1;
    for (const auto& [it, in] : digits) {
      std::string t;
      if (oneDigit) {  // (sym + kc) * stride: the constant part folds into the offset
        t = sym[d].find(' ') != std::string::npos ? "(" + sym[d] + ")" : sym[d];
        constant += kc[d] * it->stride;
      } else {
        const std::string base =
            c.find(' ') != std::string::npos && c.front() != '(' ? "(" + c + ")" : c;
        t = in == 1 ? base : "(" + base + " / " + std::to_string(in) + ")";
        if (it != &sh[outermost]) t = "(" + t + " % " + std::to_string(it->extent) + ")";
      }
      if (it->stride != 1) t += " * " + std::to_string(it->stride);
      terms += (terms.empty() ? "" : " + ") + t;
    }
  }
  if (terms.empty()) return std::to_string(constant);
  if (constant > 0) terms += " + " + std::to_string(constant);
  if (constant < 0) terms += " - " + std::to_string(-constant);
  return "(" + terms + ")";
}

bool isHalf(DType t) {
  return t == DType::Float16 || t == DType::BFloat16;
}

std::string binOpText(ir::BinOp op) {
  switch (op) {
    case ir::BinOp::Add:
      return "+";
    case ir::BinOp::Sub:
      return "-";
    case ir::BinOp::Mul:
      return "*";
    case ir::BinOp::Div:
    case ir::BinOp::TruncDiv:
      return "/";
    case ir::BinOp::TruncMod:
      return "%";
    case ir::BinOp::BitAnd:
      return "&";
    case ir::BinOp::BitOr:
      return "|";
    case ir::BinOp::BitXor:
      return "^";
    case ir::BinOp::Shl:
      return "<<";
    case ir::BinOp::Shr:
      return ">>";
    case ir::BinOp::Eq:
      return "==";
    case ir::BinOp::Ne:
      return "!=";
    case ir::BinOp::Lt:
      return "<";
    case ir::BinOp::Le:
      return "<=";
    case ir::BinOp::Gt:
      return ">";
    case ir::BinOp::Ge:
      return ">=";
    case ir::BinOp::And:
      return "&&";
    case ir::BinOp::Or:
      return "||";
    default:
      return "?";
  }
}

}  // namespace

std::string Emitter::varName(int id) const {
  if (id >= 0 && id < int(m_names.var.size()) && !m_names.var[id].empty()) return m_names.var[id];
  return "tirx_v" + std::to_string(id);
}

std::string Emitter::bufferName(int id) const {
  if (id >= 0 && id < int(m_names.buffer.size())) return m_names.buffer[id];
  return "tirx_b" + std::to_string(id);
}

std::string Emitter::fromStorage(const std::string& v, DType t) {
  switch (t) {
    case DType::Float16:
      m_usesFp16 = true;
      return "__ushort_as_half(" + v + ")";
    case DType::BFloat16:
      m_usesFp16 = true;
      return "__ushort_as_bfloat16(" + v + ")";
    case DType::Bool:
      return "(" + v + " != 0)";
    default:
      return v;
  }
}

std::string Emitter::toStorage(const std::string& v, DType from, DType to) {
  if (to == DType::Float16 || to == DType::BFloat16) {
    m_usesFp16 = true;
    std::string val = v;
    if (from != to) {
      if (from == DType::Float16 || from == DType::BFloat16) val = "__half2float(" + v + ")";
      val = (to == DType::Float16 ? "__float2half_rn((float)(" : "__float2bfloat16_rn((float)(") +
            val + "))";
    }
    return (to == DType::Float16 ? "__half_as_ushort(" : "__bfloat16_as_ushort(") + val + ")";
  }
  if (from == to) return v;
  return "(" + storageType(to) + ")(" + v + ")";
}

std::string Emitter::typedPointer(const ir::TensorRef& ref) {
  const ir::Buffer& b = m_kernel->buffers.at(size_t(ref.buffer));
  const std::string name = bufferName(ref.buffer);
  if (storageType(ref.dtype) == storageType(b.dtype)) return name;
  return "reinterpret_cast<" + storageType(ref.dtype) + "*>(" + name + ")";
}

std::string Emitter::element(const ir::TensorRef& ref, const std::string& offset) {
  return typedPointer(ref) + "[" + offset + "]";
}

std::string Emitter::symbolicStrideOffset(const ir::TensorRef& ref, const ir::Buffer& b,
                                          const std::vector<std::string>& coord,
                                          const std::vector<int64_t>* constCoord) {
  // Row-major over the buffer's shape, the symbolic extents read from their size parameters:
  // stride[d] = Π_{e>d} extent[e]. Computed in 64 bits (m·n may pass 2^31 elements).
  const size_t rank = b.shape.size();
  std::vector<std::string> stride(rank);
  int64_t staticPart = 1;
  std::string symPart;
  for (size_t d = rank; d-- > 0;) {
    stride[d] = symPart.empty() ? std::to_string(staticPart)
                                : "(long long)" + symPart +
                                      (staticPart != 1 ? " * " + std::to_string(staticPart) : "");
    const std::vector<int>& vars = ir::symbolicStrideVars(b);
    if (d < vars.size() && vars[d] >= 0)
      symPart = symPart.empty() ? varName(vars[d]) : symPart + " * " + varName(vars[d]);
    else
      staticPart *= b.shape[d];
  }
  std::string out;
  for (size_t d = 0; d < rank && d < ref.layoutShape.size(); ++d) {
    const int src = d < ref.dimMap.size() ? ref.dimMap[d] : int(d);
    std::vector<std::string> parts;
    int64_t k = 0;
    if (d < ref.lo.size() && ref.lo[d]) {
      if (ref.lo[d]->kind == ExprKind::IntImm)
        k += ref.lo[d]->intValue;
      else
        parts.push_back(expr(ref.lo[d]));
    }
    if (src >= 0) {
      int64_t v = 0;
      if (constCoord && size_t(src) < constCoord->size())
        k += (*constCoord)[size_t(src)];
      else if (size_t(src) < coord.size() && isIntLiteral(coord[size_t(src)], v))
        k += v;
      else if (size_t(src) < coord.size())
        parts.push_back(coord[size_t(src)]);
    }
    if (k != 0 || parts.empty()) parts.push_back(std::to_string(k));
    if (parts.size() == 1 && parts[0] == "0") continue;
    std::string c;
    for (size_t i = 0; i < parts.size(); ++i) c += (i ? " + " : "") + parts[i];
    const bool bare = std::all_of(c.begin(), c.end(), [](char ch) {
      return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
    });
    c = "(long long)" + (bare ? c : "(" + c + ")");
    out += (out.empty() ? "" : " + ") + (stride[d] == "1" ? c : c + " * " + stride[d]);
  }
  if (ref.elemOffset) out += (out.empty() ? "" : " + ") + std::to_string(ref.elemOffset);
  return out.empty() ? "0" : "(" + out + ")";
}

std::string Emitter::offsetExprUnswizzled(const ir::TensorRef& ref,
                                          const std::vector<std::string>& coord,
                                          const std::vector<int64_t>* constCoord) {
  if (m_kernel && ref.buffer >= 0 && ref.buffer < int(m_kernel->buffers.size()) &&
      ir::hasSymbolicStrides(m_kernel->buffers[size_t(ref.buffer)]))
    return symbolicStrideOffset(ref, m_kernel->buffers[size_t(ref.buffer)], coord, constCoord);
  const size_t rank = ref.layoutShape.size();
  // Layout coordinates: lo[d] + coord[dimMap[d]], as (constant, symbolic) pairs.
  std::vector<int64_t> kc(rank, 0);
  std::vector<std::string> sym(rank);
  bool allConst = true;
  for (size_t d = 0; d < rank; ++d) {
    const int src = d < ref.dimMap.size() ? ref.dimMap[d] : int(d);
    std::vector<std::string> parts;
    if (d < ref.lo.size() && ref.lo[d]) {
      if (ref.lo[d]->kind == ExprKind::IntImm)
        kc[d] += ref.lo[d]->intValue;
      else
        parts.push_back(expr(ref.lo[d]));
    }
    if (src >= 0) {
      int64_t v = 0;
      if (constCoord && size_t(src) < constCoord->size()) {
        kc[d] += (*constCoord)[size_t(src)];
      } else if (size_t(src) < coord.size() && isIntLiteral(coord[size_t(src)], v)) {
        kc[d] += v;
      } else if (size_t(src) < coord.size()) {
        parts.push_back(coord[size_t(src)]);
      }
    }
    for (size_t i = 0; i < parts.size(); ++i) sym[d] += (i ? " + " : "") + parts[i];
    if (!parts.empty()) allConst = false;
  }
  const int64_t mOff =
      (ref.layout.offset.count("m") ? ref.layout.offset.at("m") : 0) + ref.elemOffset;
  if (allConst)  // the engine's one layout evaluator (m: the memory sum, before any swizzle)
    return std::to_string(CompiledLayout(ref.layout).apply(kc, ref.layoutShape).m + ref.elemOffset);
  // Row-major strides of the layout shape; flat = Σ lc[d]·rs[d].
  std::vector<int64_t> rs(rank, 1);
  for (size_t d = rank; d-- > 1;) rs[d - 1] = rs[d] * ref.layoutShape[d];
  int64_t flatConst = 0;
  std::string flatSym;
  for (size_t d = 0; d < rank; ++d) {
    flatConst += kc[d] * rs[d];
    if (sym[d].empty()) continue;
    std::string term = sym[d].find(' ') != std::string::npos ? "(" + sym[d] + ")" : sym[d];
    if (rs[d] != 1) term += " * " + std::to_string(rs[d]);
    flatSym += (flatSym.empty() ? "" : " + ") + term;
  }
  auto withConst = [](std::string s, int64_t c) {
    if (c > 0) s += " + " + std::to_string(c);
    if (c < 0) s += " - " + std::to_string(-c);
    return s;
  };
  if (auto scale = rowMajorScale(ref.layout)) {
    std::string s = flatSym;
    if (*scale != 1) s = "(" + s + ") * " + std::to_string(*scale);
    return "(" + withConst(s, flatConst * *scale + mOff) + ")";
  }
  if (auto s = perDimensionOffset(ref.layout, ref.layoutShape, kc, sym, mOff)) return *s;
  // General layout: the mixed-radix split of spec §1.4 over the shard extents.
  const std::string flat = "(" + withConst(flatSym, flatConst) + ")";
  std::string out;
  int64_t prod = 1;
  const auto& sh = ref.layout.shard;
  for (size_t k = sh.size(); k-- > 0;) {
    const Iter& it = sh[k];
    if (it.axis == "m" && it.extent != 1 && it.stride != 0) {
      std::string t = prod == 1 ? flat : "(" + flat + " / " + std::to_string(prod) + ")";
      if (k != 0) t = "(" + t + " % " + std::to_string(it.extent) + ")";
      if (it.stride != 1) t += " * " + std::to_string(it.stride);
      out = t + (out.empty() ? "" : " + " + out);
    }
    prod *= it.extent;
  }
  if (out.empty()) out = "0";
  return "(" + withConst(out, mOff) + ")";
}

std::string Emitter::exprAs(const ir::ExprPtr& e, DType to) {
  if (!e) return "0";
  if (e->dtype == to) return expr(e);
  if (e->kind == ExprKind::FloatImm && isFloat(to)) {
    // the immediate has its own type's value first (an f16 constant next to f16 operands is the
    // f16 nearest the literal), as the simulator evaluates it, then becomes `to`
    double v = e->floatValue;
    if (e->dtype == DType::Float16) v = ir::halfBitsToFloat(floatToHalfBits(float(v)));
    if (e->dtype == DType::BFloat16) {
      const uint32_t bits = uint32_t(floatToBf16Bits(float(v))) << 16;
      float f;
      std::memcpy(&f, &bits, 4);
      v = f;
    }
    if (e->dtype == DType::Float32) v = double(float(v));
    return floatLiteral(v, to);
  }
  if (e->kind == ExprKind::IntImm && isInt(to)) {  // wrapped to `to`, as the simulator casts
    const int bits = ir::dtypeBits(to);
    uint64_t v = static_cast<uint64_t>(e->intValue);
    if (bits < 64) {
      v &= (uint64_t{1} << bits) - 1;
      if (ir::isSigned(to) && (v >> (bits - 1)) & 1) v |= ~((uint64_t{1} << bits) - 1);
    }
    return intLiteral(static_cast<int64_t>(v), to);
  }
  const DType from = e->dtype;
  const std::string v = expr(e);
  // Conversions as the simulator's castTo (DEC-SCALAR-1): f16/bf16 travel through f32, a float
  // becomes an integer through the 32- or 64-bit cvt.rzi (inline PTX, tirx_f2i_rz …: saturating,
  // NaN → 0) and is then
  // truncated to 8 or 16 bits; integer to integer keeps the low bits.
  const bool fromHalf = isHalf(from), toHalf = isHalf(to);
  if (fromHalf || toHalf) m_usesFp16 = true;
  const std::string f = from == DType::Float16    ? "__half2float(" + v + ")"
                        : from == DType::BFloat16 ? "__bfloat162float(" + v + ")"
                                                  : v;
  if (toHalf) {
    const std::string f32 = from == DType::Float32 || fromHalf ? f : "(float)(" + v + ")";
    return (to == DType::Float16 ? "__float2half_rn(" : "__float2bfloat16_rn(") + f32 + ")";
  }
  if (isFloat(from) && to == DType::Bool) return "(" + f + " != 0)";
  if (isFloat(from) && isInt(to)) {
    const bool wide = ir::dtypeBits(to) == 64;
    const std::string dst = ir::isSigned(to) ? (wide ? "ll" : "i") : (wide ? "ull" : "ui");
    const std::string cvt =
        std::string(from == DType::Float64 ? "tirx_d2" : "tirx_f2") + dst + "_rz(" + f + ")";
    return ir::dtypeBits(to) < 32 ? narrowed(to, cvt) : cvt;
  }
  if (isInt(from) && isInt(to) && ir::dtypeBits(to) < 32 && from != to)
    return narrowed(to, "(unsigned)(" + v + ")");
  return "(" + valueType(to) + ")(" + f + ")";
}

std::string Emitter::floatArith(ir::BinOp op, const std::string& a, const std::string& b, DType t) {
  // IEEE round-to-nearest, one rounding per operation, never contracted into an fma: the
  // simulator's floatBinary. f16/bf16 operands arrive as f32 (the caller rounds the result).
  const bool f64 = t == DType::Float64;
  const char* fn = nullptr;
  switch (op) {
    case ir::BinOp::Add:
      fn = f64 ? "__dadd_rn" : "__fadd_rn";
      break;
    case ir::BinOp::Sub:
      fn = f64 ? "__dsub_rn" : "__fsub_rn";
      break;
    case ir::BinOp::Mul:
      fn = f64 ? "__dmul_rn" : "__fmul_rn";
      break;
    case ir::BinOp::Div:
    case ir::BinOp::TruncDiv:
      fn = f64 ? "__ddiv_rn" : "__fdiv_rn";
      break;
    case ir::BinOp::Min:
      fn = f64 ? "tirx_fmin" : "tirx_fminf";
      break;
    case ir::BinOp::Max:
      fn = f64 ? "tirx_fmax" : "tirx_fmaxf";
      break;
    case ir::BinOp::FloorDiv:
      return f64 ? "floor(" + a + " / " + b + ")" : "floorf(" + a + " / " + b + ")";
    case ir::BinOp::Mod:
    case ir::BinOp::TruncMod:
      return "tirx_floormodf(" + a + ", " + b + ")";
    default:
      return "(" + a + " " + binOpText(op) + " " + b + ")";
  }
  return std::string(fn) + "(" + a + ", " + b + ")";
}

std::string Emitter::intArith(ir::BinOp op, const ir::ExprPtr& rhs, const std::string& a,
                              const std::string& b, DType t) {
  // Wrap-around as the simulator: signed 32/64-bit + - * through the unsigned helpers, 8- and
  // 16-bit results computed in 32 bits and brought back to their type by `narrowed`; their
  // shifts clamp the amount at the type's width (tirx_nshl/tirx_nshr).
  const bool narrow = ir::dtypeBits(t) < 32, sgn = ir::isSigned(t);
  const bool wrapHelper = sgn && !narrow;
  const bool literalDivisor = rhs && rhs->kind == ExprKind::IntImm && rhs->intValue != -1;
  const bool inWidth = rhs && rhs->kind == ExprKind::IntImm && rhs->intValue >= 0 &&
                       rhs->intValue < ir::dtypeBits(t);
  std::string r;
  switch (op) {
    case ir::BinOp::Add:
      r = wrapHelper ? "tirx_wadd(" + a + ", " + b + ")" : "";
      break;
    case ir::BinOp::Sub:
      r = wrapHelper ? "tirx_wsub(" + a + ", " + b + ")" : "";
      break;
    case ir::BinOp::Mul:
      r = wrapHelper ? "tirx_wmul(" + a + ", " + b + ")" : "";
      break;
    case ir::BinOp::Div:
    case ir::BinOp::TruncDiv:
      r = wrapHelper && !literalDivisor ? "tirx_div(" + a + ", " + b + ")" : "";
      break;
    case ir::BinOp::TruncMod:
      r = wrapHelper && !literalDivisor ? "tirx_mod(" + a + ", " + b + ")" : "";
      break;
    case ir::BinOp::FloorDiv:
      r = "tirx_floordiv(" + a + ", " + b + ")";
      break;
    case ir::BinOp::Mod:
      r = "tirx_floormod(" + a + ", " + b + ")";
      break;
    case ir::BinOp::Min:
    case ir::BinOp::Max: {
      // Both operands in one C type, so that exactly one CUDA overload of min/max matches.
      const std::string ct = "(" + (narrow ? std::string("int") : valueType(t)) + ")";
      r = std::string(op == ir::BinOp::Min ? "min(" : "max(") + ct + a + ", " + ct + b + ")";
      break;
    }
    // A literal amount inside the width needs no clamp (a signed `<<` still goes through the
    // helper: shifting a negative value left is undefined in C++17).
    case ir::BinOp::Shl:
      if (narrow)
        r = "tirx_nshl(" + a + ", " + b + ", " + std::to_string(ir::dtypeBits(t)) + ")";
      else
        r = inWidth && !sgn ? "" : "tirx_shl(" + a + ", " + b + ")";
      break;
    case ir::BinOp::Shr:
      if (narrow && !inWidth)
        r = "tirx_nshr(" + a + ", " + b + ", " + std::to_string(ir::dtypeBits(t)) + ")";
      else
        r = inWidth ? "" : "tirx_shr(" + a + ", " + b + ")";
      break;
    default:
      break;
  }
  if (r.empty()) {
    // Unsigned arithmetic wraps in C++; 8/16-bit operands are widened to unsigned so that a
    // product of two uint16 cannot overflow int.
    const bool widen =
        narrow && (op == ir::BinOp::Add || op == ir::BinOp::Sub || op == ir::BinOp::Mul);
    r = widen ? "((unsigned)" + a + " " + binOpText(op) + " (unsigned)" + b + ")"
              : "(" + a + " " + binOpText(op) + " " + b + ")";
  }
  return narrow ? narrowed(t, r) : r;
}

std::string Emitter::expr(const ir::ExprPtr& ep) {
  if (!ep) return "0";
  const ir::Expr& e = *ep;
  static const char* dims[] = {"x", "y", "z"};
  const char* dim = dims[std::clamp(e.dim, 0, 2)];
  switch (e.kind) {
    case ExprKind::IntImm:
      return intLiteral(e.intValue, e.dtype);
    case ExprKind::FloatImm:
      if (e.dtype == DType::Float16 || e.dtype == DType::BFloat16) m_usesFp16 = true;
      return floatLiteral(e.floatValue, e.dtype);
    case ExprKind::BoolImm:
      return e.intValue ? "true" : "false";
    case ExprKind::Var:
      return varName(e.var);
    case ExprKind::ThreadIdx:
      return std::string("(int)threadIdx.") + dim;
    case ExprKind::BlockIdx:
      return std::string("(int)blockIdx.") + dim;
    case ExprKind::BlockDim:
      return std::string("(int)blockDim.") + dim;
    case ExprKind::GridDim:
      return std::string("(int)gridDim.") + dim;
    case ExprKind::Load: {
      if (!e.tensor) return "0";
      std::vector<std::string> idx;
      for (const auto& a : e.args) idx.push_back(expr(a));
      return fromStorage(element(*e.tensor, offsetExpr(*e.tensor, idx)), e.tensor->dtype);
    }
    case ExprKind::Unary: {
      const std::string a = e.args.empty() ? "0" : expr(e.args[0]);
      if (e.op == ir::BinOp::Not) return "(!" + a + ")";
      const bool narrow = isInt(e.dtype) && ir::dtypeBits(e.dtype) < 32;
      if (e.op == ir::BinOp::Invert) return narrow ? narrowed(e.dtype, "~" + a) : "(~" + a + ")";
      if (isInt(e.dtype) && ir::isSigned(e.dtype) && !narrow) return "tirx_wneg(" + a + ")";
      if (narrow) return narrowed(e.dtype, "0u - (unsigned)" + a);
      // Floats flip the sign bit (neg.f32, neg.f16), unsigned wraps; `- -7.0f`, never `--`.
      return a.front() == '-' ? "(- " + a + ")" : "(-" + a + ")";
    }
    case ExprKind::Binary:
    case ExprKind::Compare:
    case ExprKind::Logical: {
      if (e.args.size() < 2) return "0";
      if (e.kind == ExprKind::Logical)
        return "(" + expr(e.args[0]) + " " + binOpText(e.op) + " " + expr(e.args[1]) + ")";
      // Operands in the wider of their types (sema makes them equal; be safe for literals);
      // f16/bf16 operands are compared and computed in f32.
      const DType t = e.kind == ExprKind::Binary ? e.dtype : e.args[0]->dtype;
      const DType work = isHalf(t) ? DType::Float32 : t;
      const std::string a = exprAs(e.args[0], work);
      const std::string b = exprAs(e.args[1], work);
      if (e.kind == ExprKind::Compare) return "(" + a + " " + binOpText(e.op) + " " + b + ")";
      if (!isFloat(t)) return intArith(e.op, e.args[1], a, b, t);
      const std::string r = floatArith(e.op, a, b, work);
      if (!isHalf(t)) return r;
      m_usesFp16 = true;
      return (t == DType::Float16 ? "__float2half_rn(" : "__float2bfloat16_rn(") + r + ")";
    }
    case ExprKind::Select:
      if (e.args.size() < 3) return "0";
      return "(" + expr(e.args[0]) + " ? " + exprAs(e.args[1], e.dtype) + " : " +
             exprAs(e.args[2], e.dtype) + ")";
    case ExprKind::Cast:
      return e.args.empty() ? "0" : exprAs(e.args[0], e.dtype);
    case ExprKind::Call: {
      std::string s = (e.func >= 0 && e.func < int(m_prog.functions.size()))
                          ? m_prog.functions[size_t(e.func)].name
                          : "tirx_missing";
      s += "(";
      const ir::ScalarFunction* f = (e.func >= 0 && e.func < int(m_prog.functions.size()))
                                        ? &m_prog.functions[size_t(e.func)]
                                        : nullptr;
      for (size_t i = 0; i < e.args.size(); ++i) {
        DType pt = e.args[i]->dtype;
        if (f && i < f->params.size()) {
          for (const auto& v : f->vars)
            if (v.id == f->params[i]) pt = v.dtype;
        }
        s += (i ? ", " : "") + exprAs(e.args[i], pt);
      }
      return s + ")";
    }
    case ExprKind::Intrinsic: {
      if (e.name.rfind("__shfl", 0) == 0) return shuffleCall(e);
      if (e.name == "elect_sync") {
        m_usesElect = true;
        return "tirx_elect_sync()";
      }
      std::vector<std::string> args;
      const bool half = isHalf(e.dtype);
      const DType work = half ? DType::Float32 : e.dtype;
      for (const auto& a : e.args) args.push_back(exprAs(a, work));
      const std::string x = args.empty() ? "0" : args[0];
      const bool f32 = work == DType::Float32;
      const std::string sfx = f32 ? "f" : "";
      const std::string one = f32 ? "1.0f" : "1.0";
      std::string r;
      const std::string& n = e.name;
      // DEC-SCALAR-1: sqrt, rsqrt, round, floor, ceil, abs, min and max are exact IEEE/PTX
      // operations the simulator reproduces bit for bit (rsqrt is 1/sqrt rounded twice, not
      // rsqrt.approx); the transcendental functions are libdevice's (docs/simulator.md).
      if (!isFloat(work)) {
        if (n == "abs") {
          const bool narrow = ir::dtypeBits(work) < 32;
          if (!ir::isSigned(work))
            r = x;
          else if (narrow)
            r = narrowed(work, "tirx_iabs((int)" + x + ")");
          else
            r = "tirx_iabs(" + x + ")";
        } else if ((n == "max" || n == "min") && args.size() == 2) {
          r = intArith(n == "max" ? ir::BinOp::Max : ir::BinOp::Min, nullptr, args[0], args[1],
                       work);
        } else {
          r = n + "(" + x + ")";
        }
        return r;
      }
      if (n == "sigmoid") {
        r = floatArith(ir::BinOp::Div, one,
                       floatArith(ir::BinOp::Add, one,
                                  "exp" + sfx + (x.front() == '-' ? "(- " : "(-") + x + ")", work),
                       work);
      } else if (n == "abs" || n == "fabs") {
        r = "fabs" + sfx + "(" + x + ")";
      } else if ((n == "max" || n == "min") && args.size() == 2) {
        r = floatArith(n == "max" ? ir::BinOp::Max : ir::BinOp::Min, args[0], args[1], work);
      } else if (n == "sqrt") {
        r = (f32 ? "__fsqrt_rn(" : "__dsqrt_rn(") + x + ")";
      } else if (n == "rsqrt") {
        r = floatArith(ir::BinOp::Div, one, (f32 ? "__fsqrt_rn(" : "__dsqrt_rn(") + x + ")", work);
      } else if (n == "round") {
        r = "rint" + sfx + "(" + x + ")";  // ties to even, as Python's round and the simulator
      } else {
        r = n + sfx + "(";
        for (size_t i = 0; i < args.size(); ++i) r += (i ? ", " : "") + args[i];
        r += ")";
      }
      if (half) {
        m_usesFp16 = true;
        r = (e.dtype == DType::Float16 ? "__float2half_rn(" : "__float2bfloat16_rn(") + r + ")";
      }
      return r;
    }
  }
  return "0";
}

}  // namespace tirx::codegen::detail
