// The shared-tile section of a version diff: for each shared buffer (`T.alloc_shared`) present in
// both versions, every element's byte offset under each version's layout — the engine's one
// layout evaluator (core/layout CompiledLayout: the TileLayout's element offset, then the
// buffer's swizzle), times the element size — compared element by element; an element has moved
// when its byte offset changed, and its bank (4-byte word mod 32, from the tile's start) is
// reported beside it. Then each shared-memory statement's simulator counts (wavefronts, the
// worst conflict degree) of the two versions, paired through the script diff's line pairs.
#include <algorithm>
#include <numeric>

#include "core/diff/diff_internal.h"
#include "core/layout/compiled_layout.h"

namespace tirx::diff::detail {

namespace {

std::string layoutText(const ir::Buffer& b) {
  if (b.swizzle.isIdentity()) return b.layout.toString();
  return toString(LayoutValue(ComposeLayout{b.swizzle, b.layout}));
}

int64_t elementCount(const std::vector<int64_t>& shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t(1),
                         [](int64_t x, int64_t e) { return e < 0 ? int64_t(-1) : x * e; });
}

/// Every element's byte offset from the tile's start, row-major; empty when the layout does not
/// map the buffer's shape (a symbolic extent, a layout of another size).
std::vector<int64_t> byteOffsets(const ir::Buffer& b) {
  const int64_t n = elementCount(b.shape);
  if (n <= 0 || !b.layout.admits(b.shape)) return {};
  const CompiledLayout c(b.layout, b.swizzle);
  if (c.size() != n) return {};
  const int64_t bytes = std::max(1, ir::dtypeBytes(b.dtype));
  std::vector<int64_t> out(size_t(n), 0);
  c.forEach([&](int64_t flat, CompiledLayout::Point p) { out[size_t(flat)] = p.m * bytes; });
  return out;
}

void compareOffsets(const ir::Buffer& a, const ir::Buffer& b, int maxCells, SharedLayoutDiff& d) {
  const std::vector<int64_t> oa = byteOffsets(a), ob = byteOffsets(b);
  if (oa.empty() || oa.size() != ob.size()) {
    d.status = LayoutDiff::Status::NotTabulated;
    d.note = "a layout does not map the tile's shape " + shapeText(a.shape);
    return;
  }
  d.cells = int64_t(oa.size());
  const bool grid = d.cells <= kMaxGridCells;
  if (grid) {
    d.placesA.reserve(oa.size());
    d.placesB.reserve(ob.size());
  }
  for (int64_t f = 0; f < d.cells; ++f) {
    const SharedPlace pa{oa[size_t(f)]}, pb{ob[size_t(f)]};
    if (grid) {
      d.placesA.push_back(pa);
      d.placesB.push_back(pb);
    }
    if (pa.byte == pb.byte) continue;
    ++d.moved;
    d.bankMoved += pa.bank() != pb.bank() ? 1 : 0;
    d.movedFlat.push_back(f);
    if (int64_t(d.listed.size()) < maxCells) d.listed.push_back({f, unflatten(f, a.shape), pa, pb});
  }
}

SharedLayoutDiff oneSided(const ir::Kernel& k, const ir::Buffer& buf, bool inA,
                          bool kernelInOther) {
  SharedLayoutDiff d;
  d.status = inA ? LayoutDiff::Status::OnlyA : LayoutDiff::Status::OnlyB;
  d.kernel = k.name;
  d.buffer = buf.name;
  d.shape = buf.shape;
  (inA ? d.layoutA : d.layoutB) = layoutText(buf);
  (inA ? d.dtypeA : d.dtypeB) = std::string(ir::dtypeName(buf.dtype));
  (inA ? d.lineA : d.lineB) = buf.span.line;
  d.note = std::string(kernelInOther ? "no shared tile of this name" : "no kernel of this name") +
           " in version " + (inA ? "B" : "A");
  return d;
}

void add(BankCounts& into, const ir::SharedAccessCount& c) {
  into.instructions += c.instructions;
  into.wavefronts += c.wavefronts;
  into.idealWavefronts += c.idealWavefronts;
  into.maxWays = std::max(into.maxWays, c.maxWays);
}

struct Statement {
  int line = 0;
  std::string op;
  BankCounts counts;
  bool paired = false;
};

std::vector<Statement> statementsOf(const SharedCounts& all, const std::string& kernel,
                                    const std::string& buffer) {
  std::vector<Statement> out;
  for (const auto& [key, counts] : all)
    if (std::get<0>(key) == kernel && std::get<1>(key) == buffer)
      out.push_back({std::get<2>(key), std::get<3>(key), counts, false});
  return out;  // the map's order: ascending line, then op
}

std::vector<SharedAccessDelta> pairStatements(std::vector<Statement> a, std::vector<Statement> b,
                                              const std::map<int, int>& aToB) {
  std::vector<SharedAccessDelta> out;
  for (Statement& sa : a) {
    const auto m = aToB.find(sa.line);
    const int lineB = m == aToB.end() ? -1 : m->second;
    // The same op on the paired line first; else the only other op on that line (an edited op).
    Statement* match = nullptr;
    int sameLine = 0;
    Statement* other = nullptr;
    for (Statement& sb : b) {
      if (sb.paired || sb.line != lineB) continue;
      if (sb.op == sa.op) {
        match = &sb;
        break;
      }
      ++sameLine;
      other = &sb;
    }
    if (!match && sameLine == 1) match = other;
    SharedAccessDelta d;
    d.inA = true;
    d.lineA = sa.line;
    d.opA = sa.op;
    d.a = sa.counts;
    if (match) {
      match->paired = true;
      d.inB = true;
      d.lineB = match->line;
      d.opB = match->op;
      d.b = match->counts;
    }
    out.push_back(std::move(d));
  }
  for (const Statement& sb : b) {
    if (sb.paired) continue;
    SharedAccessDelta d;
    d.inB = true;
    d.lineB = sb.line;
    d.opB = sb.op;
    d.b = sb.counts;
    out.push_back(std::move(d));
  }
  // In version B's order; a statement of A only where its line falls in B.
  auto place = [&](const SharedAccessDelta& d) {
    if (d.inB) return d.lineB;
    const auto m = aToB.find(d.lineA);
    return m == aToB.end() || m->second <= 0 ? d.lineA : m->second;
  };
  std::stable_sort(
      out.begin(), out.end(),
      [&](const SharedAccessDelta& x, const SharedAccessDelta& y) { return place(x) < place(y); });
  return out;
}

}  // namespace

