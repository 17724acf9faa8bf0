// The layout section of a version diff: for each register tile (local buffer) present in both
// versions, the ownership table of each layout (core/layout) over the tile's shape, compared
// element by element. An element has moved when its set of (thread, register) owners differs —
// a replicated layout compares every replica, so adding a replica moves the element too.
#include <algorithm>
#include <span>

#include "core/diff/diff_internal.h"
#include "core/layout/tile_layout.h"

namespace tirx::diff::detail {

const ir::Buffer* findBuffer(const ir::Kernel& k, ir::MemScope scope, const std::string& name) {
  for (const ir::Buffer& b : k.buffers)
    if (b.scope == scope && b.name == name) return &b;
  return nullptr;
}

std::string shapeText(const std::vector<int64_t>& s) {
  std::string t = "(";
  for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + (s.size() == 1 ? ",)" : ")");
}

namespace {

std::vector<Owner> sortedOwners(const OwnershipTable& t, int64_t flat) {
  const std::span<const Owner> s = t.ownersOf(flat);
  std::vector<Owner> v(s.begin(), s.end());
  std::sort(v.begin(), v.end(), [](const Owner& x, const Owner& y) {
    return x.thread != y.thread ? x.thread < y.thread : x.slot < y.slot;
  });
  return v;
}

CellOwner firstOwner(const OwnershipTable& t, int64_t flat) {
  const std::span<const Owner> s = t.ownersOf(flat);
  CellOwner c;
  if (s.empty()) return c;
  c.thread = s[0].thread;
  c.slot = s[0].slot;
  c.replicas = int(s.size()) - 1;
  return c;
}

void compareTables(const ir::Buffer& a, const ir::Buffer& b, int maxCells, LayoutDiff& d) {
  const bool same = d.layoutA == d.layoutB;  // the same layout owns every element the same way
  const OwnershipTable ta = ownership(a.layout, a.shape);
  const OwnershipTable tb = same ? OwnershipTable() : ownership(b.layout, b.shape);
  const OwnershipTable& tB = same ? ta : tb;
  if (ta.elementCount == 0 || tB.elementCount != ta.elementCount) {
    d.status = LayoutDiff::Status::NotTabulated;
    d.note = ta.tooLarge || tB.tooLarge
                 ? "the tile " + shapeText(a.shape) + " is too large to tabulate (more than " +
                       std::to_string(kMaxOwnershipEntries) + " owner entries)"
                 : "a layout does not admit the tile's shape " + shapeText(a.shape);
    return;
  }
  d.cells = ta.elementCount;
  if (d.cells <= kMaxGridCells) {
    d.ownersA.reserve(size_t(d.cells));
    d.ownersB.reserve(size_t(d.cells));
    for (int64_t f = 0; f < d.cells; ++f) {
      d.ownersA.push_back(firstOwner(ta, f));
      d.ownersB.push_back(firstOwner(tB, f));
    }
  }
  if (same) return;
  for (int64_t f = 0; f < ta.elementCount; ++f) {
    if (sortedOwners(ta, f) == sortedOwners(tb, f)) continue;
    ++d.moved;
    d.movedFlat.push_back(f);
    if (int64_t(d.listed.size()) < maxCells)
      d.listed.push_back({f, unflatten(f, ta.shape), firstOwner(ta, f), firstOwner(tb, f)});
  }
}

}  // namespace

std::vector<LayoutDiff> diffLayouts(const ir::Program& a, const ir::Program& b, int maxCells) {
  std::vector<LayoutDiff> out;
  auto inA = [&](const ir::Kernel& ka, const ir::Buffer& ba, const ir::Kernel* kb,
                 const ir::Buffer* bb) {
    LayoutDiff d;
    d.kernel = ka.name;
    d.buffer = ba.name;
    d.shape = ba.shape;
    d.layoutA = ba.layout.toString();
    d.lineA = ba.span.line;
    if (!bb) {
      d.status = LayoutDiff::Status::OnlyA;
      d.note =
          kb ? "no register tile of this name in version B" : "no kernel of this name in version B";
    } else {
      d.layoutB = bb->layout.toString();
      d.lineB = bb->span.line;
      if (bb->shape != ba.shape) {
        d.status = LayoutDiff::Status::ShapeChanged;
        d.shapeB = bb->shape;
        d.note = "the shape changed from " + shapeText(ba.shape) + " to " + shapeText(bb->shape);
      } else {
        compareTables(ba, *bb, maxCells, d);
      }
    }
    out.push_back(std::move(d));
  };
  auto onlyB = [&](const ir::Kernel& kb, const ir::Buffer& bb, const ir::Kernel* ka) {
    LayoutDiff d;
    d.status = LayoutDiff::Status::OnlyB;
    d.kernel = kb.name;
    d.buffer = bb.name;
    d.shape = bb.shape;
    d.layoutB = bb.layout.toString();
    d.lineB = bb.span.line;
    d.note =
        ka ? "no register tile of this name in version A" : "no kernel of this name in version A";
    out.push_back(std::move(d));
  };
  pairBuffers(a, b, ir::MemScope::Local, inA, onlyB);
  return out;
}

}  // namespace tirx::diff::detail
