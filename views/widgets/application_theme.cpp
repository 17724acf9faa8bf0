// applyApplicationTheme: Fusion with the standard light palette, or the dark palette whose base
// colour matches the dark theme's code background (views/models/theme.cpp).
#include "views/widgets/application_theme.h"

#include <QApplication>
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

}  // namespace tirx::views
