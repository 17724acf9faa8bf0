// LayoutCanvas: scaled-image painting, overlays for visible cells, zoom/pan and export.
#include "views/widgets/layout_canvas.h"

#include <QFile>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QSvgGenerator>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace tirx::views {
namespace {
constexpr double kRulerLeft = 92;  ///< row ruler and block labels
constexpr double kRulerTop = 18;   ///< column ruler
constexpr double kLegend = 22;     ///< legend line at the bottom
}  // namespace

QRectF LayoutCanvas::gridArea() const {
  return QRectF(kRulerLeft, kRulerTop, std::max(1.0, width() - kRulerLeft),
                std::max(1.0, height() - kRulerTop - kLegend));
}

LayoutCanvas::LayoutCanvas(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setFocusPolicy(Qt::StrongFocus);
  setAttribute(Qt::WA_OpaquePaintEvent);
  setMinimumSize(200, 150);
}

void LayoutCanvas::setModel(const LayoutGridModel* model) {
  m_model = model;
  modelChanged();
}

void LayoutCanvas::modelChanged() {
  bool sizeChanged =
      !m_model || m_image.width() != m_model->cols() || m_image.height() != m_model->rows();
  rebuildImage();
  if (m_selected >= (m_model ? m_model->cellCount() : 0)) m_selected = -1;
  if (sizeChanged) {
    m_fitPending = true;
    m_autoFit = true;
    if (isVisible() && width() > 0) fitToView();
  }
  update();
}

void LayoutCanvas::rebuildImage() {
  if (!m_model || m_model->empty()) {
    m_image = QImage();
    return;
  }
  const int cols = static_cast<int>(m_model->cols()), rows = static_cast<int>(m_model->rows());
  m_image = QImage(cols, rows, QImage::Format_ARGB32);
  const auto& colours = m_model->colours();
  for (int r = 0; r < rows; ++r) {
    auto* line = reinterpret_cast<uint32_t*>(m_image.scanLine(r));
    std::copy_n(colours.data() + static_cast<size_t>(r) * cols, cols, line);
  }
}

void LayoutCanvas::setCellSize(double px, QPointF anchor) {
  px = std::clamp(px, 0.25, 200.0);
  if (anchor.x() < 0) anchor = QPointF(width() / 2.0, height() / 2.0);
  QPointF gridPoint = (anchor - m_offset) / m_cell;
  m_cell = px;
  m_offset = anchor - gridPoint * m_cell;
  m_fitPending = false;
  m_autoFit = false;
  clampOffset();
  update();
}

void LayoutCanvas::fitToView() {
  m_fitPending = false;
  if (!m_model || m_model->empty()) return;
  const QRectF area = gridArea();
  double w = std::max(1.0, area.width() - 8), h = std::max(1.0, area.height() - 8);
  m_cell = std::clamp(std::min(w / m_model->cols(), h / m_model->rows()), 0.25, 200.0);
  m_offset = area.topLeft() + QPointF(4, 4);
  update();
}

void LayoutCanvas::clampOffset() {
  if (!m_model || m_model->empty()) return;
  double gw = m_model->cols() * m_cell, gh = m_model->rows() * m_cell;
  // keep at least a quarter of the view covered by the grid
  m_offset.setX(std::clamp(m_offset.x(), std::min(0.0, width() * 0.75 - gw), width() * 0.75));
  m_offset.setY(std::clamp(m_offset.y(), std::min(0.0, height() * 0.75 - gh), height() * 0.75));
}

void LayoutCanvas::ensureVisible(int64_t flat) {
  if (!m_model || flat < 0 || flat >= m_model->cellCount()) return;
  QRectF r = cellRect(flat);
  const QRectF area = gridArea();
  if (area.contains(r)) return;
  m_offset += area.center() - r.center();
  clampOffset();
  update();
}

int64_t LayoutCanvas::cellAt(QPointF pos) const {
  if (!m_model || m_model->empty()) return -1;
  double x = (pos.x() - m_offset.x()) / m_cell, y = (pos.y() - m_offset.y()) / m_cell;
  if (x < 0 || y < 0) return -1;
  int64_t c = static_cast<int64_t>(x), r = static_cast<int64_t>(y);
  if (c >= m_model->cols() || r >= m_model->rows()) return -1;
  return m_model->flatAt(r, c);
}

QRectF LayoutCanvas::cellRect(int64_t flat) const {
  if (!m_model || m_model->cols() == 0) return {};
  int64_t r = flat / m_model->cols(), c = flat % m_model->cols();
  return QRectF(m_offset.x() + c * m_cell, m_offset.y() + r * m_cell, m_cell, m_cell);
}

