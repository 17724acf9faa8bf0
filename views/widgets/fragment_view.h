// A tensor-core register operand drawn as the instruction sees it: one block per repeat of the
// selected warp, each the instruction's atom (A 16×16, B 16×8 as k×n, C/D 16×8; ldmatrix's
// count 8×8 matrices side by side) in element units. Every cell carries the lane and register the
// fragment map needs ("T5 r2") and the PTX element ("a2 lo"); its fill is the lane's colour; a cell
// whose owner under the tensor's layout differs from the map is outlined in the warning colour. The
// facts are the engine's (FragmentFact, recorded by sema); this widget only lays them out and
// paints them.
#pragma once

#include <QWidget>
#include <memory>

#include "views/engine/script_facts.h"

namespace tirx::views {

class FragmentView : public QWidget {
  Q_OBJECT
 public:
  explicit FragmentView(QWidget* parent = nullptr);

  /// Show fragment fact `index` of `facts` (kept alive here); index −1 or null clears.
  void setFact(std::shared_ptr<const ScriptFacts> facts, int index);
  const FragmentFact* fact() const;
  /// The warp whose blocks are drawn (clamped to the fact's warps).
  void setWarp(int warp);
  int warp() const { return m_warp; }

  /// The warning colour of the mismatch outline.
  static QColor warningColor();
  /// The fill of cells the instruction needs in `lane`.
  static QColor laneColor(int lane);

  /// Widget rectangle of element (row, col) of repeat `repeat` (empty when not drawn).
  QRectF cellRect(int repeat, int row, int col) const;
  /// "T0 r1\na2 lo": the label painted in that cell (painted only when the cell is large enough).
  QString cellLabel(int repeat, int row, int col) const;
  /// The (repeat, row, col) at a widget position, or repeat −1.
  struct Hit {
    int repeat = -1, row = 0, col = 0;
  };
  Hit cellAt(QPointF pos) const;
  /// Whether labels are legible at the current size.
  bool labelsShown() const {
    relayout();
    return m_cell >= kLabelCell;
  }

  QSize sizeHint() const override { return {640, 560}; }

 protected:
  void paintEvent(QPaintEvent*) override;
  void resizeEvent(QResizeEvent*) override;
  bool event(QEvent* e) override;

 private:
  static constexpr double kLabelCell = 22;
  /// Block grid and cell size from the current widget size (cheap; called before every use).
  void relayout() const;
  int repeats() const;
  /// A block's extent in cells: the atom, except that ldmatrix's 8×8 matrices stand in a row.
  int blockRows() const;
  double blockCols() const;
  /// Space under a block for the matrix names (ldmatrix), else 0.
  double footer() const;
  QString repeatName(int repeat) const;

  std::shared_ptr<const ScriptFacts> m_facts;
  int m_index = -1;
  int m_warp = 0;
  // layout: blocks in a grid of m_blockCols columns
  mutable int m_blockCols = 1;
  mutable double m_cell = 0;
  double m_margin = 8, m_title = 18, m_gap = 14;
};

}  // namespace tirx::views
