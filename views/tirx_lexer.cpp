// TirxLexer: keyword sets and colour schemes.
#include "views/tirx_lexer.h"

#include <QColor>
#include <QFont>
#include <QFontDatabase>

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
  struct Scheme {
    QColor paper, text, comment, keyword, string, number, tirx, def, decorator, op;
  };
  const Scheme light{QColor("#ffffff"), QColor("#1f1f1f"), QColor("#6a737d"), QColor("#0033b3"),
                     QColor("#067d17"), QColor("#1750eb"), QColor("#8a2be2"), QColor("#00627a"),
                     QColor("#9e880d"), QColor("#333333")};
  const Scheme darkS{QColor("#1e1f22"), QColor("#d4d4d4"), QColor("#7a8a7a"), QColor("#cf8e6d"),
                     QColor("#6aab73"), QColor("#2aacb8"), QColor("#c77dff"), QColor("#56a8f5"),
                     QColor("#b3ae60"), QColor("#bcbec4")};
  const Scheme& s = dark ? darkS : light;
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
