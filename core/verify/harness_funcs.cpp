// numpy / torch / tvm / builtins functions and array methods of the harness, dispatched by
// qualified name. numpy and torch share one implementation where their semantics agree and
// differ where they do not (default dtypes, linspace algorithm, promotion flavour).
#include <cmath>
#include <cstring>

#include "core/verify/harness_interp.h"
#include "core/verify/harness_lib_call.h"
#include "core/verify/py_numbers.h"

namespace tirx::verify {

namespace {

/// Strips the library prefix: "numpy.exp" -> "exp", "torch.nn.functional.silu" -> "silu".
std::string shortName(const std::string& n) {
  return n.substr(n.rfind('.') + 1);
}

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
double uniform01(uint64_t& s) {
  return static_cast<double>(splitmix(s) >> 11) * 0x1.0p-53;
}

/// The permutation that numpy's `transpose(axes)` / torch's `permute(dims)` (`kind` "permute"),
/// torch's `transpose(d0, d1)` / numpy's `swapaxes(a, b)` ("swap") or a plain `transpose()`
/// (reversed axes, no `ints`) takes for an array of `ndim` dimensions. Empty with `err` set when
/// the arguments do not fit.
std::vector<int64_t> permutationOf(const std::string& kind, const std::vector<int64_t>& ints,
                                   int ndim, std::string& err) {
  std::vector<int64_t> axes(size_t(ndim), 0);
  for (int d = 0; d < ndim; ++d) axes[size_t(d)] = ndim - 1 - d;
  if (kind == "permute") {
    if (ints.empty()) return axes;
    return ints;  // transpose(Array, axes) checks that it is a permutation
  }
  if (ints.size() != 2) {
    err = "expected two axes to swap, found " + std::to_string(ints.size());
    return {};
  }
  std::vector<int64_t> swap(size_t(ndim), 0);
  for (int d = 0; d < ndim; ++d) swap[size_t(d)] = d;
  int64_t a = ints[0] < 0 ? ints[0] + ndim : ints[0], b = ints[1] < 0 ? ints[1] + ndim : ints[1];
  if (a < 0 || a >= ndim || b < 0 || b >= ndim) {
    err = "axis " + std::to_string(a < 0 || a >= ndim ? ints[0] : ints[1]) +
          " is out of bounds for array of dimension " + std::to_string(ndim);
    return {};
  }
  std::swap(swap[size_t(a)], swap[size_t(b)]);
  return swap;
}

}  // namespace

namespace {
std::optional<DType> dtypeArg(Interp& in, const Py& v, SourceSpan span) {
  if (!v || v->kind == PyKind::None) return std::nullopt;
  if (v->kind == PyKind::DType) return v->dtype;
  if (v->kind == PyKind::Str) {
    if (auto t = ir::parseDType(v->s)) return t;
    if (v->s == "float") return DType::Float64;
    if (v->s == "int") return DType::Int64;
  }
  if (v->kind == PyKind::Builtin) {
    if (v->s == "builtins.float") return DType::Float64;
    if (v->s == "builtins.int") return DType::Int64;
    if (v->s == "builtins.bool") return DType::Bool;
  }
  in.error("E0804", span, "expected a dtype, found " + in.reprOf(v));
  return std::nullopt;
}
}  // namespace

Py Interp::libFinish(const LibCall& lc, Array a) {
  a.flavor = lc.fl;
  a.onDevice = a.onDevice || lc.onDev;
  return array(std::move(a));
}

std::optional<Array> Interp::libArr(const LibCall& lc, size_t i, const std::string& kwname) {
  Py v = argOr(lc.args, i, lc.kw, kwname.empty() ? "__none__" : kwname);
  if (!v) {
    error("E0805", lc.sp, lc.n + "() is missing an argument");
    return std::nullopt;
  }
  return toArray(v, lc.sp, {}, lc.fl);
}

std::optional<std::optional<int>> Interp::libAxisArg(const LibCall& lc, const char* k) {
  Py v = kwarg(lc.kw, k);
  if (!v || v->kind == PyKind::None) return std::optional<int>{};
  auto x = toInt(v, lc.sp);
  if (!x) return std::nullopt;
  return std::optional<int>(static_cast<int>(*x));
}

// A keyword the harness does not implement (out=, where=, dtype= of a ufunc, key= of max) would
// change numpy's result: refused, never ignored.
bool Interp::libOnlyKeywords(const LibCall& lc, std::initializer_list<const char*> allowed) {
  for (const auto& [k, v] : lc.kw) {
    bool ok = false;
    for (const char* a : allowed) ok = ok || k == a;
    if (!ok) {
      error("E0803", lc.sp, lc.n + "(" + k + "=...) is not supported by the harness");
      return false;
    }
  }
  return true;
}

Py Interp::callLibrary(const std::string& name, std::vector<Py>& args, Kwargs& kw,
                       const ast::Expr& e) {
  const SourceSpan sp = e.span;
  const bool torch = startsWith(name, "torch");
  const bool numpy = startsWith(name, "numpy");
  const Flavor fl = torch ? Flavor::Torch : Flavor::Numpy;
  const std::string n = shortName(name);
  Py dtypeKw = kwarg(kw, "dtype");
  std::optional<DType> dt;
  if (dtypeKw) {
    dt = dtypeArg(*this, dtypeKw, sp);
    if (m_failed) return nullptr;
  }
  Py dev = kwarg(kw, "device");
  const bool onDev = dev && ((dev->kind == PyKind::Str && startsWith(dev->s, "cuda")) ||
                             dev->kind == PyKind::Device);

  // Keywords some implemented function reads (or that cannot change a value: copy=,
  // requires_grad=, ...). Anything else (out=, where=, order=, retstep=, strict=, ...) is refused
  // here rather than ignored by the function that does not read it.
  static const char* kKnownKeywords[] = {
      "dtype",        "device",   "axis",      "dim",           "keepdims",     "keepdim",
      "rtol",         "atol",     "equal_nan", "check_dtype",   "check_device", "check_layout",
      "check_stride", "err_msg",  "verbose",   "msg",           "endpoint",     "start",
      "stop",         "num",      "end",       "steps",         "step",         "shape",
      "fill_value",   "size",     "low",       "high",          "a_min",        "a_max",
      "min",          "max",      "shift",     "shifts",        "dims",         "newshape",
      "approximate",  "actual",   "desired",   "expected",      "data",         "kernel",
      "target",       "pipeline", "copy",      "requires_grad", "pin_memory",   "non_blocking",
      "sep",          "flush",    "base",      "ndigits",       "generator",    "input",
      "other",        "axes",     "attn_mask", "dropout_p",     "is_causal",    "scale",
      "enable_gqa",   "query",    "key",       "value"};
  for (const auto& [k, v] : kw) {
    bool known = false;
    for (const char* x : kKnownKeywords) known = known || k == x;
    if (!known || (k == "axes" && n != "transpose"))
      return error("E0803", sp, n + "(" + k + "=...) is not supported by the harness");
  }

  LibCall lc{args, kw, name, n, sp, torch, numpy, fl, dt, e, onDev};
  // The groups in the order the names were always tried; each answers its own names only.
  using Handler = std::optional<Py> (Interp::*)(LibCall&);
  static constexpr Handler kHandlers[] = {
      &Interp::libCompare, &Interp::libTvm,       &Interp::libConstruct, &Interp::libRandom,
      &Interp::libMath,    &Interp::libOperators, &Interp::libReduce,    &Interp::libShape,
      &Interp::libNn,      &Interp::libBuiltins};
  for (Handler h : kHandlers)
    if (std::optional<Py> r = (this->*h)(lc)) return *r;
  return error("E0802", sp, "'" + name + "' is not supported by the harness");
}

// Comparisons: numpy.testing / torch.testing asserts, allclose
std::optional<Py> Interp::libCompare(LibCall& lc) {
  [[maybe_unused]] auto& [args, kw, name, n, sp, torch, numpy, fl, dt, e, onDev] = lc;
  // --- comparisons ---
  if (name == "numpy.testing.assert_allclose" || name == "tvm.testing.assert_allclose" ||
      name == "tvm_tirx.testing.assert_allclose" || name == "numpy.testing.assert_array_equal" ||
      name == "numpy.testing.assert_equal" || name == "torch.testing.assert_close") {
    const std::string kind = startsWith(name, "tvm") ? "numpy.testing.assert_allclose" : name;
    return check(kind, args, kw, e);
  }
  if (name == "numpy.allclose" || name == "torch.allclose") {
    auto a = libArr(lc, 0), b = libArr(lc, 1);
    if (!a || !b) return nullptr;
    auto r = argOr(args, 2, kw, "rtol"), t = argOr(args, 3, kw, "atol");
    const double rt = r ? toReal(r, sp).value_or(1e-5) : 1e-5,
                 at = t ? toReal(t, sp).value_or(1e-8) : 1e-8;
    Py en = argOr(args, 4, kw, "equal_nan");
    return boolean(allclose(*a, *b, rt, at, en && truth(en, sp).value_or(false)));
  }
  return std::nullopt;
}

// Tvm / tvm_tirx: compile, devices, runtime tensors; torch.cuda and the seeds
std::optional<Py> Interp::libTvm(LibCall& lc) {
  [[maybe_unused]] auto& [args, kw, name, n, sp, torch, numpy, fl, dt, e, onDev] = lc;
  // --- tvm / tvm_tirx ---
  if (name == "tvm.tirx.compile" || name == "tvm_tirx.compile" || name == "tvm.compile" ||
      name == "tvm.build") {
    Py k = argOr(args, 0, kw, "kernel");
    if (!k || k->kind != PyKind::Kernel)
      return error("E0805", sp,
                   name + "() needs a kernel defined with @T.function, found " +
                       (k ? typeName(k) : std::string("nothing")));
    auto c = std::make_shared<PyValue>();
    c->kind = PyKind::Compiled;
    c->s = k->s;
    return c;
  }
  if (name == "tvm.cuda" || name == "tvm_tirx.cuda" || name == "tvm.device" || name == "tvm.cpu" ||
      name == "tvm.gpu") {
    auto d = std::make_shared<PyValue>();
    d->kind = PyKind::Device;
    d->s = n;
    return d;
  }
  if (name == "tvm.runtime.tensor" || name == "tvm.nd.array" || name == "tvm_tirx.runtime.tensor" ||
      name == "tvm.runtime.ndarray") {
    auto a = libArr(lc, 0);
    if (!a) return nullptr;
    a->flavor = Flavor::Numpy;
    a->onDevice = true;
    return array(std::move(*a));
  }
  if (name == "torch.cuda.is_available") return boolean(true);
  if (name == "torch.cuda.synchronize" || name == "numpy.random.seed" ||
      name == "torch.manual_seed") {
    if (!args.empty()) {
      auto s = toInt(args[0], sp);
      if (!s) return nullptr;
      rng = 0x853c49e6748fea9bULL ^ static_cast<uint64_t>(*s);
    }
    return none();
  }
  return std::nullopt;
}

// Constructors: linspace, arange, zeros/ones/empty/full(_like), array/tensor
std::optional<Py> Interp::libConstruct(LibCall& lc) {
  [[maybe_unused]] auto& [args, kw, name, n, sp, torch, numpy, fl, dt, e, onDev] = lc;
  // --- constructors ---
  if (n == "linspace" && (numpy || torch)) {
    Py a0 = argOr(args, 0, kw, "start"), a1 = argOr(args, 1, kw, torch ? "end" : "stop"),
       a2 = argOr(args, 2, kw, torch ? "steps" : "num");
    if (!a0 || !a1) return error("E0805", sp, "linspace() needs a start and a stop");
    auto s = toReal(a0, sp), t = toReal(a1, sp);
    if (!s || !t) return nullptr;
    int64_t num = 50;
    if (a2) {
      auto x = toInt(a2, sp);
      if (!x) return nullptr;
      num = *x;
    } else if (torch) {
      return error("E0805", sp, "torch.linspace() needs 'steps'");
    }
    if (num < 0)
      return error("E0804", sp,
                   "number of samples, " + std::to_string(num) + ", must be non-negative");
    if (std::string why =
            arraySizeError(dt.value_or(torch ? DType::Float32 : DType::Float64), {num});
        !why.empty())
      return error("E0814", sp, why);
    if (torch) return libFinish(lc, torchLinspace(*s, *t, num, dt.value_or(DType::Float32)));
    Py ep = kwarg(kw, "endpoint");
    return libFinish(lc, numpyLinspace(*s, *t, num, dt.value_or(DType::Float64),
                                       !ep || truth(ep, sp).value_or(true)));
  }
  if (n == "arange" && (numpy || torch)) {
    std::vector<double> v;
    bool anyFloat = false;
    for (const auto& x : args) {
      auto r = toReal(x, sp);
      if (!r) return nullptr;
      if (x->kind == PyKind::Float) anyFloat = true;
      v.push_back(*r);
    }
    if (v.empty() || v.size() > 3)
      return error("E0805", sp, "arange() takes 1 to 3 positional arguments");
    const double start = v.size() >= 2 ? v[0] : 0, stop = v.size() >= 2 ? v[1] : v[0],
                 step = v.size() == 3 ? v[2] : 1;
    if (step == 0) return error("E0804", sp, "arange() step must not be zero");
    const DType def = anyFloat ? (torch ? DType::Float32 : DType::Float64) : DType::Int64;
    const double count = std::ceil((stop - start) / step);
    if (count > 0 &&
        !arraySizeError(dt.value_or(def), {count < 9.2e18 ? int64_t(count) : INT64_MAX}).empty())
      return error("E0814", sp,
                   arraySizeError(dt.value_or(def), {count < 9.2e18 ? int64_t(count) : INT64_MAX}));
    return libFinish(lc, arange(start, stop, step, dt.value_or(def), fl));
  }
  if ((n == "zeros" || n == "ones" || n == "empty" || n == "full") && (numpy || torch)) {
    std::vector<Py> shapeArgs = args;
    Py fill;
    if (n == "full") {
      if (args.size() < 2) return error("E0805", sp, "full() needs a shape and a fill value");
      shapeArgs = {args[0]};
      fill = args[1];
    } else if (numpy && args.size() > 1) {
      shapeArgs = {args[0]};
    }
    if (shapeArgs.empty()) {
      Py s = kwarg(kw, n == "full" ? "shape" : (torch ? "size" : "shape"));
      if (!s) return error("E0805", sp, n + "() needs a shape");
      shapeArgs = {s};
    }
    auto shape = toShape(shapeArgs, sp);
    if (!shape) return nullptr;
    DType t = dt.value_or(torch ? DType::Float32 : DType::Float64);
    if (!dt && fill && numpy)
      t = fill->kind == PyKind::Float ? DType::Float64
                                      : (fill->kind == PyKind::Bool ? DType::Bool : DType::Int64);
    if (!dt && fill && torch)
      t = fill->kind == PyKind::Float ? DType::Float32
                                      : (fill->kind == PyKind::Bool ? DType::Bool : DType::Int64);
    if (std::string why = arraySizeError(t, *shape); !why.empty()) return error("E0814", sp, why);
    Array a = makeArray(t, *shape, fl);
    double v = n == "ones" ? 1 : 0;
    if (fill) {
      auto f = toReal(fill, sp);
      if (!f) return nullptr;
      v = *f;
    }
    if (v != 0)
      for (int64_t i = 0; i < a.size(); ++i) a.set(i, v);
    if (n == "empty")
      a.defined.assign(static_cast<size_t>(a.size()), 0);  // poisoned on every device
    return libFinish(lc, std::move(a));
  }
  if ((n == "zeros_like" || n == "ones_like" || n == "empty_like" || n == "full_like") &&
      (numpy || torch)) {
    auto src = libArr(lc, 0);
    if (!src) return nullptr;
    Array a = makeArray(dt.value_or(src->dtype), src->shape, fl);
    a.onDevice = src->onDevice;
    double v = n == "ones_like" ? 1 : 0;
    if (n == "full_like") {
      Py f = argOr(args, 1, kw, "fill_value");
      if (!f) return error("E0805", sp, "full_like() needs a fill value");
      auto x = toReal(f, sp);
      if (!x) return nullptr;
      v = *x;
    }
    if (v != 0)
      for (int64_t i = 0; i < a.size(); ++i) a.set(i, v);
    if (n == "empty_like")
      a.defined.assign(static_cast<size_t>(a.size()), 0);  // poisoned on every device
    return libFinish(lc, std::move(a));
  }
  if (n == "array" || n == "asarray" || n == "tensor" || n == "as_tensor" || n == "from_numpy" ||
      n == "ascontiguousarray") {
    Py v = argOr(args, 0, kw, "data");
    if (!v) return error("E0805", sp, n + "() needs data");
    auto a = toArray(v, sp, dt, fl);
    if (!a) return nullptr;
    a->origin = v->kind == PyKind::Array ? v->arr->origin : -1;
    a->zeroDimArray = a->ndim() == 0 && fl == Flavor::Numpy;
    return libFinish(lc, std::move(*a));
  }
  return std::nullopt;
}

// Random arrays (deterministic, seeded; not numpy's or torch's generator)
std::optional<Py> Interp::libRandom(LibCall& lc) {
  [[maybe_unused]] auto& [args, kw, name, n, sp, torch, numpy, fl, dt, e, onDev] = lc;
  // --- random (deterministic, seeded; not numpy's or torch's generator) ---
  if ((n == "rand" || n == "randn" || n == "random" || n == "uniform" || n == "standard_normal") &&
      (startsWith(name, "numpy.random") || torch)) {
    std::vector<Py> shapeArgs = args;
    double lo = 0, hi = 1;
    if (n == "uniform") {
      Py l = argOr(args, 0, kw, "low"), h = argOr(args, 1, kw, "high"),
         s = argOr(args, 2, kw, "size");
      lo = l ? toReal(l, sp).value_or(0) : 0;
      hi = h ? toReal(h, sp).value_or(1) : 1;
      shapeArgs = s ? std::vector<Py>{s} : std::vector<Py>{};
    } else if ((n == "random" || n == "standard_normal") && kwarg(kw, "size")) {
      shapeArgs = {kwarg(kw, "size")};
    }
    auto shape = toShape(shapeArgs, sp);
    if (!shape) return nullptr;
    if (std::string why =
            arraySizeError(dt.value_or(torch ? DType::Float32 : DType::Float64), *shape);
        !why.empty())
      return error("E0814", sp, why);
    Array a = makeArray(dt.value_or(torch ? DType::Float32 : DType::Float64), *shape, fl);
    for (int64_t i = 0; i < a.size(); ++i) {
      double v;
      if (n == "randn" || n == "standard_normal") {
        const double u1 = std::max(uniform01(rng), 1e-300), u2 = uniform01(rng);
        v = std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
      } else {
        v = lo + (hi - lo) * uniform01(rng);
      }
      a.set(i, v);
    }
    return libFinish(lc, std::move(a));
  }
  return std::nullopt;
}

// Element-wise math: unary functions, maximum/minimum
std::optional<Py> Interp::libMath(LibCall& lc) {
  [[maybe_unused]] auto& [args, kw, name, n, sp, torch, numpy, fl, dt, e, onDev] = lc;
  // --- element-wise math ---
  static const std::pair<const char*, UnaryOp> kUnary[] = {
      {"exp", UnaryOp::Exp},         {"exp2", UnaryOp::Exp2},
      {"log", UnaryOp::Log},         {"log2", UnaryOp::Log2},
      {"sqrt", UnaryOp::Sqrt},       {"rsqrt", UnaryOp::Rsqrt},
      {"abs", UnaryOp::Abs},         {"absolute", UnaryOp::Abs},
      {"fabs", UnaryOp::Abs},        {"sin", UnaryOp::Sin},
      {"cos", UnaryOp::Cos},         {"tanh", UnaryOp::Tanh},
      {"sigmoid", UnaryOp::Sigmoid}, {"silu", UnaryOp::Silu},
      {"relu", UnaryOp::Relu},       {"gelu", UnaryOp::Gelu},
      {"floor", UnaryOp::Floor},     {"ceil", UnaryOp::Ceil},
      {"trunc", UnaryOp::Trunc},     {"round", UnaryOp::Round},
      {"rint", UnaryOp::Round},      {"around", UnaryOp::Round},
      {"negative", UnaryOp::Neg},    {"neg", UnaryOp::Neg},
      {"erf", UnaryOp::Erf},         {"bitwise_not", UnaryOp::Invert},
      {"invert", UnaryOp::Invert}};
  if (numpy || torch || startsWith(name, "math.")) {
    for (const auto& [un, op] : kUnary) {
      if (n != un) continue;
      if (!libOnlyKeywords(lc, {"approximate"})) return nullptr;
      if (args.size() != 1) return error("E0805", sp, n + "() takes one argument");
      if (startsWith(name, "math.")) {
        auto x = toReal(args[0], sp);
        if (!x) return nullptr;
        Array one = fromDoubles(DType::Float64, {}, {*x});
        return real(unary(op, one).get(0));
      }
      auto a = libArr(lc, 0);
      if (!a) return nullptr;
      if (n == "gelu" && kwarg(kw, "approximate")) {
        Py ap = kwarg(kw, "approximate");
        if (ap->kind == PyKind::Str && ap->s == "tanh") {
          Array r = makeArray(a->dtype, a->shape, fl);
          for (int64_t i = 0; i < a->size(); ++i) {
            const double x = a->get(i);
            r.set(i, 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x))));
          }
          return libFinish(lc, std::move(r));
        }
      }
      std::string err;
      Array r = unary(op, *a, &err);
      if (!err.empty()) return error("E0804", sp, err);
      return libFinish(lc, std::move(r));
    }
  }
  if ((n == "maximum" || n == "minimum" || n == "fmax" || n == "fmin") && (numpy || torch)) {
    if (!libOnlyKeywords(lc, {})) return nullptr;
    if (args.size() != 2)
      return error("E0805", sp, n + "() takes 2 arguments, found " + std::to_string(args.size()));
    if (n == "fmax" || n == "fmin")
      return error("E0802", sp, n + "() (NaN-ignoring) is not supported by the harness");
    auto a = libArr(lc, 0), b = libArr(lc, 1);
    if (!a || !b) return nullptr;
    const bool weakB = args.size() > 1 && args[1]->kind != PyKind::Array;
    DType rt = weakB ? promoteWeak(a->dtype, args[1]->kind == PyKind::Float, false, fl)
                     : promote(a->dtype, b->dtype, fl);
    if (numpy) {  // numpy 1.24's value-based promotion of scalar operands
      auto operand = [&](const Py& v, const Array& x) {
        PromoOperand p;
        p.dtype = x.dtype;
        p.scalar = v->kind != PyKind::Array || x.ndim() == 0;
        if (v->kind == PyKind::Int) p.dtype = DType::Int64;
        if (v->kind == PyKind::Float) p.dtype = DType::Float64;
        if (p.scalar && x.size() == 1) {
          p.f = x.get(0);
          p.i = x.getInt(0);
        }
        return p;
      };
      rt = numpyResultType(operand(args[0], *a), operand(args[1], *b));
    }
    std::string err;
    auto r = binary(n == "maximum" || n == "fmax" ? BinaryOp::Maximum : BinaryOp::Minimum, *a, *b,
                    rt, &err);
    if (!r) return error("E0804", sp, err);
    return libFinish(lc, std::move(*r));
  }
  return std::nullopt;
}

