// TileLayout core (spec/TIRX.md §1): the axis registry, the forward map (flatten row-major, split
// over the shard extents with the outermost component unreduced, accumulate per axis, add
// offsets), replicas, size/span/storage, dtype views and the surface-syntax printer. The
// ownership tables live in layout_ownership.cpp.
#include "core/layout/tile_layout.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "core/diag/result.h"

namespace tirx {

namespace {

bool isIdentifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

std::string strideText(const Iter& it) {
  if (it.axis == "m") return std::to_string(it.stride);
  if (isIdentifier(it.axis)) return std::to_string(it.stride) + "@" + it.axis;
  return "(" + std::to_string(it.stride) + ", \"" + it.axis + "\")";
}

std::string iterListText(char head, const std::vector<Iter>& iters) {
  std::string out(1, head);
  out += "[";
  if (iters.empty()) return out + "()]";
  if (iters.size() == 1)
    return out + std::to_string(iters[0].extent) + " : " + strideText(iters[0]) + "]";
  std::string ext = "(", str = "(";
  for (size_t i = 0; i < iters.size(); ++i) {
    if (i) {
      ext += ", ";
      str += ", ";
    }
    ext += std::to_string(iters[i].extent);
    str += strideText(iters[i]);
  }
  return out + ext + ") : " + str + ")]";
}

// Every axis the layout names, so that apply() results have a stable key set.
void addAxes(const TileLayout& l, AxisCoord& c) {
  for (const auto& it : l.shard) c.emplace(it.axis, 0);
  for (const auto& it : l.replica) c.emplace(it.axis, 0);
  for (const auto& [a, v] : l.offset) c[a] += v;
}

bool isMemory(const std::string& axis) {
  return axisKind(axis) == AxisKind::Memory;
}

}  // namespace

AxisKind axisKind(const std::string& name) {
  static const std::set<std::string> memory = {"m", "TLane", "TCol", "P", "F", "Bank"};
  static const std::set<std::string> thread = {"laneid",    "warpid",    "tx",  "wgid",
                                               "tid_in_wg", "wid_in_wg", "bx",  "by",
                                               "bz",        "cbx",       "cby", "cbz"};
  if (memory.count(name)) return AxisKind::Memory;
  if (thread.count(name)) return AxisKind::Thread;
  return AxisKind::Unknown;
}

std::string axisDescription(const std::string& name) {
  static const std::map<std::string, std::string> d = {
      {"m",
       "memory axis: linear element offset of a shared or global tensor, the register slot of a "
       "local tile; the default axis of an untagged stride"},
      {"TLane",
       "memory axis: Blackwell tensor-memory lane (tensor memory is outside the supported subset)"},
      {"TCol",
       "memory axis: Blackwell tensor-memory 32-bit column (tensor memory is outside the supported "
       "subset)"},
      {"P", "memory axis: Trainium partition (not used on CUDA)"},
      {"F", "memory axis: Trainium free dimension (not used on CUDA)"},
      {"Bank", "memory axis: Trainium PSUM bank (not used on CUDA)"},
      {"laneid", "thread axis: lane inside a warp (0–31), weight 1 in the linear thread id"},
      {"warpid", "thread axis: warp inside the CTA, weight 32 in the linear thread id"},
      {"tx", "thread axis: linear thread inside the CTA (threadIdx.x), weight 1"},
      {"wgid",
       "thread axis: warpgroup (128 threads) inside the CTA, weight 128 in the linear thread id"},
      {"tid_in_wg", "thread axis: thread inside a warpgroup (0–127), weight 1"},
      {"wid_in_wg",
       "thread axis: warp inside a warpgroup (0–3), weight 32 in the linear thread id"},
      {"bx", "block axis: blockIdx.x; weight 0, so every CTA holds the same owners"},
      {"by", "block axis: blockIdx.y; weight 0, so every CTA holds the same owners"},
      {"bz", "block axis: blockIdx.z; weight 0, so every CTA holds the same owners"},
      {"cbx", "cluster axis: CTA inside the cluster, x; weight 0 in the linear thread id"},
      {"cby", "cluster axis: CTA inside the cluster, y; weight 0 in the linear thread id"},
      {"cbz", "cluster axis: CTA inside the cluster, z; weight 0 in the linear thread id"},
  };
  auto it = d.find(name);
  return it == d.end() ? std::string() : name + " — " + it->second;
}

int64_t axisFixedExtent(const std::string& name) {
  if (name == "laneid") return 32;
  if (name == "wid_in_wg") return 4;
  if (name == "tid_in_wg") return 128;
  return 0;
}

int64_t threadAxisWeight(const std::string& axis) {
  if (axis == "tx" || axis == "laneid" || axis == "tid_in_wg") return 1;
  if (axis == "warpid" || axis == "wid_in_wg") return 32;
  if (axis == "wgid") return 128;
  return 0;
}

std::string checkThreadExtents(const TileLayout& layout) {
  AxisCoord maxOf;
  for (const auto* v : {&layout.shard, &layout.replica})
    for (const Iter& it : *v)
      if (axisFixedExtent(it.axis) > 0)
        maxOf[it.axis] += std::max<int64_t>(0, (it.extent - 1) * it.stride);
  for (const auto& [axis, v] : layout.offset)
    if (axisFixedExtent(axis) > 0) maxOf[axis] += v;
  for (const auto& [axis, v] : maxOf)
    if (v >= axisFixedExtent(axis))
      return axis + " reaches " + std::to_string(v) + ", beyond its extent " +
             std::to_string(axisFixedExtent(axis));
  return {};
}

int64_t linearThread(const AxisCoord& c) {
  // tx = 32·warpid + laneid = 128·wgid + tid_in_wg, tid_in_wg = 32·wid_in_wg + laneid,
  // warpid = 4·wgid + wid_in_wg: every thread axis contributes linearly with its weight.
  int64_t t = 0;
  for (const auto& [axis, v] : c) t += threadAxisWeight(axis) * v;
  return t;
}

int64_t product(std::span<const int64_t> v) {
  int64_t p = 1;
  for (int64_t x : v) p *= x;
  return p;
}

int64_t flatten(std::span<const int64_t> coord, std::span<const int64_t> shape) {
  TIRX_ASSERT(coord.size() == shape.size());
  int64_t flat = 0;
  for (size_t d = 0; d < coord.size(); ++d) flat = flat * shape[d] + coord[d];
  return flat;
}

std::vector<int64_t> unflatten(int64_t flat, std::span<const int64_t> shape) {
  std::vector<int64_t> c(shape.size(), 0);
  for (size_t d = shape.size(); d-- > 0;) {
    if (d == 0) {
      c[d] = flat;  // outermost not reduced, as apply()
    } else {
      c[d] = shape[d] > 0 ? flat % shape[d] : 0;
      flat = shape[d] > 0 ? flat / shape[d] : 0;
    }
  }
  return c;
}

TileLayout TileLayout::rowMajor(std::span<const int64_t> shape) {
  TileLayout l;
  int64_t stride = 1;
  l.shard.resize(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    l.shard[d] = Iter{shape[d], stride, "m"};
    stride *= shape[d];
  }
  return l;
}

int64_t TileLayout::size() const {
  int64_t p = 1;
  for (const auto& it : shard) p *= it.extent;
  return p;
}

int64_t TileLayout::size(const std::string& axis) const {
  int64_t p = 1;
  for (const auto& it : shard)
    if (it.axis == axis) p *= it.extent;
  return p;
}

int64_t TileLayout::span(const std::string& axis) const {
  int64_t s = 1;
  for (const auto& it : shard)
    if (it.axis == axis) s += (it.extent - 1) * it.stride;
  return s;
}

int64_t TileLayout::storageSlots() const {
  int64_t s = 1;
  for (const auto& it : shard)
    if (isMemory(it.axis)) s += (it.extent - 1) * it.stride;
  for (const auto& it : replica)
    if (isMemory(it.axis)) s += (it.extent - 1) * it.stride;
  for (const auto& [a, v] : offset)
    if (isMemory(a)) s += v;
  return s;
}

TileLayout TileLayout::storage() const {
  TileLayout out;
  auto keep = [](const Iter& it) { return axisKind(it.axis) != AxisKind::Thread; };
  std::copy_if(shard.begin(), shard.end(), std::back_inserter(out.shard), keep);
  std::copy_if(replica.begin(), replica.end(), std::back_inserter(out.replica), keep);
  for (const auto& [a, v] : offset)
    if (axisKind(a) != AxisKind::Thread) out.offset[a] = v;
  return out;
}

bool TileLayout::hasThreadAxes() const {
  auto thr = [](const Iter& it) { return axisKind(it.axis) == AxisKind::Thread; };
  if (std::any_of(shard.begin(), shard.end(), thr)) return true;
  if (std::any_of(replica.begin(), replica.end(), thr)) return true;
  return std::any_of(offset.begin(), offset.end(),
                     [](const auto& kv) { return axisKind(kv.first) == AxisKind::Thread; });
}

AxisCoord TileLayout::applyFlat(int64_t flat) const {
  AxisCoord c;
  addAxes(*this, c);
  for (size_t k = shard.size(); k-- > 0;) {
    const Iter& it = shard[k];
    int64_t comp = flat;
    if (k > 0) {  // the outermost component keeps the whole remaining quotient
      comp = it.extent > 0 ? flat % it.extent : 0;
      flat = it.extent > 0 ? flat / it.extent : 0;
    }
    c[it.axis] += comp * it.stride;
  }
  return c;
}

AxisCoord TileLayout::apply(std::span<const int64_t> coord, std::span<const int64_t> shape) const {
  return applyFlat(flatten(coord, shape));
}

std::vector<AxisCoord> TileLayout::applyAll(int64_t flat) const {
  std::vector<AxisCoord> out{applyFlat(flat)};
  // Expand replica iters row-major (the first replica iter outermost), base copy first.
  for (const Iter& r : replica) {
    std::vector<AxisCoord> next;
    next.reserve(out.size() * static_cast<size_t>(std::max<int64_t>(r.extent, 1)));
    for (const auto& c : out)
      for (int64_t i = 0; i < r.extent; ++i) {
        AxisCoord d = c;
        d[r.axis] += i * r.stride;
        next.push_back(std::move(d));
      }
    out = std::move(next);
  }
  return out;
}

bool TileLayout::admits(std::span<const int64_t> shape) const {
  for (int64_t s : shape)
    if (s <= 0) return false;
  return product(shape) == size();
}

std::string TileLayout::toString() const {
  std::string out;
  if (!shard.empty() || (replica.empty() && offset.empty())) out = iterListText('S', shard);
  auto plus = [&](const std::string& t) { out += (out.empty() ? "" : " + ") + t; };
  if (!replica.empty()) plus(iterListText('R', replica));
  for (const auto& [a, v] : offset) {
    if (a == "m")
      plus(std::to_string(v));
    else if (isIdentifier(a))
      plus(std::to_string(v) + "@" + a);
    else
      plus("(" + std::to_string(v) + ", \"" + a + "\")");
  }
  return out;
}

std::optional<TileLayout> dtypeView(const TileLayout& layout, int bitsOld, int bitsNew,
                                    std::string* why) {
  auto fail = [&](std::string msg) -> std::optional<TileLayout> {
    if (why) *why = std::move(msg);
    return std::nullopt;
  };
  if (bitsOld <= 0 || bitsNew <= 0) return fail("dtype widths must be positive");
  if (bitsOld == bitsNew) return layout;
  TileLayout out = layout;
  if (bitsNew < bitsOld) {
    // Unpack by k: every memory-axis stride and memory offset ×k, then an inner (k, 1, m).
    if (bitsOld % bitsNew != 0)
      return fail("cannot view " + std::to_string(bitsOld) + "-bit elements as " +
                  std::to_string(bitsNew) + "-bit: widths do not divide");
    const int64_t k = bitsOld / bitsNew;
    for (auto* v : {&out.shard, &out.replica})
      for (auto& it : *v)
        if (isMemory(it.axis)) it.stride *= k;
    for (auto& [a, v] : out.offset)
      if (isMemory(a)) v *= k;
    out.shard.push_back(Iter{k, 1, "m"});
    return out;
  }
  // Pack by k: the innermost shard iter must be a stride-1 memory iter whose extent divides by k.
  if (bitsNew % bitsOld != 0)
    return fail("cannot view " + std::to_string(bitsOld) + "-bit elements as " +
                std::to_string(bitsNew) + "-bit: widths do not divide");
  const int64_t k = bitsNew / bitsOld;
  if (out.shard.empty()) return fail("cannot pack a layout without shard iters");
  Iter& inner = out.shard.back();
  if (!isMemory(inner.axis) || inner.stride != 1)
    return fail("packing by " + std::to_string(k) +
                " needs an innermost memory iter of stride 1, found " + strideText(inner));
  if (inner.extent % k != 0)
    return fail("packing by " + std::to_string(k) + " needs an innermost extent divisible by " +
                std::to_string(k) + ", found " + std::to_string(inner.extent));
  inner.extent /= k;
  for (auto* v : {&out.shard, &out.replica})
    for (size_t i = 0; i < v->size(); ++i) {
      Iter& it = (*v)[i];
      if (v == &out.shard && i + 1 == v->size()) continue;
      if (!isMemory(it.axis)) continue;
      if (it.stride % k != 0)
        return fail("packing by " + std::to_string(k) + " needs memory strides divisible by " +
                    std::to_string(k) + ", found " + strideText(it));
      it.stride /= k;
    }
  for (auto& [a, v] : out.offset) {
    if (!isMemory(a)) continue;
    if (v % k != 0)
      return fail("packing by " + std::to_string(k) + " needs a memory offset divisible by " +
                  std::to_string(k) + ", found " + std::to_string(v));
    v /= k;
  }
  return out;
}

}  // namespace tirx
