// Tensor values: allocations (T.alloc_local / T.alloc_shared, omitted layout = row-major, OPEN-3),
// reshape views `.view(d0, ...)` (one -1, same layout) and `.view(..., layout=L)` (any layout that
// admits the shape, zero strides allowed: OPEN-7), dtype views `.view("uint16")` (layout through
// dtypeView), regions `A[a:b, c:d]` that keep every dimension and `A.sub[i, :]` where an integer
// index drops its dimension (OPEN-8), and direct element loads/stores (illegal on register tiles
// whose layout has thread axes, spec §1.6). Every value is an ir::TensorRef (see ir.h for the
// resolution rule: lo/dimMap over layoutShape, then the layout, then elemOffset).
#include <algorithm>

#include "core/sema/sema_internal.h"

namespace tirx::sema {

using ir::DType;

namespace {
bool isPow2(int64_t v) {
  return v > 0 && (v & (v - 1)) == 0;
}

std::string shapeText(const std::vector<int64_t>& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

bool hasSlice(const ast::Expr& index) {
  if (index.kind == ast::ExprKind::Slice) return true;
  if (index.kind == ast::ExprKind::Tuple)
    for (const auto& a : index.args)
      if (a && a->kind == ast::ExprKind::Slice) return true;
  return false;
}

std::vector<const ast::Expr*> indexItems(const ast::Expr& index) {
  std::vector<const ast::Expr*> items;
  if (index.kind == ast::ExprKind::Tuple)
    for (const auto& a : index.args) items.push_back(a.get());
  else
    items.push_back(&index);
  return items;
}

int64_t memOffset(const TileLayout& l) {
  auto it = l.offset.find("m");
  return it == l.offset.end() ? 0 : it->second;
}
}  // namespace

bool Analyzer::isWhole(const ir::TensorRef& t) const {
  if (t.shape != t.layoutShape || t.dimMap.size() != t.layoutShape.size()) return false;
  for (size_t d = 0; d < t.dimMap.size(); ++d) {
    if (t.dimMap[d] != static_cast<int>(d)) return false;
    if (d < t.lo.size() && t.lo[d] && constValue(*t.lo[d]).value_or(1) != 0) return false;
  }
  return true;
}

bool Analyzer::isTensorExpr(const ast::Expr& e) {
  switch (e.kind) {
    case ast::ExprKind::Name: {
      const Binding* b = lookup(e.text);
      return b && b->kind == Binding::Kind::Tensor;
    }
    case ast::ExprKind::Call: {
      const ast::Expr& callee = *e.args[0];
      return callee.kind == ast::ExprKind::Attribute && callee.text == "view" &&
             isTensorExpr(*callee.args[0]);
    }
    case ast::ExprKind::Subscript: {
      const ast::Expr& obj = *e.args[0];
      if (obj.kind == ast::ExprKind::Attribute && obj.text == "sub" && isTensorExpr(*obj.args[0]))
        return true;
      return isTensorExpr(obj) && e.args[1] && hasSlice(*e.args[1]);
    }
    default:
      return false;
  }
}

std::shared_ptr<const ir::TensorRef> Analyzer::lowerTensor(const ast::Expr& e) {
  switch (e.kind) {
    case ast::ExprKind::Name: {
      const Binding* b = lookup(e.text);
      if (!b) {
        unknownName(e);
        return nullptr;
      }
      if (b->kind != Binding::Kind::Tensor) {
        error("E0143", e.span, "'" + e.text + "' is not a tensor");
        return nullptr;
      }
      useSymbol(b->symbol, e.span);
      if (b->tensor->buffer >= 0 &&
          b->tensor->buffer < static_cast<int>(m_body->bufferUsed.size())) {
        m_body->bufferUsed[b->tensor->buffer] = true;
      }
      auto r = std::make_shared<ir::TensorRef>(*b->tensor);
      r->span = e.span;
      return r;
    }
    case ast::ExprKind::Call: {
      const ast::Expr& callee = *e.args[0];
      if (callee.kind == ast::ExprKind::Attribute && callee.text == "view") {
        auto base = lowerTensor(*callee.args[0]);
        if (!base) return nullptr;
        return lowerView(e, base);
      }
      break;
    }
    case ast::ExprKind::Subscript: {
      const ast::Expr& obj = *e.args[0];
      if (obj.kind == ast::ExprKind::Attribute && obj.text == "sub") {
        auto base = lowerTensor(*obj.args[0]);
        if (!base) return nullptr;
        return lowerRegion(e, base, true);
      }
      auto base = lowerTensor(obj);
      if (!base) return nullptr;
      if (!hasSlice(*e.args[1])) {
        error("E0143", e.span,
              "'" + text(e.span) +
                  "' is one element, not a tensor region; write a slice such as A[0:4] or use "
                  "A.sub[...]");
        return nullptr;
      }
      return lowerRegion(e, base, false);
    }
    default:
      break;
  }
  error("E0143", e.span, "expected a tensor, found '" + text(e.span) + "'");
  return nullptr;
}

bool Analyzer::rejectTensorMemoryAxes(const TileLayout& l, SourceSpan span) {
  // TLane/TCol address Blackwell tensor memory, reachable only through tcgen05 (spec §1.1, §2):
  // the names import and layouts that mention them parse, but no tile of this subset lives there.
  auto tmem = [](const std::string& a) { return a == "TLane" || a == "TCol"; };
  std::string axis;
  for (const auto* iters : {&l.shard, &l.replica})
    for (const auto& it : *iters)
      if (axis.empty() && tmem(it.axis)) axis = it.axis;
  for (const auto& [a, v] : l.offset)
    if (axis.empty() && tmem(a) && v != 0) axis = a;
  if (axis.empty()) return false;
  auto& d = error("E0290", span,
                  "axis '" + axis +
                      "' addresses Blackwell tensor memory (tcgen05), which is not supported yet");
  note(d, span, "register tiles use thread axes and `m`; shared and global tensors use `m` only");
  return true;
}

/// A dtype view: the same elements read at another width (E0135, E0136).
std::shared_ptr<const ir::TensorRef> Analyzer::lowerDtypeView(const ast::Expr& call,
                                                              const ast::Expr& first,
                                                              const ir::TensorRef* base,
                                                              std::shared_ptr<ir::TensorRef> r) {
  if (!call.keywords.empty()) {
    error("E0103", call.keywords[0].span, "a dtype view takes no keyword arguments");
    return nullptr;
  }
  auto t = dtypeArg(first);
  if (!t) return nullptr;
  const int oldBits = ir::dtypeBits(base->dtype), newBits = ir::dtypeBits(*t);
  r->dtype = *t;
  if (oldBits == newBits) return r;
  if (!isWhole(*base)) {
    error("E0136", call.span,
          "a width-changing dtype view of a region is not supported; view the whole tensor first");
    return nullptr;
  }
  std::string why;
  auto nl = tirx::dtypeView(base->layout, oldBits, newBits, &why);
  if (!nl) {
    error("E0135", first.span,
          "cannot view " + std::string(ir::dtypeName(base->dtype)) + " as " +
              std::string(ir::dtypeName(*t)) + ": " + why);
    return nullptr;
  }
  int64_t& last = r->shape.back();
  if (newBits < oldBits) {
    const int64_t k = oldBits / newBits;
    last *= k;
    r->elemOffset *= k;
  } else {
    const int64_t k = newBits / oldBits;
    if (last % k != 0 || r->elemOffset % k != 0) {
      error("E0135", first.span,
            "cannot view " + std::string(ir::dtypeName(base->dtype)) + " as " +
                std::string(ir::dtypeName(*t)) + ": the last dimension (" + std::to_string(last) +
                ") is not a multiple of " + std::to_string(k));
      return nullptr;
    }
    last /= k;
    r->elemOffset /= k;
  }
  r->layout = *nl;
  r->layoutShape = r->shape;
  return r;
}

std::shared_ptr<const ir::TensorRef> Analyzer::lowerView(
    const ast::Expr& call, std::shared_ptr<const ir::TensorRef> base) {
  // A view of a tensor whose strides are symbolic (a region of it too) cannot be laid out
  // statically.
  const bool symbolicStrides =
      base && m_body && m_body->kernel && base->buffer >= 0 &&
      base->buffer < static_cast<int>(m_body->kernel->buffers.size()) &&
      ir::hasSymbolicStrides(m_body->kernel->buffers[size_t(base->buffer)]);
  if (base && (symbolicStrides ||
               std::any_of(base->shape.begin(), base->shape.end(), ir::isSymbolicExtent))) {
    auto& d = error(
        "E0292", call.span,
        "a view of '" + base->text + "', which has a symbolic extent" +
            std::string(symbolicStrides ? " in a non-leading dimension" : "") +
            ", is not supported; take a region with a static extent (decision \"Dynamic shapes\")");
    note(d, base->span,
         "views keep the element count, which is only known when the kernel is called");
    return nullptr;
  }
  const int npos = static_cast<int>(call.args.size()) - 1;
  if (!checkCallShape(call, "view", 1, -1, {"layout"})) return nullptr;
  auto r = std::make_shared<ir::TensorRef>(*base);
  r->span = call.span;
  r->text = text(call.span);
  // Dtype view: a single dtype argument.
  const ast::Expr& first = *call.args[1];
  const bool dtypeView =
      npos == 1 && (first.kind == ast::ExprKind::Str ||
                    (first.kind == ast::ExprKind::Attribute && !builtinPath(first).empty()));
  if (dtypeView) return lowerDtypeView(call, first, base.get(), r);
  // Reshape view.
  std::vector<int64_t> dims;
  int inferred = -1;
  for (int i = 0; i < npos; ++i) {
    const ast::Expr& a = *call.args[i + 1];
    const size_t before = m_diags.size();
    auto v = staticInt(a, false);
    if (!v && m_diags.size() != before) return nullptr;  // a fold error was reported
    if (!v) {
      error("E0134", a.span,
            "view dimensions must be static integers, found '" + text(a.span) + "'");
      return nullptr;
    }
    if (*v == -1) {
      if (inferred >= 0) {
        error("E0134", a.span, "only one view dimension may be -1");
        return nullptr;
      }
      inferred = i;
    } else if (*v <= 0) {
      error("E0134", a.span,
            "view dimensions must be positive (or one -1), found " + std::to_string(*v));
      return nullptr;
    }
    dims.push_back(*v);
  }
  if (dims.size() > static_cast<size_t>(ir::kMaxTensorRank)) {
    error("E0242", call.span,
          "a view of " + std::to_string(dims.size()) + " dimensions; at most " +
              std::to_string(ir::kMaxTensorRank) + " are supported");
    return nullptr;
  }
  if (tooManyElements(dims)) {
    error("E0134", call.span, "view of more than 2^40 elements");
    return nullptr;
  }
  if (!isWhole(*base)) {
    auto& d = error("E0136", call.span, "a reshape view of a region is not supported");
    note(d, base->span, "view the whole tensor and take the region of the view instead");
    return nullptr;
  }
  const ast::Expr* layoutKw = keyword(call, "layout");
  const int64_t count = product(base->shape);
  if (inferred >= 0) {
    int64_t known = 1;
    for (size_t i = 0; i < dims.size(); ++i)
      if (static_cast<int>(i) != inferred) known *= dims[i];
    if (known == 0 || count % known != 0) {
      error("E0134", call.args[inferred + 1]->span,
            "cannot infer -1: " + std::to_string(count) + " elements do not divide by " +
                std::to_string(known));
      return nullptr;
    }
    dims[inferred] = count / known;
  }
  if (layoutKw) {
    std::optional<TileLayout> l;
    if (layoutKw->kind == ast::ExprKind::Str && layoutKw->text == "default")
      l = TileLayout::rowMajor(dims);
    else
      l = viewLayoutArg(*layoutKw, *base);
    if (!l) return nullptr;
    if (!l->admits(dims)) {
      error("E0131", layoutKw->span,
            "layout " + l->toString() + " holds " + std::to_string(l->size()) +
                " elements, but the view shape " + shapeText(dims) + " holds " +
                std::to_string(product(dims)));
      return nullptr;
    }
    if (rejectTensorMemoryAxes(*l, layoutKw->span)) return nullptr;
    if (base->scope != ir::MemScope::Local && l->hasThreadAxes()) {
      error("E0144", layoutKw->span,
            "a " + std::string(ir::memScopeName(base->scope)) +
                " tensor's layout cannot have thread axes");
      return nullptr;
    }
    r->layout = *l;
    if (!checkViewFootprint(*r, *layoutKw)) return nullptr;
  } else if (product(dims) != count) {
    auto& d = error("E0134", call.span,
                    "view shape " + shapeText(dims) + " holds " + std::to_string(product(dims)) +
                        " elements, but the tensor holds " + std::to_string(count));
    note(d, base->span, "'" + base->text + "' has shape " + shapeText(base->shape));
    return nullptr;
  }
  r->shape = dims;
  r->layoutShape = dims;
  r->dimMap.clear();
  r->lo.assign(dims.size(), nullptr);
  r->loMultiple.assign(dims.size(), 0);
  for (size_t d = 0; d < dims.size(); ++d) r->dimMap.push_back(static_cast<int>(d));
  return r;
}

std::shared_ptr<const ir::TensorRef> Analyzer::lowerRegion(
    const ast::Expr& sub, std::shared_ptr<const ir::TensorRef> base, bool dropInts) {
  const auto items = indexItems(*sub.args[1]);
  const size_t rank = base->shape.size();
  if (items.size() > rank) {
    error("E0138", sub.args[1]->span,
          "too many indices: '" + base->text + "' has " + std::to_string(rank) + " dimension" +
              (rank == 1 ? "" : "s") + ", found " + std::to_string(items.size()));
    return nullptr;
  }
  std::vector<ir::ExprPtr> starts(rank);
  std::vector<int64_t> extents(rank);
  std::vector<bool> dropped(rank, false);
  bool ok = true;
  for (size_t k = 0; k < rank; ++k) {
    const int64_t dim = base->shape[k];
    if (k >= items.size()) {
      extents[k] = dim;
      continue;
    }
    const ast::Expr& it = *items[k];
    if (it.kind == ast::ExprKind::Slice) {
      if (it.args.size() > 2 && it.args[2]) {
        auto st = staticInt(*it.args[2], false);
        if (!st || *st != 1) {
          error("E0139", it.args[2]->span,
                "region slices cannot have a step; use a view with a layout for strided access");
          ok = false;
          continue;
        }
      }
      if (ir::isSymbolicExtent(dim) && (it.args.size() < 2 || !it.args[0] || !it.args[1])) {
        error("E0292", it.span,
              "a slice of the symbolic dimension " + std::to_string(k) + " of '" + base->text +
                  "' needs both bounds with a static extent (a:a + N)");
        ok = false;
        continue;
      }
      ir::ExprPtr lo =
          it.args.size() > 0 && it.args[0] ? lowerIndex(*it.args[0]) : mkInt(0, it.span);
      ir::ExprPtr hi =
          it.args.size() > 1 && it.args[1] ? lowerIndex(*it.args[1]) : mkInt(dim, it.span);
      if (!lo || !hi) {
        ok = false;
        continue;
      }
      auto fl = affineForm(*lo), fh = affineForm(*hi);
      if (!fl || !fh) {
        error("E0139", it.span,
              "the extent of a region must be static; write the bounds as `a:a + N`, found '" +
                  text(it.span) + "'");
        ok = false;
        continue;
      }
      LinearForm diff = *fh;
      diff.constant -= fl->constant;
      for (const auto& [n, c] : fl->terms) {
        diff.terms[n] -= c;
        if (diff.terms[n] == 0) diff.terms.erase(n);
      }
      if (!diff.isConstant()) {
        error("E0139", it.span,
              "the extent of a region must be static; write the bounds as `a:a + N`, found '" +
                  text(it.span) + "'");
        ok = false;
        continue;
      }
      const int64_t ext = diff.constant;
      if (ext <= 0) {
        error("E0137", it.span,
              "empty region " + text(it.span) + " in dimension " + std::to_string(k));
        ok = false;
        continue;
      }
      if (ext > dim || (fl->isConstant() && (fl->constant < 0 || fl->constant + ext > dim))) {
        auto& d = error("E0137", it.span,
                        "region " + text(it.span) + " is out of bounds for dimension " +
                            std::to_string(k) + " of extent " + std::to_string(dim));
        note(d, base->span, "'" + base->text + "' has shape " + shapeText(base->shape));
        ok = false;
        continue;
      }
      starts[k] = lo;
      extents[k] = ext;
    } else {
      ir::ExprPtr idx = lowerIndex(it);
      if (!idx) {
        ok = false;
        continue;
      }
      if (auto c = constValue(*idx); c && (*c < 0 || *c >= dim)) {
        auto& d = error("E0137", it.span,
                        "index " + std::to_string(*c) + " is out of bounds for dimension " +
                            std::to_string(k) + " of extent " + std::to_string(dim));
        note(d, base->span, "'" + base->text + "' has shape " + shapeText(base->shape));
        ok = false;
        continue;
      }
      starts[k] = idx;
      extents[k] = 1;
      dropped[k] = dropInts;
    }
  }
  if (!ok) return nullptr;
  auto r = std::make_shared<ir::TensorRef>(*base);
  r->span = sub.span;
  r->text = text(sub.span);
  std::vector<int> newIndex(rank, -1);
  r->shape.clear();
  for (size_t k = 0; k < rank; ++k) {
    if (dropped[k]) continue;
    newIndex[k] = static_cast<int>(r->shape.size());
    r->shape.push_back(extents[k]);
  }
  if (r->shape.empty()) {
    error("E0138", sub.span,
          "'" + text(sub.span) +
              "' selects a single element; a tensor region needs at least one dimension");
    return nullptr;
  }
  r->lo.resize(r->layoutShape.size());
  r->loMultiple.resize(r->layoutShape.size(), 0);
  for (size_t d = 0; d < r->layoutShape.size(); ++d) {
    const int src = base->dimMap[d];
    if (src < 0) continue;
    r->dimMap[d] = newIndex[src];
    const ir::ExprPtr& s = starts[src];
    if (!s || constValue(*s) == 0) continue;
    ir::ExprPtr old = base->lo[d];
    ir::ExprPtr combined;
    if (!old || constValue(*old) == 0)
      combined = s;
    else if (constValue(*old) && constValue(*s))
      combined = mkLiteralInt(*constValue(*old) + *constValue(*s), s->span);
    else {
      // Offsets add in int32 unless either side is wider (an int64 index must not be truncated).
      const DType t =
          old->dtype == DType::Int32 && s->dtype == DType::Int32 ? DType::Int32 : DType::Int64;
      combined = mkBinary(ir::BinOp::Add, old, s, t, s->span);
    }
    r->lo[d] = combined;
    if (auto f = affineForm(*combined))
      r->loMultiple[d] = f->isConstant() ? f->divisor() : std::max<int64_t>(1, f->divisor());
    else
      r->loMultiple[d] = 1;
  }
  return r;
}

bool Analyzer::checkLocalBytes(const ir::Kernel& k, const ir::Buffer& buf, const ast::Expr& call) {
  // Every thread holds the whole per-thread array: slots × element size, summed over the
  // kernel's local allocations, against CUDA's local-memory limit per thread.
  const int64_t eb = ir::dtypeBytes(buf.dtype);
  if (buf.storageElems < 1) {
    error("E0243", call.span,
          "allocation '" + buf.name +
              "' has no storage (its layout's offsets make the per-thread array empty)");
    return false;
  }
  int64_t total = 0;
  for (const auto& b : k.buffers)
    if (b.scope == ir::MemScope::Local) total += b.storageElems * ir::dtypeBytes(b.dtype);
  const int64_t bytes = buf.storageElems > kMaxLocalBytesPerThread ? kMaxLocalBytesPerThread + 1
                                                                   : buf.storageElems * eb;
  if (bytes > kMaxLocalBytesPerThread || total + bytes > kMaxLocalBytesPerThread) {
    const std::string need = bytes > kMaxLocalBytesPerThread
                                 ? "more than " + std::to_string(kMaxLocalBytesPerThread)
                                 : std::to_string(bytes);
    auto& d =
        error("E0243", call.span,
              "allocation '" + buf.name + "' needs " + need + " bytes per thread" +
                  (total > 0 && bytes <= kMaxLocalBytesPerThread
                       ? " after " + std::to_string(total) + " bytes of earlier local allocations"
                       : std::string()) +
                  ", more than CUDA's local-memory limit of " +
                  std::to_string(kMaxLocalBytesPerThread) + " bytes (512 KiB) per thread");
    note(d, call.span,
         "a register tile distributed over threads needs only the slots one thread owns; "
         "move large arrays to shared or global memory");
    return false;
  }
  return true;
}

int Analyzer::lowerAlloc(const ast::Expr& call, const std::string& name, SourceSpan nameSpan,
                         ir::MemScope scope) {
  const std::string display = scope == ir::MemScope::Local ? "T.alloc_local" : "T.alloc_shared";
  if (!checkCallShape(call, display, 1, 2, {"dtype", "scope", "align", "layout", "annotations"}))
    return -1;
  ir::Buffer buf;
  buf.name = name;
  buf.scope = scope;
  buf.span = nameSpan;
  const ast::Expr& sh = *call.args[1];
  bool ok = staticShape(sh, "E0130", "allocation", "an allocation", buf.shape);
  const ast::Expr* dtypeExpr = call.args.size() > 2 ? call.args[2].get() : keyword(call, "dtype");
  buf.dtype = DType::Float32;
  if (dtypeExpr) {
    auto t = dtypeArg(*dtypeExpr);
    if (!t)
      ok = false;
    else
      buf.dtype = *t;
  }
  if (const ast::Expr* s = keyword(call, "scope")) {
    const std::string want = scope == ir::MemScope::Local ? "local" : "shared";
    if (s->kind != ast::ExprKind::Str ||
        (s->text != want && !(want == "shared" && s->text == "shared.dyn")))
      error("E0130", s->span,
            display + " allocates in scope \"" + want + "\", found '" + text(s->span) + "'");
  }
  if (!ok) return -1;
  buf.layout = TileLayout::rowMajor(buf.shape);  // OPEN-3: an omitted layout is "default"
  if (const ast::Expr* l = keyword(call, "layout")) {
    if (l->kind == ast::ExprKind::Str && l->text == "default") {
      // row-major
    } else if (isComposeLayoutExpr(*l)) {
      if (!applyComposeLayout(buf, *l, sh)) return -1;
    } else if (auto layout = layoutArg(*l)) {
      if (rejectTensorMemoryAxes(*layout, l->span)) return -1;
      if (scope != ir::MemScope::Local && layout->hasThreadAxes()) {
        error("E0144", l->span,
              "a shared tensor's layout cannot have thread axes, found " + layout->toString());
        return -1;
      }
      if (!layout->admits(buf.shape)) {
        auto& d = error("E0131", l->span,
                        "layout " + layout->toString() + " holds " +
                            std::to_string(layout->size()) + " elements, but the shape " +
                            shapeText(buf.shape) + " holds " + std::to_string(product(buf.shape)));
        note(d, sh.span, "a layout admits every shape with the same element count");
        return -1;
      }
      buf.layout = *layout;
    } else {
      return -1;
    }
  }
  buf.alignBytes = 16;  // OPEN-2
  if (const ast::Expr* a = keyword(call, "align")) {
    auto v = staticInt(*a);
    if (v && *v == -1) {
      // implementation default
    } else if (v && (!isPow2(*v) || *v < ir::dtypeBytes(buf.dtype))) {
      error("E0133", a->span,
            "align= must be a power of two no smaller than the element size (" +
                std::to_string(ir::dtypeBytes(buf.dtype)) + " bytes), found " + std::to_string(*v));
    } else if (v) {
      buf.alignBytes = *v;
    }
  }
  if (scope == ir::MemScope::Local)
    buf.storageElems = buf.layout.storageSlots();
  else
    buf.storageElems = std::max(product(buf.shape), buf.layout.span("m") + memOffset(buf.layout));
  if (!finishSwizzledAlloc(buf, call)) return -1;
  ir::Kernel& k = *m_body->kernel;
  if (scope == ir::MemScope::Local && !checkLocalBytes(k, buf, call)) return -1;
  buf.id = static_cast<int>(k.buffers.size());
  ir::Symbol sym;
  sym.kind = ir::Symbol::Kind::Tensor;
  sym.name = name;
  sym.kernel = k.name;
  sym.span = nameSpan;
  sym.layout = buf.layout;
  sym.swizzle = buf.swizzle;
  sym.shape = buf.shape;
  sym.dtype = buf.dtype;
  sym.scope = scope;
  sym.buffer = buf.id;
  const int symbol = addSymbol(std::move(sym));
  auto ref = std::make_shared<ir::TensorRef>();
  ref->buffer = buf.id;
  ref->scope = scope;
  ref->dtype = buf.dtype;
  ref->shape = buf.shape;
  ref->layout = buf.layout;
  ref->layoutShape = buf.shape;
  for (size_t d = 0; d < buf.shape.size(); ++d) {
    ref->dimMap.push_back(static_cast<int>(d));
    ref->lo.push_back(nullptr);
    ref->loMultiple.push_back(0);
  }
  ref->text = name;
  ref->span = nameSpan;
  k.buffers.push_back(std::move(buf));
  m_body->bufferUsed.push_back(false);
  m_body->bufferSymbol.push_back(symbol);
  Binding b;
  b.kind = Binding::Kind::Tensor;
  b.tensor = ref;
  b.symbol = symbol;
  b.span = nameSpan;
  m_body->locals.names[name] = b;
  return ref->buffer;
}

bool Analyzer::lowerElementIndices(const ast::Expr& sub, const ir::TensorRef& t,
                                   std::vector<ir::ExprPtr>& indices) {
  const auto items = indexItems(*sub.args[1]);
  if (items.size() != t.shape.size()) {
    error("E0138", sub.args[1]->span,
          "element access to '" + t.text + "' needs " + std::to_string(t.shape.size()) +
              " indices, found " + std::to_string(items.size()));
    return false;
  }
  bool ok = true;
  for (size_t k = 0; k < items.size(); ++k) {
    auto idx = lowerIndex(*items[k]);
    if (!idx) {
      ok = false;
      continue;
    }
    if (auto c = constValue(*idx); c && (*c < 0 || *c >= t.shape[k])) {
      error("E0137", items[k]->span,
            "index " + std::to_string(*c) + " is out of bounds for dimension " + std::to_string(k) +
                " of extent " + std::to_string(t.shape[k]));
      ok = false;
      continue;
    }
    indices.push_back(idx);
  }
  if (ok && t.scope == ir::MemScope::Local && t.layout.hasThreadAxes()) {
    auto& d = error("E0140", sub.span,
                    "direct element access to '" + t.text +
                        "', a register tile distributed over threads by " + t.layout.toString());
    note(d, sub.span,
         "the checker cannot prove the element belongs to the executing thread; use "
         "T.cuda.tile.apply or T.cuda.tile.ewise");
    return false;
  }
  return ok;
}

Scalar Analyzer::lowerLoad(const ast::Expr& sub) {
  const ast::Expr& obj = *sub.args[0];
  if (m_body && m_body->inFunction) {
    error("E0205", sub.span,
          "a scalar function cannot access memory; pass the value as a parameter");
    return Scalar{};
  }
  if (!isTensorExpr(obj)) {
    if (obj.kind == ast::ExprKind::Name && !lookup(obj.text)) {
      unknownName(obj);
      return Scalar{};
    }
    error("E0143", obj.span, "'" + text(obj.span) + "' is not a tensor and cannot be indexed");
    return Scalar{};
  }
  if (hasSlice(*sub.args[1])) {
    error("E0155", sub.span,
          "'" + text(sub.span) + "' is a tensor region; a scalar value is expected here");
    return Scalar{};
  }
  auto ref = lowerTensor(obj);
  if (!ref) return Scalar{};
  std::vector<ir::ExprPtr> indices;
  if (!lowerElementIndices(sub, *ref, indices)) return Scalar{};
  auto e = std::make_shared<ir::Expr>();
  e->kind = ir::ExprKind::Load;
  e->dtype = ref->dtype;
  e->args = std::move(indices);
  e->tensor = ref;
  e->span = sub.span;
  return Scalar{e, false};
}

void Analyzer::lowerStore(const ast::Expr& target, const ast::Expr& value, SourceSpan span,
                          std::vector<ir::Stmt>& out) {
  const ast::Expr& obj = *target.args[0];
  if (m_body->inFunction) {
    error("E0205", target.span, "a scalar function cannot write memory");
    return;
  }
  if (!isTensorExpr(obj)) {
    if (obj.kind == ast::ExprKind::Name && !lookup(obj.text))
      unknownName(obj);
    else
      error("E0143", obj.span,
            "'" + text(obj.span) + "' is not a tensor and cannot be assigned to by index");
    return;
  }
  if (hasSlice(*target.args[1])) {
    error("E0107", target.span,
          "assigning to a region is not supported; use T.cuda.tile.apply with a mov or st "
          "instruction");
    return;
  }
  auto ref = lowerTensor(obj);
  if (!ref) return;
  std::vector<ir::ExprPtr> indices;
  const bool idxOk = lowerElementIndices(target, *ref, indices);
  Scalar v = lowerScalar(value);
  if (!idxOk || !v.ok()) return;
  if (v.literal) {
    v = coerce(v, ref->dtype, value.span, ("store to '" + ref->text + "'").c_str());
    if (!v.ok()) return;
  } else if (v.expr->dtype != ref->dtype) {
    error("E0154", value.span,
          "'" + ref->text + "' holds " + std::string(ir::dtypeName(ref->dtype)) +
              " elements, but the value is " + std::string(ir::dtypeName(v.expr->dtype)));
    return;
  }
  ir::Stmt st;
  st.kind = ir::StmtKind::Store;
  st.span = span;
  st.tensor = ref;
  st.indices = std::move(indices);
  st.value = v.expr;
  out.push_back(std::move(st));
}

}  // namespace tirx::sema