// Functional spellings of the operators, clip/clamp, where
std::optional<Py> Interp::libOperators(LibCall& lc) {
  [[maybe_unused]] auto& [args, kw, name, n, sp, torch, numpy, fl, dt, e, onDev] = lc;
  // Functional spellings of the arithmetic/bitwise/comparison operators: same semantics as the
  // operator (dtype promotion, weak Python scalars); two Python numbers become a 0-d array first.
  static const std::pair<const char*, ast::Op> kOpFuncs[] = {
      {"add", ast::Op::Add},
      {"subtract", ast::Op::Sub},
      {"sub", ast::Op::Sub},
      {"multiply", ast::Op::Mul},
      {"mul", ast::Op::Mul},
      {"divide", ast::Op::Div},
      {"true_divide", ast::Op::Div},
      {"div", ast::Op::Div},
      {"floor_divide", ast::Op::FloorDiv},
      {"mod", ast::Op::Mod},
      {"remainder", ast::Op::Mod},
      {"power", ast::Op::Pow},
      {"pow", ast::Op::Pow},
      {"bitwise_and", ast::Op::BitAnd},
      {"bitwise_or", ast::Op::BitOr},
      {"bitwise_xor", ast::Op::BitXor},
      {"left_shift", ast::Op::LShift},
      {"bitwise_left_shift", ast::Op::LShift},
      {"right_shift", ast::Op::RShift},
      {"bitwise_right_shift", ast::Op::RShift},
      {"equal", ast::Op::Eq},
      {"eq", ast::Op::Eq},
      {"not_equal", ast::Op::NotEq},
      {"ne", ast::Op::NotEq},
      {"less", ast::Op::Lt},
      {"lt", ast::Op::Lt},
      {"less_equal", ast::Op::LtE},
      {"le", ast::Op::LtE},
      {"greater", ast::Op::Gt},
      {"gt", ast::Op::Gt},
      {"greater_equal", ast::Op::GtE},
      {"ge", ast::Op::GtE},
      {"matmul", ast::Op::MatMul},
      {"mm", ast::Op::MatMul}};
  if (numpy || torch) {
    for (const auto& [fname, op] : kOpFuncs) {
      if (n != fname) continue;
      if (!libOnlyKeywords(lc, {})) return nullptr;
      if (args.size() != 2)
        return error("E0805", sp, n + "() takes 2 arguments, found " + std::to_string(args.size()));
      Py a = args[0];
      if (a->kind != PyKind::Array && args[1]->kind != PyKind::Array) {
        auto x = libArr(lc, 0);
        if (!x) return nullptr;
        a = libFinish(lc, std::move(*x));
      }
      return binop(op, a, args[1], sp);
    }
  }
  if ((n == "clip" || n == "clamp" || n == "clamp_min" || n == "clamp_max" || n == "clip_") &&
      (numpy || torch)) {
    auto a = libArr(lc, 0);
    if (!a) return nullptr;
    Py lo = n == "clamp_max" ? nullptr : argOr(args, 1, kw, torch ? "min" : "a_min");
    Py hi = n == "clamp_min" ? nullptr
                             : argOr(args, n == "clamp_max" ? 1 : 2, kw, torch ? "max" : "a_max");
    Array r = *a;
    r.origin = -1;
    for (auto [bound, op] : {std::pair{lo, BinaryOp::Maximum}, std::pair{hi, BinaryOp::Minimum}}) {
      if (!bound || bound->kind == PyKind::None) continue;
      auto b = toArray(bound, sp, {}, fl);
      if (!b) return nullptr;
      const DType rt = bound->kind == PyKind::Array
                           ? promote(r.dtype, b->dtype, fl)
                           : promoteWeak(r.dtype, bound->kind == PyKind::Float, false, fl);
      std::string err;
      auto x = binary(op, r, *b, rt, &err);
      if (!x) return error("E0804", sp, err);
      r = std::move(*x);
    }
    return libFinish(lc, std::move(r));
  }
  if (n == "where" && (numpy || torch)) {
    auto c = libArr(lc, 0), a = libArr(lc, 1), b = libArr(lc, 2);
    if (!c || !a || !b) return nullptr;
    std::string err;
    auto r = where(*c, *a, *b, &err);
    if (!r) return error("E0804", sp, err);
    return libFinish(lc, std::move(*r));
  }
  return std::nullopt;
}

