// EditorWidget: QScintilla set-up, the session round trip (text out, facts in) and the drawing
// of diagnostics, hovers and navigation.
#include "views/widgets/editor_widget.h"

#include <Qsci/qscistyle.h>

#include <QAction>
#include <QFile>
#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QMouseEvent>
#include <QToolTip>
#include <cctype>
#include <map>

#include "core/layout/tile_layout.h"
#include "core/ptx/ptx_table.h"
#include "views/engine/completion_source.h"
#include "views/engine/descriptor_facts.h"
#include "views/engine/run_verdict.h"
#include "views/engine/session.h"
#include "views/engine/studio_resources.h"
#include "views/models/editor_zoom.h"
#include "views/models/theme.h"
#include "views/widgets/opcode_hover.h"
#include "views/widgets/register_gutter.h"
#include "views/widgets/tirx_lexer.h"

namespace tirx::views {

EditorWidget::EditorWidget(Session& session, QWidget* parent)
    : QsciScintilla(parent), m_session(session) {
  m_lexer = new TirxLexer(this);
  setLexer(m_lexer);
  setUtf8(true);
  setIndentationsUseTabs(false);
  setIndentationWidth(4);
  setTabWidth(4);
  setAutoIndent(true);
  setBraceMatching(QsciScintilla::SloppyBraceMatch);
  setCaretLineVisible(true);
  setFolding(QsciScintilla::BoxedTreeFoldStyle, 3);
  setEdgeMode(QsciScintilla::EdgeLine);
  setEdgeColumn(100);
  setupMargins();
  setupIndicators();
  setupCompletion();
  SendScintilla(SCI_SETMOUSEDWELLTIME, 400);
  viewport()->installEventFilter(this);

  auto* gotoDef = m_goToDefinition = new QAction(tr("Go to &Definition"), this);
  gotoDef->setShortcut(Qt::Key_F12);
  gotoDef->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  addAction(gotoDef);
  connect(gotoDef, &QAction::triggered, this, [this] {
    int line, index;
    getCursorPosition(&line, &index);
    goToDefinitionAt(positionFromLineIndex(line, index));
  });

  connect(this, &QsciScintilla::textChanged, this, [this] {
    if (!m_loading) m_session.setText(text());
  });
  connect(this, &QsciScintilla::cursorPositionChanged, this,
          [this](int line, int) { m_session.selectLine(line + 1); });
  connect(this, &QsciScintillaBase::SCN_DWELLSTART, this, &EditorWidget::onDwell);
  connect(this, &QsciScintillaBase::SCN_DWELLEND, this, [this](int, int, int) {
    QToolTip::hideText();
    if (m_opcodePopup) m_opcodePopup->hide();
  });
  connect(&m_session, &Session::textReplaced, this, [this] {
    m_loading = true;
    setText(m_session.text());
    setModified(false);
    m_loading = false;
    // a new document opens at its top, with no selection and no undo back into the old one
    SendScintilla(SCI_EMPTYUNDOBUFFER);
    setCursorPosition(0, 0);
    setFirstVisibleLine(0);
    SendScintilla(SCI_SETXOFFSET, 0UL);
    markerDeleteAll(SelectedLineMarker);
    markerDeleteAll(FaultMarker);
    m_session.setBreakpoints({});  // a new document: its lines are not the old breakpoints'
    applyBreakpoints();
    applyDebugLine(m_session.debugLine());
  });
  connect(&m_session, &Session::factsChanged, this, &EditorWidget::applyFacts);
  connect(this, &QsciScintilla::marginClicked, this,
          [this](int margin, int line, Qt::KeyboardModifiers) {
            if (margin == kDebugMargin) m_session.toggleBreakpoint(line + 1);
          });
  // Breakpoint markers move with edits; the session follows them.
  connect(this, &QsciScintilla::linesChanged, this,
          [this] { m_session.setBreakpoints(markedLines(BreakpointMarker)); });
  connect(&m_session, &Session::breakpointsChanged, this, &EditorWidget::applyBreakpoints);
  connect(&m_session, &Session::debugLineChanged, this, &EditorWidget::applyDebugLine);
  connect(&m_session, &Session::reportChanged, this, &EditorWidget::applyFaults);
  connect(&m_session, &Session::productsChanged, this, &EditorWidget::applyRegisters);
  connect(&m_session, &Session::staleChanged, this, &EditorWidget::applyRegisters);
  connect(this, &QsciScintilla::linesChanged, this, [this] { m_registers->linesChanged(); });
  connect(&m_session, &Session::lineSelected, this, [this](int line) {
    markerDeleteAll(SelectedLineMarker);
    if (line <= 0) return;
    int cur, idx;
    getCursorPosition(&cur, &idx);
    if (cur + 1 != line) {  // selected elsewhere (assembly, results): follow it
      setCursorPosition(line - 1, 0);
      ensureLineVisible(line - 1);
      markerAdd(line - 1, SelectedLineMarker);
    }
  });
}

EditorWidget::~EditorWidget() = default;

void EditorWidget::setupMargins() {
  setMarginType(0, QsciScintilla::NumberMargin);
  setMarginWidth(0, "00000");
  setMarginType(1, QsciScintilla::SymbolMargin);
  setMarginWidth(1, 14);
  setMarginSensitivity(1, false);
  markerDefine(QsciScintilla::Circle, ErrorMarker);
  setMarkerBackgroundColor(QColor(220, 50, 47), ErrorMarker);
  setMarkerForegroundColor(QColor(160, 20, 20), ErrorMarker);
  markerDefine(QsciScintilla::RightTriangle, WarningMarker);
  setMarkerBackgroundColor(QColor(230, 160, 20), WarningMarker);
  markerDefine(QsciScintilla::RightArrow, SelectedLineMarker);
  setMarkerBackgroundColor(QColor(60, 120, 220), SelectedLineMarker);
  markerDefine(QsciScintilla::Bookmark, FaultMarker);
  setMarkerBackgroundColor(QColor(200, 30, 160), FaultMarker);
  setMarkerForegroundColor(QColor(120, 0, 90), FaultMarker);
  // The debugger's margin: breakpoints (click to toggle) and the current stop's arrow; the stop's
  // line gets a background too.
  setMarginType(kDebugMargin, QsciScintilla::SymbolMargin);
  setMarginWidth(kDebugMargin, 16);
  setMarginSensitivity(kDebugMargin, true);
  setMarginMarkerMask(1, (1 << ErrorMarker) | (1 << WarningMarker) | (1 << SelectedLineMarker) |
                             (1 << FaultMarker) | (1 << SpillMarker));
  setMarginMarkerMask(kDebugMargin, (1 << BreakpointMarker) | (1 << DebugArrowMarker));
  markerDefine(QsciScintilla::Circle, BreakpointMarker);
  setMarkerBackgroundColor(QColor(200, 30, 30), BreakpointMarker);
  setMarkerForegroundColor(QColor(120, 10, 10), BreakpointMarker);
  markerDefine(QsciScintilla::Background, DebugLineMarker);  // applyTheme recolours it
  setMarkerBackgroundColor(themeColours(false).debugLine.background, DebugLineMarker);
  markerDefine(QsciScintilla::RightArrow, DebugArrowMarker);
  setMarkerBackgroundColor(QColor(240, 190, 20), DebugArrowMarker);
  setMarkerForegroundColor(QColor(120, 90, 0), DebugArrowMarker);
  m_registers = std::make_unique<RegisterGutter>(*this, RegisterMargin, SpillMarker);
}

void EditorWidget::applyBreakpoints() {
  markerDeleteAll(BreakpointMarker);
  for (int line : m_session.breakpoints())
    if (line >= 1 && line <= lines()) markerAdd(line - 1, BreakpointMarker);
}

void EditorWidget::applyDebugLine(int line) {
  markerDeleteAll(DebugLineMarker);
  markerDeleteAll(DebugArrowMarker);
  if (line < 1 || line > lines()) return;
  markerAdd(line - 1, DebugLineMarker);
  markerAdd(line - 1, DebugArrowMarker);
  ensureLineVisible(line - 1);
}

void EditorWidget::setupIndicators() {
  auto define = [this](int n, int style, QColor c, int alpha) {
    SendScintilla(SCI_INDICSETSTYLE, n, style);
    SendScintilla(SCI_INDICSETFORE, n, c.red() | (c.green() << 8) | (c.blue() << 16));
    SendScintilla(SCI_INDICSETALPHA, n, alpha);
    SendScintilla(SCI_INDICSETUNDER, n, 1);
  };
  define(ErrorIndicator, INDIC_SQUIGGLE, QColor(230, 30, 30), 255);
  define(WarningIndicator, INDIC_SQUIGGLE, QColor(220, 150, 0), 255);
  define(OpcodeIndicator, INDIC_ROUNDBOX, QColor(40, 140, 220), 50);
  define(BadOpcodeIndicator, INDIC_BOX, QColor(230, 30, 30), 200);
  setAnnotationDisplay(QsciScintilla::AnnotationBoxed);
  // The styles only exist in the editor once applied: annotate(line, text, QsciStyle) does that.
  // (annotate(line, text, int) with the bare style number left Scintilla's default style: a white
  // box.)
  // Fixed style numbers 124/125 (the register gutter has 120..123): QScintilla's automatic numbers
  // come from a small per-process pool, and after a few editors the tint was lost.
  m_errorStyle = QsciStyle(124, "diagnostic error", themeColours(false).annotationError.text,
                           themeColours(false).annotationError.background, font());
  m_warningStyle = QsciStyle(125, "diagnostic warning", themeColours(false).annotationWarning.text,
                             themeColours(false).annotationWarning.background, font());
}

void EditorWidget::setupCompletion() {
  // The lists come from the engine's tables (views/engine/completion_source.*), shown with
  // Scintilla's list; the description of the highlighted item is shown beside it.
  setAutoCompletionSource(QsciScintilla::AcsNone);
  SendScintilla(SCI_AUTOCSETSEPARATOR, static_cast<unsigned long>('\n'));
  SendScintilla(SCI_AUTOCSETIGNORECASE, 0UL);
  SendScintilla(SCI_AUTOCSETAUTOHIDE, 1UL);
  SendScintilla(SCI_AUTOCSETMAXHEIGHT, 12UL);
  m_completionDoc = new QLabel(this, Qt::ToolTip);
  m_completionDoc->setObjectName("completionDoc");
  m_completionDoc->setWordWrap(true);
  m_completionDoc->setMaximumWidth(460);
  m_completionDoc->setMargin(6);
  m_completionDoc->setFrameShape(QFrame::Box);
  m_completionDoc->setTextFormat(Qt::PlainText);
  connect(this, &QsciScintillaBase::SCN_CHARADDED, this, &EditorWidget::onCharAdded);
  connect(this, qOverload<const char*, int, int, int>(&QsciScintillaBase::SCN_AUTOCSELECTION), this,
          [this](const char*, int, int, int) { m_completionDoc->hide(); });
  connect(this, &QsciScintillaBase::SCN_AUTOCCANCELLED, m_completionDoc, &QWidget::hide);
}

bool EditorWidget::isStringStyle(int style) {
  using L = QsciLexerPython;
  switch (style) {
    case L::DoubleQuotedString:
    case L::SingleQuotedString:
    case L::TripleSingleQuotedString:
    case L::TripleDoubleQuotedString:
    case L::UnclosedString:
    case L::DoubleQuotedFString:
    case L::SingleQuotedFString:
    case L::TripleSingleQuotedFString:
    case L::TripleDoubleQuotedFString:
      return true;
    default:
      return false;
  }
}

bool EditorWidget::isCommentStyle(int style) {
  return style == QsciLexerPython::Comment || style == QsciLexerPython::CommentBlock;
}

int EditorWidget::lexerStyleBefore(int pos) {
  if (pos <= 0) return 0;
  SendScintilla(SCI_COLOURISE, 0UL, static_cast<long>(pos));  // styling is lazy (done on paint)
  return static_cast<int>(SendScintilla(SCI_GETSTYLEAT, static_cast<unsigned long>(pos - 1)));
}

bool EditorWidget::showCompletions(bool explicitRequest) {
  const int pos = static_cast<int>(SendScintilla(SCI_GETCURRENTPOS));
  const int line =
      static_cast<int>(SendScintilla(SCI_LINEFROMPOSITION, static_cast<unsigned long>(pos)));
  const int lineStart =
      static_cast<int>(SendScintilla(SCI_POSITIONFROMLINE, static_cast<unsigned long>(line)));
  const std::string lineText = text(line).toStdString();
  const int caret = pos - lineStart;
  const int style = lexerStyleBefore(pos);
  CompletionList list;
  std::string typed;
  if (ptxStringBefore(lineText, caret, &typed) && isStringStyle(style)) {
    list = completePtx(typed);
  } else if (!isStringStyle(style) && !isCommentStyle(style)) {
    list = completeCode(dottedBefore(lineText, caret), explicitRequest ? 0 : 2);
  }
  m_completion = list;
  if (list.items.empty()) {
    if (isListActive()) cancelList();
    m_completionDoc->hide();
    return false;
  }
  std::string joined;
  for (const CompletionItem& item : list.items) joined += (joined.empty() ? "" : "\n") + item.text;
  SendScintilla(SCI_AUTOCSHOW, static_cast<unsigned long>(list.replaceLength), joined.c_str());
  updateCompletionDoc();
  return true;
}

void EditorWidget::onCharAdded(int ch) {
  if (ch == '(') {
    // a call tip with the builtin's signature and description
    const int pos = static_cast<int>(SendScintilla(SCI_GETCURRENTPOS));
    const int line =
        static_cast<int>(SendScintilla(SCI_LINEFROMPOSITION, static_cast<unsigned long>(pos)));
    const int lineStart =
        static_cast<int>(SendScintilla(SCI_POSITIONFROMLINE, static_cast<unsigned long>(line)));
    const int style = lexerStyleBefore(pos - 1);
    const std::string tip =
        isStringStyle(style) || isCommentStyle(style)
            ? std::string()
            : callTipFor(dottedBefore(text(line).toStdString(), pos - lineStart - 1));
    m_callTip = QString::fromStdString(tip);
    if (!tip.empty()) SendScintilla(SCI_CALLTIPSHOW, static_cast<unsigned long>(pos), tip.c_str());
    if (isListActive()) cancelList();
    m_completionDoc->hide();
    return;
  }
  const bool word = std::isalnum(ch) || ch == '_' || ch == '.';
  if (word)
    showCompletions(false);
  else if (isListActive())
    cancelList();
}

void EditorWidget::updateCompletionDoc() {
  if (!isListActive()) {
    m_completionDoc->hide();
    return;
  }
  const int index = static_cast<int>(SendScintilla(SCI_AUTOCGETCURRENT));
  if (index < 0 || index >= static_cast<int>(m_completion.items.size())) {
    m_completionDoc->hide();
    return;
  }
  const CompletionItem& item = m_completion.items[size_t(index)];
  QString doc = QString::fromStdString(item.detail);
  if (!item.doc.empty()) doc += (doc.isEmpty() ? "" : "\n") + QString::fromStdString(item.doc);
  m_completionDoc->setText(doc);
  // as wide as its longest line (a word-wrapped label would otherwise pick a narrow column)
  int widest = 0;
  for (const QString& l : doc.split('\n'))
    widest = std::max(widest, m_completionDoc->fontMetrics().horizontalAdvance(l));
  m_completionDoc->setFixedWidth(std::min(460, widest + 2 * m_completionDoc->margin() + 8));
  m_completionDoc->adjustSize();
  // beside the list (a popup of the editor), else under the caret
  QPoint at;
  const QList<QListWidget*> lists = findChildren<QListWidget*>();
  for (QListWidget* l : lists)
    if (l->isVisible()) at = l->mapToGlobal(QPoint(l->width() + 4, 0));
  if (at.isNull()) {
    const long pos = SendScintilla(SCI_GETCURRENTPOS);
    const int x = static_cast<int>(SendScintilla(SCI_POINTXFROMPOSITION, 0UL, pos));
    const int y = static_cast<int>(SendScintilla(SCI_POINTYFROMPOSITION, 0UL, pos));
    at = viewport()->mapToGlobal(QPoint(x + 280, y + textHeight(0)));
  }
  m_completionDoc->move(at);
  m_completionDoc->show();
}

QString EditorWidget::completionDocText() const {
  return m_completionDoc && m_completionDoc->isVisible() ? m_completionDoc->text() : QString();
}

QStringList EditorWidget::completionItems() const {
  QStringList out;
  if (!const_cast<EditorWidget*>(this)->isListActive()) return out;
  for (const CompletionItem& item : m_completion.items) out << QString::fromStdString(item.text);
  return out;
}

void EditorWidget::keyPressEvent(QKeyEvent* e) {
  if (const ZoomKey zoom = zoomKeyOf(*e); zoom != ZoomKey::None) {
    applyZoom(zoom);  // never typed into the text
    e->accept();
    return;
  }
  const bool listWasActive = isListActive();
  QsciScintilla::keyPressEvent(e);
  if (listWasActive || isListActive()) updateCompletionDoc();
}

void EditorWidget::applyTheme(bool dark) {
  const ThemeColours& t = themeColours(dark);  // every colour from the theme's table
  m_errorStyle.setColor(t.annotationError.text);
  m_errorStyle.setPaper(t.annotationError.background);
  m_warningStyle.setColor(t.annotationWarning.text);
  m_warningStyle.setPaper(t.annotationWarning.background);
  m_lexer->applyTheme(dark);
  setCaretLineBackgroundColor(t.caretLine);
  setCaretForegroundColor(t.syntax.text);
  setMarginsBackgroundColor(t.margin);
  setMarginsForegroundColor(t.marginText);
  setFoldMarginColors(t.margin, t.margin);
  // the debugger's stop: a background under the line's own syntax colours (readable in both)
  setMarkerBackgroundColor(t.debugLine.background, DebugLineMarker);
  m_registers->applyTheme(dark);
  applyFacts();  // redraw the annotations with the new tints
}

int EditorWidget::positionOf(int line, int col) const {
  int base = static_cast<int>(
      const_cast<EditorWidget*>(this)->SendScintilla(SCI_POSITIONFROMLINE, line - 1));
  return base + std::max(0, col - 1);
}

void EditorWidget::applyFacts() {
  auto facts = m_session.facts();
  const int length = static_cast<int>(SendScintilla(SCI_GETLENGTH));
  for (int ind : {ErrorIndicator, WarningIndicator, OpcodeIndicator, BadOpcodeIndicator}) {
    SendScintilla(SCI_SETINDICATORCURRENT, ind);
    SendScintilla(SCI_INDICATORCLEARRANGE, 0, length);
  }
  markerDeleteAll(ErrorMarker);
  markerDeleteAll(WarningMarker);
  clearAnnotations();
  if (!facts) return;
  auto fill = [&](int ind, int offset, int len) {
    if (offset >= length) offset = std::max(0, length - 1);
    len = std::clamp(len, 1, std::max(1, length - offset));
    SendScintilla(SCI_SETINDICATORCURRENT, ind);
    SendScintilla(SCI_INDICATORFILLRANGE, offset, len);
  };
  for (const OpcodeSite& op : facts->opcodes)
    fill(op.valid ? OpcodeIndicator : BadOpcodeIndicator, op.span.offset, op.span.length);
  std::map<int, std::pair<QString, bool>> notes;  // line -> (annotation text, has error)
  for (const Diagnostic& d : facts->frontEnd->diagnostics) {
    if (d.severity == Severity::Note) continue;
    bool error = d.severity == Severity::Error;
    int line = d.span.valid() ? d.span.line : 1;
    int offset = d.span.valid() ? d.span.offset : 0;
    int len = d.span.length;
    if (len <= 0) {  // point diagnostics: underline to the end of the line
      long end = SendScintilla(SCI_GETLINEENDPOSITION, line - 1);
      len = std::max(1, static_cast<int>(end) - offset);
    }
    fill(error ? ErrorIndicator : WarningIndicator, offset, len);
    markerAdd(line - 1, error ? ErrorMarker : WarningMarker);
    auto& n = notes[line - 1];
    QString msg = QString("%1 %2: %3")
                      .arg(error ? "error" : "warning", QString::fromStdString(d.code),
                           QString::fromStdString(d.message));
    for (const DiagNote& note : d.notes) msg += "\n  note: " + QString::fromStdString(note.message);
    n.first += (n.first.isEmpty() ? "" : "\n") + msg;
    n.second = n.second || error;
  }
  for (const auto& [line, n] : notes)
    annotate(line, n.first, n.second ? m_errorStyle : m_warningStyle);
}

// Runtime faults of the last run (race, out-of-bounds, uninitialised read, deadlock, …) marked on
// the lines the simulator names: the fault's own span and the spans of its notes (a race names
// both accesses). The markers move with edits and are replaced by the next run's.
void EditorWidget::applyFaults() {
  markerDeleteAll(FaultMarker);
  auto report = m_session.report();
  if (!report) return;
  const int lines = this->lines();
  auto mark = [&](const SourceSpan& span) {
    if (span.line >= 1 && span.line <= lines) markerAdd(span.line - 1, FaultMarker);
  };
  auto markAll = [&](const Diagnostic& d) {
    mark(d.span);
    for (const DiagNote& n : d.notes) mark(n.span);
  };
  // where a Stop ended the run is not a fault
  for (const Diagnostic& d : report->engine.errors)
    if (!isStopDiagnostic(*report, d)) markAll(d);
  for (const ir::Fault& f : report->engine.faults)
    if (!isStopDiagnostic(*report, f.diag)) markAll(f.diag);
}

// The registers of the newest compile's products; the session's staleness greys them (their margin
// text moves with inserted and deleted lines, as markers do).
void EditorWidget::applyRegisters() {
  auto products = m_session.products();
  m_registers->show(products ? std::shared_ptr<const toolchain::RegisterFacts>(
                                   products, &products->engine.registers)
                             : nullptr,
                    m_session.productsStale());
}

QString EditorWidget::registerToolTipAt(const QPoint& pos) const {
  if (!m_registers->containsX(pos.x())) return {};
  auto* self = const_cast<EditorWidget*>(this);
  const long p = self->SendScintilla(SCI_POSITIONFROMPOINT, static_cast<unsigned long>(pos.x()),
                                     static_cast<long>(pos.y()));
  const long line =
      self->SendScintilla(SCI_LINEFROMPOSITION, static_cast<unsigned long>(std::max(0L, p)));
  return m_registers->toolTip(static_cast<int>(line) + 1);
}

QList<int> EditorWidget::markedLines(Marker marker) const {
  QList<int> out;
  auto* self = const_cast<EditorWidget*>(this);
  for (int l = self->markerFindNext(0, 1u << marker); l >= 0;
       l = self->markerFindNext(l + 1, 1u << marker))
    out << l + 1;
  return out;
}

bool EditorWidget::event(QEvent* e) {
  // QScintilla claims every plain key as a shortcut override; let Esc through to the window's
  // Stop action unless a completion list or call tip is open (then Esc closes that).
  if (e->type() == QEvent::ShortcutOverride) {
    auto* ke = static_cast<QKeyEvent*>(e);
    if (zoomKeyOf(*ke) != ZoomKey::None) {  // the editor zooms itself (keyPressEvent)
      e->accept();
      return true;
    }
    if (ke->key() == Qt::Key_Escape && ke->modifiers() == Qt::NoModifier && !isListActive() &&
        !isCallTipActive()) {
      e->ignore();
      return false;
    }
  }
  return QsciScintilla::event(e);
}

void EditorWidget::applyZoom(ZoomKey key) {
  switch (key) {
    case ZoomKey::In:
      zoomIn();
      break;
    case ZoomKey::Out:
      zoomOut();
      break;
    case ZoomKey::Reset:
      zoomTo(0);
      break;
    case ZoomKey::None:
      break;
  }
}

QColor EditorWidget::annotationBackground(bool error) const {
  auto* self = const_cast<EditorWidget*>(this);
  long bgr = self->SendScintilla(SCI_STYLEGETBACK, (error ? m_errorStyle : m_warningStyle).style());
  return QColor(bgr & 0xff, (bgr >> 8) & 0xff, (bgr >> 16) & 0xff);
}

bool EditorWidget::indicatorAt(int indicator, int pos) const {
  return const_cast<EditorWidget*>(this)->SendScintilla(SCI_INDICATORVALUEAT, indicator, pos) != 0;
}

std::string EditorWidget::wordAt(int pos, int* start) const {
  auto* self = const_cast<EditorWidget*>(this);
  int s = static_cast<int>(self->SendScintilla(SCI_WORDSTARTPOSITION, pos, true));
  int e = static_cast<int>(self->SendScintilla(SCI_WORDENDPOSITION, pos, true));
  if (start) *start = s;
  if (e <= s) return {};
  QByteArray bytes = text().toUtf8();
  return bytes.mid(s, e - s).toStdString();
}

QString EditorWidget::hoverTextAt(int pos) const {
  auto facts = m_session.facts();
  if (!facts) return {};
  QStringList parts;
  int op = opcodeAt(facts->opcodes, pos);
  if (op >= 0) {
    // the token under the mouse first (core/ptx's describePtxTokens), then the whole instruction
    const OpcodeSite& site = facts->opcodes[size_t(op)];
    const int at = pos - site.span.offset;
    for (const PtxTokenInfo& t : describePtxTokens(site.opcode))
      if (at >= t.column && at < t.column + static_cast<int>(t.text.size()) &&
          !t.description.empty())
        parts << QString::fromStdString(t.text + ": " + t.description);
    parts << QString::fromStdString(site.info);
  }
  // a wgmma shared operand or its a_descriptor=/b_descriptor=: the engine's decoded descriptors
  if (const int d = descriptorFactAt(facts->descriptors, pos); d >= 0)
    parts << QString::fromStdString(describeDescriptorFact(facts->descriptors[size_t(d)]));
  if (op < 0) {
    int line = static_cast<int>(
                   const_cast<EditorWidget*>(this)->SendScintilla(SCI_LINEFROMPOSITION, pos)) +
               1;
    std::string word = wordAt(pos);
    if (!word.empty()) {
      const auto& prog = facts->frontEnd->program;
      int sym = symbolAt(prog, pos, word, line);
      if (sym >= 0 && prog.symbols[sym].name == word) {
        std::string text = describeLayoutSymbol(prog, facts->layouts, sym);
        if (!text.empty()) parts << QString::fromStdString(text);
      }
    }
    // inside a layout literal: the axis under the mouse (core/layout's registry), then the
    // literal's ownership summary (sema's ir::Program::layoutLiterals, tabulated on the worker)
    if (const int lit = layoutLiteralAt(facts->literals, pos); lit >= 0) {
      if (const std::string axis = axisDescription(word); !axis.empty())
        parts << QString::fromStdString(axis);
      parts << QString::fromStdString(describeLayoutLiteral(facts->literals[size_t(lit)]));
    }
  }
  for (const Diagnostic& d : facts->frontEnd->diagnostics)
    if (d.span.valid() && pos >= d.span.offset && pos < d.span.offset + std::max(1, d.span.length))
      parts << QString("%1: %2").arg(QString::fromStdString(d.code),
                                     QString::fromStdString(d.message));
  return parts.join("\n\n");
}

void EditorWidget::onDwell(int position, int x, int y) {
  if (position < 0) return;
  QString text = hoverTextAt(position);
  if (text.isEmpty()) return;
  // a tensor-core opcode shows its fragment picture (tables prepared on the worker)
  auto facts = m_session.facts();
  const int op = facts ? opcodeAt(facts->opcodes, position) : -1;
  if (op >= 0 && !facts->opcodes[size_t(op)].fragments.empty()) {
    if (!m_opcodePopup) m_opcodePopup = new OpcodeHoverPopup(this);
    m_opcodePopup->showPicture(viewport()->mapToGlobal(QPoint(x, y)),
                               renderFragmentTables(facts->opcodes[size_t(op)].fragments), text);
    return;
  }
  QToolTip::showText(viewport()->mapToGlobal(QPoint(x, y)), text, viewport());
}

void EditorWidget::hoverAt(int pos) {
  const int x =
      static_cast<int>(SendScintilla(SCI_POINTXFROMPOSITION, 0UL, static_cast<long>(pos)));
  const int y =
      static_cast<int>(SendScintilla(SCI_POINTYFROMPOSITION, 0UL, static_cast<long>(pos)));
  onDwell(pos, x, y + textHeight(0) / 2);
}

bool EditorWidget::goToDefinitionAt(int pos) {
  auto facts = m_session.facts();
  if (!facts) return false;
  std::string word = wordAt(pos);
  if (word.empty()) return false;
  int line = static_cast<int>(SendScintilla(SCI_LINEFROMPOSITION, pos)) + 1;
  const auto& prog = facts->frontEnd->program;
  int sym = symbolAt(prog, pos, word, line);
  if (sym < 0 || prog.symbols[sym].name != word || !prog.symbols[sym].span.valid()) return false;
  const SourceSpan& def = prog.symbols[sym].span;
  setCursorPosition(def.line - 1, def.col - 1);
  ensureLineVisible(def.line - 1);
  return true;
}

bool EditorWidget::eventFilter(QObject* watched, QEvent* event) {
  if (watched == viewport() && event->type() == QEvent::ToolTip) {
    auto* he = static_cast<QHelpEvent*>(event);
    const QString tip = registerToolTipAt(he->pos());
    if (!tip.isEmpty()) {
      QToolTip::showText(he->globalPos(), tip, viewport());
      return true;
    }
  }
  if (watched == viewport() && event->type() == QEvent::MouseButtonRelease) {
    auto* me = static_cast<QMouseEvent*>(event);
    if (me->modifiers() & Qt::ControlModifier) {
      long pos =
          SendScintilla(SCI_POSITIONFROMPOINTCLOSE, static_cast<unsigned long>(me->position().x()),
                        static_cast<long>(me->position().y()));
      if (pos >= 0 && goToDefinitionAt(static_cast<int>(pos))) return false;
    }
  }
  return QsciScintilla::eventFilter(watched, event);
}

}  // namespace tirx::views
