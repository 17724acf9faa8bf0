// AssemblyView: texts from core/driver's compile products, the two-way line map through their
// codegen::SourceMap, the resources in toolchain's one-line form, hovers.
#include "views/widgets/assembly_view.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTabWidget>
#include <QTextBlock>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <iterator>

#include "core/driver/kernel_occupancy.h"
#include "core/ptx/ptx_table.h"
#include "core/toolchain/toolchain.h"
#include "views/engine/script_facts.h"
#include "views/engine/session.h"
#include "views/models/asm_highlighter.h"
#include "views/models/theme.h"

namespace tirx::views {

AssemblyView::AssemblyView(Session& session, QWidget* parent)
    : QWidget(parent), m_session(session) {
  m_tabs = new QTabWidget(this);
  const char* names[4] = {"CUDA C++", "PTX", "SASS", "Resources"};
  const AsmHighlighter::Language langs[3] = {AsmHighlighter::Language::Cuda,
                                             AsmHighlighter::Language::Ptx,
                                             AsmHighlighter::Language::Sass};
  QFont mono("DejaVu Sans Mono");
  mono.setStyleHint(QFont::Monospace);
  mono.setPointSize(9);  // kBasePointSize
  for (int t = 0; t < 4; ++t) {
    m_texts[t] = new QPlainTextEdit(this);
    m_texts[t]->setReadOnly(true);
    m_texts[t]->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_texts[t]->setFont(mono);
    m_texts[t]->viewport()->installEventFilter(this);
    m_texts[t]->installEventFilter(this);  // the zoom keys
    if (t < 3) {
      m_highlighters[t] = new AsmHighlighter(langs[t], m_texts[t]->document());
      connect(m_texts[t], &QPlainTextEdit::cursorPositionChanged, this,
              [this, t] { onGeneratedLineClicked(static_cast<Tab>(t)); });
    }
    m_tabs->addTab(m_texts[t], names[t]);
  }
  m_status = new QLabel(this);
  m_status->setWordWrap(true);
  m_stale = new QLabel(tr("Out of date: the script changed after this compile. Compile & Verify "
                          "(Ctrl+Return) or Compile Only (Ctrl+Shift+B) to refresh."),
                       this);
  m_stale->setObjectName("staleBanner");
  m_stale->setWordWrap(true);
  m_stale->setStyleSheet(bannerStyleSheet(themeColours(false).staleBanner));
  m_stale->hide();
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(m_stale);
  layout->addWidget(m_status);
  layout->addWidget(m_tabs, 1);

  connect(&m_session, &Session::productsChanged, this, [this] {
    if (isVisible())
      refresh();
    else
      m_dirty = true;  // hidden docks refresh when shown
  });
  connect(&m_session, &Session::staleChanged, this,
          [this] { m_stale->setVisible(m_session.productsStale()); });
  connect(&m_session, &Session::lineSelected, this, [this](int line) {
    if (!m_syncing) highlightScriptLine(line);
  });
  refresh();
}

void AssemblyView::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  if (m_dirty) {
    m_dirty = false;
    refresh();
  }
}

bool AssemblyView::staleShown() const {
  return !m_stale->isHidden();
}

void AssemblyView::showTab(Tab tab) {
  m_tabs->setCurrentIndex(tab);
}

void AssemblyView::setDark(bool dark) {
  m_stale->setStyleSheet(bannerStyleSheet(themeColours(dark).staleBanner));
  for (auto* h : m_highlighters) h->setDark(dark);
}

namespace {

// The Resources tab: each kernel's resources in the engine's one-line form, the compile's stage
// timings (a bundle records none), the tools' logs and the diagnostics.
QString resourcesText(const driver::CompileProducts& p) {
  QString res;
  for (const auto& r : p.resources)
    res += QString::fromStdString(toolchain::resourceLine(r)) + "\n";
  if (p.resources.empty()) res += "no resource report (no cubin was linked)\n";
  const std::string occupancy = driver::occupancyLines(driver::kernelOccupancy(p));
  if (!occupancy.empty())
    res += "\noccupancy (" + QString::fromStdString(p.target.empty() ? "sm_90" : p.target) +
           "):\n" + QString::fromStdString(occupancy);
  const driver::Timings& t = p.timings;
  if (t.totalMs > 0 || t.cacheHit)
    res += QString(
               "\ntimings: front end %1 ms, codegen %2 ms, NVRTC %3 ms, link %4 ms, SASS %5 ms, "
               "total %6 ms%7\n")
               .arg(t.frontEndMs)
               .arg(t.codegenMs)
               .arg(t.nvrtcMs)
               .arg(t.linkMs)
               .arg(t.sassMs)
               .arg(t.totalMs)
               .arg(t.cacheHit ? " (cache hit)" : "");
  if (!p.toolLog.empty()) res += "\n" + QString::fromStdString(p.toolLog);
  for (const Diagnostic& d : p.diagnostics)
    res += QString("\nline %1: %2 %3")
               .arg(d.span.line)
               .arg(QString::fromStdString(d.code), QString::fromStdString(d.message));
  return res;
}

}  // namespace

void AssemblyView::refresh() {
  auto p = m_session.products();
  m_syncing = true;
  if (!p) {
    m_status->setText(tr("Not compiled yet — press Compile & Verify (Ctrl+Return)."));
    for (auto* t : m_texts) t->clear();
  } else {
    const driver::CompileProducts& e = p->engine;
    m_status->setText(QString::fromStdString(p->summary).toHtmlEscaped());
    m_texts[CudaTab]->setPlainText(QString::fromStdString(e.cuda));
    m_texts[PtxTab]->setPlainText(QString::fromStdString(e.ptx));
    m_texts[SassTab]->setPlainText(
        e.sass.empty() ? tr("SASS not available: %1").arg(QString::fromStdString(e.sassStatus))
                       : QString::fromStdString(e.sass));
    m_texts[ResourcesTab]->setPlainText(resourcesText(e));
  }
  m_syncing = false;
  highlightScriptLine(m_session.selectedLine());
}