// Reductions (axis/dim, keepdims)
std::optional<Py> Interp::libReduce(LibCall& lc) {
  [[maybe_unused]] auto& [args, kw, name, n, sp, torch, numpy, fl, dt, e, onDev] = lc;
  if ((n == "sum" || n == "max" || n == "min" || n == "amax" || n == "amin" || n == "mean" ||
       n == "prod" || n == "any" || n == "all") &&
      (numpy || torch)) {
    auto a = libArr(lc, 0);
    if (!a) return nullptr;
    auto ax = libAxisArg(lc, torch ? "dim" : "axis");
    if (!ax) return nullptr;
    if (args.size() > 1 && !*ax) {
      auto x = toInt(args[1], sp);
      if (!x) return nullptr;
      *ax = static_cast<int>(*x);
    }
    const Reduce r = n == "sum"                    ? Reduce::Sum
                     : (n == "max" || n == "amax") ? Reduce::Max
                     : (n == "min" || n == "amin") ? Reduce::Min
                     : n == "mean"                 ? Reduce::Mean
                     : n == "prod"                 ? Reduce::Prod
                     : n == "any"                  ? Reduce::Any
                                                   : Reduce::All;
    for (const auto& [k, v] : kw)
      if (k != "axis" && k != "dim" && k != "keepdims" && k != "keepdim")
        return error("E0803", sp, n + "(" + k + "=...) is not supported by the harness");
    std::string err;
    auto x = reduce(r, *a, *ax, &err);
    if (!x) return error("E0804", sp, err);
    Py kd = kwarg(kw, torch ? "keepdim" : "keepdims");
    if (kd) {
      auto keep = truth(kd, sp);
      if (!keep) return nullptr;
      if (*keep) {  // the reduced axes stay as length 1
        std::vector<int64_t> shape = a->shape;
        for (size_t d = 0; d < shape.size(); ++d)
          if (!*ax || static_cast<int>(d) == (**ax < 0 ? **ax + a->ndim() : **ax)) shape[d] = 1;
        x = reshape(*x, shape, &err);
        if (!x) return error("E0804", sp, err);
      }
    }
    return libFinish(lc, std::move(*x));
  }
  return std::nullopt;
}

