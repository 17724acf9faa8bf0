// Small Kernel IR helpers: tensor-reference resolution, scope group coordinates, lookups.
#include "core/ir/ir.h"

#include "core/diag/result.h"

namespace tirx::ir {

std::string_view memScopeName(MemScope s) {
  switch (s) {
    case MemScope::Global:
      return "global";
    case MemScope::Shared:
      return "shared";
    case MemScope::Local:
      return "local";
  }
  return "local";
}

std::string_view execScopeName(ExecScope s) {
  switch (s) {
    case ExecScope::Thread:
      return "thread";
    case ExecScope::Warp:
      return "warp";
    case ExecScope::Warpgroup:
      return "warpgroup";
    case ExecScope::Cta:
      return "cta";
    case ExecScope::Cluster:
      return "cluster";
  }
  return "thread";
}

bool TensorRef::hasDynamicOffset() const {
  for (const auto& e : lo)
    if (e && e->kind != ExprKind::IntImm) return true;
  return false;
}

AxisCoord TensorRef::resolve(std::span<const int64_t> coord,
                             std::span<const int64_t> loValues) const {
  std::vector<int64_t> lc(layoutShape.size(), 0);
  for (size_t d = 0; d < layoutShape.size(); ++d) {
    int64_t base = 0;
    if (!loValues.empty()) {
      base = loValues[d];
    } else if (d < lo.size() && lo[d]) {
      TIRX_ASSERT(lo[d]->kind == ExprKind::IntImm);
      base = lo[d]->intValue;
    }
    const int src = d < dimMap.size() ? dimMap[d] : static_cast<int>(d);
    lc[d] = base + (src >= 0 ? coord[src] : 0);
  }
  AxisCoord phys = layout.apply(lc, layoutShape);
  phys["m"] += elemOffset;
  return phys;
}

const std::vector<int>& symbolicStrideVars(const Buffer& b) {
  return b.shapeVars.empty() ? b.boundShapeVars : b.shapeVars;
}

bool hasSymbolicStrides(const Buffer& b) {
  const auto& vars = symbolicStrideVars(b);
  for (size_t d = 1; d < vars.size(); ++d)
    if (vars[d] >= 0) return true;
  return false;
}

int64_t swizzledByte(const Buffer& b, int64_t byte) {
  if (b.swizzle.isIdentity() || byte < 0) return byte;
  const int64_t e = dtypeBytes(b.dtype) > 0 ? dtypeBytes(b.dtype) : 1;
  return b.swizzle.apply(byte / e) * e + byte % e;
}

std::vector<int64_t> groupExtents(ExecScope s, int64_t blockThreads) {
  switch (s) {
    case ExecScope::Thread:
      return {};
    case ExecScope::Warp:
      return {32};
    case ExecScope::Warpgroup:
      return {4, 32};
    case ExecScope::Cta:
    case ExecScope::Cluster:
      return {(blockThreads + 31) / 32, 32};
  }
  return {};
}

std::vector<int64_t> groupCoord(ExecScope s, int64_t tid) {
  switch (s) {
    case ExecScope::Thread:
      return {};
    case ExecScope::Warp:
      return {tid % 32};
    case ExecScope::Warpgroup:
      return {(tid / 32) % 4, tid % 32};
    case ExecScope::Cta:
    case ExecScope::Cluster:
      return {tid / 32, tid % 32};
  }
  return {};
}

const Kernel* Program::findKernel(const std::string& name) const {
  for (const auto& k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

int Program::findFunction(const std::string& name) const {
  for (size_t i = 0; i < functions.size(); ++i)
    if (functions[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace tirx::ir
