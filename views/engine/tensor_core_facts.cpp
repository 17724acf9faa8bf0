// Shared-tile images and fragment-fact texts for the tensor-core views (see the header).
#include "views/engine/tensor_core_facts.h"

#include <sstream>

#include "core/layout/bank_model.h"

namespace tirx::views {

std::vector<SharedTileImage> sharedTileImages(const ir::Program& program, int64_t maxRows) {
  std::vector<SharedTileImage> out;
  for (int i = 0; i < static_cast<int>(program.symbols.size()); ++i) {
    const ir::Symbol& s = program.symbols[size_t(i)];
    if (s.kind != ir::Symbol::Kind::Tensor || s.scope != ir::MemScope::Shared || s.shape.empty())
      continue;
    SharedTileImage t;
    t.symbol = i;
    t.buffer = s.buffer;
    t.name = s.name;
    t.kernel = s.kernel;
    t.elemBytes = ir::dtypeBytes(s.dtype);
    t.swizzled = !s.swizzle.isIdentity();
    const LayoutValue v =
        t.swizzled ? LayoutValue{ComposeLayout{s.swizzle, s.layout}} : LayoutValue{s.layout};
    t.layoutText = toString(v);
    if (auto mode = hardwareSwizzleMode(s.swizzle, t.elemBytes))
      t.swizzleMode = swizzleModeName(*mode);
    t.cols = s.shape.back();
    std::string why;
    if (auto img = chunkImage(v, s.shape, t.elemBytes, maxRows, &why)) {
      t.image = std::move(*img);
      t.ok = true;
    } else {
      t.why = why;
    }
    out.push_back(std::move(t));
  }
  return out;
}

int64_t elementByte(const SharedTileImage& tile, int64_t row, int64_t col) {
  if (!tile.ok || row < 0 || row >= tile.image.rows || col < 0 || col >= tile.cols) return -1;
  const int64_t inRow = col * tile.elemBytes;
  const int64_t phys = tile.image.at(row, inRow / 16);
  if (phys < 0) return -1;
  return phys * 16 + inRow % 16;
}

int elementBank(const SharedTileImage& tile, int64_t row, int64_t col) {
  const int64_t byte = elementByte(tile, row, col);
  if (byte < 0) return -1;
  return bankOfByte(byte);  // the engine's bank model (core/layout/bank_model.h)
}

std::vector<TileAccessRow> tileAccessRows(const verify::Report& report, const std::string& kernel,
                                          int buffer) {
  std::vector<TileAccessRow> out;
  for (size_t r = 0; r < report.runs.size(); ++r) {
    const verify::KernelRun& run = report.runs[r];
    if (!kernel.empty() && run.kernel != kernel) continue;
    for (size_t i = 0; i < run.sharedAccesses.size(); ++i)
      if (buffer >= 0 && run.sharedAccesses[i].buffer == buffer)
        out.push_back({static_cast<int>(r), static_cast<int>(i)});
  }
  return out;
}

const ir::SharedAccessCount& accessOf(const verify::Report& report, const TileAccessRow& row) {
  return report.runs[size_t(row.run)].sharedAccesses[size_t(row.access)];
}

std::string describeFragmentFact(const FragmentFact& f) {
  std::ostringstream s;
  s << "line " << f.opSpan.line << " · " << f.opcode << " · " << f.role << " ('" << f.tensor
    << "')";
  if (f.mismatches) s << " · " << f.mismatches << " wrong";
  return s.str();
}

const FragmentCell* fragmentCell(const FragmentFact& f, int warp, int repeat, int row, int col) {
  // cells are warp-major, then repeat, then the atom's words: index the block, scan inside it
  const int64_t perBlock = int64_t(f.rows) * f.cols;
  int64_t reps = 1;
  for (int64_t e : f.repeat) reps *= e;
  const int64_t base = (int64_t(warp) * reps + repeat) * perBlock;
  for (int64_t i = base; i < base + perBlock && i < int64_t(f.cells.size()); ++i) {
    const FragmentCell& c = f.cells[size_t(i)];
    if (c.row == row && c.col == col) return &c;
  }
  return nullptr;
}

std::string fragmentCellLabel(const FragmentFact& f, const FragmentCell& c) {
  // a warpgroup frame (wgmma) holds four warps' cells in one block: name the warp too
  const std::string w = f.frameThreads > 32 ? "W" + std::to_string(c.warp) + " " : std::string();
  return w + "T" + std::to_string(c.needLane) + " r" + std::to_string(c.needReg);
}

std::string fragmentCellElement(const FragmentFact& f, const FragmentCell& c) {
  std::string e = std::string(1, f.letter) + std::to_string(c.element);
  if (f.halves == 2) e += c.needHalf ? " hi" : " lo";
  return e;
}

std::string describeFragmentCell(const FragmentFact& f, const FragmentCell& c) {
  std::ostringstream s;
  s << "element (" << c.row << ", " << c.col << ") · ";
  if (f.frameThreads > 32)
    s << "warp " << c.warp << ", lane " << c.needLane << " (thread " << 32 * c.warp + c.needLane
      << ")";
  else
    s << "lane " << c.needLane;
  s << " · " << f.letter << c.element << " (register " << c.needReg;
  if (f.halves == 2) s << (c.needHalf ? ", bits 16–31" : ", bits 0–15");
  s << ")";
  if (c.haveThread >= 0) {
    s << " · the layout gives thread " << c.haveThread << ", slot " << c.haveSlot;
    if (c.mismatch && f.frameThreads > 32)
      s << " — the instruction needs thread " << 32 * c.warp + c.needLane;
    else if (c.mismatch)
      s << " — the instruction needs lane " << c.needLane;
  }
  return s.str();
}

}  // namespace tirx::views