// Shape functions: roll, reshape, transpose/permute/swapaxes
std::optional<Py> Interp::libShape(LibCall& lc) {
  [[maybe_unused]] auto& [args, kw, name, n, sp, torch, numpy, fl, dt, e, onDev] = lc;
  if ((n == "roll" || n == "reshape" || n == "transpose" || n == "permute" || n == "swapaxes") &&
      (numpy || torch)) {
    auto a = libArr(lc, 0);
    if (!a) return nullptr;
    std::string err;
    if (n == "transpose" || n == "permute" || n == "swapaxes") {
      // np.transpose(a[, axes]), torch.permute(t, dims), torch.transpose(t, d0, d1), np.swapaxes(a,
      // i, j)
      std::vector<Py> rest(args.begin() + 1, args.end());
      if (Py ax = kwarg(kw, numpy && n == "transpose" ? "axes" : n == "permute" ? "dims" : ""))
        rest.push_back(ax);
      if (!rest.empty() && rest[0]->kind == PyKind::None) rest.clear();
      auto ints = toShape(rest, sp);
      if (!ints) return nullptr;
      const std::string kind = n == "permute" || (n == "transpose" && numpy) ? "permute" : "swap";
      std::vector<int64_t> perm = permutationOf(kind, *ints, a->ndim(), err);
      if (perm.empty() && a->ndim() > 0) return error("E0804", sp, err);
      auto r = transpose(*a, perm, &err);
      if (!r) return error("E0804", sp, err);
      return libFinish(lc, std::move(*r));
    }
    if (n == "reshape") {
      Py s = argOr(args, 1, kw, torch ? "shape" : "newshape");
      if (!s) return error("E0805", sp, "reshape() needs a shape");
      auto shape = toShape({s}, sp);
      if (!shape) return nullptr;
      auto r = reshape(*a, *shape, &err);
      if (!r) return error("E0804", sp, err);
      return libFinish(lc, std::move(*r));
    }
    Py sh = argOr(args, 1, kw, torch ? "shifts" : "shift");
    if (!sh) return error("E0805", sp, "roll() needs a shift");
    auto shift = toInt(sh, sp);
    if (!shift) return nullptr;
    std::optional<int> axis;
    if (Py ax = argOr(args, 2, kw, torch ? "dims" : "axis"); ax && ax->kind != PyKind::None) {
      auto x = toInt(ax, sp);
      if (!x) return nullptr;
      axis = static_cast<int>(*x);
    }
    auto r = roll(*a, *shift, axis, &err);
    if (!r) return error("E0804", sp, err);
    return libFinish(lc, std::move(*r));
  }
  return std::nullopt;
}

