// HeatMapWidget: viridis-like ramp into a QImage, drawn scaled.
#include "views/heat_map_widget.h"

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
  return QColor::fromRgbF(a.redF() + (b.redF() - a.redF()) * f, a.greenF() + (b.greenF() - a.greenF()) * f,
                          a.blueF() + (b.blueF() - a.blueF()) * f);
}

}  // namespace

HeatMapWidget::HeatMapWidget(QWidget* parent) : QWidget(parent) { setMinimumSize(200, 150); }

void HeatMapWidget::clear(const QString& emptyText) {
  m_image = QImage();
  m_emptyText = emptyText;
  update();
}

void HeatMapWidget::setData(const std::vector<double>& values, int rows, int cols, const QString& title) {
  if (values.empty() || rows <= 0 || cols <= 0 || static_cast<size_t>(rows) * cols > values.size()) {
    clear(tr("no 2-D data"));
    return;
  }
  m_title = title;
  auto [lo, hi] = std::minmax_element(values.begin(), values.begin() + rows * cols);
  m_min = *lo;
  m_max = *hi;
  m_image = QImage(cols, rows, QImage::Format_RGB32);
  double span = m_max > m_min ? m_max - m_min : 1;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      m_image.setPixelColor(c, r, ramp((values[r * cols + c] - m_min) / span));
  update();
}

QRectF HeatMapWidget::plotRect() const { return QRectF(40, 24, width() - 110, height() - 40); }

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
  p.drawText(QRectF(0, pr.top(), 36, 16), Qt::AlignRight, "0");
  p.drawText(QRectF(0, pr.bottom() - 16, 36, 16), Qt::AlignRight, QString::number(m_image.height() - 1));
  QRectF bar(pr.right() + 10, pr.top(), 14, pr.height());
  for (int y = 0; y < bar.height(); ++y)
    p.fillRect(QRectF(bar.left(), bar.top() + y, bar.width(), 1), ramp(1.0 - y / bar.height()));
  p.drawText(QRectF(bar.right() + 4, bar.top(), 60, 16), Qt::AlignLeft, QString::number(m_max, 'g', 3));
  p.drawText(QRectF(bar.right() + 4, bar.bottom() - 16, 60, 16), Qt::AlignLeft, QString::number(m_min, 'g', 3));
}

void HeatMapWidget::mousePressEvent(QMouseEvent* e) {
  if (m_image.isNull()) return;
  QRectF pr = plotRect();
  if (!pr.contains(e->position())) return;
  int c = static_cast<int>((e->position().x() - pr.left()) / pr.width() * m_image.width());
  int r = static_cast<int>((e->position().y() - pr.top()) / pr.height() * m_image.height());
  emit cellClicked(static_cast<qint64>(r) * m_image.width() + c);
}

}  // namespace tirx::views
