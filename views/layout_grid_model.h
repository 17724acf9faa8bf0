// The layout view's algorithm, separate from painting and Qt-free: folds a tile's logical shape
// into a 2-D grid (row-major; a 2-D shape keeps its rows and columns, other ranks wrap into a
// near-1.6:1 grid whose width is a multiple of the last dimension), caches one
// colour per cell (warp → hue, lane → shade; or shared-memory bank), answers "who owns this cell"
// ("w1 l5 r2") and "which cells does thread t hold", draws atom boundaries for a tile op, and
// counts shared-memory bank conflicts (32 banks × 4 bytes).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/layout/tile_layout.h"

namespace tirx::views {

enum class LayoutColouring { Owners, Banks };

/// Bank statistics of the tile read as shared memory: word address = m · elementBytes / 4, bank =
/// word % 32. One warp-wide access is modelled as 32 consecutive logical elements (row-major);
/// its conflict degree is the largest number of distinct words that fall into one bank, and it
/// costs (degree − 1) extra wavefronts.
struct BankStats {
  int64_t accesses = 0;     ///< warp-wide accesses (groups of 32 elements)
  int64_t conflicted = 0;   ///< accesses with degree > 1
  int64_t extraWavefronts = 0;
  int maxDegree = 0;
};

class LayoutGridModel {
 public:
  /// Tabulate `layout` over `shape` (a shape that the layout does not admit falls back to the
  /// 1-D shape {size()}). `elementBytes` is used by the bank view.
  void setLayout(const TileLayout& layout, std::vector<int64_t> shape, int elementBytes = 4);
  void clear();
  bool empty() const { return m_table.elementCount == 0; }

  const TileLayout& layout() const { return m_layout; }
  const std::vector<int64_t>& shape() const { return m_table.shape; }
  const OwnershipTable& table() const { return m_table; }
  int64_t rows() const { return m_rows; }
  int64_t cols() const { return m_cols; }
  int64_t cellCount() const { return m_table.elementCount; }
  int64_t flatAt(int64_t row, int64_t col) const { return row * m_cols + col; }

  void setColouring(LayoutColouring c);
  LayoutColouring colouring() const { return m_colouring; }
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
  /// Grid width for a shape: the last dimension of a 2-D shape; otherwise the multiple of the
  /// last dimension dividing `total` that makes the grid closest to 1.6 : 1.
  static int64_t foldColumns(const std::vector<int64_t>& shape, int64_t total);

 private:
  void rebuildColours();

  TileLayout m_layout;
  OwnershipTable m_table;
  int64_t m_rows = 0, m_cols = 0;
  int m_elementBytes = 4;
  LayoutColouring m_colouring = LayoutColouring::Owners;
  int64_t m_focusThread = -1;
  int64_t m_atom = 0;
  std::vector<uint32_t> m_colours;
  std::vector<int64_t> m_memOffset;  ///< the `m` component of each cell's base physical coordinate
};

}  // namespace tirx::views
