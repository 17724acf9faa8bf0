// PipelineView: geometry (fit to width, rows stacked), painting, hit testing; see the header.
#include "views/widgets/pipeline_view.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace tirx::views {

PipelineView::PipelineView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Minimum);
}

void PipelineView::setChart(PipelineChart chart) {
  m_chart = std::move(chart);
  m_selected = -1;
  m_rowTops.clear();
  int y = kTop;
  for (size_t r = 0; r < m_chart.rows.size(); ++r) {
    m_rowTops.push_back(y);
    y += rowHeight(static_cast<int>(r));
  }
  setMinimumHeight(contentHeight());
  updateGeometry();
  update();
}

void PipelineView::setSelected(int item) {
  m_selected = item >= 0 && item < static_cast<int>(m_chart.items.size()) ? item : -1;
  update();
}

QColor PipelineView::categoryColor(PipelineItem::Category c) {
  switch (c) {
    case PipelineItem::Category::Wait:
      return QColor(232, 150, 60);
    case PipelineItem::Category::Copy:
      return QColor(80, 140, 220);
    case PipelineItem::Category::Arrive:
      return QColor(60, 170, 90);
    case PipelineItem::Category::Phase:
      return QColor(170, 60, 170);
    case PipelineItem::Category::Other:
      return QColor(120, 120, 120);
  }
  return Qt::gray;
}

int PipelineView::rowHeight(int row) const {
  const PipelineRow& r = m_chart.rows[size_t(row)];
  return r.copies ? r.tracks * kTrack + 8 : kSyncRow;
}

int PipelineView::rowTop(int row) const {
  return row >= 0 && size_t(row) < m_rowTops.size() ? m_rowTops[size_t(row)] : kTop;
}

int PipelineView::contentHeight() const {
  int h = kTop + 6;
  for (size_t r = 0; r < m_chart.rows.size(); ++r) h += rowHeight(static_cast<int>(r));
  return h;
}

QSize PipelineView::sizeHint() const {
  return {800, std::max(120, contentHeight())};
}
QSize PipelineView::minimumSizeHint() const {
  return {kLeft + 120, std::max(60, contentHeight())};
}

double PipelineView::xOf(int64_t t) const {
  const double w = std::max(1, width() - kLeft - kRight);
  return kLeft + w * double(t) / double(std::max<int64_t>(1, m_chart.tEnd));
}

QRectF PipelineView::itemRect(int i) const {
  if (i < 0 || i >= static_cast<int>(m_chart.items.size())) return {};
  const PipelineItem& it = m_chart.items[size_t(i)];
  const int top = rowTop(it.row);
  const double x0 = xOf(it.start);
  if (it.bar) {
    const double x1 = std::max(xOf(it.end), x0 + 3);
    if (m_chart.rows[size_t(it.row)].copies)
      return QRectF(x0, top + 4 + it.track * kTrack, x1 - x0, kTrack - 2);
    return QRectF(x0, top + 9, x1 - x0, kSyncRow - 16);
  }
  // markers: arrivals above the bar band, phase flips across the row (a diamond where a wait they
  // release ends), others below
  if (it.category == PipelineItem::Category::Phase) return QRectF(x0 - 4, top + 1, 8, kSyncRow - 2);
  if (it.category == PipelineItem::Category::Arrive) return QRectF(x0 - 4, top, 8, 8);
  return QRectF(x0 - 3, top + kSyncRow - 8, 6, 8);
}

int PipelineView::itemAt(QPointF pos) const {
  int best = -1;
  for (int i = static_cast<int>(m_chart.items.size()) - 1; i >= 0; --i) {
    if (!itemRect(i).contains(pos)) continue;
    if (!m_chart.items[size_t(i)].bar) return i;  // markers sit on top of bars
    if (best < 0) best = i;
  }
  return best;
}

