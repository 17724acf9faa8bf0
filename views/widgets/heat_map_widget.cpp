// HeatMapWidget: viridis-like ramp into a QImage, drawn scaled, with rulers and a hover read-out.
#include "views/widgets/heat_map_widget.h"

#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace tirx::views {
namespace {

QColor ramp(double t) {
  // a perceptual blue → green → yellow ramp (viridis anchors)
  static const QColor stops[] = {QColor(68, 1, 84), QColor(59, 82, 139), QColor(33, 145, 140),
                                 QColor(94, 201, 98), QColor(253, 231, 37)};
  t = std::clamp(t, 0.0, 1.0) * 4;
  int i = std::min(3, static_cast<int>(t));
  double f = t - i;
  const QColor &a = stops[i], &b = stops[i + 1];
  return QColor::fromRgbF(a.redF() + (b.redF() - a.redF()) * f,
                          a.greenF() + (b.greenF() - a.greenF()) * f,
                          a.blueF() + (b.blueF() - a.blueF()) * f);
}

QString rangeText(int64_t first, int64_t step, int64_t limit) {
  int64_t last = std::min(first + step, limit) - 1;
  return last > first ? QString("%1–%2").arg(first).arg(last) : QString::number(first);
}

}  // namespace

HeatMapWidget::HeatMapWidget(QWidget* parent) : QWidget(parent) {
  setMinimumSize(200, 150);
  setMouseTracking(true);
}

void HeatMapWidget::clear(const QString& emptyText) {
  m_grid = HeatGrid();
  m_image = QImage();
  m_emptyText = emptyText;
  m_hover.clear();
  update();
}

void HeatMapWidget::setGrid(const HeatGrid& grid, const QString& title) {
  if (grid.empty()) {
    clear(tr("no 2-D data"));
    return;
  }
  m_grid = grid;
  m_title = title;
  m_hover.clear();
  auto [lo, hi] = std::minmax_element(grid.values.begin(), grid.values.end());
  m_min = *lo;
  m_max = *hi;
  m_image = QImage(grid.cols, grid.rows, QImage::Format_RGB32);
  double span = m_max > m_min ? m_max - m_min : 1;
  for (int r = 0; r < grid.rows; ++r) {
    auto* line = reinterpret_cast<QRgb*>(m_image.scanLine(r));
    for (int c = 0; c < grid.cols; ++c)
      line[c] = ramp((grid.values[static_cast<size_t>(r) * grid.cols + c] - m_min) / span).rgb();
  }
  update();
}

QRectF HeatMapWidget::plotRect() const {
  return QRectF(48, 24, width() - 126, height() - 78);
}

namespace {
/// 0, step, 2·step, … below `count`, with a 1-2-5 step that leaves at least `minPx` pixels between
/// two labels on an axis `lengthPx` long.
std::vector<int64_t> ticks(int64_t count, double lengthPx, double minPx) {
  std::vector<int64_t> out;
  if (count <= 0 || lengthPx <= 0) return out;
  const double perIndex = lengthPx / static_cast<double>(count);
  int64_t step = 1;
  for (int64_t mag = 1; step * perIndex < minPx; mag *= 10) {
    for (int64_t m : {1, 2, 5})
      if (m * mag * perIndex >= minPx) {
        step = m * mag;
        break;
      }
    if (step * perIndex < minPx) step = 10 * mag;
  }
  for (int64_t v = 0; v < count; v += step) out.push_back(v);
  return out;
}
}  // namespace

std::vector<int64_t> HeatMapWidget::columnTicks() const {
  return m_image.isNull() ? std::vector<int64_t>() : ticks(m_grid.srcCols, plotRect().width(), 48);
}

std::vector<int64_t> HeatMapWidget::rowTicks() const {
  return m_image.isNull() ? std::vector<int64_t>() : ticks(m_grid.srcRows, plotRect().height(), 20);
}

