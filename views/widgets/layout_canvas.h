// The painted grid of the layout view. Painting is independent of the cell count: the per-cell
// colours live in one QImage (a pixel per cell) that is drawn scaled for the visible cells only;
// grid lines (one per visible row and column), atom outlines (merged boundary segments, computed
// once per atom choice) and `w l r` labels are added when the zoom makes them legible. Wheel zooms
// around the cursor, dragging pans, a click selects a cell.
#pragma once

#include <QImage>
#include <QLineF>
#include <QPointF>
#include <QVector>
#include <QWidget>

#include "views/models/layout_grid_model.h"

namespace tirx::views {

class LayoutCanvas : public QWidget {
  Q_OBJECT
 public:
  explicit LayoutCanvas(QWidget* parent = nullptr);

  /// Observe `model` (owned by the caller); call modelChanged() after every change to it.
  void setModel(const LayoutGridModel* model);
  void modelChanged();

  double cellSize() const { return m_cell; }
  /// Pixels per cell (clamped to [0.25, 200]); keeps the grid point under `anchor` fixed.
  void setCellSize(double px, QPointF anchor = QPointF(-1, -1));
  void zoomBy(double factor) { setCellSize(m_cell * factor); }
  /// Fit the whole grid into the widget.
  void fitToView();
  /// Scroll so that `flat` is visible (centred when it was not).
  void ensureVisible(int64_t flat);

  /// The flat index of the cell at a widget position, -1 outside the grid.
  int64_t cellAt(QPointF pos) const;
  /// The widget rectangle of cell `flat`.
  QRectF cellRect(int64_t flat) const;

  void setSelectedCell(int64_t flat);
  int64_t selectedCell() const { return m_selected; }

  /// Paint the cells intersecting `area` (widget coordinates) with the current zoom and offset.
  void paintGrid(QPainter& p, const QRectF& area) const;
  /// The part of the widget where cells are drawn (inside the rulers and above the legend).
  QRectF gridArea() const;
  /// The legend line under the grid: what the colours and the axes mean.
  QString legendText() const;

  /// Render the whole grid to a PNG (cells ≥ 4 px, at most 8192 px a side) / an SVG (one vector
  /// rectangle per cell, labels when large enough). Returns false when the file cannot be written.
  bool exportPng(const QString& path) const;
  bool exportSvg(const QString& path) const;

 signals:
  void cellClicked(qint64 flat);
  void cellHovered(qint64 flat);

 protected:
  void paintEvent(QPaintEvent*) override;
  void wheelEvent(QWheelEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;
  void mouseReleaseEvent(QMouseEvent*) override;
  void resizeEvent(QResizeEvent*) override;
  void keyPressEvent(QKeyEvent*) override;

 private:
  void rebuildImage();
  void paintRulers(QPainter& p) const;
  void paintLegend(QPainter& p) const;
  void paintMismatches(QPainter& p, int64_t r0, int64_t r1, int64_t c0, int64_t c1) const;
  void clampOffset();
  /// Atom boundaries of the whole grid as merged segments in grid units (a boundary line that
  /// continues over many cells is one segment), rebuilt when the atom or the grid size changes.
  const QVector<QLineF>& atomSegments() const;

  struct AtomOutline {
    int64_t atom = -1, rows = -1, cols = -1;
    QVector<QLineF> segments;
  };
  mutable AtomOutline m_atomOutline;  ///< cache for atomSegments()

  const LayoutGridModel* m_model = nullptr;
  QImage m_image;  ///< one ARGB pixel per cell
  double m_cell = 24;
  QPointF m_offset{8, 8};  ///< widget position of the grid's top-left corner
  int64_t m_selected = -1;
  int64_t m_hovered = -1;
  bool m_dragging = false;
  bool m_dragMoved = false;
  QPointF m_dragStart, m_offsetAtDrag;
  bool m_fitPending = true;
  bool m_autoFit = true;  ///< refit on resize until the user zooms or pans
};

}  // namespace tirx::views
