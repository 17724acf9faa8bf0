// applyApplicationTheme: one palette per theme.
#include "views/theme.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace tirx::views {

void applyApplicationTheme(bool dark) {
  QApplication::setStyle(QStyleFactory::create("Fusion"));
  if (!dark) {
    QApplication::setPalette(QApplication::style()->standardPalette());
    return;
  }
  QPalette p;
  p.setColor(QPalette::Window, QColor(43, 45, 48));
  p.setColor(QPalette::WindowText, QColor(220, 220, 220));
  p.setColor(QPalette::Base, QColor(30, 31, 34));
  p.setColor(QPalette::AlternateBase, QColor(43, 45, 48));
  p.setColor(QPalette::ToolTipBase, QColor(60, 63, 65));
  p.setColor(QPalette::ToolTipText, QColor(230, 230, 230));
  p.setColor(QPalette::Text, QColor(220, 220, 220));
  p.setColor(QPalette::PlaceholderText, QColor(140, 140, 140));
  p.setColor(QPalette::Button, QColor(50, 52, 56));
  p.setColor(QPalette::ButtonText, QColor(220, 220, 220));
  p.setColor(QPalette::Highlight, QColor(53, 116, 240));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::Link, QColor(86, 168, 245));
  p.setColor(QPalette::Disabled, QPalette::Text, QColor(120, 120, 120));
  p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(120, 120, 120));
  QApplication::setPalette(p);
}

namespace {
QIcon paintedIcon(const QColor& fill, bool triangle) {
  QIcon icon;
  for (int size : {16, 24, 32, 48}) {
    QPixmap pm(size, size);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(fill.darker(130), size / 16.0));
    p.setBrush(fill);
    const double m = size * 0.2;
    if (triangle) {
      QPainterPath path;
      path.moveTo(m, m * 0.8);
      path.lineTo(size - m, size / 2.0);
      path.lineTo(m, size - m * 0.8);
      path.closeSubpath();
      p.drawPath(path);
    } else {
      p.drawRoundedRect(QRectF(m, m, size - 2 * m, size - 2 * m), size / 16.0, size / 16.0);
    }
    icon.addPixmap(pm);
  }
  return icon;
}
}  // namespace

QIcon runIcon() { return paintedIcon(QColor(46, 170, 70), true); }
QIcon stopIcon() { return paintedIcon(QColor(214, 64, 56), false); }

}  // namespace tirx::views
