// Input generators, scalar argument parsing and the .npy writer of host_io.h.
#include "core/driver/host_io.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <new>
#include <optional>
#include <random>

#include "core/driver/cuda_executor.h"
#include "core/ir/buffer_access.h"
#include "core/ir/half.h"

namespace tirx::driver {

namespace {

/// `v` in `t`'s dtype, or why it does not fit: integers take the value truncated toward zero (as
/// numpy's astype) and must be in range; floats round to nearest and must not overflow to ±inf
/// (an infinite or NaN `v` is kept). Never undefined behaviour.
std::optional<std::string> storeValue(uint8_t* p, ir::DType t, double v) {
  auto put = [&](auto x) { std::memcpy(p, &x, sizeof x); };
  auto fitsInt = [&](double lo, double hi) {
    return !std::isnan(v) && std::trunc(v) >= lo && std::trunc(v) <= hi;
  };
  auto tooBig = [&]() { return "does not fit " + std::string(ir::dtypeName(t)); };
  switch (t) {
    case ir::DType::Float32: {
      const float f = float(v);
      if (std::isinf(f) && std::isfinite(v)) return tooBig();
      put(f);
      return std::nullopt;
    }
    case ir::DType::Float64:
      put(v);
      return std::nullopt;
    case ir::DType::Float16:
    case ir::DType::BFloat16: {
      const uint16_t h =
          t == ir::DType::Float16 ? ir::floatToHalfBits(float(v)) : ir::floatToBf16Bits(float(v));
      const bool inf = t == ir::DType::Float16 ? (h & 0x7FFF) == 0x7C00 : (h & 0x7FFF) == 0x7F80;
      if ((inf || std::isinf(float(v))) && std::isfinite(v)) return tooBig();
      put(h);
      return std::nullopt;
    }
    case ir::DType::Bool:
      put(uint8_t(v != 0));
      return std::nullopt;
    case ir::DType::Int8:
      if (!fitsInt(-128, 127)) return tooBig();
      put(int8_t(v));
      return std::nullopt;
    case ir::DType::Int16:
      if (!fitsInt(-32768, 32767)) return tooBig();
      put(int16_t(v));
      return std::nullopt;
    case ir::DType::Int32:
      if (!fitsInt(-2147483648.0, 2147483647.0)) return tooBig();
      put(int32_t(v));
      return std::nullopt;
    case ir::DType::Int64:
      if (!fitsInt(-0x1p63, 0x1p63) || std::trunc(v) == 0x1p63) return tooBig();
      put(int64_t(v));
      return std::nullopt;
    case ir::DType::UInt8:
      if (!fitsInt(0, 255)) return tooBig();
      put(uint8_t(v));
      return std::nullopt;
    case ir::DType::UInt16:
      if (!fitsInt(0, 65535)) return tooBig();
      put(uint16_t(v));
      return std::nullopt;
    case ir::DType::UInt32:
      if (!fitsInt(0, 4294967295.0)) return tooBig();
      put(uint32_t(v));
      return std::nullopt;
    case ir::DType::UInt64:
      if (!fitsInt(0, 0x1p64) || std::trunc(v) == 0x1p64) return tooBig();
      put(uint64_t(v));
      return std::nullopt;
    case ir::DType::Void:
      return "has no values";
  }
  return "has no values";
}

/// The shortest %g spelling that reads back as `v` (1e+39, not 9.9999999999999994e+38).
std::string numberText(double v) {
  char buf[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v || std::isnan(v)) break;
  }
  return buf;
}

/// "name(a, b)" → name and numeric arguments.
bool parseCall(const std::string& s, std::string& name, std::vector<double>& args) {
  const auto open = s.find('(');
  name = s.substr(0, open);
  while (!name.empty() && name.back() == ' ') name.pop_back();
  if (open == std::string::npos) return true;
  const auto close = s.rfind(')');
  if (close == std::string::npos || close < open) return false;
  std::string inner = s.substr(open + 1, close - open - 1);
  size_t pos = 0;
  while (pos < inner.size()) {
    size_t comma = inner.find(',', pos);
    if (comma == std::string::npos) comma = inner.size();
    std::string tok = inner.substr(pos, comma - pos);
    tok.erase(0, tok.find_first_not_of(" \t"));
    tok.erase(tok.find_last_not_of(" \t") + 1);
    if (!tok.empty()) {
      char* end = nullptr;
      const double v = std::strtod(tok.c_str(), &end);
      if (!end || *end) return false;
      args.push_back(v);
    }
    pos = comma + 1;
  }
  return true;
}

std::string npyDescr(ir::DType t) {
  switch (t) {
    case ir::DType::Float32:
      return "<f4";
    case ir::DType::Float64:
      return "<f8";
    case ir::DType::Float16:
      return "<f2";
    case ir::DType::BFloat16:
      return "<u2";
    case ir::DType::Bool:
      return "|b1";
    case ir::DType::Int8:
      return "|i1";
    case ir::DType::Int16:
      return "<i2";
    case ir::DType::Int32:
      return "<i4";
    case ir::DType::Int64:
      return "<i8";
    case ir::DType::UInt8:
      return "|u1";
    case ir::DType::UInt16:
      return "<u2";
    case ir::DType::UInt32:
      return "<u4";
    case ir::DType::UInt64:
      return "<u8";
    default:
      return "|V1";
  }
}

}  // namespace

