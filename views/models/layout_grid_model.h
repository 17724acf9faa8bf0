// The layout view's algorithm, separate from painting and Qt-free: draws a tile's logical shape as
// it is (the last axis as columns, the one before as rows, outer axes as stacked blocks of rows
// labelled with their coordinates; only a 1-D shape wraps into a near-1.6:1 grid), caches one
// colour per cell (warp → hue, lane → shade; or shared-memory bank), answers "who owns this cell"
// ("w1 l5 r2") and "which cells does thread t hold", draws atom boundaries for a tile op, and
// counts shared-memory bank conflicts (32 banks × 4 bytes).
//
// Bounded at any size (issue 22, decision LIVE-1): a tile whose owner entries exceed
// kMaxOwnershipEntries is not tabulated whole. The model then holds one window of its grid (at
// most that many entries, about 1024 × 1024 cells) and says so (boundedText): every per-cell
// answer and colour is of the window's cells, and elementOf()/cellOf() translate between a cell
// of the shown grid and the tile's logical element. Below the cap the window is the whole grid and
// a cell is its element.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/layout/compiled_layout.h"
#include "core/layout/tile_layout.h"

namespace tirx::views {

enum class LayoutColouring { Owners, Banks, Values };

/// A value painted on a cell by the debugger (core/debug facts at a stop): colour on a diverging
/// scale around 0, NaN / infinity / uninitialised in their own colours, the number as the label.
struct CellValue {
  double value = 0;
  bool uninit = false, nan = false, inf = false;
  bool hasReference = false;
  double reference = 0, absErr = 0;
  int64_t thread = -1,
          slot = -1;  ///< the register owner the debugger read (CTA thread), -1 for memory
  int64_t byte = -1;  ///< the byte read (shared arena / global tensor), -1 for registers
  /// Outside the check's tolerance (the output grid): the canvas outlines the cell.
  bool mismatch = false;
};

/// Hypothetical bank statistics of a typed layout read as shared memory: byte address = m ·
/// elementBytes, one warp instruction of elementBytes per lane modelled as 32 consecutive logical
/// elements (row-major), costed by the engine's bank model (core/layout/bank_model.h). Only for a
/// layout typed without a kernel: a script's shared tiles show the simulator's counts of the
/// kernel's real accesses (ir::SharedAccessCount), never this model.
struct BankStats {
  int64_t accesses = 0;    ///< warp-wide accesses (groups of 32 elements)
  int64_t conflicted = 0;  ///< accesses with degree > 1
  int64_t extraWavefronts = 0;
  int maxDegree = 0;
};

/// "3.5", "nan", "-inf", "uninit": a cell's value as its label shows it (4 significant digits).
std::string valueText(const CellValue& v);

class LayoutGridModel {
 public:
  /// Tabulate `layout` over `shape` (a shape that the layout does not admit falls back to the
  /// 1-D shape {size()}). `elementBytes` is used by the bank view. A tile past the table cap is
  /// tabulated in the window starting at row `row0`, column `col0` of its grid (clamped; the
  /// window's size is the model's, see the header).
  void setLayout(const TileLayout& layout, std::vector<int64_t> shape, int elementBytes = 4,
                 int64_t row0 = 0, int64_t col0 = 0);
  /// A global or shared tensor: cells are memory (byte offset, bank), not thread registers.
  void setMemory(bool memory) {
    m_memory = memory;
    rebuildColours();
  }
  bool isMemory() const { return m_memory; }
  void clear();
  bool empty() const { return m_table.elementCount == 0; }

  const TileLayout& layout() const { return m_layout; }
  const std::vector<int64_t>& shape() const { return m_table.shape; }
  const OwnershipTable& table() const { return m_table; }
  /// Rows and columns of the shown grid (the window when bounded); a cell is row · cols() + col.
  int64_t rows() const { return m_rows; }
  int64_t cols() const { return m_cols; }
  int64_t cellCount() const { return m_table.elementCount; }
  int64_t flatAt(int64_t row, int64_t col) const { return row * m_cols + col; }
  /// True when the tile is past the table cap and only a window of it is tabulated.
  bool bounded() const { return m_bounded; }
  /// The whole tile's grid and element count (equal to the shown grid when not bounded).
  int64_t fullRows() const { return m_fullRows; }
  int64_t fullCols() const { return m_fullCols; }
  int64_t elementCount() const { return m_fullRows * m_fullCols; }
  /// The window's first row and column in the whole grid (0, 0 when not bounded).
  int64_t row0() const { return m_table.windowed ? m_table.window.row0 : 0; }
  int64_t col0() const { return m_table.windowed ? m_table.window.col0 : 0; }
  /// The tile's logical (row-major) element of shown cell `cell`, and back (−1 outside the window).
  int64_t elementOf(int64_t cell) const { return m_table.elementOf(cell); }
  int64_t cellOf(int64_t element) const;
  /// "too large to tabulate: (65536, 65536) is 4294967296 elements, more than the 1048576 owner
  /// entries a table holds; showing the region rows 0–15 × columns 0–65535", empty when not
  /// bounded.
  std::string boundedText() const;
  /// The window's origin (row, column) that shows `element` (the current one when it already does).
  std::pair<int64_t, int64_t> windowFor(int64_t element) const;
  /// Rows per block: the extent of the second-to-last axis for rank ≥ 3, else every row.
  int64_t blockRows() const { return m_blockRows; }
  int64_t blockCount() const { return m_blockRows > 0 ? m_rows / m_blockRows : 0; }
  /// The outer coordinates of block `block` as "[1, :, :]" (empty for rank < 3).
  std::string blockLabel(int64_t block) const;
  /// The ruler label of row `row`: its coordinate on the row axis (rank ≥ 2), or the flat index
  /// of its first element (rank 1, wrapped); times the row ruler scale.
  int64_t rowRulerValue(int64_t row) const;
  /// The ruler label of column `col`: col times the column ruler scale.
  int64_t colRulerValue(int64_t col) const { return (col0() + col) * m_colRulerScale; }
  /// A sampled grid (a large output drawn one cell per block of elements): the rulers count the
  /// original coordinates, `rowScale` / `colScale` per cell. setLayout() resets both to 1.
  void setRulerScales(int64_t rowScale, int64_t colScale) {
    m_rowRulerScale = std::max<int64_t>(1, rowScale);
    m_colRulerScale = std::max<int64_t>(1, colScale);
  }
  /// "rows: axis 1 (32) · columns: axis 2 (4) · blocks: axis 0 (2)" — what the grid's axes are.
  std::string axesText() const;
  /// Byte offset of a cell in its memory (m · elementBytes).
  int64_t byteOffset(int64_t flat) const;