// Python builtins: range, len, print, list/tuple, number builtins, min/max/sum, zip/enumerate
std::optional<Py> Interp::libBuiltins(LibCall& lc) {
  [[maybe_unused]] auto& [args, kw, name, n, sp, torch, numpy, fl, dt, e, onDev] = lc;
  // --- Python builtins ---
  if (startsWith(name, "builtins.")) {
    if (!(n == "int"     ? libOnlyKeywords(lc, {"base"})
          : n == "round" ? libOnlyKeywords(lc, {"ndigits"})
          : n == "print" ? libOnlyKeywords(lc, {"sep", "end", "flush"})
                         : libOnlyKeywords(lc, {})))
      return nullptr;
    if (n == "range") {
      std::vector<int64_t> v;
      for (const auto& x : args) {
        auto i = toInt(x, sp);
        if (!i) return nullptr;
        v.push_back(*i);
      }
      if (v.empty() || v.size() > 3) return error("E0805", sp, "range expected 1 to 3 arguments");
      const int64_t start = v.size() >= 2 ? v[0] : 0, stop = v.size() >= 2 ? v[1] : v[0],
                    step = v.size() == 3 ? v[2] : 1;
      if (step == 0) return error("E0804", sp, "range() arg 3 must not be zero");
      std::vector<Py> items;
      for (int64_t i = start; step > 0 ? i < stop : i > stop;) {
        if (items.size() > 10'000'000)
          return error("E0807", sp, "range is too long for the harness");
        items.push_back(integer(i));
        if (__builtin_add_overflow(i, step, &i)) break;  // past INT64_MAX: the range has ended
      }
      return list(std::move(items));
    }
    if (n == "len") {
      if (args.size() != 1) return error("E0805", sp, "len() takes exactly one argument");
      const Py& v = args[0];
      if (v->kind == PyKind::Tuple || v->kind == PyKind::List)
        return integer(static_cast<int64_t>(v->items.size()));
      if (v->kind == PyKind::Dict) return integer(static_cast<int64_t>(v->items.size() / 2));
      if (v->kind == PyKind::Str) return integer(static_cast<int64_t>(v->s.size()));
      if (v->kind == PyKind::Array && v->arr->ndim() > 0) return integer(v->arr->shape[0]);
      return error("E0804", sp, "object of type '" + typeName(v) + "' has no len()");
    }
    if (n == "print") {
      Py sepv = kwarg(kw, "sep"), endv = kwarg(kw, "end");
      const std::string sep = sepv && sepv->kind == PyKind::Str ? sepv->s : " ";
      const std::string end = endv && endv->kind == PyKind::Str ? endv->s : "\n";
      std::string line;
      for (size_t i = 0; i < args.size(); ++i) line += (i ? sep : "") + strOf(args[i]);
      ctx.report->log += line + end;
      return none();
    }
    if (n == "list" || n == "tuple") {
      std::vector<Py> items;
      if (!args.empty()) {
        const Py& v = args[0];
        if (v->kind == PyKind::Tuple || v->kind == PyKind::List)
          items = v->items;
        else if (v->kind == PyKind::Array && v->arr->ndim() >= 1)
          for (int64_t k = 0; k < v->arr->shape[0]; ++k)
            items.push_back(array(*getItem(*v->arr, {IndexItem::at(k)}, nullptr)));
        else
          return error("E0804", sp, "'" + typeName(v) + "' object is not iterable");
      }
      return n == "list" ? list(std::move(items)) : tuple(std::move(items));
    }
    if (n == "int" || n == "float" || n == "bool" || n == "abs" || n == "round" || n == "divmod")
      return numberBuiltin(n, args, kw, sp);
    if (n == "str") return str(args.empty() ? "" : strOf(args[0]));
    if (n == "format" || n == "repr" || n == "ascii") return formatBuiltin(n, args, sp);
    if (n == "min" || n == "max" || n == "sum") {
      // min/max(a, b, ...) or min/max(iterable); sum(iterable, start=0)
      std::vector<Py> items = args;
      Py start = integer(0);
      const bool iterable = args.size() == 1 || n == "sum";
      if (n == "sum" && (args.empty() || args.size() > 2))
        return error("E0805", sp, "sum() takes 1 or 2 arguments");
      if (n == "sum" && args.size() == 2) start = args[1];
      if (iterable && !args.empty()) {
        const Py& it = args[0];
        if (it->kind == PyKind::List || it->kind == PyKind::Tuple)
          items = it->items;
        else if (it->kind == PyKind::Array && it->arr->ndim() >= 1) {
          items.clear();
          for (int64_t k = 0; k < it->arr->shape[0]; ++k) {
            Py x = array(*getItem(*it->arr, {IndexItem::at(k)}, nullptr));
            items.push_back(x);
          }
        } else {
          return error("E0804", sp, "'" + typeName(it) + "' object is not iterable");
        }
      }
      if (items.empty())
        return n == "sum" ? start : error("E0804", sp, n + "() arg is an empty sequence");
      Py best = n == "sum" ? start : items[0];
      for (size_t i = n == "sum" ? 0 : 1; i < items.size(); ++i) {
        if (n == "sum") {
          best = binop(ast::Op::Add, best, items[i], sp);
          if (!best) return nullptr;
          continue;
        }
        Py c = binop(n == "min" ? ast::Op::Lt : ast::Op::Gt, items[i], best, sp);
        if (!c) return nullptr;
        auto t = truth(c, sp);
        if (!t) return nullptr;
        if (*t) best = items[i];
      }
      return best;
    }
    if (n == "zip" || n == "enumerate" || n == "reversed" || n == "sorted") {
      auto seq = [&](const Py& v) -> const std::vector<Py>* {
        return (v->kind == PyKind::List || v->kind == PyKind::Tuple) ? &v->items : nullptr;
      };
      std::vector<Py> out;
      if (n == "zip") {
        size_t len = SIZE_MAX;
        for (const auto& a : args) {
          if (!seq(a)) return error("E0804", sp, "zip argument is not a sequence");
          len = std::min(len, seq(a)->size());
        }
        if (args.empty()) len = 0;
        for (size_t i = 0; i < len; ++i) {
          std::vector<Py> t;
          for (const auto& a : args) t.push_back((*seq(a))[i]);
          out.push_back(tuple(std::move(t)));
        }
      } else {
        if (args.empty() || !seq(args[0]))
          return error("E0804", sp, n + "() needs a list or tuple");
        const auto& s = *seq(args[0]);
        if (n == "enumerate")
          for (size_t i = 0; i < s.size(); ++i)
            out.push_back(tuple({integer(static_cast<int64_t>(i)), s[i]}));
        else if (n == "reversed")
          out.assign(s.rbegin(), s.rend());
        else
          return error("E0802", sp, "sorted() is not supported by the harness");
      }
      return list(std::move(out));
    }
  }
  return std::nullopt;
}

