// The two themes' colour tables, the WCAG contrast ratio and the painted toolbar icons.
#include "views/models/theme.h"

#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <QPixmap>
#include <cmath>

namespace tirx::views {

namespace {

// Chosen so that every syntax colour reads (contrast ≥ 4.5) on every code background of its
// theme, and every highlight's text on its own background (tests/views/tst_theme.cpp).
ThemeColours makeLight() {
  ThemeColours t;
  t.dark = false;
  t.base = QColor("#ffffff");
  t.margin = QColor("#f0f0f0");
  t.marginText = QColor("#666666");
  t.caretLine = QColor("#f3f6fb");
  t.syntax = {QColor("#1f1f1f"), QColor("#5c6370"), QColor("#0033b3"),
              QColor("#05691a"), QColor("#1750eb"), QColor("#7a1fd1"),
              QColor("#00627a"), QColor("#6b5d00"), QColor("#333333")};
  t.debugLine = {t.syntax.text, QColor("#fff1b8")};
  t.generatedLine = {t.syntax.text, QColor("#fff6c8")};
  t.diffRemoved = {QColor("#1f1f1f"), QColor("#ffe0e0")};
  t.diffAdded = {QColor("#1f1f1f"), QColor("#dcf5dc")};
  t.diffHeader = {QColor("#1f2a44"), QColor("#e4e7ee")};
  t.diffBlank = {QColor("#1f1f1f"), QColor("#f0f0f0")};
  t.annotationError = {QColor("#961414"), QColor("#ffe8e8")};
  t.annotationWarning = {QColor("#785000"), QColor("#fff6dc")};
  t.registersLow = {QColor("#1b6e20"), t.margin};
  t.registersHigh = {QColor("#8c5000"), QColor("#ffecb3")};
  t.registersOver = {QColor("#ffffff"), QColor("#c62828")};
  t.registersEstimatedOver = {QColor("#7a2e00"), QColor("#ffd5b0")};
  t.registersStale = {QColor("#6b6b6b"), t.margin};
  t.staleBanner = {QColor("#5c4400"), QColor("#fff3c4")};
  const QColor window("#efefef");
  t.pass = {QColor("#1a7a2a"), window};
  t.fail = {QColor("#b71c1c"), window};
  t.cancelled = {QColor("#5f5f5f"), window};
  t.neutral = {QColor("#5f5f5f"), window};
  t.error = {QColor("#b71c1c"), window};
  t.warning = {QColor("#8a5300"), window};
  return t;
}

ThemeColours makeDark() {
  ThemeColours t;
  t.dark = true;
  t.base = QColor("#1e1f22");
  t.margin = QColor("#2b2d30");
  t.marginText = QColor("#9a9a9a");
  t.caretLine = QColor("#2b2d30");
  t.syntax = {QColor("#d4d4d4"), QColor("#96a696"), QColor("#cf8e6d"),
              QColor("#6aab73"), QColor("#2aacb8"), QColor("#c77dff"),
              QColor("#56a8f5"), QColor("#b3ae60"), QColor("#bcbec4")};
  t.debugLine = {t.syntax.text, QColor("#35301c")};
  t.generatedLine = {t.syntax.text, QColor("#33321c")};
  t.diffRemoved = {QColor("#e6e6e6"), QColor("#3f2424")};
  t.diffAdded = {QColor("#e6e6e6"), QColor("#1d3622")};
  t.diffHeader = {QColor("#dde4f0"), QColor("#2c313c")};
  t.diffBlank = {QColor("#d4d4d4"), QColor("#26272a")};
  t.annotationError = {QColor("#ffaaaa"), QColor("#4a2222")};
  t.annotationWarning = {QColor("#f0c878"), QColor("#423418")};
  t.registersLow = {QColor("#82c88c"), t.margin};
  t.registersHigh = {QColor("#ffcd78"), QColor("#50401a")};
  t.registersOver = {QColor("#ffffff"), QColor("#c62828")};
  t.registersEstimatedOver = {QColor("#ffb380"), QColor("#4d2a14")};
  t.registersStale = {QColor("#9c9c9c"), t.margin};
  t.staleBanner = {QColor("#ffe9a8"), QColor("#4a3f12")};
  const QColor window("#2b2d30");
  t.pass = {QColor("#7ed18b"), window};
  t.fail = {QColor("#ff8a80"), window};
  t.cancelled = {QColor("#b0b0b0"), window};
  t.neutral = {QColor("#b0b0b0"), window};
  t.error = {QColor("#ff8a80"), window};
  t.warning = {QColor("#ffc266"), window};
  return t;
}

double channel(int c) {
  const double v = c / 255.0;
  return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}

double luminance(const QColor& c) {
  return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue());
}

}  // namespace

std::vector<std::pair<const char*, QColor>> SyntaxColours::all() const {
  return {{"text", text},     {"comment", comment},     {"keyword", keyword},
          {"string", string}, {"number", number},       {"builtin", builtin},
          {"name", name},     {"decorator", decorator}, {"operator", op}};
}

std::vector<std::pair<const char*, Highlight>> ThemeColours::highlights() const {
  return {{"debug line", debugLine},
          {"generated line", generatedLine},
          {"diff removed", diffRemoved},
          {"diff added", diffAdded},
          {"diff header", diffHeader},
          {"diff blank", diffBlank},
          {"annotation error", annotationError},
          {"annotation warning", annotationWarning},
          {"registers low", registersLow},
          {"registers high", registersHigh},
          {"registers over", registersOver},
          {"registers estimated over", registersEstimatedOver},
          {"registers stale", registersStale},
          {"stale banner", staleBanner},
          {"pass", pass},
          {"fail", fail},
          {"cancelled", cancelled},
          {"neutral", neutral},
          {"error", error},
          {"warning", warning},
          {"margin text", {marginText, margin}}};
}

std::vector<std::pair<const char*, QColor>> ThemeColours::codeBackgrounds() const {
  return {{"base", base},
          {"caret line", caretLine},
          {"debug line", debugLine.background},
          {"generated line", generatedLine.background}};
}

const ThemeColours& themeColours(bool dark) {
  static const ThemeColours light = makeLight(), darkTheme = makeDark();
  return dark ? darkTheme : light;
}

const ThemeColours& themeColours(const QPalette& palette) {
  return themeColours(palette.color(QPalette::Base).lightness() < 128);
}

QString styleSheetColour(const QColor& colour) {
  return QStringLiteral("color: %1").arg(colour.name());
}

QString bannerStyleSheet(const Highlight& h) {
  return QStringLiteral("QLabel { background: %1; color: %2; padding: 3px; }")
      .arg(h.background.name(), h.text.name());
}

double contrastRatio(const QColor& a, const QColor& b) {
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
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

QIcon runIcon() {
  return paintedIcon(QColor(46, 170, 70), true);
}
QIcon stopIcon() {
  return paintedIcon(QColor(214, 64, 56), false);
}

}  // namespace tirx::views
