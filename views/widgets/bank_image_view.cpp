// BankImageView: sizing (fit to the widget, rows at least 3 px) and painting of a SharedTileImage;
// see the header.
#include "views/widgets/bank_image_view.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace tirx::views {

BankImageView::BankImageView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setMinimumSize(120, 60);
}

void BankImageView::setTile(std::shared_ptr<const ScriptFacts> facts, int index) {
  m_facts = std::move(facts);
  m_index =
      m_facts && index >= 0 && index < static_cast<int>(m_facts->sharedTiles.size()) ? index : -1;
  m_highlight.clear();
  m_highlightCount = 0;
  m_map.reset();
  m_cellOf.clear();
  m_conflicting = 0;
  relayout();
  update();
}

void BankImageView::setHighlight(const std::vector<int64_t>& flatElements) {
  m_map.reset();
  m_cellOf.clear();
  m_conflicting = 0;
  m_highlight.clear();
  m_highlightCount = 0;
  const SharedTileImage* t = tile();
  if (t && t->ok && !flatElements.empty()) {
    const int64_t n = t->image.rows * t->cols;
    m_highlight.assign(size_t(n), 0);
    for (int64_t e : flatElements)
      if (e >= 0 && e < n && !m_highlight[size_t(e)]) {
        m_highlight[size_t(e)] = 1;
        ++m_highlightCount;
      }
  }
  update();
}

void BankImageView::setBankMap(std::shared_ptr<const sim::WarpBankMap> map, const QString& what) {
  std::vector<int64_t> touched;
  if (map)
    for (const sim::BankCell& c : map->cells) touched.push_back(c.element);
  setHighlight(touched);  // clears the previous map
  const SharedTileImage* t = tile();
  if (!map || !t || !t->ok) {
    update();
    return;
  }
  m_map = std::move(map);
  m_mapWhat = what;
  const int64_t n = t->image.rows * t->cols;
  m_cellOf.assign(size_t(n), -1);
  // an element touched by several instructions of the warp shows its worst one
  for (size_t i = 0; i < m_map->cells.size(); ++i) {
    const sim::BankCell& c = m_map->cells[i];
    if (c.element < 0 || c.element >= n) continue;
    int32_t& slot = m_cellOf[size_t(c.element)];
    if (slot < 0 || m_map->cells[size_t(slot)].ways < c.ways) slot = static_cast<int32_t>(i);
  }
  for (int32_t i : m_cellOf)
    if (i >= 0 && m_map->cells[size_t(i)].ways > 1) ++m_conflicting;
  update();
}

const sim::BankCell* BankImageView::bankCell(int64_t row, int64_t col) const {
  const SharedTileImage* t = tile();
  if (!m_map || !t || row < 0 || col < 0 || row >= t->image.rows || col >= t->cols) return nullptr;
  const int32_t i = m_cellOf[size_t(row * t->cols + col)];
  return i < 0 ? nullptr : &m_map->cells[size_t(i)];
}

bool BankImageView::isConflicting(int64_t row, int64_t col) const {
  const sim::BankCell* c = bankCell(row, col);
  return c && c->ways > 1;
}

QString BankImageView::cellText(int64_t row, int64_t col) const {
  const SharedTileImage* t = tile();
  if (!t || !t->ok || row < 0 || col < 0 || row >= t->image.rows || col >= t->cols) return {};
  const int64_t byte = elementByte(*t, row, col);
  if (byte < 0) return tr("element (%1, %2): not one contiguous 16-byte chunk").arg(row).arg(col);
  QString text = tr("element (%1, %2) → byte %3 · chunk %4 · bank %5")
                     .arg(row)
                     .arg(col)
                     .arg(byte)
                     .arg(byte / 16)
                     .arg(elementBank(*t, row, col));
  const sim::BankCell* c = bankCell(row, col);
  if (!m_map) return text;
  if (!c) return text + tr("<br>not touched by %1 in this warp").arg(m_mapWhat.toHtmlEscaped());
  const auto& samples = m_map->samples;
  const int instr =
      static_cast<int>(std::find(samples.begin(), samples.end(), c->sample) - samples.begin());
  text += tr("<br>%1, instruction %2 of %3, lane %4: bank %5, wavefront %6")
              .arg(m_mapWhat.toHtmlEscaped())
              .arg(instr + 1)
              .arg(samples.size())
              .arg(c->lane)
              .arg(c->bank)
              .arg(c->wavefront + 1);
  if (c->ways <= 1) return text + tr(" · no conflict");
  QStringList with;
  for (int64_t e : c->partners) with << QStringLiteral("(%1,%2)").arg(e / t->cols).arg(e % t->cols);
  return text +
         tr("<br><b>bank %1, %2-way</b>: with %3").arg(c->bank).arg(c->ways).arg(with.join(","));
}

