// TirxLexer: keyword sets and colour schemes.
#include "views/widgets/tirx_lexer.h"

#include <QColor>
#include <QFont>
#include <QFontDatabase>

#include "views/models/theme.h"

namespace tirx::views {

TirxLexer::TirxLexer(QObject* parent) : QsciLexerPython(parent) {
  setFoldComments(true);
  setIndentationWarning(QsciLexerPython::Inconsistent);
  QFont f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  f.setPointSize(10);
  setDefaultFont(f);
  for (int s = 0; s <= QsciLexerPython::DoubleQuotedFString; ++s) setFont(f, s);
  applyTheme(false);
}

const char* TirxLexer::keywords(int set) const {
  if (set == 2)
    return "T TileLayout S R tile apply ewise ptx cuda LaunchConfig device_entry alloc_local "
           "alloc_shared Tensor function laneid warpid tx wgid tid_in_wg wid_in_wg cta_sync "
           "warp_sync thread_idx block_idx view float32 float16 bfloat16 int32 uint16 uint32";
  return QsciLexerPython::keywords(set);
}

void TirxLexer::applyTheme(bool dark) {
  const ThemeColours& theme = themeColours(dark);  // one table for every dock's colours
  const SyntaxColours& c = theme.syntax;
  struct Scheme {
    QColor paper, text, comment, keyword, string, number, tirx, def, decorator, op;
  };
  const Scheme s{theme.base, c.text,    c.comment, c.keyword,   c.string,
                 c.number,   c.builtin, c.name,    c.decorator, c.op};
  setDefaultPaper(s.paper);
  setDefaultColor(s.text);
  setPaper(s.paper, -1);
  setColor(s.text, -1);
  setColor(s.comment, Comment);
  setColor(s.comment, CommentBlock);
  setColor(s.keyword, Keyword);
  for (int st : {DoubleQuotedString, SingleQuotedString, TripleSingleQuotedString,
                 TripleDoubleQuotedString, DoubleQuotedFString, SingleQuotedFString})
    setColor(s.string, st);
  setColor(s.number, Number);
  setColor(s.tirx, HighlightedIdentifier);
  setColor(s.def, FunctionMethodName);
  setColor(s.def, ClassName);
  setColor(s.decorator, Decorator);
  setColor(s.op, Operator);
  setColor(s.text, Identifier);
}

}  // namespace tirx::views
