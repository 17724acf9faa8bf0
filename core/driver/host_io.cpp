// Input generators, scalar argument parsing and the .npy writer of host_io.h.
#include "core/driver/host_io.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <random>

#include "core/driver/cuda_executor.h"
#include "core/ir/half.h"

namespace tirx::driver {

namespace {

void setValue(ir::HostTensor& t, int64_t i, double v) {
  uint8_t* p = t.data.data() + i * ir::dtypeBytes(t.dtype);
  auto put = [&](auto x) { std::memcpy(p, &x, sizeof x); };
  switch (t.dtype) {
    case ir::DType::Float32: put(float(v)); break;
    case ir::DType::Float64: put(v); break;
    case ir::DType::Float16: put(ir::floatToHalfBits(float(v))); break;
    case ir::DType::BFloat16: put(ir::floatToBf16Bits(float(v))); break;
    case ir::DType::Bool: put(uint8_t(v != 0)); break;
    case ir::DType::Int8: put(int8_t(v)); break;
    case ir::DType::Int16: put(int16_t(v)); break;
    case ir::DType::Int32: put(int32_t(v)); break;
    case ir::DType::Int64: put(int64_t(v)); break;
    case ir::DType::UInt8: put(uint8_t(v)); break;
    case ir::DType::UInt16: put(uint16_t(v)); break;
    case ir::DType::UInt32: put(uint32_t(v)); break;
    case ir::DType::UInt64: put(uint64_t(v)); break;
    case ir::DType::Void: break;
  }
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
    case ir::DType::Float32: return "<f4";
    case ir::DType::Float64: return "<f8";
    case ir::DType::Float16: return "<f2";
    case ir::DType::BFloat16: return "<u2";
    case ir::DType::Bool: return "|b1";
    case ir::DType::Int8: return "|i1";
    case ir::DType::Int16: return "<i2";
    case ir::DType::Int32: return "<i4";
    case ir::DType::Int64: return "<i8";
    case ir::DType::UInt8: return "|u1";
    case ir::DType::UInt16: return "<u2";
    case ir::DType::UInt32: return "<u4";
    case ir::DType::UInt64: return "<u8";
    default: return "|V1";
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
    case ir::DType::Float32: return get(float());
    case ir::DType::Float64: return get(double());
    case ir::DType::Float16: return ir::halfBitsToFloat(get(uint16_t()));
    case ir::DType::BFloat16: {
      const uint32_t x = uint32_t(get(uint16_t())) << 16;
      float f;
      std::memcpy(&f, &x, 4);
      return f;
    }
    case ir::DType::Bool: case ir::DType::UInt8: return get(uint8_t());
    case ir::DType::Int8: return get(int8_t());
    case ir::DType::Int16: return get(int16_t());
    case ir::DType::Int32: return get(int32_t());
    case ir::DType::Int64: return double(get(int64_t()));
    case ir::DType::UInt16: return get(uint16_t());
    case ir::DType::UInt32: return get(uint32_t());
    case ir::DType::UInt64: return double(get(uint64_t()));
    default: return 0;
  }
}

Result<ir::HostTensor> generateTensor(const std::string& generator, ir::DType dtype,
                                      const std::vector<int64_t>& shape) {
  ir::HostTensor t;
  t.dtype = dtype;
  t.shape = shape;
  const int64_t n = t.numel();
  t.data.assign(size_t(n * ir::dtypeBytes(dtype)), 0);
  std::string name;
  std::vector<double> a;
  if (!parseCall(generator, name, a))
    return Status{"input", "cannot read generator '" + generator + "'", 0};
  auto bad = [&](const std::string& why) {
    return Status{"input", "generator '" + generator + "': " + why +
                               " (expected linspace(a, b), zeros, ones, full(v), arange[(start)], "
                               "randn(seed), rand(seed))", 0};
  };
  if (name == "linspace") {
    if (a.size() != 2) return bad("linspace takes two arguments");
    const double step = n > 1 ? (a[1] - a[0]) / double(n - 1) : 0;
    for (int64_t i = 0; i < n; ++i) setValue(t, i, i == n - 1 && n > 1 ? a[1] : a[0] + double(i) * step);
  } else if (name == "zeros" || name == "ones" || name == "full") {
    const double v = name == "ones" ? 1 : name == "zeros" ? 0 : (a.empty() ? 0 : a[0]);
    if (name == "full" && a.size() != 1) return bad("full takes one value");
    for (int64_t i = 0; i < n; ++i) setValue(t, i, v);
  } else if (name == "arange") {
    const double start = a.empty() ? 0 : a[0];
    for (int64_t i = 0; i < n; ++i) setValue(t, i, start + double(i));
  } else if (name == "randn" || name == "rand") {
    std::mt19937_64 rng(uint64_t(a.empty() ? 0 : a[0]));
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_real_distribution<double> uni(0.0, 1.0);
    for (int64_t i = 0; i < n; ++i) setValue(t, i, name == "randn" ? normal(rng) : uni(rng));
  } else {
    return bad("unknown generator '" + name + "'");
  }
  return t;
}

Status writeNpy(const std::string& path, const ir::HostTensor& t) {
  std::string shape = "(";
  for (size_t i = 0; i < t.shape.size(); ++i) shape += std::to_string(t.shape[i]) + (t.shape.size() == 1 ? "," : i + 1 < t.shape.size() ? ", " : "");
  shape += ")";
  std::string header = "{'descr': '" + npyDescr(t.dtype) + "', 'fortran_order': False, 'shape': " + shape + ", }";
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
  const std::vector<bool> writeOnly = writeOnlyParams(kernel);
  std::vector<ir::KernelArg> args;
  for (const auto& [n, g] : inputs) {
    bool found = false;
    for (const auto& p : kernel.params) found = found || p.name == n;
    if (!found) return Status{"input", "kernel '" + kernel.name + "' has no parameter '" + n + "'", 0};
  }
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const ir::KernelParam& p = kernel.params[i];
    std::string gen;
    for (const auto& [n, g] : inputs)
      if (n == p.name) gen = g;
    ir::KernelArg a;
    a.isTensor = p.isTensor;
    if (p.isTensor) {
      const ir::Buffer& b = kernel.buffers.at(size_t(p.buffer));
      if (gen.empty()) gen = writeOnly[i] ? "zeros" : "linspace(-4, 4)";
      auto t = generateTensor(gen, b.dtype, b.shape);
      if (!t) return t.error();
      a.tensor = std::move(*t);
    } else {
      a.scalarType = p.dtype;
      ir::HostTensor one;
      char* end = nullptr;
      const double v = gen.empty() ? 0 : std::strtod(gen.c_str(), &end);
      if (!gen.empty() && (!end || *end))
        return Status{"input", "scalar parameter '" + p.name + "' needs a number, found '" + gen + "'", 0};
      auto t = generateTensor("full(" + std::to_string(v) + ")", p.dtype, {});
      if (!t) return t.error();
      std::memcpy(&a.scalarBits, t->data.data(), t->data.size());
    }
    args.push_back(std::move(a));
  }
  return args;
}

}  // namespace tirx::driver