/// reshape, view, astype/to/type, float()/half()/..., numpy(), cpu()/cuda()/clone()..., flatten():
/// methods that return the array in another shape, dtype or place; nullopt for other names.
std::optional<Py> Interp::arrayConversionMethod(const Py& self, const std::string& name,
                                                std::vector<Py>& args, Kwargs& kw, SourceSpan sp) {
  Array& a = *self->arr;
  std::string err;
  auto keep = [&](Array r) {
    r.flavor = a.flavor;
    r.onDevice = a.onDevice;
    return array(std::move(r));
  };
  if (name == "reshape" ||
      (name == "view" &&
       !(args.size() == 1 && (args[0]->kind == PyKind::DType || args[0]->kind == PyKind::Str)))) {
    auto shape = toShape(args, sp);
    if (!shape) return nullptr;
    auto r = reshape(a, *shape, &err);
    if (!r) return error("E0804", sp, err);
    return keep(std::move(*r));
  }
  if (name == "view") {
    auto t = dtypeArg(*this, args[0], sp);
    if (!t) return nullptr;
    auto r = viewAs(a, *t, &err);
    if (!r) return error("E0804", sp, err);
    return keep(std::move(*r));
  }
  if (name == "astype" || name == "to" || name == "type") {
    Py target = argOr(args, 0, kw, "dtype");
    if (name == "to" && target && target->kind == PyKind::Str &&
        (startsWith(target->s, "cuda") || target->s == "cpu")) {
      Array r = a;
      r.onDevice = startsWith(target->s, "cuda");
      target = kwarg(kw, "dtype");
      if (!target) return array(std::move(r));
      auto t = dtypeArg(*this, target, sp);
      if (!t) return nullptr;
      return array(astype(r, *t));
    }
    if (name == "to" && target && target->kind == PyKind::Device) return keep(a);
    if (!target) return error("E0805", sp, name + "() needs a dtype");
    auto t = dtypeArg(*this, target, sp);
    if (!t) return nullptr;
    if (*t == a.dtype) return keep(a);
    return keep(astype(a, *t));
  }
  if (name == "float" || name == "half" || name == "bfloat16" || name == "double" ||
      name == "int" || name == "long" || name == "bool") {
    const DType t = name == "float"      ? DType::Float32
                    : name == "half"     ? DType::Float16
                    : name == "bfloat16" ? DType::BFloat16
                    : name == "double"   ? DType::Float64
                    : name == "int"      ? DType::Int32
                    : name == "long"     ? DType::Int64
                                         : DType::Bool;
    return keep(t == a.dtype ? a : astype(a, t));
  }
  if (name == "numpy") {
    Array r = a;
    r.flavor = Flavor::Numpy;
    r.onDevice = false;
    return array(std::move(r));
  }
  if (name == "cpu" || name == "cuda" || name == "detach" || name == "contiguous" ||
      name == "copy" || name == "clone") {
    Array r = a;
    if (name == "cpu") r.onDevice = false;
    if (name == "cuda") r.onDevice = true;
    return array(std::move(r));
  }
  if (name == "flatten" || name == "ravel") {
    auto r = reshape(a, {-1}, &err);
    return keep(std::move(*r));
  }
  return std::nullopt;
}