void LayoutCanvas::setSelectedCell(int64_t flat) {
  m_selected = flat;
  update();
}

void LayoutCanvas::paintGrid(QPainter& p, const QRectF& area) const {
  if (m_image.isNull()) return;
  const int64_t rows = m_model->rows(), cols = m_model->cols();
  // visible cell range
  int64_t c0 = std::max<int64_t>(0, static_cast<int64_t>((area.left() - m_offset.x()) / m_cell));
  int64_t r0 = std::max<int64_t>(0, static_cast<int64_t>((area.top() - m_offset.y()) / m_cell));
  int64_t c1 = std::min<int64_t>(
      cols, static_cast<int64_t>(std::ceil((area.right() - m_offset.x()) / m_cell)) + 1);
  int64_t r1 = std::min<int64_t>(
      rows, static_cast<int64_t>(std::ceil((area.bottom() - m_offset.y()) / m_cell)) + 1);
  if (c0 >= c1 || r0 >= r1) return;
  QRectF target(m_offset.x() + c0 * m_cell, m_offset.y() + r0 * m_cell, (c1 - c0) * m_cell,
                (r1 - r0) * m_cell);
  p.setRenderHint(QPainter::SmoothPixmapTransform, false);
  p.drawImage(target, m_image, QRectF(c0, r0, c1 - c0, r1 - r0));

  QColor lineColour = palette().color(QPalette::Base).lightness() < 128 ? QColor(20, 20, 20)
                                                                        : QColor(255, 255, 255);
  if (m_cell >= 6) {  // grid lines, one per visible row and column
    QVector<QLineF> lines;
    for (int64_t c = c0; c <= c1; ++c)
      lines.append(QLineF(m_offset.x() + c * m_cell, target.top(), m_offset.x() + c * m_cell,
                          target.bottom()));
    for (int64_t r = r0; r <= r1; ++r)
      lines.append(QLineF(target.left(), m_offset.y() + r * m_cell, target.right(),
                          m_offset.y() + r * m_cell));
    p.setPen(QPen(lineColour, 1));
    p.drawLines(lines);
  }
  if (m_model->atom() > 0 && m_cell >= 3) {  // atom boundaries: the merged segments, clipped
    QVector<QLineF> lines;
    auto px = [&](double gx, double gy) { return m_offset + QPointF(gx, gy) * m_cell; };
    for (const QLineF& s : atomSegments()) {
      if (s.x1() == s.x2()) {  // vertical at column boundary x1, rows y1..y2
        if (s.x1() < c0 || s.x1() > c1) continue;
        double y1 = std::max<double>(s.y1(), r0), y2 = std::min<double>(s.y2(), r1);
        if (y1 < y2) lines.append(QLineF(px(s.x1(), y1), px(s.x1(), y2)));
      } else {  // horizontal at row boundary y1, columns x1..x2
        if (s.y1() < r0 || s.y1() > r1) continue;
        double x1 = std::max<double>(s.x1(), c0), x2 = std::min<double>(s.x2(), c1);
        if (x1 < x2) lines.append(QLineF(px(x1, s.y1()), px(x2, s.y1())));
      }
    }
    p.setPen(QPen(QColor(10, 10, 10), m_cell >= 12 ? 2.5 : 1.5));
    p.drawLines(lines);
  }
  if (m_model->mismatchCells() > 0) paintMismatches(p, r0, r1, c0, c1);
  if (m_cell >= 40) {  // `w l r` labels
    QFont f = font();
    f.setPixelSize(std::clamp(static_cast<int>(m_cell / 4.2), 8, 14));
    p.setFont(f);
    p.setPen(QColor(15, 15, 15));
    for (int64_t r = r0; r < r1; ++r)
      for (int64_t c = c0; c < c1; ++c) {
        QRectF cr(m_offset.x() + c * m_cell, m_offset.y() + r * m_cell, m_cell, m_cell);
        p.drawText(cr.adjusted(2, 2, -2, -2), Qt::AlignCenter | Qt::TextWordWrap,
                   QString::fromStdString(m_model->cellLabel(r * cols + c)));
      }
  }
}