bool BankImageView::isHighlighted(int64_t row, int64_t col) const {
  const SharedTileImage* t = tile();
  if (!t || m_highlight.empty() || row < 0 || col < 0 || row >= t->image.rows || col >= t->cols)
    return false;
  return m_highlight[size_t(row * t->cols + col)] != 0;
}

const SharedTileImage* BankImageView::tile() const {
  return m_index < 0 ? nullptr : &m_facts->sharedTiles[size_t(m_index)];
}

QColor BankImageView::bankColor(int bank) {
  if (bank < 0) return QColor(200, 200, 200);
  // banks 4c..4c+3 are one 16-byte chunk: the chunk picks the hue, the word the shade
  return QColor::fromHsv((bank / 4) * 45, 70 + 45 * (bank % 4), 250 - 18 * (bank % 4));
}

void BankImageView::relayout() const {
  const SharedTileImage* t = tile();
  if (!t || !t->ok) return;
  const double w = width() - m_left - 8, h = height() - m_top - 8;
  m_cellW = std::floor(std::min(48.0, w / double(t->cols)) * 4) / 4;
  // the whole tile stays visible: rows get what the height allows (numbers from 10 px)
  m_cellH = std::clamp(std::floor(h / double(t->image.rows)), 3.0, 24.0);
}

void BankImageView::resizeEvent(QResizeEvent*) {
  relayout();
}

QRectF BankImageView::elementRect(int64_t row, int64_t col) const {
  const SharedTileImage* t = tile();
  if (!t || !t->ok || row < 0 || row >= t->image.rows || col < 0 || col >= t->cols) return {};
  relayout();
  return QRectF(m_left + col * m_cellW, m_top + row * m_cellH, m_cellW, m_cellH);
}

bool BankImageView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* he = static_cast<QHelpEvent*>(e);
    const SharedTileImage* t = tile();
    relayout();
    if (t && t->ok && m_cellW > 0 && m_cellH > 0 && he->pos().x() >= m_left &&
        he->pos().y() >= m_top) {
      const int64_t col = int64_t((he->pos().x() - m_left) / m_cellW);
      const int64_t row = int64_t((he->pos().y() - m_top) / m_cellH);
      if (row < t->image.rows && col < t->cols) {
        QToolTip::showText(he->globalPos(), cellText(row, col), this);
        return true;
      }
    }
    QToolTip::hideText();
    return true;
  }
  return QWidget::event(e);
}

