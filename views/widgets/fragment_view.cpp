// FragmentView: block layout (repeats of one warp in a grid whose columns follow the operand's
// innermost repeat axis) and painting of the engine's fragment facts; see the header.
#include "views/widgets/fragment_view.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "views/engine/tensor_core_facts.h"

namespace tirx::views {

FragmentView::FragmentView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setMinimumSize(120, 60);
}

void FragmentView::setFact(std::shared_ptr<const ScriptFacts> facts, int index) {
  m_facts = std::move(facts);
  m_index =
      m_facts && index >= 0 && index < static_cast<int>(m_facts->fragments.size()) ? index : -1;
  if (const FragmentFact* f = fact()) m_warp = std::clamp(m_warp, 0, f->warps - 1);
  relayout();
  update();
}

const FragmentFact* FragmentView::fact() const {
  if (m_index < 0) return nullptr;
  return &m_facts->fragments[size_t(m_index)];
}

void FragmentView::setWarp(int warp) {
  const FragmentFact* f = fact();
  m_warp = f ? std::clamp(warp, 0, f->warps - 1) : 0;
  update();
}

QColor FragmentView::warningColor() {
  return QColor(230, 60, 20);
}

QColor FragmentView::laneColor(int lane) {
  // 8 hues by lane % 8 (the group's row), 4 shades by lane / 8: neighbours stay distinguishable
  return QColor::fromHsv((lane % 8) * 45, 55 + 25 * (lane / 8), 250 - 12 * (lane / 8));
}

int FragmentView::blockRows() const {
  const FragmentFact* f = fact();
  return f && f->letter == 'r' && f->rows > 8 ? 8 : (f ? f->rows : 1);
}

double FragmentView::blockCols() const {
  const FragmentFact* f = fact();
  if (!f) return 1;
  const int bands = f->rows / blockRows();
  return bands * f->cols + (bands - 1) * 0.5;
}

double FragmentView::footer() const {
  const FragmentFact* f = fact();
  return f && blockRows() < f->rows ? m_title : 0;
}

int FragmentView::repeats() const {
  const FragmentFact* f = fact();
  int64_t n = 1;
  if (f)
    for (int64_t e : f->repeat) n *= e;
  return static_cast<int>(n);
}

QString FragmentView::repeatName(int repeat) const {
  const FragmentFact* f = fact();
  QStringList parts;
  int rest = repeat;
  std::vector<int64_t> coord(f->repeat.size());
  for (size_t d = f->repeat.size(); d-- > 0;) {
    coord[d] = rest % f->repeat[d];
    rest /= static_cast<int>(f->repeat[d]);
  }
  for (int64_t c : coord) parts << QString::number(c);
  QString s = f->repeat.empty() ? tr("atom") : tr("repeat (%1)").arg(parts.join(", "));
  if (f->warps > 1) s = tr("warp %1 · %2").arg(m_warp).arg(s);
  return s;
}

void FragmentView::relayout() const {
  const FragmentFact* f = fact();
  if (!f) return;
  const int n = repeats();
  // the number of block columns that gives the largest cells (ties: the operand's innermost
  // repeat extent, so that a row of blocks is one k or n sweep when it fits)
  const int natural =
      f->repeat.empty() ? 1 : static_cast<int>(std::min<int64_t>(f->repeat.back(), n));
  double best = -1;
  for (int cols = 1; cols <= std::min(n, 16); ++cols) {
    const int gridRows = (n + cols - 1) / cols;
    const double w = width() - 2 * m_margin - (cols - 1) * m_gap;
    const double h =
        height() - 2 * m_margin - gridRows * (m_title + footer()) - (gridRows - 1) * m_gap;
    const double cell =
        std::floor(std::min(w / (cols * blockCols()), h / (gridRows * blockRows())));
    if (cell > best || (cell == best && cols == natural)) {
      best = cell;
      m_blockCols = cols;
    }
  }
  m_cell = std::clamp(best, 3.0, 64.0);
}

void FragmentView::resizeEvent(QResizeEvent*) {
  relayout();
}

QRectF FragmentView::cellRect(int repeat, int row, int col) const {
  const FragmentFact* f = fact();
  if (!f || repeat < 0 || repeat >= repeats() || row < 0 || row >= f->rows || col < 0 ||
      col >= f->cols)
    return {};
  relayout();
  const int br = repeat / m_blockCols, bc = repeat % m_blockCols;
  const double x0 = m_margin + bc * (blockCols() * m_cell + m_gap);
  const double y0 = m_margin + br * (blockRows() * m_cell + m_title + footer() + m_gap) + m_title;
  // ldmatrix's matrices stand side by side, half a cell apart
  const int band = row / blockRows();
  return QRectF(x0 + (col + band * (f->cols + 0.5)) * m_cell, y0 + (row % blockRows()) * m_cell,
                m_cell, m_cell);
}