double tensorValue(const ir::HostTensor& t, int64_t i) {
  const uint8_t* p = t.data.data() + i * ir::dtypeBytes(t.dtype);
  auto get = [&](auto x) {
    std::memcpy(&x, p, sizeof x);
    return x;
  };
  switch (t.dtype) {
    case ir::DType::Float32:
      return get(float());
    case ir::DType::Float64:
      return get(double());
    case ir::DType::Float16:
      return ir::halfBitsToFloat(get(uint16_t()));
    case ir::DType::BFloat16: {
      const uint32_t x = uint32_t(get(uint16_t())) << 16;
      float f;
      std::memcpy(&f, &x, 4);
      return f;
    }
    case ir::DType::Bool:
    case ir::DType::UInt8:
      return get(uint8_t());
    case ir::DType::Int8:
      return get(int8_t());
    case ir::DType::Int16:
      return get(int16_t());
    case ir::DType::Int32:
      return get(int32_t());
    case ir::DType::Int64:
      return double(get(int64_t()));
    case ir::DType::UInt16:
      return get(uint16_t());
    case ir::DType::UInt32:
      return get(uint32_t());
    case ir::DType::UInt64:
      return double(get(uint64_t()));
    default:
      return 0;
  }
}

Result<ir::HostTensor> generateTensor(const std::string& generator, ir::DType dtype,
                                      const std::vector<int64_t>& shape) {
  ir::HostTensor t;
  t.dtype = dtype;
  t.shape = shape;
  const int64_t n = t.numel();
  const int64_t eb = ir::dtypeBytes(dtype);
  if (n < 0 || (n > 0 && n > kMaxHostTensorBytes / std::max<int64_t>(eb, 1)))
    return Status{"input",
                  "a tensor of " + std::to_string(n) + " " + std::string(ir::dtypeName(dtype)) +
                      " elements is over the " + std::to_string(kMaxHostTensorBytes >> 30) +
                      " GiB limit of host tensors",
                  0};
  try {
    t.data.assign(size_t(n * eb), 0);
  } catch (const std::bad_alloc&) {
    return Status{"input",
                  "out of host memory for a tensor of " + std::to_string(n * eb) + " bytes", 0};
  }
  std::string name;
  std::vector<double> a;
  if (!parseCall(generator, name, a))
    return Status{"input", "cannot read generator '" + generator + "'", 0};
  auto bad = [&](const std::string& why) {
    return Status{"input",
                  "generator '" + generator + "': " + why +
                      " (expected linspace(a, b), zeros, ones, full(v), arange[(start)], "
                      "randn(seed), rand(seed), empty)",
                  0};
  };
  // Every value must fit the dtype: a generator never wraps or saturates silently.
  auto fill = [&](auto valueAt) -> Result<ir::HostTensor> {
    for (int64_t i = 0; i < n; ++i) {
      const double v = valueAt(i);
      if (auto why = storeValue(t.data.data() + i * eb, dtype, v))
        return bad("element " + std::to_string(i) + " = " + numberText(v) + " " + *why);
    }
    return std::move(t);
  };
  if (name == "linspace") {
    if (a.size() != 2) return bad("linspace takes two arguments");
    const double step = n > 1 ? (a[1] - a[0]) / double(n - 1) : 0;
    return fill([&](int64_t i) { return i == n - 1 && n > 1 ? a[1] : a[0] + double(i) * step; });
  }
  if (name == "zeros" || name == "ones" || name == "full") {
    if (name == "full" && a.size() != 1) return bad("full takes one value");
    if (name != "full" && !a.empty()) return bad(name + " takes no arguments");
    const double v = name == "ones" ? 1 : name == "zeros" ? 0 : a[0];
    return fill([&](int64_t) { return v; });
  }
  if (name == "arange") {
    if (a.size() > 1) return bad("arange takes at most a start");
    const double start = a.empty() ? 0 : a[0];
    return fill([&](int64_t i) { return start + double(i); });
  }
  if (name == "randn" || name == "rand") {
    if (a.size() > 1 || (a.size() == 1 && (a[0] < 0 || a[0] != std::floor(a[0]) || a[0] > 0x1p53)))
      return bad(name + " takes one non-negative integer seed");
    std::mt19937_64 rng(uint64_t(a.empty() ? 0 : a[0]));
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_real_distribution<double> uni(0.0, 1.0);
    return fill([&](int64_t) { return name == "randn" ? normal(rng) : uni(rng); });
  }
  if (name == "empty") {
    if (!a.empty()) return bad("empty takes no arguments");
    t.markAllUndefined();
    return t;
  }
  return bad("unknown generator '" + name + "'");
}

