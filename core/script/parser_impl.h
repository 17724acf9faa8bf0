// The recursive-descent parser behind parser.h, shared by the statement half (parse_stmt.cpp)
// and the expression half (parse_expr.cpp). Private to core/script.
//
// Error handling: the first error in a statement is reported and sets m_panic; from then on every
// parse function returns at once (with a placeholder expression, never null) and loops stop, so
// the statement unwinds to parseStatement, which discards it and skips to the next NEWLINE (the
// lexer only produces NEWLINE at bracket depth 0, so that is the next statement boundary). An
// error found while the current token is an Error token is not reported again: the lexer already
// did. Recursion is bounded: expressions deeper than kMaxExprDepth and blocks deeper than
// kMaxBlockDepth are reported (E0009) instead of recursing further.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/script/ast.h"
#include "core/script/lexer.h"

namespace tirx::script {

struct FStringSource;

/// Appends literal text to an FString node, merged into the Str part that ends it (if any).
void appendFStringLiteral(ast::Expr& fstring, std::string text, SourceSpan span);

class Parser {
 public:
  static constexpr int kMaxExprDepth = 200;
  static constexpr int kMaxBlockDepth = 100;

  /// `tokens` are lex(source)'s; `source` is kept for the expressions of f-string fields.
  Parser(std::string_view source, const std::vector<Token>& tokens, Diagnostics& diags)
      : m_source(source), m_toks(tokens), m_diags(diags) {}

  /// file_input: (NEWLINE | stmt)* ENDMARKER
  ast::Block parseFile();
  /// eval_input: testlist NEWLINE* ENDMARKER. Null when anything was wrong.
  ast::ExprPtr parseEvalInput();

 private:
  // ---- tokens
  const Token& cur() const { return m_toks[m_pos]; }
  const Token& peekTok(size_t n = 1) const {
    return m_toks[std::min(m_pos + n, m_toks.size() - 1)];
  }
  bool at(Tok k) const { return m_toks[m_pos].kind == k; }
  const Token& advance();
  bool accept(Tok k);
  /// Consumes a `k` or reports "expected WHAT, found X" (E0001) and panics.
  bool expect(Tok k, const char* what);
  /// Consumes the closer of `open` or reports E0006 naming where `open` was.
  bool expectClose(const Token& open);
  SourceSpan spanFrom(const SourceSpan& start) const;
  /// Where to report a missing token: the current token, or just after the previous one when
  /// the current token is on a later line (a missing ')' belongs where the line ended).
  SourceSpan missingTokenSpan() const;

  // ---- diagnostics
  /// Reports (unless already panicking or the current token is an Error token) and panics.
  void fail(const char* code, SourceSpan span, std::string message);
  /// How a message names the current token (describeToken, or the end of an f-string field).
  std::string describeCurrent() const;
  /// fail() at the current token with "expected WHAT, found X".
  void failExpected(const char* what);
  /// Reports without panicking: the statement stays usable.
  void report(const char* code, SourceSpan span, std::string message);
  ast::ExprPtr placeholder();

  // ---- statements (parse_stmt.cpp)
  void parseStatement(ast::Block& out);
  void recoverStatement(bool compound);
  void skipLine();
  void parseSimpleStatements(ast::Block& out);
  ast::StmtPtr parseSmallStatement();
  ast::StmtPtr parseExprStatement();
  ast::StmtPtr parseImport();
  ast::StmtPtr parseImportFrom();
  std::string parseDottedName(SourceSpan& span);
  ast::StmtPtr parseFunctionDef(std::vector<ast::ExprPtr> decorators);
  ast::StmtPtr parseIf();
  ast::StmtPtr parseFor();
  ast::StmtPtr parseWhile();
  void parseSuite(ast::Block& body, const Token& headerStart);
  void parseIndentedStatements(ast::Block& out);
  void dropBlock();
  bool checkTarget(const ast::Expr& e, bool allowTuple);
  std::vector<ast::Param> parseParams(Tok closer, bool annotations);

  // ---- expressions (parse_expr.cpp)
  ast::ExprPtr parseTestListStarExpr(bool allowStar);
  ast::ExprPtr parseExprList();
  ast::ExprPtr parseTest();
  ast::ExprPtr parseLambda();
  ast::ExprPtr parseOrTest();
  ast::ExprPtr parseAndTest();
  ast::ExprPtr parseNotTest();
  ast::ExprPtr parseComparison();
  ast::ExprPtr parseBinary(int minPrec);
  ast::ExprPtr parseFactor();
  ast::ExprPtr parsePower();
  ast::ExprPtr parseAtomExpr();
  ast::ExprPtr parseAtom();
  ast::ExprPtr parseParenthesized();
  ast::ExprPtr parseListDisplay();
  ast::ExprPtr parseBraceDisplay();
  ast::ExprPtr parseStrings();
  ast::ExprPtr parseStarExpr();
  void parseCallArguments(ast::Expr& call, const Token& open);
  ast::ExprPtr parseSubscriptList();
  ast::ExprPtr parseSubscript();
  void rejectComprehension();
  bool enterExpr();

  // ---- f-strings (parse_fstring.cpp)
  /// Appends the parts of the f-string token `t` to `fstring` (an FString node); false after an
  /// error (reported, E0015 or the field expression's own, and m_panic set).
  bool parseFStringToken(const Token& t, ast::Expr& fstring);
  /// Literal text and replacement fields up to the end of the body or, in a format spec (level
  /// 1 and deeper), up to the '}' that ends the spec.
  bool parseFStringParts(FStringSource& src, int level, ast::Expr& out);
  /// `{expr [=] [!conv] [:spec]}` at src.pos (a '{'); appends the debug text and the field.
  bool parseReplacementField(FStringSource& src, int level, ast::Expr& out);
  /// The expression of a field, bytes [begin, end) of the source, parsed by a parser of its own.
  ast::ExprPtr parseFieldExpression(const FStringSource& src, int begin, int end);
  /// field_input: testlist_star_expr NEWLINE* ENDMARKER (the inside of one field).
  ast::ExprPtr parseFieldInput();
  /// Reports E0015 at body offset `pos` of `src` (length `len`) and panics.
  bool failFString(const FStringSource& src, int pos, int len, std::string message);

  struct DepthGuard {
    explicit DepthGuard(int& d) : depth(d) { ++depth; }
    ~DepthGuard() { --depth; }
    int& depth;
  };

  std::string_view m_source;
  const std::vector<Token>& m_toks;
  Diagnostics& m_diags;
  size_t m_pos = 0;
  int m_prevEnd = 0;      // byte offset just past the last consumed token
  SourceSpan m_prevSpan;  // the last consumed token
  Tok m_prevKind = Tok::EndOfFile;
  bool m_panic = false;
  int m_exprDepth = 0;
  int m_blockDepth = 0;
  int m_loopDepth = 0;
  int m_funcDepth = 0;
  bool m_inField = false;  // parsing the expression of an f-string field
};

}  // namespace tirx::script
