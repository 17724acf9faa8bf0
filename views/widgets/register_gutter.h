// The editor's register gutter: a right-justified text margin with each script line's live
// registers ("135", or "~136" for an IR estimate) coloured against the line's budget (setmaxnreg
// in force, ptxas' allocation, or 255), a marker on lines with spill instructions, and the
// tooltip with the details (instructions, peak instruction, the live count at each wgmma, where
// the figure comes from). It draws the facts core/driver published in the compile products
// (core/toolchain/register_facts.h) and derives nothing itself; a stale compile (the text changed
// since) keeps its figures, greyed, until the next compile replaces them.
#pragma once

#include <Qsci/qscistyle.h>

#include <QString>
#include <memory>

#include "core/toolchain/register_facts.h"

class QsciScintilla;

namespace tirx::views {

/// How a line's figure compares with its budget.
enum class RegisterLevel {
  None,  ///< no figure on the line
  Low,   ///< ≤ 80 % of the budget
  High,  ///< over 80 %, up to the budget
  Over,  ///< measured over the budget, or spill instructions on the line
  /// An estimate over the budget: only estimated to exceed it, so drawn apart from a measured
  /// overflow (amber-orange italics, the tooltip says "estimated"), never in the overflow's red.
  EstimatedOver,
  Stale,  ///< the text changed since the compile that measured it
};

/// "135", or "~136" for an estimate.
QString registerFigure(const toolchain::LineRegisters& line, toolchain::RegisterSource source);
/// The level of a line's figure against its budget (stale not considered); `source` tells a
/// measurement from an estimate (an estimate is never Over).
RegisterLevel registerLevelOf(const toolchain::LineRegisters& line,
                              toolchain::RegisterSource source);
/// The tooltip of a line: figure, budget, instructions, peak, wgmma live counts, spills, source.
QString registerToolTip(const toolchain::RegisterFacts& facts, const toolchain::LineRegisters& line,
                        bool stale);

class RegisterGutter {
 public:
  /// Draws into margin `margin` of `editor` and puts marker `spillMarker` on spill lines.
  RegisterGutter(QsciScintilla& editor, int margin, int spillMarker);

  /// Show `facts` (null or source None: clear the gutter and hide the margin). Stale facts stay,
  /// greyed, while the document keeps the line count it had when they were shown (an edit within
  /// lines); once lines are inserted or deleted the gutter is cleared until the next compile.
  void show(std::shared_ptr<const toolchain::RegisterFacts> facts, bool stale);
  /// The document's line count changed (QsciScintilla::linesChanged).
  void linesChanged() { redraw(); }
  void applyTheme(bool dark);

  /// The margin text of 1-based `line` as drawn (read back from the editor).
  QString text(int line) const;
  RegisterLevel level(int line) const;
  /// The tooltip of 1-based `line` (empty when it has no figure).
  QString toolTip(int line) const;
  /// True when viewport x coordinate `x` lies in the gutter's margin.
  bool containsX(int x) const;
  bool stale() const { return m_stale; }

 private:
  void redraw();
  const QsciStyle& styleOf(RegisterLevel level) const;

  QsciScintilla& m_editor;
  int m_margin, m_spillMarker;
  std::shared_ptr<const toolchain::RegisterFacts> m_facts;
  bool m_stale = false;
  int m_compiledLines = 0;  ///< the document's lines when the facts were fresh
  /// Fixed style numbers 120..123 and 126 (each editor has its own style table; 124/125 are the
  /// editor's annotations): QsciStyle's automatic numbers
  /// are a process-wide pool of about twenty that a few editors exhaust (then every style is -1).
  static constexpr int kFirstStyle = 120;
  QsciStyle m_low, m_high, m_over, m_estimatedOver, m_stalest;
};

}  // namespace tirx::views
