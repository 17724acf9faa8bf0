// DiffGrid: painting and hit-testing of the moved-cell grid; the moved flags come from the
// engine's LayoutDiff / SharedLayoutDiff (movedFlat), never recomputed here.
#include "views/widgets/diff_grid.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

#include "core/layout/tile_layout.h"
#include "views/models/layout_grid_model.h"

namespace tirx::views {

DiffGrid::DiffGrid(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setMinimumSize(160, 120);
}

void DiffGrid::clear() {
  m_tile = {};
  m_shared = {};
  m_isShared = false;
  m_shape.clear();
  m_moved.clear();
  m_rows = m_cols = 0;
  update();
}

void DiffGrid::setCells(const std::vector<int64_t>& shape, int64_t cells,
                        const std::vector<int64_t>& movedFlat) {
  m_shape = shape;
  m_moved.assign(size_t(cells), 0);
  for (int64_t f : movedFlat)
    if (f >= 0 && f < cells) m_moved[size_t(f)] = 1;
  m_cols = LayoutGridModel::foldColumns(shape, cells);
  m_rows = m_cols > 0 ? (cells + m_cols - 1) / m_cols : 0;
  update();
}

void DiffGrid::setTile(const diff::LayoutDiff& tile) {
  clear();
  if (tile.status != diff::LayoutDiff::Status::Compared || tile.ownersA.empty() ||
      int64_t(tile.ownersA.size()) != tile.cells)
    return;
  m_tile = tile;
  setCells(tile.shape, tile.cells, tile.movedFlat);
}

void DiffGrid::setSharedTile(const diff::SharedLayoutDiff& tile) {
  clear();
  if (tile.status != diff::LayoutDiff::Status::Compared || tile.placesA.empty() ||
      int64_t(tile.placesA.size()) != tile.cells || tile.placesB.size() != tile.placesA.size())
    return;
  m_shared = tile;
  m_isShared = true;
  setCells(tile.shape, tile.cells, tile.movedFlat);
}

int64_t DiffGrid::movedCount() const {
  return std::count(m_moved.begin(), m_moved.end(), char(1));
}

namespace {

/// Cell size when `rows` × `cols` cells are wrapped into `bands` bands (half a cell between bands).
double sizeFor(int64_t rows, int64_t cols, int64_t bands, double w, double h) {
  const int64_t perBand = (rows + bands - 1) / bands;
  return std::min(w / (double(bands * cols) + 0.5 * double(bands - 1)), h / double(perBand));
}

}  // namespace

int64_t DiffGrid::bands() const {
  if (m_rows == 0 || m_cols == 0) return 1;
  const double w = width() - 2, h = height() - 2;
  int64_t best = 1;
  for (int64_t b = 2; b <= std::min<int64_t>(m_rows, 64); ++b)
    if (sizeFor(m_rows, m_cols, b, w, h) > sizeFor(m_rows, m_cols, best, w, h)) best = b;
  return best;
}

double DiffGrid::cellSize() const {
  if (m_rows == 0 || m_cols == 0) return 0;
  return std::max(2.0, sizeFor(m_rows, m_cols, bands(), width() - 2, height() - 2));
}

QRectF DiffGrid::cellRect(int64_t flat) const {
  const double s = cellSize();
  const int64_t perBand = (m_rows + bands() - 1) / bands();
  const int64_t row = flat / m_cols, band = row / perBand;
  const double x = 1 + (double(band) * (double(m_cols) + 0.5) + double(flat % m_cols)) * s;
  return {x, 1 + double(row % perBand) * s, s, s};
}

int64_t DiffGrid::cellAt(QPoint p) const {
  const double s = cellSize();
  if (s <= 0 || p.x() < 1 || p.y() < 1) return -1;
  const int64_t perBand = (m_rows + bands() - 1) / bands();
  const double bandWidth = (double(m_cols) + 0.5) * s;
  const int64_t band = int64_t((p.x() - 1) / bandWidth);
  const int64_t c = int64_t((p.x() - 1 - double(band) * bandWidth) / s),
                r = int64_t((p.y() - 1) / s);
  if (band >= bands() || c >= m_cols || r >= perBand) return -1;
  const int64_t flat = (band * perBand + r) * m_cols + c;
  return flat < cellCount() ? flat : -1;
}

QString DiffGrid::cellText(int64_t flat) const {
  if (flat < 0 || flat >= cellCount()) return {};
  QString coord = "(";
  const std::vector<int64_t> c = unflatten(flat, m_shape);
  for (size_t i = 0; i < c.size(); ++i) coord += (i ? ", " : "") + QString::number(c[i]);
  coord += ")";
  const QString a = placeText(flat, false), b = placeText(flat, true);
  return isMoved(flat) ? tr("%1: %2 → %3").arg(coord, a, b)
                       : tr("%1: %2 (unchanged)").arg(coord, a);
}

QString DiffGrid::placeText(int64_t flat, bool after) const {
  if (m_isShared)
    return QString::fromStdString(
        (after ? m_shared.placesB : m_shared.placesA)[size_t(flat)].text());
  return QString::fromStdString((after ? m_tile.ownersB : m_tile.ownersA)[size_t(flat)].text());
}

void DiffGrid::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  const double s = cellSize();
  if (s <= 0) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, tr("no tile compared"));
    return;
  }
  const QColor grey = palette().color(QPalette::Mid);
  const bool labels = s >= 34;
  QFont f = font();
  f.setPointSizeF(std::max(6.0, s / 5.5));
  p.setFont(f);
  for (int64_t i = 0; i < cellCount(); ++i) {
    const QRectF r = cellRect(i);
    if (!isMoved(i)) {
      p.fillRect(r.adjusted(0.5, 0.5, -0.5, -0.5), grey.lighter(130));
      continue;
    }
    // A register cell takes its new owner's colour; a shared element its new bank's hue.
    const int bank = m_isShared ? m_shared.placesB[size_t(i)].bank() : 0;
    const QColor fill =
        m_isShared
            ? QColor::fromHsv(bank * 360 / 32, 90, 245)
            : QColor::fromRgba(LayoutGridModel::ownerColour(m_tile.ownersB[size_t(i)].thread));
    p.fillRect(r.adjusted(0.5, 0.5, -0.5, -0.5), fill);
    p.setPen(QPen(QColor(200, 30, 30), s >= 8 ? 1.5 : 0.8));
    p.drawRect(r.adjusted(1, 1, -1, -1));
    if (labels) {
      p.setPen(Qt::black);
      p.drawText(r, Qt::AlignCenter,
                 m_isShared ? tr("b%1").arg(bank)
                            : QString::fromStdString(m_tile.ownersB[size_t(i)].text()));
    }
  }
}

bool DiffGrid::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* h = static_cast<QHelpEvent*>(e);
    const QString t = cellText(cellAt(h->pos()));
    if (t.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(h->globalPos(), t, this);
    return true;
  }
  return QWidget::event(e);
}

}  // namespace tirx::views