/// item, tolist, size, numel, dim: methods that read the array; nullopt for other names.
std::optional<Py> Interp::arrayQueryMethod(const Py& self, const std::string& name,
                                           const std::vector<Py>& args, SourceSpan sp) {
  Array& a = *self->arr;
  const bool torch = a.flavor == Flavor::Torch;
  std::string err;
  if (name == "item") {
    if (a.size() != 1)
      return error("E0804", sp, "can only convert an array of size 1 to a Python scalar");
    return ir::isFloat(a.dtype)
               ? real(a.get(0))
               : (a.dtype == DType::Bool ? boolean(a.getInt(0) != 0) : integer(a.getInt(0)));
  }
  if (name == "tolist") {
    std::function<Py(int, int64_t)> build = [&](int d, int64_t base) -> Py {
      if (d == a.ndim()) return ir::isFloat(a.dtype) ? real(a.get(base)) : integer(a.getInt(base));
      std::vector<Py> items;
      int64_t inner = 1;
      for (int k = d + 1; k < a.ndim(); ++k) inner *= a.shape[k];
      for (int64_t k = 0; k < a.shape[d]; ++k) items.push_back(build(d + 1, base + k * inner));
      return list(std::move(items));
    };
    return build(0, 0);
  }
  if (name == "size" && torch) {
    if (!args.empty()) {
      auto d = toInt(args[0], sp);
      if (!d) return nullptr;
      const int64_t k = *d < 0 ? *d + a.ndim() : *d;
      if (k < 0 || k >= a.ndim()) return error("E0806", sp, "dimension out of range");
      return integer(a.shape[k]);
    }
    std::vector<Py> s;
    for (auto x : a.shape) s.push_back(integer(x));
    return tuple(std::move(s));
  }
  if (name == "numel") return integer(a.size());
  if (name == "dim") return integer(a.ndim());
  return std::nullopt;
}