void BankImageView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  const SharedTileImage* t = tile();
  p.setPen(palette().text().color());
  if (!t) {
    p.drawText(rect(), Qt::AlignCenter, tr("no shared tile selected"));
    return;
  }
  if (!t->ok) {
    p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, QString::fromStdString(t->why));
    return;
  }
  relayout();
  const int64_t perChunk = std::max<int64_t>(1, 16 / t->elemBytes);
  QFont small = font();
  small.setPixelSize(std::clamp(int(std::min(m_cellH * 0.75, m_cellW * 0.45)), 7, 11));
  p.setFont(small);
  const bool elems = elementMode();
  const double chunkW = m_cellW * perChunk;
  const bool chunkLabels = !elems && chunkW >= 34 && m_cellH >= 10;
  for (int64_t r = 0; r < t->image.rows; ++r) {
    for (int64_t c = 0; c < t->cols; c += elems ? 1 : perChunk) {
      const int bank = elementBank(*t, r, c);
      QRectF cell = elementRect(r, c);
      if (!elems) cell.setWidth(std::min(chunkW, (t->cols - c) * m_cellW));
      p.fillRect(cell, bankColor(bank));
      if (elems && m_cellH >= 10) {
        p.setPen(Qt::black);
        p.drawText(cell, Qt::AlignCenter, QString::number(bank));
      } else if (chunkLabels) {
        const int64_t phys = t->image.at(r, c * t->elemBytes / 16);
        p.setPen(Qt::black);
        p.drawText(cell, Qt::AlignCenter,
                   phys < 0 ? QStringLiteral("?")
                            : tr("c%1 b%2–%3")
                                  .arg(phys % std::max<int64_t>(1, t->image.physRowChunks))
                                  .arg(bank)
                                  .arg(bank + 3));
      }
    }
  }
  // a descriptor's elements: the others dimmed, the read ones outlined
  if (!m_highlight.empty()) {
    const QColor dim(255, 255, 255, 170);
    for (int64_t r = 0; r < t->image.rows; ++r)
      for (int64_t c = 0; c < t->cols; ++c)
        if (!isHighlighted(r, c)) p.fillRect(elementRect(r, c), dim);
    p.setPen(QPen(QColor(20, 20, 20), std::max(1.0, std::min(2.0, m_cellW / 6))));
    p.setBrush(Qt::NoBrush);
    for (int64_t r = 0; r < t->image.rows; ++r)
      for (int64_t c = 0; c < t->cols; ++c)
        if (isHighlighted(r, c)) {
          // outline only the edges facing a non-highlighted neighbour: runs read as one region
          const QRectF e = elementRect(r, c);
          if (!isHighlighted(r - 1, c)) p.drawLine(e.topLeft(), e.topRight());
          if (!isHighlighted(r + 1, c)) p.drawLine(e.bottomLeft(), e.bottomRight());
          if (!isHighlighted(r, c - 1)) p.drawLine(e.topLeft(), e.bottomLeft());
          if (!isHighlighted(r, c + 1)) p.drawLine(e.topRight(), e.bottomRight());
        }
  }
  // chunk boundaries (16 bytes) and every 8th row (one 128-byte swizzle period)
  const QColor line = palette().text().color();
  p.setPen(QPen(line, 1));
  for (int64_t c = 0; c <= t->cols; c += perChunk)
    p.drawLine(QPointF(m_left + c * m_cellW, m_top),
               QPointF(m_left + c * m_cellW, m_top + t->image.rows * m_cellH));
  for (int64_t r = 0; r <= t->image.rows; r += 8)
    p.drawLine(QPointF(m_left, m_top + r * m_cellH),
               QPointF(m_left + t->cols * m_cellW, m_top + r * m_cellH));
  // row numbers every 8 rows, chunk numbers on top
  p.setPen(line);
  QFont axis = font();
  axis.setPixelSize(10);
  p.setFont(axis);
  for (int64_t r = 0; r < t->image.rows;
       r += std::max<int64_t>(1, int64_t(std::ceil(12 / m_cellH))))
    p.drawText(QRectF(0, m_top + r * m_cellH - 6, m_left - 4, 12 + m_cellH),
               Qt::AlignRight | Qt::AlignTop, QString::number(r));
  for (int64_t c = 0; c * perChunk < t->cols; ++c)
    p.drawText(QRectF(m_left + c * chunkW, 2, chunkW, m_top - 4), Qt::AlignCenter,
               chunkW >= 40 ? tr("chunk %1").arg(c) : QString::number(c));
  // a bank map's conflicting elements: a red frame inside the element (drawn last, over the grid
  // lines) and the conflict degree in its corner when there is room
  if (m_map && m_conflicting > 0) {
    const QColor red = conflictColor();
    QFont degree = font();
    degree.setPixelSize(std::clamp(int(m_cellH * 0.6), 7, 10));
    degree.setBold(true);
    p.setFont(degree);
    const int f = kConflictFrame;
    for (int64_t r = 0; r < t->image.rows; ++r)
      for (int64_t c = 0; c < t->cols; ++c) {
        const sim::BankCell* cell = bankCell(r, c);
        if (!cell || cell->ways <= 1) continue;
        const QRect e = elementRect(r, c).toAlignedRect();
        if (e.width() < 2 * f + 2 || e.height() < 2 * f + 2) {
          p.fillRect(e, red);
          continue;
        }
        p.fillRect(QRect(e.left() + 1, e.top() + 1, e.width() - 2, f), red);
        p.fillRect(QRect(e.left() + 1, e.bottom() - f, e.width() - 2, f), red);
        p.fillRect(QRect(e.left() + 1, e.top() + 1, f, e.height() - 2), red);
        p.fillRect(QRect(e.right() - f, e.top() + 1, f, e.height() - 2), red);
        if (e.width() >= 26 && e.height() >= 12) {
          p.setPen(red);
          p.drawText(e.adjusted(0, f, -f - 1, 0), Qt::AlignRight | Qt::AlignTop,
                     QString::number(cell->ways));
        }
      }
  }
}

}  // namespace tirx::views
