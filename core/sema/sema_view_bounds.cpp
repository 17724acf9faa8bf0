// Static bounds of views (E0291): `X.view(shape, layout=L)` reinterprets the storage of X through
// L, so every element of the view must land inside the storage X was allocated with. A register
// tile of 2 slots viewed as 8 elements on one thread would compile to `tmp[7]` of `float tmp[2]`,
// which the GPU reads as garbage; the simulator catches it, but only on a run. The check is exact:
// the memory offsets a layout reaches are 0 + Σ (e−1)·s over its memory iters (shard and replica,
// each stride's sign taken into account) plus its memory offsets and the view's element offset, and
// every combination is reached, so an extreme outside the storage is a real out-of-bounds access.
#include "core/sema/sema_internal.h"

namespace tirx::sema {

namespace {

bool isMemoryAxis(const std::string& axis) {
  return axisKind(axis) == AxisKind::Memory;
}

/// The lowest and highest memory offset (in elements) `l` places an element at.
std::pair<__int128, __int128> memoryExtremes(const TileLayout& l) {
  __int128 lo = 0, hi = 0;
  for (const auto* iters : {&l.shard, &l.replica})
    for (const auto& it : *iters) {
      if (!isMemoryAxis(it.axis)) continue;
      const __int128 reach = static_cast<__int128>(it.extent - 1) * it.stride;
      (reach < 0 ? lo : hi) += reach;
    }
  for (const auto& [axis, v] : l.offset)
    if (isMemoryAxis(axis)) {
      lo += v;
      hi += v;
    }
  return {lo, hi};
}

}  // namespace

bool Analyzer::checkViewFootprint(const ir::TensorRef& view, const ast::Expr& layoutExpr) {
  if (!m_body || !m_body->kernel || view.buffer < 0 ||
      view.buffer >= static_cast<int>(m_body->kernel->buffers.size()))
    return true;
  const ir::Buffer& buf = m_body->kernel->buffers[size_t(view.buffer)];
  if (buf.storageElems <= 0 || ir::isSymbolicExtent(buf.storageElems)) return true;
  auto [lo, hi] = memoryExtremes(view.layout);
  lo += view.elemOffset;
  hi += view.elemOffset;
  if (lo >= 0 && hi < buf.storageElems) return true;
  const bool local = buf.scope == ir::MemScope::Local;
  const std::string unit = local ? "register slot" : "element";
  const __int128 bad = lo < 0 ? lo : hi;
  auto& d = error("E0291", layoutExpr.span,
                  "view '" + view.text + "' reaches " + unit + " " +
                      std::to_string(static_cast<int64_t>(bad)) + " of '" + buf.name +
                      "', which has " + std::to_string(buf.storageElems) + " " + unit +
                      (buf.storageElems == 1 ? "" : "s") + (local ? " per thread" : ""));
  note(
      d, buf.span,
      "'" + buf.name + "' is allocated here with shape " +
          [&] {
            std::string s = "(";
            for (size_t i = 0; i < buf.shape.size(); ++i)
              s += (i ? ", " : "") + std::to_string(buf.shape[i]);
            return s + (buf.shape.size() == 1 ? ",)" : ")");
          }() +
          " and layout " + buf.layout.toString());
  return false;
}

}  // namespace tirx::sema