void PipelineView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  const QColor text = palette().text().color();
  if (m_chart.rows.empty()) {
    p.setPen(text);
    p.drawText(rect(), Qt::AlignCenter, tr("no asynchronous events in this CTA"));
    return;
  }
  // time axis
  p.setPen(palette().mid().color());
  const int64_t step = std::max<int64_t>(
      1, int64_t(std::pow(10.0, std::floor(std::log10(double(m_chart.tEnd) / 2)))));
  QFont small = font();
  small.setPointSizeF(std::max(6.0, small.pointSizeF() - 1.5));
  p.setFont(small);
  for (int64_t t = 0; t <= m_chart.tEnd; t += step) {
    const double x = xOf(t);
    p.setPen(palette().midlight().color());
    p.drawLine(QPointF(x, kTop - 4), QPointF(x, contentHeight()));
    p.setPen(text);
    p.drawText(QRectF(x - 30, 2, 60, kTop - 6), Qt::AlignCenter, QString::number(t));
  }
  p.drawText(QRectF(4, 2, kLeft - 8, kTop - 6), Qt::AlignLeft | Qt::AlignVCenter, tr("ticks"));
  // rows
  for (size_t r = 0; r < m_chart.rows.size(); ++r) {
    const int top = rowTop(static_cast<int>(r)), h = rowHeight(static_cast<int>(r));
    if (r % 2) p.fillRect(QRect(0, top, width(), h), palette().alternateBase());
    p.setPen(text);
    p.drawText(QRect(4, top, kLeft - 8, h), Qt::AlignLeft | Qt::AlignVCenter,
               m_chart.rows[r].label);
  }
  // bars first, then phase flips, then the other markers on top of their lines
  auto pass = [](const PipelineItem& it) {
    return it.bar ? 0 : it.category == PipelineItem::Category::Phase ? 1 : 2;
  };
  for (int layer = 0; layer < 3; ++layer)
    for (int i = 0; i < static_cast<int>(m_chart.items.size()); ++i) {
      const PipelineItem& it = m_chart.items[size_t(i)];
      if (pass(it) != layer) continue;
      const QRectF rc = itemRect(i);
      const QColor fill = categoryColor(it.category);
      if (it.bar) {
        p.setPen(QPen(fill.darker(140), 1));
        p.setBrush(it.unfinished ? QBrush(fill, Qt::BDiagPattern) : QBrush(fill));
        p.drawRect(rc);
        if (rc.width() > 40 && !it.label.isEmpty()) {
          p.setPen(Qt::black);
          p.drawText(rc.adjusted(3, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter,
                     p.fontMetrics().elidedText(it.label, Qt::ElideRight, int(rc.width()) - 5));
        }
      } else if (it.category == PipelineItem::Category::Phase) {
        p.setPen(QPen(fill, 2));
        p.drawLine(QPointF(rc.center().x(), rc.top()), QPointF(rc.center().x(), rc.bottom()));
        p.setBrush(fill);
        const QPointF c = rc.center();
        p.drawPolygon(QPolygonF(
            {c + QPointF(0, -5), c + QPointF(4, 0), c + QPointF(0, 5), c + QPointF(-4, 0)}));
      } else if (it.category == PipelineItem::Category::Arrive) {
        p.setPen(Qt::NoPen);
        p.setBrush(fill);
        p.drawPolygon(
            QPolygonF({rc.topLeft(), rc.topRight(), QPointF(rc.center().x(), rc.bottom())}));
      } else {
        p.setPen(QPen(fill, 2));
        p.drawLine(QPointF(rc.center().x(), rc.top()), QPointF(rc.center().x(), rc.bottom()));
      }
      if (i == m_selected) {
        p.setPen(QPen(palette().highlight().color(), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(rc.adjusted(-2, -2, 2, 2));
      }
    }
}

void PipelineView::mousePressEvent(QMouseEvent* e) {
  const int i = itemAt(e->position());
  if (i < 0) return;
  setSelected(i);
  emit itemClicked(i);
}

bool PipelineView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* he = static_cast<QHelpEvent*>(e);
    const int i = itemAt(he->pos());
    if (i >= 0)
      QToolTip::showText(he->globalPos(), m_chart.items[size_t(i)].tooltip, this);
    else
      QToolTip::hideText();
    return true;
  }
  return QWidget::event(e);
}

}  // namespace tirx::views