Result<uint64_t> scalarArgumentBits(const std::string& text, ir::DType dtype,
                                    const std::string& param) {
  auto bad = [&](const std::string& why) {
    return Status{
        "input",
        "scalar parameter '" + param + "' (" + std::string(ir::dtypeName(dtype)) + ") " + why, 0};
  };
  std::string s = text;
  s.erase(0, s.find_first_not_of(" \t"));
  s.erase(s.find_last_not_of(" \t") + 1);
  if (s.empty()) return bad("needs a value");
  uint64_t bits = 0;
  if (dtype == ir::DType::Bool) {
    if (s == "1" || s == "true" || s == "True") return uint64_t(1);
    if (s == "0" || s == "false" || s == "False") return uint64_t(0);
    return bad("needs true, false, 1 or 0, found '" + text + "'");
  }
  if (ir::isInt(dtype)) {
    // Python's int(): decimal or 0x/0o/0b, an optional sign, '_' between digits; exact.
    std::string digits = s;
    bool neg = false;
    if (digits[0] == '+' || digits[0] == '-') {
      neg = digits[0] == '-';
      digits.erase(0, 1);
    }
    int base = 10;
    if (digits.size() > 2 && digits[0] == '0' && std::strchr("xXoObB", digits[1])) {
      base = std::strchr("xX", digits[1]) ? 16 : std::strchr("oO", digits[1]) ? 8 : 2;
      digits.erase(0, 2);
    }
    std::string clean;  // single '_' between digits only (Python); any other '_' stays and fails
    for (size_t i = 0; i < digits.size(); ++i)
      if (digits[i] != '_' || i == 0 || i + 1 == digits.size() || digits[i + 1] == '_' ||
          digits[i - 1] == '_')
        clean += digits[i];
    uint64_t mag = 0;
    const auto [end, ec] = std::from_chars(clean.data(), clean.data() + clean.size(), mag, base);
    if (clean.empty() || end != clean.data() + clean.size() || ec == std::errc::invalid_argument)
      return bad("needs an integer, found '" + text + "'");
    const bool isSigned = ir::isSigned(dtype);
    const int bitsWide = ir::dtypeBits(dtype);
    const uint64_t maxPos = isSigned
                                ? (uint64_t(1) << (bitsWide - 1)) - 1
                                : (bitsWide == 64 ? ~uint64_t(0) : (uint64_t(1) << bitsWide) - 1);
    const uint64_t maxNeg = isSigned ? uint64_t(1) << (bitsWide - 1) : 0;
    if (ec == std::errc::result_out_of_range || (!neg && mag > maxPos) || (neg && mag > maxNeg))
      return bad("cannot hold " + text + ": the range is " +
                 (isSigned ? "-" + std::to_string(maxNeg) : "0") + " to " + std::to_string(maxPos));
    const uint64_t v = neg ? ~mag + 1 : mag;
    bits = bitsWide == 64 ? v : v & ((uint64_t(1) << bitsWide) - 1);
    return bits;
  }
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (!end || *end || end == s.c_str()) return bad("needs a number, found '" + text + "'");
  uint8_t buf[8] = {};
  if (auto why = storeValue(buf, dtype, v))
    return bad("cannot hold " + text + ": the value " + *why);
  std::memcpy(&bits, buf, size_t(ir::dtypeBytes(dtype)));
  return bits;
}

