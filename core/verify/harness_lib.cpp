// The library surface of the harness: numpy, torch, tvm / tvm_tirx and Python builtins, array
// attributes and methods, kernel compilation handles and kernel calls, and the comparison calls
// that become Checks. Anything outside this subset is a diagnostic (E0802) at the call, never a
// crash.
#include <cmath>
#include <cstring>

#include "core/ir/specialize.h"
#include "core/sim/sim_numerics.h"
#include "core/verify/harness_interp.h"
#include "core/verify/harness_lib_call.h"

namespace tirx::verify {

namespace {

std::optional<DType> dtypeNamed(const std::string& n) {
  if (n == "float" || n == "double") return n == "float" ? DType::Float32 : DType::Float64;
  if (n == "half") return DType::Float16;
  if (n == "long") return DType::Int64;
  if (n == "int") return DType::Int32;
  if (n == "bool_") return DType::Bool;
  return ir::parseDType(n);
}

const char* kDtypeNames[] = {"float16", "float32", "float64", "bfloat16", "int8",
                             "int16",   "int32",   "int64",   "uint8",    "uint16",
                             "uint32",  "uint64",  "bool",    "bool_",    "half",
                             "float",   "double",  "long",    "int"};

}  // namespace

Py Interp::attribute(const Py& obj, const std::string& name, SourceSpan span) {
  switch (obj->kind) {
    case PyKind::Opaque:
    case PyKind::Kernel:
    case PyKind::Device:
      return opaque();
    case PyKind::Module: {
      const std::string full = obj->s + "." + name;
      static const char* kSub[] = {
          "numpy.testing", "numpy.random", "torch.nn",         "torch.nn.functional",
          "torch.testing", "torch.cuda",   "tvm.tirx",         "tvm.runtime",
          "tvm.testing",   "tvm.nd",       "tvm_tirx.runtime", "tvm_tirx.testing"};
      for (const char* s : kSub)
        if (full == s) return module(full);
      const bool np = obj->s == "numpy", th = obj->s == "torch";
      if (np || th) {
        for (const char* d : kDtypeNames) {
          if (name != d) continue;
          if (np && (name == "half" || name == "float" || name == "double" || name == "long" ||
                     name == "int" || name == "bfloat16"))
            break;
          if (th && name == "bool_") break;
          return dtypeValue(*dtypeNamed(name), th ? Flavor::Torch : Flavor::Numpy);
        }
      }
      if (obj->s == "numpy" || obj->s == "math") {
        if (name == "pi") return real(M_PI);
        if (name == "e") return real(M_E);
        if (name == "inf") return real(INFINITY);
        if (name == "nan") return real(NAN);
        if (name == "newaxis") return none();
      }
      if (startsWith(obj->s, "tvm") &&
          (name == "tirx" || name == "script" || name == "backend" || name == "ir"))
        return module(full);
      return builtin(full);
    }
    case PyKind::Array: {
      const Array& a = *obj->arr;
      if (name == "T") {
        Py t = array(transpose(a));
        t->view = true;
        return t;
      }
      if (name == "shape") {
        std::vector<Py> s;
        for (auto e : a.shape) s.push_back(integer(e));
        return tuple(std::move(s));
      }
      if (name == "dtype") return dtypeValue(a.dtype, a.flavor);
      if (name == "ndim") return integer(a.ndim());
      if (name == "size" && a.flavor == Flavor::Numpy) return integer(a.size());
      if (name == "nbytes") return integer(static_cast<int64_t>(a.data.size()));
      if (name == "device" || name == "is_cuda") return a.onDevice ? str("cuda") : str("cpu");
      auto m = std::make_shared<PyValue>();
      m->kind = PyKind::Method;
      m->s = name;
      m->self = obj;
      return m;
    }
    case PyKind::List:
    case PyKind::Dict:
    case PyKind::Str: {
      auto m = std::make_shared<PyValue>();
      m->kind = PyKind::Method;
      m->s = name;
      m->self = obj;
      return m;
    }
    case PyKind::DType:
      if (name == "itemsize") return integer(ir::dtypeBytes(obj->dtype));
      break;
    default:
      break;
  }
  return error("E0802", span,
               "'" + typeName(obj) + "' has no attribute '" + name + "' supported by the harness");
}

Py Interp::call(const Py& callee, std::vector<Py>& args, Kwargs& kw, const ast::Expr& e) {
  switch (callee->kind) {
    case PyKind::Opaque:
      return opaque();
    case PyKind::Builtin:
      return callLibrary(callee->s, args, kw, e);
    case PyKind::Method: {
      Py r = callMethod(callee->self, callee->s, args, kw, e);
      static const char* kViews[] = {"reshape",   "view",    "transpose", "ravel",  "squeeze",
                                     "unsqueeze", "permute", "swapaxes",  "expand", "flatten"};
      const bool torchFlatten = callee->s == "flatten" && callee->self->flavor == Flavor::Torch;
      for (const char* v : kViews)
        if (r && r->kind == PyKind::Array && r != callee->self && callee->s == v &&
            (callee->s != "flatten" || torchFlatten))
          r->view = true;
      return r;
    }
    case PyKind::Compiled:
      return callKernel(callee, args, e);
    case PyKind::Function:
      return callFunction(callee, args, kw, e.span);
    case PyKind::DType: {
      if (callee->flavor == Flavor::Torch)
        return error("E0804", e.span, "'torch.dtype' object is not callable");
      if (args.size() != 1) return error("E0805", e.span, "a numpy scalar type takes one argument");
      auto a = toArray(args[0], e.span, callee->dtype);
      if (!a) return nullptr;
      a->origin = -1;
      return array(std::move(*a));
    }
    case PyKind::Kernel:
      return error("E0805", e.span,
                   "'" + callee->s + "' is a TIRx function: compile it with tvm.tirx.compile(" +
                       callee->s + ", target=\"cuda\") and call the result");
    default:
      break;
  }
  return error("E0804", e.span, "'" + typeName(callee) + "' object is not callable");
}

Py Interp::callKernel(const Py& compiled, std::vector<Py>& args, const ast::Expr& e) {
  const ir::Kernel* k = ctx.program->findKernel(compiled->s);
  if (!k) return error("E0811", e.span, "no kernel named '" + compiled->s + "' in the program");
  // Symbolic extents are trailing parameters no call writes: the executor binds them
  // (specialize.h).
  const size_t written = ir::writtenParamCount(*k);
  if (args.size() != written)
    return error("E0810", e.span,
                 "kernel '" + k->name + "' takes " + std::to_string(written) +
                     " arguments, found " + std::to_string(args.size()));
  std::vector<ir::KernelArg> kargs(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const auto& p = k->params[i];
    const SourceSpan sp = i + 1 < e.args.size() ? e.args[i + 1]->span : e.span;
    if (p.isTensor) {
      if (args[i]->kind != PyKind::Array)
        return error("E0810", sp,
                     "argument " + std::to_string(i) + " ('" + p.name + "') of '" + k->name +
                         "' must be a tensor, found " + typeName(args[i]));
      const Array& a = *args[i]->arr;
      const ir::Buffer& b = k->buffers[p.buffer];
      bool shapeOk = a.shape.size() == b.shape.size();
      for (size_t d = 0; shapeOk && d < b.shape.size(); ++d)
        shapeOk = a.shape[d] == b.shape[d] || (d < b.shapeVars.size() && b.shapeVars[d] >= 0);
      if (a.dtype != b.dtype || !shapeOk) {
        Array want = makeArray(b.dtype, b.shape);
        if (!b.shapeVars.empty()) {  // say which extent is symbolic
          std::string dims;
          for (size_t d = 0; d < b.shape.size(); ++d)
            dims += (d ? ", " : "") + (d < b.shapeVars.size() && b.shapeVars[d] >= 0
                                           ? k->vars[b.shapeVars[d]].name
                                           : std::to_string(b.shape[d]));
          return error("E0810", sp,
                       "argument " + std::to_string(i) + " ('" + p.name + "') of '" + k->name +
                           "' must be " + std::string(ir::dtypeName(b.dtype)) + " (" + dims +
                           (b.shape.size() == 1 ? ",)" : ")") + ", found " + describe(a));
        }
        return error("E0810", sp,
                     "argument " + std::to_string(i) + " ('" + p.name + "') of '" + k->name +
                         "' must be " + describe(want) + ", found " + describe(a));
      }
      kargs[i].isTensor = true;
      kargs[i].tensor = a.toHost();
    } else {
      kargs[i].isTensor = false;
      kargs[i].scalarType = p.dtype;
      auto x = toReal(args[i], sp);
      if (!x) return nullptr;
      Array s = makeArray(p.dtype, {1});
      s.set(0, *x);
      uint64_t bits = 0;
      std::memcpy(&bits, s.data.data(), s.data.size());
      kargs[i].scalarBits = bits;
    }
  }
  HarnessRun r = ctx.runKernel(k->name, kargs, e.span);
  ++kernelCalls;
  lastKernel = k->name;
  lastDevice = r.device;
  if (!r.ok) return error("E0812", e.span, r.error);
  for (size_t i = 0; i < args.size(); ++i) {
    if (!kargs[i].isTensor) continue;
    Array& a = *args[i]->arr;
    // A view argument the kernel wrote to: numpy would see the write in the original array, the
    // harness's copy cannot pass it on.
    if (args[i]->view && (a.data != kargs[i].tensor.data || a.defined != kargs[i].tensor.defined) &&
        refuseViewWrite(args[i], i + 1 < e.args.size() ? e.args[i + 1]->span : e.span))
      return nullptr;
    a.data = kargs[i].tensor.data;
    a.defined = kargs[i].tensor.defined;
    Origin o;
    o.kernel = k->name;
    o.arg = static_cast<int>(i);
    if (i < r.provenance.args.size()) o.owners = r.provenance.args[i];
    o.bufferNames = r.provenance.bufferNames;
    origins.push_back(std::move(o));
    a.origin = static_cast<int>(origins.size()) - 1;
  }
  return none();
}

void Interp::addCheck(const std::string& kind, const Comparison& c, const Array& actual,
                      const Array& expected, SourceSpan span) {
  Check ch;
  ch.kind = kind;
  ch.span = span;
  ch.pass = c.pass;
  ch.message = c.message;
  ch.kernel = lastKernel;
  ch.device = lastDevice;
  ch.name = (lastKernel.empty() ? std::string("check") : lastKernel) + " (line " +
            std::to_string(span.line) + ")";
  ch.rtol = c.rtol;
  ch.atol = c.atol;
  ch.equalNan = c.equalNan;
  ch.maxAbs = c.maxAbs;
  ch.maxRel = c.maxRel;
  ch.mismatches = c.mismatches;
  ch.total = c.total;
  ch.shape = actual.shape;
  constexpr int64_t kMaxValues = int64_t{1} << 20;
  if (actual.size() <= kMaxValues) ch.output = actual.toDoubles();
  if (expected.size() <= kMaxValues) ch.reference = expected.toDoubles();
  const Origin* org = actual.origin >= 0 && actual.origin < static_cast<int>(origins.size())
                          ? &origins[actual.origin]
                          : nullptr;
  if (org) ch.kernel = org->kernel;
  for (const auto& w : c.worst) {
    WorstElement we;
    we.coord = w.coord;
    we.actual = w.actual;
    we.expected = w.expected;
    we.absErr = w.absErr;
    we.relErr = w.relErr;
    if (org && w.flat >= 0 && w.flat < static_cast<int64_t>(org->owners.size()))
      we.owner = ownerInfo(org->owners[size_t(w.flat)], org->kernel, org->bufferNames);
    ch.worst.push_back(std::move(we));
  }
  ctx.report->checks.push_back(std::move(ch));
}

Py Interp::check(const std::string& kind, std::vector<Py>& args, Kwargs& kw, const ast::Expr& e) {
  Py pa = argOr(args, 0, kw, kind == "torch.testing.assert_close" ? "actual" : "actual");
  Py pb = argOr(args, 1, kw, kind == "torch.testing.assert_close" ? "expected" : "desired");
  if (!pa || !pb) return error("E0805", e.span, kind + "() needs two arrays to compare");
  const Flavor fl = kind == "torch.testing.assert_close" ? Flavor::Torch : Flavor::Numpy;
  auto a = toArray(pa, e.span, {}, fl);
  if (!a) return nullptr;
  auto b = toArray(pb, e.span, {}, fl);
  if (!b) return nullptr;
  auto realArg = [&](size_t pos, const std::string& name, double dflt) -> std::optional<double> {
    Py v = argOr(args, pos, kw, name);
    if (!v || v->kind == PyKind::None) return dflt;
    return toReal(v, e.span);
  };
  Comparison c;
  std::string checkKind = kind.substr(kind.rfind('.') + 1);
  if (kind == "torch.testing.assert_close") {
    Py r = kwarg(kw, "rtol"), t = kwarg(kw, "atol");
    std::optional<double> rt, at;
    if (r && r->kind != PyKind::None) rt = toReal(r, e.span);
    if (t && t->kind != PyKind::None) at = toReal(t, e.span);
    if (m_failed) return nullptr;
    Py en = kwarg(kw, "equal_nan"), cd = kwarg(kw, "check_dtype");
    c = assertClose(*a, *b, rt, at, en && truth(en, e.span).value_or(false),
                    cd ? truth(cd, e.span).value_or(true) : true);
  } else if (kind == "assert allclose") {
    auto rt = realArg(2, "rtol", 1e-5), at = realArg(3, "atol", 1e-8);
    if (!rt || !at) return nullptr;
    Py en = argOr(args, 4, kw, "equal_nan");
    c = assertAllclose(*a, *b, *rt, *at, en && truth(en, e.span).value_or(false));
    checkKind = "allclose";
  } else {
    const bool exact =
        kind == "numpy.testing.assert_array_equal" || kind == "numpy.testing.assert_equal";
    auto rt = realArg(2, "rtol", exact ? 0.0 : 1e-7), at = realArg(3, "atol", 0.0);
    if (!rt || !at) return nullptr;
    Py en = argOr(args, 4, kw, "equal_nan");
    c = assertAllclose(*a, *b, exact ? 0.0 : *rt, exact ? 0.0 : *at,
                       en ? truth(en, e.span).value_or(true) : true);
  }
  addCheck(checkKind, c, *a, *b, e.span);
  return none();
}

}  // namespace tirx::verify