// Cells outside the check's tolerance (the output grid): a dark frame inside the cell where it is
// large enough, a dark centre dot on small cells, so that the value colour stays readable.
void LayoutCanvas::paintMismatches(QPainter& p, int64_t r0, int64_t r1, int64_t c0,
                                   int64_t c1) const {
  const auto& values = m_model->values();
  const int64_t cols = m_model->cols();
  QVector<QRectF> marks;
  for (int64_t r = r0; r < r1; ++r)
    for (int64_t c = c0; c < c1; ++c) {
      const size_t f = static_cast<size_t>(r * cols + c);
      if (f >= values.size() || !values[f].mismatch) continue;
      const QRectF cell(m_offset.x() + c * m_cell, m_offset.y() + r * m_cell, m_cell, m_cell);
      if (m_cell >= 8) {
        marks.append(cell.adjusted(2, 2, -2, -2));
      } else {
        const double d = std::max(1.0, m_cell / 2);
        marks.append(QRectF(cell.center() - QPointF(d / 2, d / 2), QSizeF(d, d)));
      }
    }
  if (marks.isEmpty()) return;
  if (m_cell >= 8) {
    p.setPen(QPen(QColor(20, 20, 20), m_cell >= 20 ? 2.5 : 1.5));
    p.setBrush(Qt::NoBrush);
    p.drawRects(marks);
  } else {
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(20, 20, 20));
    p.drawRects(marks);
    p.setBrush(Qt::NoBrush);
  }
}

const QVector<QLineF>& LayoutCanvas::atomSegments() const {
  AtomOutline& o = m_atomOutline;
  const int64_t atom = m_model->atom(), rows = m_model->rows(), cols = m_model->cols();
  if (o.atom == atom && o.rows == rows && o.cols == cols) return o.segments;
  o = AtomOutline{atom, rows, cols, {}};
  if (atom <= 0) return o.segments;
  auto differs = [&](int64_t a, int64_t b) { return m_model->atomOf(a) != m_model->atomOf(b); };
  // vertical boundaries: the left edge of column x in row r (x == cols: the right border)
  for (int64_t x = 0; x <= cols; ++x) {
    int64_t start = -1;
    for (int64_t r = 0; r <= rows; ++r) {
      bool edge = r < rows && (x == 0 || x == cols || differs(r * cols + x - 1, r * cols + x));
      if (edge && start < 0) start = r;
      if (!edge && start >= 0) {
        o.segments.append(QLineF(x, start, x, r));
        start = -1;
      }
    }
  }
  // horizontal boundaries: the top edge of row y in column c (y == rows: the bottom border)
  for (int64_t y = 0; y <= rows; ++y) {
    int64_t start = -1;
    for (int64_t c = 0; c <= cols; ++c) {
      bool edge = c < cols && (y == 0 || y == rows || differs((y - 1) * cols + c, y * cols + c));
      if (edge && start < 0) start = c;
      if (!edge && start >= 0) {
        o.segments.append(QLineF(start, y, c, y));
        start = -1;
      }
    }
  }
  return o.segments;
}

void LayoutCanvas::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().color(QPalette::Base));
  if (!m_model || m_model->empty()) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter, tr("no layout: pick a symbol or type a layout above"));
    return;
  }
  const QRectF area = gridArea();
  p.save();
  p.setClipRect(area);
  paintGrid(p, area);
  // block separators: outer axes stack blocks of rows; a thick line between blocks
  const int64_t blockRows = m_model->blockRows(), blocks = m_model->blockCount();
  if (blocks > 1 && blockRows * m_cell >= 4) {
    p.setPen(QPen(palette().color(QPalette::Text), 2));
    const double x0 = m_offset.x(), x1 = m_offset.x() + m_model->cols() * m_cell;
    for (int64_t b = 1; b < blocks; ++b) {
      double y = m_offset.y() + b * blockRows * m_cell;
      if (y >= area.top() && y <= area.bottom()) p.drawLine(QPointF(x0, y), QPointF(x1, y));
    }
  }
  auto outline = [&](int64_t flat, QColor colour, double w) {
    if (flat < 0) return;
    p.setPen(QPen(colour, w));
    p.setBrush(Qt::NoBrush);
    p.drawRect(cellRect(flat).adjusted(-1, -1, 1, 1));
  };
  outline(m_hovered, palette().color(QPalette::Text), 1.5);
  outline(m_selected, QColor(230, 40, 40), 3);
  p.restore();
  paintRulers(p);
  paintLegend(p);
}