Status writeNpy(const std::string& path, const ir::HostTensor& t) {
  std::string shape = "(";
  for (size_t i = 0; i < t.shape.size(); ++i)
    shape += std::to_string(t.shape[i]) + (t.shape.size() == 1      ? ","
                                           : i + 1 < t.shape.size() ? ", "
                                                                    : "");
  shape += ")";
  std::string header =
      "{'descr': '" + npyDescr(t.dtype) + "', 'fortran_order': False, 'shape': " + shape + ", }";
  const size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) return Status{"open", "cannot write " + path, 0};
  const char magic[] = "\x93NUMPY\x01\x00";
  out.write(magic, 8);
  const uint16_t len = uint16_t(header.size());
  out.write(reinterpret_cast<const char*>(&len), 2);
  out << header;
  out.write(reinterpret_cast<const char*>(t.data.data()), std::streamsize(t.data.size()));
  if (!out) return Status{"write", "cannot write " + path, 0};
  return {};
}

Result<std::vector<ir::KernelArg>> makeArguments(
    const ir::Kernel& kernel, const std::vector<std::pair<std::string, std::string>>& inputs) {
  const std::vector<bool> writeOnly = ir::writeOnlyParams(kernel);
  std::vector<ir::KernelArg> args;
  for (const auto& [n, g] : inputs) {
    bool found = false;
    for (const auto& p : kernel.params) found = found || p.name == n;
    if (!found)
      return Status{"input", "kernel '" + kernel.name + "' has no parameter '" + n + "'", 0};
  }
  // Symbolic extents: `--input n=VALUE` for a T.dynamic symbol or the int parameter the shape
  // names.
  std::vector<std::pair<int, int64_t>> extents;
  for (const ir::KernelParam& p : kernel.params) {
    if (p.isTensor) continue;
    bool usedAsExtent = p.symbolic;
    for (const auto& b : kernel.buffers)
      for (int v : b.shapeVars) usedAsExtent = usedAsExtent || v == p.var;
    if (!usedAsExtent) continue;
    const std::string* text = nullptr;
    for (const auto& [n, g] : inputs)
      if (n == p.name) text = &g;
    if (!text)
      return Status{"input",
                    "kernel '" + kernel.name + "' has the symbolic extent '" + p.name +
                        "': give its value with --input " + p.name + "=VALUE",
                    0};
    auto bits = scalarArgumentBits(*text, ir::DType::Int32, p.name);
    if (!bits) return bits.error();
    const int64_t v = static_cast<int32_t>(static_cast<uint32_t>(*bits));
    if (v <= 0)
      return Status{"input",
                    "the extent '" + p.name + "' must be positive, found " + std::to_string(v), 0};
    extents.emplace_back(p.var, v);
  }
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const ir::KernelParam& p = kernel.params[i];
    if (p.symbolic) continue;  // bound by the executor from the tensors' shapes
    std::string gen;
    bool given = false;
    for (const auto& [n, g] : inputs)
      if (n == p.name) gen = g, given = true;
    ir::KernelArg a;
    a.isTensor = p.isTensor;
    if (p.isTensor) {
      if (p.buffer < 0 || p.buffer >= int(kernel.buffers.size()))
        return Status{"input", "parameter '" + p.name + "' has no buffer", 0};
      const ir::Buffer& b = kernel.buffers[size_t(p.buffer)];
      // Outputs nobody gave start undefined (poisoned); inputs default to a ramp in range.
      if (!given)
        gen = writeOnly[i]                                   ? "empty"
              : ir::isInt(b.dtype) && !ir::isSigned(b.dtype) ? "linspace(0, 8)"
                                                             : "linspace(-4, 4)";
      std::vector<int64_t> shape = b.shape;
      for (size_t d = 0; d < b.shapeVars.size() && d < shape.size(); ++d)
        for (const auto& [var, v] : extents)
          if (b.shapeVars[d] == var) shape[d] = v;
      auto t = generateTensor(gen, b.dtype, shape);
      if (!t) return Status{"input", "parameter '" + p.name + "': " + t.error().message, 0};
      a.tensor = std::move(*t);
    } else {
      a.scalarType = p.dtype;
      if (given) {
        auto bits = scalarArgumentBits(gen, p.dtype, p.name);
        if (!bits) return bits.error();
        a.scalarBits = *bits;
      }
    }
    args.push_back(std::move(a));
  }
  return args;
}

}  // namespace tirx::driver