/// fill_, zero_, copy_: methods that write the array in place; nullopt for other names.
std::optional<Py> Interp::arrayInPlaceMethod(const Py& self, const std::string& name,
                                             const std::vector<Py>& args, SourceSpan sp) {
  Array& a = *self->arr;
  std::string err;
  if ((name == "fill_" || name == "zero_" || name == "copy_") && refuseViewWrite(self, sp))
    return nullptr;
  if (name == "fill_" || name == "zero_") {
    double v = 0;
    if (name == "fill_") {
      if (args.empty()) return error("E0805", sp, "fill_() needs a value");
      auto x = toReal(args[0], sp);
      if (!x) return nullptr;
      v = *x;
    }
    for (int64_t i = 0; i < a.size(); ++i) a.set(i, v);
    a.defined.clear();
    return self;
  }
  if (name == "copy_") {
    if (args.empty()) return error("E0805", sp, "copy_() needs a source");
    auto s = toArray(args[0], sp, a.dtype);
    if (!s) return nullptr;
    if (s->shape != a.shape)
      return error(
          "E0804", sp,
          "copy_() source shape " + shapeText(s->shape) + " differs from " + shapeText(a.shape));
    a.data = s->data;
    a.defined = s->defined;
    return self;
  }
  return std::nullopt;
}

Py Interp::callMethod(const Py& self, const std::string& name, std::vector<Py>& args, Kwargs& kw,
                      const ast::Expr& e) {
  const SourceSpan sp = e.span;
  if (self->kind == PyKind::List) {
    if (name == "append" && args.size() == 1) {
      self->items.push_back(args[0]);
      return none();
    }
    if (name == "extend" && args.size() == 1 &&
        (args[0]->kind == PyKind::List || args[0]->kind == PyKind::Tuple)) {
      self->items.insert(self->items.end(), args[0]->items.begin(), args[0]->items.end());
      return none();
    }
    return error("E0802", sp, "list method '" + name + "' is not supported by the harness");
  }
  if (self->kind == PyKind::Dict) {
    if (name == "items" || name == "keys" || name == "values") {
      std::vector<Py> out;
      for (size_t k = 0; k + 1 < self->items.size(); k += 2) {
        if (name == "items")
          out.push_back(tuple({self->items[k], self->items[k + 1]}));
        else
          out.push_back(self->items[k + (name == "values")]);
      }
      return list(std::move(out));
    }
    return error("E0802", sp, "dict method '" + name + "' is not supported by the harness");
  }
  if (self->kind == PyKind::Str) {
    if (name == "format") return strFormat(self, args, kw, sp);
    return error("E0802", sp, "str method '" + name + "' is not supported by the harness");
  }
  Array& a = *self->arr;
  const bool torch = a.flavor == Flavor::Torch;
  std::string err;
  auto keep = [&](Array r) {
    r.flavor = a.flavor;
    r.onDevice = a.onDevice;
    return array(std::move(r));
  };
  if (std::optional<Py> r = arrayConversionMethod(self, name, args, kw, sp)) return *r;
  if (std::optional<Py> r = arrayQueryMethod(self, name, args, sp)) return *r;
  if (std::optional<Py> r = arrayInPlaceMethod(self, name, args, sp)) return *r;
  if (name == "t" && torch) {
    // torch's t(): a 2-D tensor transposed, a 0-D or 1-D tensor as it is, more dimensions refused
    if (!args.empty()) return error("E0805", sp, "t() takes no arguments");
    if (a.ndim() > 2)
      return error("E0804", sp,
                   "t() expects a tensor with at most 2 dimensions, got " + shapeText(a.shape));
    if (a.ndim() < 2) return self;
    auto r = transpose(a, {1, 0}, &err);
    if (!r) return error("E0804", sp, err);
    return keep(std::move(*r));
  }
  if (name == "transpose" || name == "permute" || name == "swapaxes") {
    // a.transpose() / a.transpose(1, 0, 2) / a.transpose((1, 0, 2)) (numpy), t.transpose(0, 1)
    // and t.permute(2, 0, 1) (torch), a.swapaxes(0, 1)
    auto ints = toShape(args, sp);
    if (!ints) return nullptr;
    const std::string kind =
        name == "permute" || (name == "transpose" && (!torch || args.empty())) ? "permute" : "swap";
    std::vector<int64_t> perm = permutationOf(kind, *ints, a.ndim(), err);
    if (perm.empty() && a.ndim() > 0) return error("E0804", sp, err);
    auto r = transpose(a, perm, &err);
    if (!r) return error("E0804", sp, err);
    return keep(std::move(*r));
  }
  // Reductions and math as methods: a.sum(), a.max(axis=0), t.exp(), t.clamp_min(0)...
  static const char* kFns[] = {
      "sum",   "max",   "min",     "mean",  "prod", "any",   "all",       "exp",       "log",
      "sqrt",  "abs",   "sigmoid", "tanh",  "relu", "clamp", "clamp_min", "clamp_max", "clip",
      "round", "floor", "ceil",    "trunc", "neg",  "exp2",  "log2",      "softmax"};
  for (const char* f : kFns) {
    if (name != f) continue;
    std::vector<Py> all{self};
    all.insert(all.end(), args.begin(), args.end());
    return callLibrary(std::string(torch ? "torch." : "numpy.") + name, all, kw, e);
  }
  return error("E0802", sp, "array method '" + name + "' is not supported by the harness");
}

}  // namespace tirx::verify
