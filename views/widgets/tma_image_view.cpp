// TmaImageView: cells of a TMA box image, sized to fit, coloured by source; see the header.
#include "views/widgets/tma_image_view.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace tirx::views {

TmaImageView::TmaImageView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setMinimumSize(160, 100);
}

void TmaImageView::setImage(const ir::TmaBoxImage* image, const ir::AsyncTimeline* names) {
  m_has = image && image->rows > 0 && image->cols > 0 && image->elemBytes > 0 &&
          image->srcRow.size() == size_t(image->rows * image->cols) &&
          image->srcCol.size() == image->srcRow.size();
  m_image = m_has ? *image : ir::TmaBoxImage{};
  m_caption.clear();
  if (m_has) {
    QStringList coords;
    for (int64_t c : m_image.coords) coords << QString::number(c);
    const QString buffer =
        names ? QString::fromStdString(names->name(m_image.buffer)) : QStringLiteral("shared");
    const QString tensor =
        names ? QString::fromStdString(names->name(m_image.tensor)) : QStringLiteral("global");
    m_caption = tr("%1 ← %2 at (%3), line %4, cta %5: %6 × %7 elements of %8 bytes, %9")
                    .arg(buffer, tensor, coords.join(", "))
                    .arg(m_image.span.line)
                    .arg(m_image.cta)
                    .arg(m_image.rows)
                    .arg(m_image.cols)
                    .arg(m_image.elemBytes)
                    .arg(m_image.swizzleBytes ? tr("%1-byte swizzle").arg(m_image.swizzleBytes)
                                              : tr("no swizzle"));
  }
  update();
}

void TmaImageView::setColourBy(ColourBy c) {
  m_colourBy = c;
  update();
}

int64_t TmaImageView::elementsPerCell() const {
  if (!m_has) return 1;
  const int64_t rowBytes = m_image.cols * m_image.elemBytes;
  return rowBytes % 16 == 0 && m_image.elemBytes <= 16 ? 16 / m_image.elemBytes : 1;
}

int64_t TmaImageView::cellsPerRow() const {
  return m_has ? m_image.cols / elementsPerCell() : 0;
}

std::pair<int32_t, int32_t> TmaImageView::cellSource(int64_t row, int64_t cell) const {
  if (!m_has || row < 0 || row >= m_image.rows || cell < 0 || cell >= cellsPerRow())
    return {-1, -1};
  const size_t p = size_t(row * m_image.cols + cell * elementsPerCell());
  return {m_image.srcRow[p], m_image.srcCol[p]};
}

QString TmaImageView::cellText(int64_t row, int64_t cell) const {
  const auto [r, c] = cellSource(row, cell);
  if (r < 0) return QStringLiteral("·");
  return QString::number(c / elementsPerCell());
}

QColor TmaImageView::cellColor(int64_t row, int64_t cell) const {
  const auto [r, c] = cellSource(row, cell);
  if (r < 0) return QColor(215, 215, 215);
  if (m_colourBy == ColourBy::SourceRow)
    return QColor::fromHsv(int((r % 8) * 45), 90 + 20 * int((r / 8) % 4), 245);
  const int chunk = int(c / elementsPerCell());
  return QColor::fromHsv((chunk % 8) * 45, 80 + 40 * ((chunk / 8) % 4),
                         250 - 10 * ((chunk / 8) % 4));
}

void TmaImageView::relayout() const {
  if (!m_has) return;
  const double w = width() - kLeft - 8, h = height() - kTop - 8;
  m_cellW = std::max(2.0, std::floor(std::min(48.0, w / double(cellsPerRow()))));
  m_cellH = std::clamp(std::floor(h / double(m_image.rows)), 3.0, 22.0);
}

QRectF TmaImageView::cellRect(int64_t row, int64_t cell) const {
  if (!m_has || row < 0 || row >= m_image.rows || cell < 0 || cell >= cellsPerRow()) return {};
  relayout();
  return QRectF(kLeft + cell * m_cellW, kTop + row * m_cellH, m_cellW, m_cellH);
}

void TmaImageView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  p.setPen(palette().text().color());
  if (!m_has) {
    p.drawText(rect(), Qt::AlignCenter, tr("no TMA load box in the last run"));
    return;
  }
  relayout();
  QFont small = font();
  small.setPointSizeF(std::max(6.0, std::min(small.pointSizeF(), m_cellH * 0.55)));
  p.setFont(small);
  p.drawText(QRectF(kLeft, 2, width() - kLeft, kTop - 4), Qt::AlignLeft | Qt::AlignVCenter,
             elementsPerCell() > 1 ? tr("shared 16-byte chunks: the global chunk each holds")
                                   : tr("shared elements: the global column each holds"));
  const bool labels = m_cellH >= 10 && m_cellW >= 14;
  for (int64_t r = 0; r < m_image.rows; ++r) {
    if (m_cellH >= 10)
      p.drawText(QRectF(0, kTop + r * m_cellH, kLeft - 4, m_cellH),
                 Qt::AlignRight | Qt::AlignVCenter, QString::number(r));
    for (int64_t c = 0; c < cellsPerRow(); ++c) {
      const QRectF rc = cellRect(r, c);
      p.fillRect(rc, cellColor(r, c));
      if (labels) {
        p.setPen(Qt::black);
        p.drawText(rc, Qt::AlignCenter, cellText(r, c));
      }
    }
  }
  p.setPen(QPen(palette().mid().color(), 1));
  p.setBrush(Qt::NoBrush);
  p.drawRect(QRectF(kLeft, kTop, cellsPerRow() * m_cellW, m_image.rows * m_cellH));
}

bool TmaImageView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip && m_has) {
    auto* he = static_cast<QHelpEvent*>(e);
    relayout();
    const int64_t cell = int64_t(std::floor((he->pos().x() - kLeft) / std::max(1.0, m_cellW)));
    const int64_t row = int64_t(std::floor((he->pos().y() - kTop) / std::max(1.0, m_cellH)));
    const auto [r, c] = cellSource(row, cell);
    if (row >= 0 && row < m_image.rows && cell >= 0 && cell < cellsPerRow()) {
      const int64_t n = elementsPerCell();
      const QString where = n > 1 ? tr("shared row %1, chunk %2 (bytes %3–%4 of the row)")
                                        .arg(row)
                                        .arg(cell)
                                        .arg(cell * 16)
                                        .arg(cell * 16 + 15)
                                  : tr("shared row %1, element %2").arg(row).arg(cell);
      const QString what = r < 0   ? tr("out-of-bounds fill")
                           : n > 1 ? tr("global row %1, columns %2–%3").arg(r).arg(c).arg(c + n - 1)
                                   : tr("global (%1, %2)").arg(r).arg(c);
      QToolTip::showText(he->globalPos(), where + QStringLiteral(" ← ") + what, this);
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QWidget::event(e);
}

}  // namespace tirx::views