FragmentView::Hit FragmentView::cellAt(QPointF pos) const {
  const FragmentFact* f = fact();
  relayout();
  if (!f || m_cell <= 0) return {};
  for (int r = 0; r < repeats(); ++r) {
    const QRectF first = cellRect(r, 0, 0);
    const QRectF block(first.topLeft(), QSizeF(blockCols() * m_cell, blockRows() * m_cell));
    if (!block.contains(pos)) continue;
    for (int row = 0; row < f->rows; ++row)
      for (int col = 0; col < f->cols; ++col)
        if (cellRect(r, row, col).contains(pos)) return {r, row, col};
  }
  return {};
}

QString FragmentView::cellLabel(int repeat, int row, int col) const {
  const FragmentFact* f = fact();
  if (!f) return {};
  const FragmentCell* c = fragmentCell(*f, m_warp, repeat, row, col);
  if (!c) return {};
  return QString::fromStdString(fragmentCellLabel(*f, *c) + "\n" + fragmentCellElement(*f, *c));
}

bool FragmentView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* he = static_cast<QHelpEvent*>(e);
    const Hit h = cellAt(he->pos());
    const FragmentFact* f = fact();
    const FragmentCell* c =
        f && h.repeat >= 0 ? fragmentCell(*f, m_warp, h.repeat, h.row, h.col) : nullptr;
    if (c)
      QToolTip::showText(
          he->globalPos(),
          repeatName(h.repeat) + "\n" + QString::fromStdString(describeFragmentCell(*f, *c)), this);
    else
      QToolTip::hideText();
    return true;
  }
  return QWidget::event(e);
}

void FragmentView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  const FragmentFact* f = fact();
  if (!f) {
    p.setPen(palette().text().color());
    p.drawText(rect(), Qt::AlignCenter, tr("no tensor-core operand selected"));
    return;
  }
  relayout();
  QFont small = font();
  small.setPixelSize(std::max(7, int(m_cell / 3.6)));
  QFont title = font();
  title.setPixelSize(12);
  const QColor grid = palette().mid().color();
  const int64_t perBlock = int64_t(f->rows) * f->cols;
  const int n = repeats();
  for (int r = 0; r < n; ++r) {
    const QRectF first = cellRect(r, 0, 0);
    if (first.isEmpty()) continue;
    p.setFont(title);
    p.setPen(palette().text().color());
    p.drawText(QRectF(first.left(), first.top() - m_title, blockCols() * m_cell, m_title),
               Qt::AlignLeft | Qt::AlignVCenter, repeatName(r));
    const int64_t base = (int64_t(m_warp) * n + r) * perBlock;
    if (base >= int64_t(f->cells.size())) {
      p.drawText(first.adjusted(0, 0, blockCols() * m_cell, blockRows() * m_cell),
                 tr("(not recorded)"));
      continue;
    }
    // fills and labels, then the outlines on top so that neighbours cannot cover them
    p.setFont(small);
    for (int64_t i = base; i < base + perBlock && i < int64_t(f->cells.size()); ++i) {
      const FragmentCell& c = f->cells[size_t(i)];
      const QRectF cr = cellRect(r, c.row, c.col);
      p.fillRect(cr, laneColor(c.needLane));
      p.setPen(QPen(grid, 0));
      p.drawRect(cr);
      if (labelsShown()) {
        p.setPen(Qt::black);
        QString text = QString::fromStdString(fragmentCellLabel(*f, c));
        if (m_cell >= 38)
          text += "\n" + QString::fromStdString(fragmentCellElement(*f, c));
        else
          text.replace(' ', '\n');  // small cells: "T5" over "r2"
        if (c.mismatch && m_cell >= 44) text += "\n≠T" + QString::number(c.haveThread);
        p.drawText(cr, Qt::AlignCenter, text);
      }
    }
    const double w = std::max(2.0, std::min(3.0, m_cell / 12));
    p.setPen(QPen(warningColor(), w, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    p.setBrush(Qt::NoBrush);
    for (int64_t i = base; i < base + perBlock && i < int64_t(f->cells.size()); ++i) {
      const FragmentCell& c = f->cells[size_t(i)];
      if (c.mismatch) p.drawRect(cellRect(r, c.row, c.col).adjusted(w / 2, w / 2, -w / 2, -w / 2));
    }
    // the 8×8 sub-tiles of the atom (the instruction's quads of lanes)
    p.setPen(QPen(palette().text().color(), 1.5));
    for (int band = 0; band * blockRows() < f->rows; ++band) {
      const QPointF o = cellRect(r, band * blockRows(), 0).topLeft();
      for (int row = 0; row <= blockRows(); row += 8)
        p.drawLine(o + QPointF(0, row * m_cell), o + QPointF(f->cols * m_cell, row * m_cell));
      for (int col = 0; col <= f->cols; col += 8)
        p.drawLine(o + QPointF(col * m_cell, 0), o + QPointF(col * m_cell, blockRows() * m_cell));
      if (blockRows() < f->rows)
        p.drawText(QRectF(o.x(), o.y() + blockRows() * m_cell, f->cols * m_cell, m_title),
                   Qt::AlignCenter, tr("matrix %1 (r%1)").arg(band));
    }
  }
}

}  // namespace tirx::views
