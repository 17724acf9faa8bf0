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

class Parser {
 public:
  static constexpr int kMaxExprDepth = 200;
  static constexpr int kMaxBlockDepth = 100;

  Parser(const std::vector<Token>& tokens, Diagnostics& diags) : m_toks(tokens), m_diags(diags) {}

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

  struct DepthGuard {
    explicit DepthGuard(int& d) : depth(d) { ++depth; }
    ~DepthGuard() { --depth; }
    int& depth;
  };

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
};

}  // namespace tirx::script
