// The attention functions of the check code: `torch.softmax(x, dim)`,
// `torch.nn.functional.softmax(x, dim=None)` (and the method `x.softmax(dim)`, forwarded by
// callMethod) and `torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=None,
// dropout_p=0.0, is_causal=False, scale=None)`.
//
// Like the rest of the harness they compute in double and round once to the result dtype (the
// input's, or softmax's dtype=): a reference at least as accurate as PyTorch's float32
// accumulation, so a kernel checked against it with the usual bf16 tolerances passes or fails on
// its own error. Semantics follow PyTorch: softmax of a row of -inf is NaN; the causal mask is the
// top-left aligned lower triangle (query i sees keys 0..i); a bool attn_mask keeps the positions
// that are True, a float one is added to the scores; scale defaults to 1/sqrt(E). Dropout, GQA and
// integer inputs are refused (E0803/E0804) rather than approximated. Checked against numpy
// formulas by tst_harness_conform (tests/data/harness_conform, the `nn` cases).
#include <cmath>
#include <limits>

#include "core/verify/harness_interp.h"
#include "core/verify/harness_lib_call.h"

namespace tirx::verify {

namespace {

/// Softmax over the last axis of a float64 array, in place: exp(x - max) / sum.
void softmaxRows(Array& s) {
  const int64_t cols = s.shape.empty() ? 1 : s.shape.back();
  if (cols == 0) return;
  const int64_t rows = s.size() / cols;
  std::vector<double> row(static_cast<size_t>(cols));
  for (int64_t r = 0; r < rows; ++r) {
    double m = -std::numeric_limits<double>::infinity();
    for (int64_t c = 0; c < cols; ++c) {
      row[size_t(c)] = s.get(r * cols + c);
      m = std::max(m, row[size_t(c)]);  // NaN-propagation: a NaN row stays NaN below
    }
    double sum = 0;
    for (int64_t c = 0; c < cols; ++c) sum += row[size_t(c)] = std::exp(row[size_t(c)] - m);
    for (int64_t c = 0; c < cols; ++c) s.set(r * cols + c, row[size_t(c)] / sum);
  }
}

/// Moves axis `dim` of `a` to the end (or back, with `inverse`).
std::optional<Array> moveAxisLast(const Array& a, int dim, bool inverse, std::string* err) {
  std::vector<int64_t> perm;
  for (int d = 0; d < a.ndim(); ++d)
    if (d != dim) perm.push_back(d);
  perm.push_back(dim);
  if (inverse) {
    std::vector<int64_t> inv(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) inv[size_t(perm[i])] = int64_t(i);
    perm = inv;
  }
  return transpose(a, perm, err);
}

}  // namespace

std::optional<Py> Interp::libNn(LibCall& lc) {
  const bool functional = startsWith(lc.name, "torch.nn.functional.");
  if (lc.n == "softmax" && (lc.name == "torch.softmax" || functional)) return libSoftmax(lc);
  if (lc.n == "scaled_dot_product_attention" && functional) return libAttention(lc);
  return std::nullopt;
}

Py Interp::libSoftmax(LibCall& lc) {
  [[maybe_unused]] auto& [args, kw, name, n, sp, torch, numpy, fl, dt, e, onDev] = lc;
  const bool functional = startsWith(name, "torch.nn.functional.");
  if (!libOnlyKeywords(lc, {"dim", "dtype", "input"})) return nullptr;
  auto x = libArr(lc, 0, "input");
  if (!x) return nullptr;
  if (!ir::isFloat(x->dtype) && !dt)
    return error("E0804", sp,
                 "softmax() of " + std::string(ir::dtypeName(x->dtype)) +
                     " is not implemented in PyTorch (a float tensor, or dtype=)");
  std::optional<int> dim;
  if (Py d = argOr(args, 1, kw, "dim"); d && d->kind != PyKind::None) {
    auto v = toInt(d, sp);
    if (!v) return nullptr;
    dim = int(*v);
  } else if (!functional) {
    return error("E0805", sp, "torch.softmax() needs dim");
  } else {  // F.softmax's legacy implicit dim (PyTorch warns): 0 for 0-, 1- and 3-d inputs
    dim = (x->ndim() == 0 || x->ndim() == 1 || x->ndim() == 3) ? 0 : 1;
  }
  const int nd = std::max(1, x->ndim());
  if (*dim < -nd || *dim >= nd)
    return error("E0804", sp,
                 "Dimension out of range (expected to be in range of [" + std::to_string(-nd) +
                     ", " + std::to_string(nd - 1) + "], but got " + std::to_string(*dim) + ")");
  const int d = *dim < 0 ? *dim + nd : *dim;
  std::string err;
  Array s = astype(*x, DType::Float64);
  if (s.ndim() > 0) {
    auto moved = moveAxisLast(s, d, false, &err);
    if (!moved) return error("E0804", sp, err);
    s = std::move(*moved);
  }
  softmaxRows(s);
  if (s.ndim() > 0) {
    auto back = moveAxisLast(s, d, true, &err);
    if (!back) return error("E0804", sp, err);
    s = std::move(*back);
  }
  Array r = astype(s, dt.value_or(x->dtype));
  r.onDevice = x->onDevice;
  return libFinish(lc, std::move(r));
}

Py Interp::libAttention(LibCall& lc) {
  [[maybe_unused]] auto& [args, kw, name, n, sp, torch, numpy, fl, dt, e, onDev] = lc;
  if (!libOnlyKeywords(lc, {"query", "key", "value", "attn_mask", "dropout_p", "is_causal", "scale",
                            "enable_gqa"}))
    return nullptr;
  auto q = libArr(lc, 0, "query"), k = libArr(lc, 1, "key"), v = libArr(lc, 2, "value");
  if (!q || !k || !v) return nullptr;
  for (const Array* a : {&*q, &*k, &*v})
    if (!ir::isFloat(a->dtype) || a->ndim() < 2)
      return error(
          "E0804", sp,
          "scaled_dot_product_attention() takes float tensors of at least 2 dimensions, found " +
              describe(*a));
  if (q->dtype != k->dtype || q->dtype != v->dtype)
    return error(
        "E0804", sp,
        "scaled_dot_product_attention(): query, key and value must have the same dtype, found " +
            describe(*q) + ", " + describe(*k) + ", " + describe(*v));
  const std::vector<int64_t> batch(q->shape.begin(), q->shape.end() - 2);
  if (std::vector<int64_t>(k->shape.begin(), k->shape.end() - 2) != batch ||
      std::vector<int64_t>(v->shape.begin(), v->shape.end() - 2) != batch)
    return error("E0803", sp,
                 "scaled_dot_product_attention() with batch dimensions that differ between "
                 "query, key and value (" +
                     describe(*q) + ", " + describe(*k) + ", " + describe(*v) +
                     ") is not supported by the harness");
  const int64_t E = q->shape.back(), S = k->shape[k->shape.size() - 2];
  if (k->shape.back() != E || v->shape[v->shape.size() - 2] != S)
    return error("E0804", sp,
                 "scaled_dot_product_attention(): shapes do not fit: query " + describe(*q) +
                     ", key " + describe(*k) + ", value " + describe(*v));
  bool causal = false;
  if (Py c = argOr(args, 5, kw, "is_causal")) {
    auto t = truth(c, sp);
    if (!t) return nullptr;
    causal = *t;
  }
  if (Py p = argOr(args, 4, kw, "dropout_p")) {
    auto x = toReal(p, sp);
    if (!x) return nullptr;
    if (*x != 0)
      return error("E0803", sp,
                   "scaled_dot_product_attention(dropout_p=" + reprOf(p) +
                       ") is random: not supported by the harness");
  }
  if (Py g = kwarg(kw, "enable_gqa"); g && truth(g, sp).value_or(true))
    return error("E0803", sp,
                 "scaled_dot_product_attention(enable_gqa=True) is not supported by the harness");
  double scale = 1 / std::sqrt(double(E));
  if (Py s = argOr(args, 6, kw, "scale"); s && s->kind != PyKind::None) {
    auto x = toReal(s, sp);
    if (!x) return nullptr;
    scale = *x;
  }
  Py mask = argOr(args, 3, kw, "attn_mask");
  if (mask && mask->kind == PyKind::None) mask = nullptr;
  if (mask && causal)
    return error("E0804", sp,
                 "scaled_dot_product_attention(): attn_mask and is_causal=True cannot be given "
                 "together (PyTorch raises)");
  std::string err;
  std::vector<int64_t> kt(size_t(k->ndim()));
  for (size_t i = 0; i < kt.size(); ++i) kt[i] = int64_t(i);
  std::swap(kt[kt.size() - 1], kt[kt.size() - 2]);
  auto kT = transpose(astype(*k, DType::Float64), kt, &err);
  std::optional<Array> s =
      kT ? matmul(astype(*q, DType::Float64), *kT, DType::Float64, &err) : std::nullopt;
  if (!s) return error("E0804", sp, err);
  for (int64_t i = 0; i < s->size(); ++i) s->set(i, s->get(i) * scale);
  const int64_t L = q->shape[q->shape.size() - 2];
  if (causal)
    for (int64_t i = 0; i < s->size(); ++i)
      if (i % S > (i / S) % L) s->set(i, -std::numeric_limits<double>::infinity());
  if (mask) {
    auto m = toArray(mask, sp, {}, Flavor::Torch);
    if (!m) return nullptr;
    auto shape = broadcastShapes(m->shape, s->shape);
    if (!shape || *shape != s->shape)
      return error("E0804", sp,
                   "scaled_dot_product_attention(): attn_mask " + describe(*m) +
                       " does not broadcast to the scores' shape " + shapeText(s->shape));
    std::optional<Array> r;
    if (m->dtype == DType::Bool) {
      Array inf = fromDoubles(DType::Float64, {}, {-std::numeric_limits<double>::infinity()});
      r = where(*m, *s, inf, &err);
    } else {
      r = binary(BinaryOp::Add, *s, astype(*m, DType::Float64), DType::Float64, &err);
    }
    if (!r) return error("E0804", sp, err);
    s = std::move(r);
  }
  softmaxRows(*s);
  auto o = matmul(*s, astype(*v, DType::Float64), DType::Float64, &err);
  if (!o) return error("E0804", sp, err);
  Array r = astype(*o, q->dtype);
  r.onDevice = q->onDevice;
  return libFinish(lc, std::move(r));
}

}  // namespace tirx::verify