const std::vector<int>* AssemblyView::toScriptOf(Tab tab) const {
  auto p = m_session.products();
  if (!p) return nullptr;
  switch (tab) {
    case CudaTab:
      return &p->engine.map.cudaToScript;
    case PtxTab:
      return &p->engine.map.ptxToScript;
    case SassTab:
      return &p->engine.map.sassToScript;
    default:
      return nullptr;
  }
}

std::vector<int> AssemblyView::highlightedLines(Tab tab) const {
  return tab < 3 ? m_highlighted[tab] : std::vector<int>{};
}

void AssemblyView::highlightScriptLine(int line) {
  // under the lines' own syntax colours: the theme keeps them readable on it
  const QColor colour = themeColours(palette()).generatedLine.background;
  auto p = m_session.products();
  for (int t = 0; t < 3; ++t) {
    m_highlighted[t].clear();
    QList<QTextEdit::ExtraSelection> sels;
    if (p && line > 0) {
      const codegen::SourceMap& map = p->engine.map;
      m_highlighted[t] = t == CudaTab  ? map.cudaLinesOf(line)
                         : t == PtxTab ? map.ptxLinesOf(line)
                                       : map.sassLinesOf(line);
      for (int target : m_highlighted[t]) {
        QTextBlock b = m_texts[t]->document()->findBlockByNumber(target - 1);
        if (!b.isValid()) continue;
        QTextEdit::ExtraSelection s;
        s.cursor = QTextCursor(b);
        s.format.setBackground(colour);
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        sels << s;
      }
    }
    m_texts[t]->setExtraSelections(sels);
    if (!m_highlighted[t].empty()) {  // scroll to the first without moving the user's caret
      QTextBlock b = m_texts[t]->document()->findBlockByNumber(m_highlighted[t].front() - 1);
      m_texts[t]->verticalScrollBar()->setValue(std::max(0, b.firstLineNumber() - 3));
    }
  }
}

void AssemblyView::onGeneratedLineClicked(Tab tab) {
  if (m_syncing) return;
  const std::vector<int>* toScript = toScriptOf(tab);
  if (!toScript) return;
  const int target = m_texts[tab]->textCursor().blockNumber() + 1;
  const int scriptLine =
      target < static_cast<int>(toScript->size()) ? (*toScript)[size_t(target)] : 0;
  if (scriptLine <= 0) return;
  m_syncing = true;
  m_session.selectLine(scriptLine);
  m_syncing = false;
  highlightScriptLine(scriptLine);
}

QString AssemblyView::describeLine(Tab tab, int line) const {
  QTextBlock b = m_texts[tab]->document()->findBlockByNumber(line - 1);
  if (!b.isValid()) return {};
  if (tab == PtxTab) {
    const auto f = ptxLineFacts(b.text().toStdString());
    if (!f) return {};
    if (f->instr) return QString::fromStdString(describeOpcode(*f->instr));
    if (f->family)
      return QString::fromStdString(f->opcode + " — " + f->family->name + ": " +
                                    f->family->description);
    return {};
  }
  if (tab == SassTab) {
    const auto f = toolchain::sassLineFacts(b.text().toStdString());
    if (!f || f->description.empty()) return {};
    return QString::fromStdString(f->guard + (f->guard.empty() ? "" : " ") + f->mnemonic +
                                  f->modifiers + " — " + f->description);
  }
  return {};
}

bool AssemblyView::eventFilter(QObject* watched, QEvent* event) {
  // the zoom keys in a pane: claimed before the window's shortcuts, and never typed
  if (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress) {
    const ZoomKey key = zoomKeyOf(*static_cast<QKeyEvent*>(event));
    if (key != ZoomKey::None &&
        std::find(std::begin(m_texts), std::end(m_texts), watched) != std::end(m_texts)) {
      event->accept();
      if (event->type() == QEvent::KeyPress) applyZoom(key);
      return true;
    }
  }
  if (event->type() == QEvent::ToolTip)
    for (int t = PtxTab; t <= SassTab; ++t)
      if (watched == m_texts[t]->viewport()) {
        auto* he = static_cast<QHelpEvent*>(event);
        int line = m_texts[t]->cursorForPosition(he->pos()).blockNumber() + 1;
        QString d = describeLine(static_cast<Tab>(t), line);
        if (d.isEmpty())
          QToolTip::hideText();
        else
          QToolTip::showText(he->globalPos(), d, m_texts[t]);
        return true;
      }
  return QWidget::eventFilter(watched, event);
}

namespace {
constexpr int kBasePointSize = 9;
}

void AssemblyView::applyZoom(ZoomKey key) {
  switch (key) {
    case ZoomKey::In:
      m_zoom = std::min(m_zoom + 1, 30);
      break;
    case ZoomKey::Out:
      m_zoom = std::max(m_zoom - 1, 4 - kBasePointSize);
      break;
    case ZoomKey::Reset:
      m_zoom = 0;
      break;
    case ZoomKey::None:
      return;
  }
  for (QPlainTextEdit* text : m_texts) {
    QFont f = text->font();
    f.setPointSize(kBasePointSize + m_zoom);
    text->setFont(f);
  }
}

int AssemblyView::fontPointSize() const {
  return m_texts[0]->font().pointSize();
}

}  // namespace tirx::views