// Rulers in the margins, following pan and zoom: column indices on top, the row-axis coordinate on
// the left (every k-th, k chosen so labels do not overlap), and each block's outer coordinates.
void LayoutCanvas::paintRulers(QPainter& p) const {
  const QRectF area = gridArea();
  const QColor bg = palette().color(QPalette::Window), fg = palette().color(QPalette::Text);
  p.fillRect(QRectF(0, 0, width(), kRulerTop), bg);
  p.fillRect(QRectF(0, 0, kRulerLeft, height()), bg);
  QFont f = font();
  f.setPixelSize(10);
  p.setFont(f);
  p.setPen(fg);
  const QFontMetrics fm(f);
  auto stepFor = [&](double minPx) {
    int64_t k = 1;
    while (k * m_cell < minPx) k *= 2;
    return k;
  };
  const int64_t rows = m_model->rows(), cols = m_model->cols();
  const int64_t colStep =
      stepFor(fm.horizontalAdvance(QString::number(m_model->colRulerValue(cols - 1))) + 8);
  for (int64_t c = 0; c < cols; c += colStep) {
    double x = m_offset.x() + (c + 0.5) * m_cell;
    if (x < area.left() || x > area.right()) continue;
    p.drawText(QRectF(x - 30, 2, 60, kRulerTop - 3), Qt::AlignCenter,
               QString::number(m_model->colRulerValue(c)));
  }
  const int64_t blockRows = std::max<int64_t>(1, m_model->blockRows());
  const int64_t rowStep = stepFor(fm.height() + 1);
  for (int64_t r = 0; r < rows; r += rowStep) {
    double y = m_offset.y() + (r + 0.5) * m_cell;
    if (y < area.top() || y > area.bottom()) continue;
    p.drawText(QRectF(kRulerLeft - 30, y - 8, 26, 16), Qt::AlignRight | Qt::AlignVCenter,
               QString::number(m_model->rowRulerValue(r)));
  }
  if (m_model->blockCount() > 1) {
    QFont bf = f;
    bf.setBold(true);
    p.setFont(bf);
    const double blockPx = blockRows * m_cell;
    const int64_t blockStep = stepFor(fm.height() + 1) > blockRows
                                  ? (stepFor(fm.height() + 1) + blockRows - 1) / blockRows
                                  : 1;
    for (int64_t b = 0; b < m_model->blockCount(); b += blockStep) {
      double y0 = m_offset.y() + b * blockPx;
      double yc = std::clamp(y0 + std::min(blockPx, 16.0) / 2, area.top() + 6, area.bottom() - 6);
      if (y0 + blockPx < area.top() || y0 > area.bottom()) continue;
      p.drawText(QRectF(1, yc - 8, kRulerLeft - 31, 16), Qt::AlignLeft | Qt::AlignVCenter,
                 QString::fromStdString(m_model->blockLabel(b)));
    }
  }
}

QString LayoutCanvas::legendText() const {
  if (!m_model || m_model->empty()) return {};
  QString colours;
  if (m_model->colouring() == LayoutColouring::Values)
    colours = tr("colour: value, blue −%1 … white 0 … red +%1; magenta NaN, orange inf, grey "
                 "uninitialised")
                  .arg(QString::fromStdString(valueText(CellValue{m_model->valueScale()})));
  else if (m_model->colouring() == LayoutColouring::Banks || m_model->isMemory())
    colours = tr("colour: shared-memory bank (32 × 4 B)");
  else if (m_model->focusThread() >= 0)
    colours = tr("colour: cells of thread %1; others grey").arg(m_model->focusThread());
  else
    colours = tr("colour: warp (hue), lane (shade)");
  if (m_model->colouring() == LayoutColouring::Values && m_model->mismatchCells() > 0)
    colours += tr("; framed: outside the tolerance (%1 cells)").arg(m_model->mismatchCells());
  return tr("%1 rows × %2 columns · %3 · %4")
      .arg(m_model->rows())
      .arg(m_model->cols())
      .arg(QString::fromStdString(m_model->axesText()), colours);
}

void LayoutCanvas::paintLegend(QPainter& p) const {
  const QRectF strip(0, height() - kLegend, width(), kLegend);
  p.fillRect(strip, palette().color(QPalette::Window));
  QFont f = font();
  f.setPixelSize(11);
  p.setFont(f);
  double x = 4;
  // swatches: four warps at lane 0 (or four banks)
  const bool banks = m_model->colouring() == LayoutColouring::Banks || m_model->isMemory();
  const bool values = m_model->colouring() == LayoutColouring::Values;
  for (int i = 0; i < 4; ++i) {
    const double scale = m_model->valueScale();
    QColor c =
        QColor::fromRgba(values  ? LayoutGridModel::valueColour(-scale + i * scale * 2 / 3, scale)
                         : banks ? LayoutGridModel::bankColour(i * 8)
                                 : LayoutGridModel::ownerColour(i * 32));
    p.fillRect(QRectF(x, strip.top() + 5, 12, 12), c);
    x += 14;
  }
  p.setPen(palette().color(QPalette::Text));
  p.drawText(QRectF(x + 4, strip.top(), width() - x - 8, kLegend), Qt::AlignLeft | Qt::AlignVCenter,
             legendText());
}

