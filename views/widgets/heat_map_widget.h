// A heat map of a 2-D array (absolute error) painted from one cached QImage, with row and column
// rulers, a colour bar, and a hover read-out of the cell under the mouse (its rows, columns and
// value). The grid arrives decimated from the worker (plot_series.h: at most a few hundred cells a
// side, each the largest value of its block), so painting never touches the full array. Qt Charts
// has no heat-map series, so this is a small painted widget.
#pragma once

#include <QImage>
#include <QWidget>

#include "views/engine/plot_series.h"

namespace tirx::views {

class HeatMapWidget : public QWidget {
  Q_OBJECT
 public:
  explicit HeatMapWidget(QWidget* parent = nullptr);
  /// Show `grid`; an empty grid clears the map with a "no 2-D data" text.
  void setGrid(const HeatGrid& grid, const QString& title);
  void clear(const QString& emptyText);
  bool hasData() const { return !m_image.isNull(); }
  /// What the hover read-out says for widget position `pos` (empty outside the map).
  QString hoverTextAt(QPointF pos) const;
  /// The read-out for the cell under the mouse (what the bottom line shows).
  QString hoverText() const { return m_hover; }
  /// The labelled columns / rows (source indices of the last dimension / the rows): 0 and every
  /// multiple of a 1-2-5 step that keeps labels apart at the current size.
  std::vector<int64_t> columnTicks() const;
  std::vector<int64_t> rowTicks() const;

 signals:
  /// The first source element (row-major flat index) of the clicked cell.
  void cellClicked(qint64 flat);

 protected:
  void paintEvent(QPaintEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;
  void leaveEvent(QEvent*) override;

 private:
  QRectF plotRect() const;
  /// The grid cell at `pos`, false outside the map.
  bool cellAt(QPointF pos, int* row, int* col) const;

  HeatGrid m_grid;
  QImage m_image;
  QString m_title, m_emptyText, m_hover;
  double m_min = 0, m_max = 0;
};

}  // namespace tirx::views
