// The script editor (QScintilla): TIRx-aware Python highlighting, completion from the core's own
// tables, and the engine's facts drawn as they arrive: squiggle indicators, margin markers and
// annotations for diagnostics, opcode-string indicators, hovers on layouts and opcodes,
// go-to-definition (F12 / Ctrl+click) from program.symbols, and the register gutter (registers
// live per line from the last compile, register_gutter.h). It never parses anything itself: the
// session's front-end job does, on the worker thread.
#pragma once

#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyle.h>

#include <memory>

#include "views/engine/completion_source.h"
#include "views/models/editor_zoom.h"

class QLabel;

namespace tirx::views {

class OpcodeHoverPopup;
class RegisterGutter;
class Session;
class TirxLexer;

class EditorWidget : public QsciScintilla {
  Q_OBJECT
 public:
  /// Indicator numbers (≥ 8: 0–7 belong to the lexer).
  enum Indicator {
    ErrorIndicator = 8,
    WarningIndicator = 9,
    OpcodeIndicator = 10,
    BadOpcodeIndicator = 11
  };
  enum Marker {
    ErrorMarker = 0,
    WarningMarker = 1,
    SelectedLineMarker = 2,
    FaultMarker = 3,
    BreakpointMarker = 4,  ///< a debugger breakpoint (margin 2; a click there toggles it)
    DebugLineMarker = 5,   ///< the debugger's current stop: the line's background
    DebugArrowMarker = 6,  ///< ... and an arrow in margin 2
    SpillMarker = 7,       ///< spill instructions on the line (register gutter; margin 1)
  };
  /// The margin of breakpoints and the debugger's arrow.
  static constexpr int kDebugMargin = 2;
  /// Margins: 0 line numbers, 1 markers, 2 debugger, 3 folding (setFolding), 4 the register
  /// gutter (register_gutter.h).
  enum Margin { RegisterMargin = 4 };

  explicit EditorWidget(Session& session, QWidget* parent = nullptr);
  ~EditorWidget() override;

  /// True when indicator `indicator` covers byte position `pos`.
  bool indicatorAt(int indicator, int pos) const;
  /// The text a hover at byte position `pos` shows (layout summary, opcode description,
  /// diagnostic message), empty when nothing is there.
  QString hoverTextAt(int pos) const;
  /// Jump to the definition of the symbol at byte position `pos`; false when there is none.
  bool goToDefinitionAt(int pos);
  void applyTheme(bool dark);
  /// Zoom in, out or back to 100 % (Ctrl+= / Ctrl++, Ctrl+-, Ctrl+0: editor_zoom.h); zoom()
  /// gives the step.
  void applyZoom(ZoomKey key);
  /// The annotation styles in use (for tests): background of the error / warning box.
  QColor annotationBackground(bool error) const;
  /// Byte position of (1-based line, 1-based column).
  int positionOf(int line, int col) const;
  /// 1-based lines that carry marker `marker` (ascending).
  QList<int> markedLines(Marker marker) const;
  /// Hover at byte position `pos` as a mouse dwell there does (tests, screenshots).
  void hoverAt(int pos);
  /// Go to Definition (F12 while the editor has the focus); the Edit menu shows this same action.
  QAction* goToDefinitionAction() const { return m_goToDefinition; }
  /// Show the completion list for the caret's context (Ctrl+Space: `explicitRequest`, a bare
  /// word of any length); nothing inside comments or strings other than T.ptx["…"]. False when
  /// there is nothing to offer.
  bool showCompletions(bool explicitRequest);
  /// The items of the open completion list (empty when none is open).
  QStringList completionItems() const;
  /// The signature and description shown beside the list for its highlighted item.
  QString completionDocText() const;
  /// The call tip shown by the last '(' (signature and description), empty when none.
  QString callTipText() const { return m_callTip; }
  /// The fragment-picture popup of tensor-core opcodes (null until the first such hover).
  OpcodeHoverPopup* opcodePopup() const { return m_opcodePopup; }
  /// The register gutter: the last compile's registers per line (greyed once the text changes).
  const RegisterGutter& registerGutter() const { return *m_registers; }
  /// The tooltip a hover at viewport point `pos` shows in the register gutter (empty elsewhere).
  QString registerToolTipAt(const QPoint& pos) const;

 private:
  void setupMargins();
  void setupIndicators();
  void setupCompletion();
  void applyFacts();
  void applyFaults();
  /// Breakpoint markers from the session; the debugger's current line.
  void applyBreakpoints();
  void applyDebugLine(int line);
  void applyRegisters();
  bool event(QEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;
  void onCharAdded(int ch);
  void updateCompletionDoc();
  /// The lexer's style of the byte before `pos` (styles the text up to it first).
  int lexerStyleBefore(int pos);
  static bool isStringStyle(int style);
  static bool isCommentStyle(int style);
  void onDwell(int position, int x, int y);
  bool eventFilter(QObject* watched, QEvent* event) override;
  std::string wordAt(int pos, int* start = nullptr) const;

  Session& m_session;
  TirxLexer* m_lexer = nullptr;
  bool m_loading = false;
  /// Tinted annotation styles (numbers allocated by QsciStyle above the lexer's); applied to the
  /// editor by every annotate() call, so a lexer or theme change cannot leave them unset.
  QsciStyle m_errorStyle, m_warningStyle;
  OpcodeHoverPopup* m_opcodePopup = nullptr;
  QAction* m_goToDefinition = nullptr;
  CompletionList m_completion;
  QLabel* m_completionDoc = nullptr;
  QString m_callTip;
  std::unique_ptr<RegisterGutter> m_registers;
};

}  // namespace tirx::views