bool HeatMapWidget::cellAt(QPointF pos, int* row, int* col) const {
  QRectF pr = plotRect();
  if (m_image.isNull() || !pr.contains(pos)) return false;
  *col =
      std::min(m_grid.cols - 1, static_cast<int>((pos.x() - pr.left()) / pr.width() * m_grid.cols));
  *row =
      std::min(m_grid.rows - 1, static_cast<int>((pos.y() - pr.top()) / pr.height() * m_grid.rows));
  return true;
}

QString HeatMapWidget::hoverTextAt(QPointF pos) const {
  int r = 0, c = 0;
  if (!cellAt(pos, &r, &c)) return {};
  const double v = m_grid.values[static_cast<size_t>(r) * m_grid.cols + c];
  const bool block = m_grid.rowStep > 1 || m_grid.colStep > 1;
  return tr("row %1, column %2: %3%4")
      .arg(rangeText(r * m_grid.rowStep, m_grid.rowStep, m_grid.srcRows),
           rangeText(c * m_grid.colStep, m_grid.colStep, m_grid.srcCols),
           block ? tr("largest |error| ") : tr("|error| "), QString::number(v, 'g', 4));
}

void HeatMapWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().color(QPalette::Base));
  p.setPen(palette().color(QPalette::Text));
  if (m_image.isNull()) {
    p.drawText(rect(), Qt::AlignCenter, m_emptyText);
    return;
  }
  p.drawText(QRectF(0, 2, width(), 20), Qt::AlignCenter, m_title);
  QRectF pr = plotRect();
  p.drawImage(pr, m_image);
  // rulers: labelled row and column indices at the centre of their cells, axis names
  for (int64_t c : columnTicks()) {
    const double x = pr.left() + (c + 0.5) / m_grid.srcCols * pr.width();
    p.drawLine(QPointF(x, pr.bottom()), QPointF(x, pr.bottom() + 3));
    p.drawText(QRectF(x - 30, pr.bottom() + 3, 60, 14), Qt::AlignHCenter, QString::number(c));
  }
  for (int64_t r : rowTicks()) {
    const double y = pr.top() + (r + 0.5) / m_grid.srcRows * pr.height();
    p.drawLine(QPointF(pr.left() - 3, y), QPointF(pr.left(), y));
    p.drawText(QRectF(0, y - 8, 42, 16), Qt::AlignRight | Qt::AlignVCenter, QString::number(r));
  }
  p.drawText(QRectF(pr.left(), pr.bottom() + 18, pr.width(), 16), Qt::AlignHCenter,
             tr("column (last dimension)"));
  p.save();
  p.translate(12, pr.center().y());
  p.rotate(-90);
  p.drawText(QRectF(-60, -8, 120, 16), Qt::AlignCenter, tr("row"));
  p.restore();
  QRectF bar(pr.right() + 10, pr.top(), 14, pr.height());
  for (int y = 0; y < bar.height(); ++y)
    p.fillRect(QRectF(bar.left(), bar.top() + y, bar.width(), 1), ramp(1.0 - y / bar.height()));
  p.drawText(QRectF(bar.right() + 4, bar.top(), 70, 16), Qt::AlignLeft,
             QString::number(m_max, 'g', 3));
  p.drawText(QRectF(bar.right() + 4, bar.bottom() - 16, 70, 16), Qt::AlignLeft,
             QString::number(m_min, 'g', 3));
  p.drawText(QRectF(pr.left(), height() - 18, width() - pr.left(), 16), Qt::AlignLeft,
             m_hover.isEmpty() ? tr("hover a cell for its value") : m_hover);
}

void HeatMapWidget::mouseMoveEvent(QMouseEvent* e) {
  QString text = hoverTextAt(e->position());
  if (text != m_hover) {
    m_hover = text;
    update();
  }
}

void HeatMapWidget::leaveEvent(QEvent*) {
  m_hover.clear();
  update();
}

void HeatMapWidget::mousePressEvent(QMouseEvent* e) {
  int r = 0, c = 0;
  if (!cellAt(e->position(), &r, &c)) return;
  emit cellClicked(r * m_grid.rowStep * m_grid.srcCols + c * m_grid.colStep);
}

}  // namespace tirx::views