void LayoutCanvas::resizeEvent(QResizeEvent*) {
  if (m_fitPending || m_autoFit) {
    fitToView();
    m_autoFit = true;
  }
}

void LayoutCanvas::wheelEvent(QWheelEvent* e) {
  double steps = e->angleDelta().y() / 120.0;
  setCellSize(m_cell * std::pow(1.2, steps), e->position());
  e->accept();
}

void LayoutCanvas::mousePressEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  m_dragging = true;
  m_dragMoved = false;
  m_dragStart = e->position();
  m_offsetAtDrag = m_offset;
}

void LayoutCanvas::mouseMoveEvent(QMouseEvent* e) {
  if (m_dragging) {
    QPointF d = e->position() - m_dragStart;
    if (d.manhattanLength() > 3) m_dragMoved = true;
    if (m_dragMoved) {
      m_autoFit = false;
      m_offset = m_offsetAtDrag + d;
      clampOffset();
      update();
    }
    return;
  }
  int64_t f = cellAt(e->position());
  if (f != m_hovered) {
    m_hovered = f;
    update();
    emit cellHovered(f);
  }
}

void LayoutCanvas::mouseReleaseEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  bool click = m_dragging && !m_dragMoved;
  m_dragging = false;
  if (!click) return;
  int64_t f = cellAt(e->position());
  setSelectedCell(f);
  emit cellClicked(f);
}

void LayoutCanvas::keyPressEvent(QKeyEvent* e) {
  switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
      zoomBy(1.25);
      break;
    case Qt::Key_Minus:
      zoomBy(0.8);
      break;
    case Qt::Key_0:
      fitToView();
      m_autoFit = true;
      break;
    default:
      QWidget::keyPressEvent(e);
  }
}

bool LayoutCanvas::exportPng(const QString& path) const {
  if (!m_model || m_model->empty()) return false;
  double cell = std::clamp(8192.0 / std::max(m_model->cols(), m_model->rows()), 1.0, 48.0);
  QImage img(static_cast<int>(m_model->cols() * cell), static_cast<int>(m_model->rows() * cell),
             QImage::Format_ARGB32);
  img.fill(Qt::white);
  // paint through a copy with the export zoom so that the on-screen view is untouched
  LayoutCanvas copy;
  copy.setPalette(palette());
  copy.m_model = m_model;
  copy.m_image = m_image;
  copy.m_cell = cell;
  copy.m_offset = QPointF(0, 0);
  QPainter p(&img);
  copy.paintGrid(p, QRectF(0, 0, img.width(), img.height()));
  p.end();
  return img.save(path, "PNG");
}

bool LayoutCanvas::exportSvg(const QString& path) const {
  if (!m_model || m_model->empty()) return false;
  const double cell = 40;
  QSvgGenerator gen;
  gen.setFileName(path);
  gen.setSize(
      QSize(static_cast<int>(m_model->cols() * cell), static_cast<int>(m_model->rows() * cell)));
  gen.setViewBox(QRect(QPoint(0, 0), gen.size()));
  gen.setTitle(QString::fromStdString(m_model->layout().toString()));
  QPainter p;
  if (!p.begin(&gen)) return false;
  const auto& colours = m_model->colours();
  QFont f = font();
  f.setPixelSize(9);
  p.setFont(f);
  for (int64_t r = 0; r < m_model->rows(); ++r)
    for (int64_t c = 0; c < m_model->cols(); ++c) {
      int64_t fl = r * m_model->cols() + c;
      QRectF cr(c * cell, r * cell, cell, cell);
      p.fillRect(cr, QColor::fromRgba(colours[fl]));
      p.setPen(QPen(Qt::white, 1));
      p.drawRect(cr);
      p.setPen(Qt::black);
      p.drawText(cr, Qt::AlignCenter | Qt::TextWordWrap,
                 QString::fromStdString(m_model->cellLabel(fl)));
    }
  p.end();
  return QFile::exists(path);
}

}  // namespace tirx::views
