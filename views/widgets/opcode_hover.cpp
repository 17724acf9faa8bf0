// Rendering of the fragment tables and the hover popup; see the header.
#include "views/widgets/opcode_hover.h"

#include <QGuiApplication>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QScreen>
#include <QVBoxLayout>
#include <algorithm>

#include "views/widgets/fragment_view.h"

namespace tirx::views {

QImage renderFragmentTables(const std::vector<FragmentTable>& tables, QSize cell) {
  if (tables.empty()) return {};
  const int gap = 16, title = 18, margin = 8;
  int width = margin, height = 0;
  for (const auto& t : tables) {
    width += t.cols * cell.width() + gap;
    height = std::max(height, t.rows * cell.height());
  }
  width += margin - gap;
  height += 2 * margin + title;
  QImage img(width, height, QImage::Format_ARGB32_Premultiplied);
  img.fill(Qt::white);
  QPainter p(&img);
  QFont f;
  f.setPixelSize(9);
  QFont tf;
  tf.setPixelSize(11);
  int x0 = margin;
  for (const auto& t : tables) {
    p.setFont(tf);
    p.setPen(Qt::black);
    p.drawText(QRect(x0, margin, std::max(t.cols * cell.width(), 60), title),
               Qt::AlignLeft | Qt::AlignVCenter | Qt::TextDontClip,
               QString::fromStdString(t.title));
    p.setFont(f);
    const int y0 = margin + title;
    for (int r = 0; r < t.rows; ++r)
      for (int c = 0; c < t.cols; ++c) {
        const QRect rc(x0 + c * cell.width(), y0 + r * cell.height(), cell.width(), cell.height());
        p.fillRect(rc, FragmentView::laneColor(t.lane(r, c)));
        p.setPen(QColor(150, 150, 150));
        p.drawRect(rc);
        p.setPen(Qt::black);
        p.drawText(
            rc, Qt::AlignCenter,
            QStringLiteral("T%1\n%2").arg(t.lane(r, c)).arg(QString::fromStdString(t.label(r, c))));
      }
    p.setPen(QPen(Qt::black, 1.5));
    for (int r = 0; r <= t.rows; r += 8)
      p.drawLine(x0, y0 + r * cell.height(), x0 + t.cols * cell.width(), y0 + r * cell.height());
    for (int c = 0; c <= t.cols; c += 8)
      p.drawLine(x0 + c * cell.width(), y0, x0 + c * cell.width(), y0 + t.rows * cell.height());
    x0 += t.cols * cell.width() + gap;
  }
  return img;
}

OpcodeHoverPopup::OpcodeHoverPopup(QWidget* parent) : QFrame(parent, Qt::ToolTip) {
  setFrameStyle(QFrame::Box | QFrame::Plain);
  setAutoFillBackground(true);
  QPalette pal = palette();
  pal.setColor(QPalette::Window, Qt::white);
  pal.setColor(QPalette::WindowText, Qt::black);
  setPalette(pal);
  m_caption = new QLabel(this);
  m_caption->setWordWrap(true);
  m_image = new QLabel(this);
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(6, 6, 6, 6);
  lay->addWidget(m_caption);
  lay->addWidget(m_image);
}

QString OpcodeHoverPopup::caption() const {
  return m_caption->text();
}

void OpcodeHoverPopup::showPicture(const QPoint& at, const QImage& picture,
                                   const QString& caption) {
  m_picture = picture;
  m_caption->setText(caption);
  m_caption->setMaximumWidth(std::max(300, picture.width()));
  m_image->setPixmap(QPixmap::fromImage(picture));
  adjustSize();
  // below the hovered line, or above it when the screen ends first (never over the line)
  QPoint pos = at + QPoint(12, 20);
  if (const QScreen* s = QGuiApplication::screenAt(at)) {
    const QRect avail = s->availableGeometry();
    pos.setX(std::max(avail.left(), std::min(pos.x(), avail.right() - width())));
    if (pos.y() + height() > avail.bottom())
      pos.setY(std::max(avail.top(), at.y() - height() - 14));
  }
  move(pos);
  show();
  raise();
}

}  // namespace tirx::views
