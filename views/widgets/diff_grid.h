// The Diff dock's layout grid: one register tile drawn as the layout view draws it (the last axis
// as columns, rows in row-major order), the rows wrapped into side-by-side bands when that makes
// the cells larger in the space there is, with the cells whose owners changed between the two
// versions coloured by their new owner (warp hue, lane shade) and outlined, and the others greyed.
// Hovering a cell shows its coordinate and both owners ("(0, 1, 0): w0 l1 r0 → w0 l0 r4"). A shared
// tile is drawn the same way, its moved elements (byte offset changed) coloured by their new bank
// and the hover giving both places ("(1, 0): byte 128 bank 0 → byte 144 bank 4").
#pragma once

#include <QWidget>
#include <vector>

#include "core/diff/version_diff.h"

namespace tirx::views {

class DiffGrid : public QWidget {
  Q_OBJECT
 public:
  explicit DiffGrid(QWidget* parent = nullptr);
  /// Show `tile` (a copy is kept); an empty or uncompared tile clears the grid.
  void setTile(const diff::LayoutDiff& tile);
  /// Show a shared tile (a copy is kept); an empty or uncompared tile clears the grid.
  void setSharedTile(const diff::SharedLayoutDiff& tile);
  void clear();
  /// True while a shared tile is shown.
  bool showsShared() const { return m_isShared; }
  int64_t rows() const { return m_rows; }
  /// Side-by-side bands the rows are wrapped into at the current size.
  int64_t bands() const;
  int64_t cols() const { return m_cols; }
  int64_t cellCount() const { return int64_t(m_moved.size()); }
  /// Cells drawn as moved.
  int64_t movedCount() const;
  bool isMoved(int64_t flat) const {
    return flat >= 0 && flat < cellCount() && m_moved[size_t(flat)];
  }
  /// "(0, 1, 0): w0 l1 r0 → w0 l0 r4", for a shared tile "(1, 0): byte 128 bank 0 → byte 144
  /// bank 4" (or "… (unchanged)"); empty outside the grid.
  QString cellText(int64_t flat) const;
  /// The cell under a widget position, -1 when none.
  int64_t cellAt(QPoint p) const;
  QSize sizeHint() const override { return {360, 240}; }

 protected:
  void paintEvent(QPaintEvent*) override;
  bool event(QEvent* e) override;

 private:
  QRectF cellRect(int64_t flat) const;
  double cellSize() const;
  void setCells(const std::vector<int64_t>& shape, int64_t cells,
                const std::vector<int64_t>& movedFlat);
  QString placeText(int64_t flat, bool after) const;

  diff::LayoutDiff m_tile;
  diff::SharedLayoutDiff m_shared;
  bool m_isShared = false;
  std::vector<int64_t> m_shape;
  std::vector<char> m_moved;
  int64_t m_rows = 0, m_cols = 0;
};

}  // namespace tirx::views
