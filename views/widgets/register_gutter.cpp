// RegisterGutter: the register facts of the last compile drawn as margin text with one style per
// level, spill markers, and the tooltip text.
#include "views/widgets/register_gutter.h"

#include <Qsci/qsciscintilla.h>

#include <QStringList>

#include "views/models/theme.h"

namespace tirx::views {

using toolchain::LineRegisters;
using toolchain::RegisterFacts;
using toolchain::RegisterSource;

namespace {

QString hex(int address) {
  return QString("/*%1*/").arg(address, 4, 16, QChar('0'));
}

}  // namespace

QString registerFigure(const LineRegisters& line, RegisterSource source) {
  return (source == RegisterSource::Estimate ? "~" : "") + QString::number(line.maxLive);
}

RegisterLevel registerLevelOf(const LineRegisters& line, RegisterSource source) {
  if (line.spillLoads + line.spillStores > 0) return RegisterLevel::Over;
  if (line.budget <= 0) return RegisterLevel::Low;
  if (line.maxLive > line.budget)
    return source == RegisterSource::Estimate ? RegisterLevel::EstimatedOver : RegisterLevel::Over;
  if (line.maxLive * 5 > line.budget * 4) return RegisterLevel::High;
  return RegisterLevel::Low;
}

QString registerToolTip(const RegisterFacts& facts, const LineRegisters& l, bool stale) {
  const bool est = facts.source == RegisterSource::Estimate;
  QStringList out;
  if (stale) out << QObject::tr("stale: the text changed since this compile (Compile to refresh)");
  out << QObject::tr("line %1 · %2 · %3")
             .arg(l.line)
             .arg(QString::fromStdString(l.kernel), est ? QObject::tr("estimate, not measured")
                                                        : QObject::tr("measured by nvdisasm"));
  const QString budget = l.budget > 0 ? QObject::tr("budget %1 (%2), %3 %")
                                            .arg(l.budget)
                                            .arg(QString::fromStdString(l.budgetSource))
                                            .arg(l.maxLive * 100 / l.budget)
                                      : QObject::tr("no budget known");
  if (est) {
    out << QObject::tr("~%1 registers: %2").arg(l.maxLive).arg(QString::fromStdString(l.detail));
    out << budget;
    if (l.budget > 0 && l.maxLive > l.budget)
      out << QObject::tr(
          "estimated to exceed the budget: a compile with nvdisasm measures whether "
          "it does");
    for (const auto& w : l.wgmmas)
      out << QObject::tr("wgmma here: ~%1 live (estimate)").arg(w.live);
    out << QObject::tr("spills: unknown (an estimate cannot see them)");
  } else {
    out << QObject::tr("%1 registers live at the peak, %2 %3")
               .arg(l.maxLive)
               .arg(hex(l.peakAddress), QString::fromStdString(l.peakOpcode));
    out << budget;
    out << QObject::tr("%n SASS instruction(s) on this line", nullptr, l.instructions);
    if (!l.wgmmas.empty()) {
      QStringList sites;
      for (const auto& w : l.wgmmas) sites << QString("%1 %2").arg(hex(w.address)).arg(w.live);
      out << QObject::tr("HGMMA live: %1").arg(sites.join(", "));
    }
    out << (l.spillLoads + l.spillStores ? QObject::tr("spills: %1 LDL, %2 STL on this line")
                                               .arg(l.spillLoads)
                                               .arg(l.spillStores)
                                         : QObject::tr("spills: none on this line"));
  }
  for (const auto& k : facts.kernels)
    if (k.kernel == l.kernel)
      out << QObject::tr("kernel %1: %2 registers allocated, spill stores %3 B, loads %4 B")
                 .arg(QString::fromStdString(k.kernel))
                 .arg(k.allocated ? QString::number(k.allocated) : QObject::tr("?"))
                 .arg(k.spillStoreBytes)
                 .arg(k.spillLoadBytes);
  out << QString::fromStdString(facts.status);
  return out.join("\n");
}

RegisterGutter::RegisterGutter(QsciScintilla& editor, int margin, int spillMarker)
    : m_editor(editor),
      m_margin(margin),
      m_spillMarker(spillMarker),
      m_low(kFirstStyle),
      m_high(kFirstStyle + 1),
      m_over(kFirstStyle + 2),
      m_estimatedOver(kFirstStyle + 6),
      m_stalest(kFirstStyle + 3) {
  m_editor.setMarginType(m_margin, QsciScintilla::TextMarginRightJustified);
  m_editor.setMarginMarkerMask(m_margin, 0);
  m_editor.setMarginWidth(m_margin, 0);
  m_editor.setMarginSensitivity(m_margin, false);
  m_editor.markerDefine(QsciScintilla::SmallRectangle, m_spillMarker);
  m_editor.setMarkerBackgroundColor(themeColours(false).registersOver.background, m_spillMarker);
  m_editor.setMarkerForegroundColor(QColor(120, 0, 0), m_spillMarker);
  applyTheme(false);
}

void RegisterGutter::applyTheme(bool dark) {
  const ThemeColours& t = themeColours(dark);
  auto set = [](QsciStyle& style, const Highlight& h) {
    style.setColor(h.text);
    style.setPaper(h.background);
  };
  set(m_low, t.registersLow);
  set(m_high, t.registersHigh);
  set(m_over, t.registersOver);
  set(m_estimatedOver, t.registersEstimatedOver);
  set(m_stalest, t.registersStale);
  QFont italic = m_estimatedOver.font();
  italic.setItalic(true);  // an estimate's overflow also differs in shape, not only in colour
  m_estimatedOver.setFont(italic);
  redraw();
}

void RegisterGutter::show(std::shared_ptr<const RegisterFacts> facts, bool stale) {
  if (facts != m_facts || !stale) m_compiledLines = m_editor.lines();
  m_facts = facts && facts->source != RegisterSource::None ? std::move(facts) : nullptr;
  m_stale = stale;
  redraw();
}

const QsciStyle& RegisterGutter::styleOf(RegisterLevel level) const {
  switch (level) {
    case RegisterLevel::High:
      return m_high;
    case RegisterLevel::Over:
      return m_over;
    case RegisterLevel::EstimatedOver:
      return m_estimatedOver;
    case RegisterLevel::Stale:
      return m_stalest;
    default:
      return m_low;
  }
}

void RegisterGutter::redraw() {
  m_editor.clearMarginText();
  m_editor.markerDeleteAll(m_spillMarker);
  if (!m_facts || (m_stale && m_editor.lines() != m_compiledLines)) {
    m_editor.setMarginWidth(m_margin, 0);
    return;
  }
  // Measured in the gutter's own style (the margin-width string form uses the line numbers').
  m_low.apply(&m_editor);
  const long width = m_editor.SendScintilla(QsciScintillaBase::SCI_TEXTWIDTH,
                                            static_cast<unsigned long>(kFirstStyle), "~0000 ");
  m_editor.setMarginWidth(m_margin, static_cast<int>(width) + 4);
  const int lines = m_editor.lines();
  for (const LineRegisters& l : m_facts->lines) {
    if (l.line < 1 || l.line > lines) continue;
    const RegisterLevel level =
        m_stale ? RegisterLevel::Stale : registerLevelOf(l, m_facts->source);
    m_editor.setMarginText(l.line - 1, registerFigure(l, m_facts->source) + " ", styleOf(level));
    if (l.spillLoads + l.spillStores > 0) m_editor.markerAdd(l.line - 1, m_spillMarker);
  }
}

QString RegisterGutter::text(int line) const {
  const long n =
      m_editor.SendScintilla(QsciScintillaBase::SCI_MARGINGETTEXT,
                             static_cast<unsigned long>(line - 1), static_cast<char*>(nullptr));
  if (n <= 0) return {};
  QByteArray buf(int(n) + 1, '\0');
  m_editor.SendScintilla(QsciScintillaBase::SCI_MARGINGETTEXT, static_cast<unsigned long>(line - 1),
                         buf.data());
  return QString::fromUtf8(buf.constData()).trimmed();
}

RegisterLevel RegisterGutter::level(int line) const {
  if (text(line).isEmpty()) return RegisterLevel::None;
  const long style = m_editor.SendScintilla(QsciScintillaBase::SCI_MARGINGETSTYLE,
                                            static_cast<unsigned long>(line - 1));
  for (RegisterLevel l : {RegisterLevel::Low, RegisterLevel::High, RegisterLevel::Over,
                          RegisterLevel::EstimatedOver, RegisterLevel::Stale})
    if (styleOf(l).style() == style) return l;
  return RegisterLevel::None;
}

QString RegisterGutter::toolTip(int line) const {
  if (!m_facts || text(line).isEmpty()) return {};
  const LineRegisters* l = m_facts->findLine(line);
  return l ? registerToolTip(*m_facts, *l, m_stale) : QString();
}

bool RegisterGutter::containsX(int x) const {
  int left = 0;
  for (int m = 0; m < m_margin; ++m) left += m_editor.marginWidth(m);
  return m_editor.marginWidth(m_margin) > 0 && x >= left &&
         x < left + m_editor.marginWidth(m_margin);
}

}  // namespace tirx::views