std::vector<SharedLayoutDiff> diffSharedLayouts(const ir::Program& a, const ir::Program& b,
                                                int maxCells) {
  std::vector<SharedLayoutDiff> out;
  auto inA = [&](const ir::Kernel& ka, const ir::Buffer& ba, const ir::Kernel* kb,
                 const ir::Buffer* bb) {
    if (!bb) {
      out.push_back(oneSided(ka, ba, true, kb != nullptr));
      return;
    }
    SharedLayoutDiff d;
    d.kernel = ka.name;
    d.buffer = ba.name;
    d.shape = ba.shape;
    d.dtypeA = std::string(ir::dtypeName(ba.dtype));
    d.dtypeB = std::string(ir::dtypeName(bb->dtype));
    d.layoutA = layoutText(ba);
    d.layoutB = layoutText(*bb);
    d.lineA = ba.span.line;
    d.lineB = bb->span.line;
    if (bb->shape != ba.shape) {
      d.status = LayoutDiff::Status::ShapeChanged;
      d.shapeB = bb->shape;
      d.note = "the shape changed from " + shapeText(ba.shape) + " to " + shapeText(bb->shape);
    } else {
      compareOffsets(ba, *bb, maxCells, d);
    }
    out.push_back(std::move(d));
  };
  auto onlyB = [&](const ir::Kernel& kb, const ir::Buffer& bb, const ir::Kernel* ka) {
    out.push_back(oneSided(kb, bb, false, ka != nullptr));
  };
  pairBuffers(a, b, ir::MemScope::Shared, inA, onlyB);
  return out;
}

SharedCounts sharedCountsOf(const verify::Report& report, const ir::Program& program) {
  SharedCounts out;
  for (const verify::KernelRun& run : report.runs) {
    const ir::Kernel* k = program.findKernel(run.kernel);
    if (run.device != "simulator" || !k) continue;
    // The two versions' buffers pair by name (their ids differ); each count names its own by id.
    for (const ir::SharedAccessCount& c : run.sharedAccesses)
      if (c.buffer >= 0 && size_t(c.buffer) < k->buffers.size())
        add(out[{run.kernel, k->buffers[size_t(c.buffer)].name, c.span.line, c.op}], c);
  }
  return out;
}

void attachSharedAccesses(std::vector<SharedLayoutDiff>& tiles, const SharedCounts* a,
                          const SharedCounts* b, const std::vector<std::pair<int, int>>& linePairs,
                          const std::string& whyNot) {
  std::map<int, int> aToB;
  for (const auto& [la, lb] : linePairs)
    if (la > 0) aToB[la] = lb;
  for (SharedLayoutDiff& t : tiles) {
    if (t.status == LayoutDiff::Status::OnlyA || t.status == LayoutDiff::Status::OnlyB) continue;
    if (!a || !b) {
      t.accessNote = whyNot;
      continue;
    }
    t.accessesCounted = true;
    t.accesses = pairStatements(statementsOf(*a, t.kernel, t.buffer),
                                statementsOf(*b, t.kernel, t.buffer), aToB);
  }
}

}  // namespace tirx::diff::detail
