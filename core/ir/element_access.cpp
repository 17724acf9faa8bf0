// elementTouches: the ld/st tile ops of a buffer evaluated element by element through their
// operands' compiled layouts (rules in element_access.h).
#include "core/ir/element_access.h"

#include "core/ir/buffer_access.h"
#include "core/layout/compiled_layout.h"

namespace tirx::ir {
namespace {

/// Elements an op may have before it is left unresolved (a click must stay instant).
constexpr int64_t kMaxOpElements = int64_t(1) << 16;

bool staticStart(const TensorRef& r) {
  for (const auto& lo : r.lo)
    if (lo && lo->kind != ExprKind::IntImm) return false;
  return true;
}

int64_t elementsOf(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d <= 0 || __builtin_mul_overflow(n, d, &n) || n > kMaxOpElements) return -1;
  }
  return n;
}

/// The layout coordinate of logical flat index `flat` of `r` (row-major over r.shape).
void layoutCoord(const TensorRef& r, int64_t flat, std::vector<int64_t>& coord,
                 std::vector<int64_t>& lc) {
  coord.assign(r.shape.size(), 0);
  for (size_t d = r.shape.size(); d-- > 0;) {
    coord[d] = flat % r.shape[d];
    flat /= r.shape[d];
  }
  lc.assign(r.layoutShape.size(), 0);
  for (size_t d = 0; d < r.layoutShape.size(); ++d) {
    const int64_t base = d < r.lo.size() && r.lo[d] ? r.lo[d]->intValue : 0;
    const int src = d < r.dimMap.size() ? r.dimMap[d] : static_cast<int>(d);
    lc[d] = base + (src >= 0 && size_t(src) < coord.size() ? coord[size_t(src)] : 0);
  }
}

}  // namespace

ElementTouches elementTouches(const Kernel& kernel, int buffer, int64_t element,
                              size_t maxTouches) {
  ElementTouches out;
  if (buffer < 0 || size_t(buffer) >= kernel.buffers.size()) return out;
  const int bufBytes = dtypeBytes(kernel.buffers[size_t(buffer)].dtype);
  const int64_t lo = element * bufBytes, hi = lo + bufBytes;  // the element's bytes
  std::vector<int64_t> coord, lc;
  for (const TileOpUse& u : tileOpUses(kernel, buffer)) {
    const TileApply* a = u.stmt->apply.get();
    if (!a || (a->instr.family != PtxFamily::Ld && a->instr.family != PtxFamily::St)) continue;
    if (a->operands.size() != 2 || a->operands[0].isScalar || a->operands[1].isScalar) continue;
    const TensorRef& mem = a->operands[size_t(u.operand)].tensor;
    const TensorRef& reg = a->operands[size_t(1 - u.operand)].tensor;
    if (mem.scope == MemScope::Local || reg.scope != MemScope::Local) continue;
    const int64_t n = elementsOf(mem.shape);
    if (!staticStart(mem) || !staticStart(reg) || n < 0 || elementsOf(reg.shape) != n) {
      out.unresolved.push_back(u.stmt);
      continue;
    }
    const CompiledLayout memLayout(mem.layout), regLayout(reg.layout);
    const int memBytes = dtypeBytes(mem.dtype);
    for (int64_t f = 0; f < n; ++f) {
      layoutCoord(mem, f, coord, lc);
      const int64_t m = memLayout.apply(lc, mem.layoutShape).m + mem.elemOffset;
      if (m * memBytes >= hi || (m + 1) * memBytes <= lo) continue;
      layoutCoord(reg, f, coord, lc);
      const CompiledLayout::Point p = regLayout.apply(lc, reg.layoutShape);
      for (const CompiledLayout::Point& d : regLayout.replicaDeltas()) {
        if (out.touches.size() >= maxTouches) {
          out.truncated = true;
          return out;
        }
        ElementTouch t;
        t.stmt = u.stmt;
        t.opcode = a->instr.opcode;
        t.write = u.write;
        t.thread = regLayout.hasThreadAxes() ? p.thread + d.thread : -1;
        t.regBuffer = reg.buffer;
        t.slot = p.m + d.m + reg.elemOffset;
        out.touches.push_back(t);
      }
    }
  }
  return out;
}

}  // namespace tirx::ir