  void setColouring(LayoutColouring c);
  LayoutColouring colouring() const { return m_colouring; }
  /// Paint `values` (row-major, one per cell; anything else clears them) in the Values colouring;
  /// the scale is ±max |finite value|.
  void setValues(std::vector<CellValue> values);
  const std::vector<CellValue>& values() const { return m_values; }
  /// The largest finite |value| (the scale's end), 0 without values.
  double valueScale() const { return m_valueScale; }
  /// Cells whose value is marked `mismatch`.
  int64_t mismatchCells() const { return m_mismatchCells; }
  /// Colour of `v` on the scale ±`scale`: blue below 0, white at 0, red above.
  static uint32_t valueColour(double v, double scale);
  static constexpr uint32_t kNanColour = 0xffff00ffu, kInfColour = 0xffff8c00u,
                            kUninitColour = 0xff707070u;
  /// Highlight one thread (others greyed out); -1 for none.
  void setFocusThread(int64_t thread);
  int64_t focusThread() const { return m_focusThread; }

  /// 0xAARRGGBB colour of every cell (row-major), rebuilt when the colouring changes.
  const std::vector<uint32_t>& colours() const { return m_colours; }

  /// "w1 l5 r2" for the first owner (with "+2" when replicated); "b7" in the bank view.
  std::string cellLabel(int64_t flat) const;
  /// Every owner, one "thread 37 (w1 l5) register 2" per line, plus coordinates and bank.
  std::string cellDetails(int64_t flat) const;
  /// The logical coordinate of a cell as "(1, 5, 2)".
  std::string coordText(int64_t flat) const;
  /// Cells held by `thread`, in slot order (the per-thread inverse view).
  std::vector<int64_t> cellsOfThread(int64_t thread) const;
  /// "thread 37 (w1 l5): r0→(1, 5, 0) r1→(1, 5, 1) …".
  std::string threadDetails(int64_t thread) const;

  int bankOf(int64_t flat) const;
  BankStats bankStats() const;

  /// Atom grouping for a tile op whose operand atoms are `atom` consecutive elements: the atom id
  /// of a cell is flat / atom. 0 disables outlines.
  void setAtom(int64_t atom) { m_atom = atom; }
  int64_t atom() const { return m_atom; }
  int64_t atomOf(int64_t flat) const { return m_atom > 0 ? flat / m_atom : -1; }

  /// The warp-hue / lane-shade colour of thread `thread`.
  static uint32_t ownerColour(int64_t thread);
  static uint32_t bankColour(int bank);
  /// Grid width for a shape: the last dimension for rank ≥ 2; for rank 1 the divisor of `total`
  /// that makes the grid closest to 1.6 : 1 (found in O(√total)).
  static int64_t foldColumns(const std::vector<int64_t>& shape, int64_t total);
  /// The window a bounded tile shows: about square, at most kMaxOwnershipEntries cells, as wide
  /// as the grid when it has few rows. {rows, cols}.
  static std::pair<int64_t, int64_t> windowSize(int64_t fullRows, int64_t fullCols);

 private:
  void rebuildColours();

  TileLayout m_layout;
  CompiledLayout m_compiled;
  OwnershipTable m_table;
  int64_t m_rows = 0, m_cols = 0, m_blockRows = 0;
  int64_t m_fullRows = 0, m_fullCols = 0, m_fullBlockRows = 0;
  bool m_bounded = false;
  bool m_memory = false;
  int m_elementBytes = 4;
  LayoutColouring m_colouring = LayoutColouring::Owners;
  int64_t m_focusThread = -1;
  int64_t m_atom = 0;
  std::vector<uint32_t> m_colours;
  std::vector<int64_t> m_memOffset;  ///< the `m` component of each cell's base coordinate
  std::vector<CellValue> m_values;
  double m_valueScale = 0;
  int64_t m_mismatchCells = 0;
  int64_t m_rowRulerScale = 1, m_colRulerScale = 1;
};

}  // namespace tirx::views
