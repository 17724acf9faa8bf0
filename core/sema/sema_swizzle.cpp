// Swizzled shared tiles (spec/TIRX-TENSOR-CORES.md §9, TIRX.md §1.10): module-level ComposeLayout
// constants, `T.alloc_shared(..., layout=ComposeLayout(...))` and views of such tiles. The swizzle
// is a property of the tile's memory (ir::Buffer::swizzle, in units of the tile's dtype): every
// later view (reshape, dtype, region) keeps it, and a view with an explicit layout must restate it
// as a ComposeLayout with the same swizzle (a plain TileLayout would silently read unswizzled
// addresses, decision TC-S1). The §9.3 constraints are checked here: the swizzled unit is one
// 16-byte chunk (E0267), the tile starts on the pattern period (E0268).
#include <algorithm>

#include "core/sema/sema_internal.h"

namespace tirx::sema {

namespace {

std::string shapeText(const std::vector<int64_t>& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

/// The swizzle over bytes: per-element shifted by log2(elemBytes); equal byte swizzles mean the
/// same addresses whatever the dtype of the view.
struct ByteSwizzle {
  int unitLog2 = 0, len = 0, atom = 0;
  bool inner = true;
  bool operator==(const ByteSwizzle&) const = default;
};

ByteSwizzle bytesOf(const Swizzle& s, int elemBytes) {
  int e = 0;
  while ((1 << e) < elemBytes) ++e;
  if (s.isIdentity()) return {};
  return {s.perElement + e, s.len, s.atom, s.inner};
}

}  // namespace

bool Analyzer::isComposeLayoutExpr(const ast::Expr& e) {
  if (e.kind == ast::ExprKind::Name) {
    const Binding* b = lookup(e.text);
    return b && b->kind == Binding::Kind::ComposeLayout;
  }
  if (e.kind != ast::ExprKind::Call || e.args.empty() || !e.args[0]) return false;
  return builtinPath(*e.args[0]) == "T.ComposeLayout";
}

std::optional<LayoutValue> Analyzer::layoutValueArg(const ast::Expr& e) {
  if (e.kind == ast::ExprKind::Name) {
    const Binding* b = lookup(e.text);
    if (b && b->kind == Binding::Kind::ComposeLayout) {
      useSymbol(b->symbol, e.span);
      return LayoutValue{m_composeLayouts[b->index]};
    }
  }
  if (!isComposeLayoutExpr(e)) {
    auto l = layoutArg(e);
    if (!l) return std::nullopt;
    return LayoutValue{*l};
  }
  LayoutEnv env = layoutEnv();
  for (const auto& [n, b] : m_moduleScope.names) {
    if (b.kind == Binding::Kind::Layout) env.layouts[n] = m_layouts[b.index];
    if (b.kind == Binding::Kind::ComposeLayout) env.composeLayouts[n] = m_composeLayouts[b.index];
  }
  return layoutValueFromExpr(e, env, m_diags);
}

void Analyzer::bindComposeConstant(const std::string& name, const ast::Expr& value,
                                   SourceSpan nameSpan) {
  Binding b;
  b.span = nameSpan;
  auto v = layoutValueArg(value);
  if (!v) {
    b.kind = Binding::Kind::Foreign;  // errors reported; keep the name known
    m_moduleScope.names[name] = b;
    return;
  }
  ir::Symbol sym;
  sym.kind = ir::Symbol::Kind::Layout;
  sym.name = name;
  sym.span = nameSpan;
  sym.layout = tileOf(*v);
  sym.swizzle = swizzleOf(*v);
  for (const auto& it : sym.layout.shard) sym.shape.push_back(it.extent);
  b.symbol = addSymbol(std::move(sym));
  if (const auto* c = std::get_if<ComposeLayout>(&*v)) {
    b.kind = Binding::Kind::ComposeLayout;
    b.index = static_cast<int>(m_composeLayouts.size());
    m_composeLayouts.push_back(*c);
  } else {
    b.kind = Binding::Kind::Layout;
    b.index = static_cast<int>(m_layouts.size());
    m_layouts.push_back(std::get<TileLayout>(*v));
  }
  m_moduleScope.names[name] = b;
}

bool Analyzer::applyComposeLayout(ir::Buffer& buf, const ast::Expr& l, const ast::Expr& shape) {
  auto v = layoutValueArg(l);
  if (!v) return false;
  const auto* c = std::get_if<ComposeLayout>(&*v);
  if (!c) {  // a name bound to a TileLayout: the ordinary path
    buf.layout = std::get<TileLayout>(*v);
  } else {
    if (buf.scope != ir::MemScope::Shared) {
      auto& d = error("E0269", l.span,
                      "a swizzled layout (ComposeLayout) describes shared-memory addresses; '" +
                          buf.name + "' is a register tile, which has no addresses");
      note(d, l.span, "allocate it with T.alloc_shared, or give the registers a TileLayout");
      return false;
    }
    buf.layout = c->tile;
    buf.swizzle = c->swizzle;
  }
  if (!buf.layout.admits(buf.shape)) {
    auto& d = error("E0131", l.span,
                    "layout " + toString(*v) + " holds " + std::to_string(buf.layout.size()) +
                        " elements, but the shape " + shapeText(buf.shape) + " holds " +
                        std::to_string(product(buf.shape)));
    note(d, shape.span, "a layout admits every shape with the same element count");
    return false;
  }
  if (buf.swizzle.isIdentity()) return true;
  const std::string why = checkSwizzleElementWidth(buf.swizzle, ir::dtypeBytes(buf.dtype),
                                                   std::string(ir::dtypeName(buf.dtype)));
  if (!why.empty()) {
    auto& d = error("E0267", l.span, "the swizzle does not permute 16-byte chunks: " + why);
    note(d, l.span,
         "shared-memory instructions move whole 16-byte chunks; the swizzle must permute chunks "
         "(spec TC §9.3)");
    return false;
  }
  return true;
}

bool Analyzer::finishSwizzledAlloc(ir::Buffer& buf, const ast::Expr& call) {
  if (buf.swizzle.isIdentity()) return true;
  const std::string why =
      checkSwizzleBaseAlignment(buf.swizzle, ir::dtypeBytes(buf.dtype), buf.alignBytes);
  if (!why.empty()) {
    const ast::Expr* a = keyword(call, "align");
    auto& d = error("E0268", a ? a->span : call.span, "'" + buf.name + "': " + why);
    note(d, call.span,
         "the layout's swizzle (on offsets) equals the hardware's (on address bits) only from a "
         "pattern-aligned start (spec TC §9.2)");
    return false;
  }
  ComposeLayout c{buf.swizzle, buf.layout};
  buf.storageElems = std::max(buf.storageElems, c.storageSpan());
  return true;
}

std::optional<TileLayout> Analyzer::viewLayoutArg(const ast::Expr& l, const ir::TensorRef& base) {
  const ir::Buffer& buf = m_body->kernel->buffers[base.buffer];
  if (!isComposeLayoutExpr(l)) {
    auto t = layoutArg(l);
    if (!t) return std::nullopt;
    if (!buf.swizzle.isIdentity()) {
      auto& d = error("E0269", l.span,
                      "'" + buf.name + "' is a swizzled tile (" +
                          toString(LayoutValue{ComposeLayout{buf.swizzle, buf.layout}}) +
                          "); a view with layout= must restate the swizzle, found the plain " +
                          t->toString());
      note(d, buf.span,
           "write layout=ComposeLayout(" + std::to_string(buf.swizzle.perElement) + ", " +
               std::to_string(buf.swizzle.len) + ", " + std::to_string(buf.swizzle.atom) +
               ", TileLayout(...)) with per_element for the view's dtype; "
               "a plain TileLayout would read the unswizzled addresses");
      return std::nullopt;
    }
    return t;
  }
  auto v = layoutValueArg(l);
  if (!v) return std::nullopt;
  const ComposeLayout& c = std::get<ComposeLayout>(*v);
  if (base.scope != ir::MemScope::Shared) {
    error("E0269", l.span,
          "a swizzled layout (ComposeLayout) describes shared-memory addresses; '" + base.text +
              "' is a " + std::string(ir::memScopeName(base.scope)) + " tensor");
    return std::nullopt;
  }
  const ByteSwizzle have = bytesOf(buf.swizzle, ir::dtypeBytes(buf.dtype));
  const ByteSwizzle want = bytesOf(c.swizzle, ir::dtypeBytes(base.dtype));
  if (!(have == want)) {
    auto& d = error("E0269", l.span,
                    "the view's swizzle " + toString(LayoutValue{c}) + " over " +
                        std::string(ir::dtypeName(base.dtype)) + " differs from the swizzle of '" +
                        buf.name + "' (" +
                        (buf.swizzle.isIdentity()
                             ? std::string("none")
                             : toString(LayoutValue{ComposeLayout{buf.swizzle, buf.layout}})) +
                        " over " + std::string(ir::dtypeName(buf.dtype)) + ")");
    note(d, buf.span,
         "a view cannot change how the memory is swizzled; per_element counts elements of the "
         "view's dtype "
         "(16-byte chunks: per_element = log2(16 / element bytes))");
    return std::nullopt;
  }
  return c.tile;
}

}  // namespace tirx::sema
