// The public entry points of core/script (parser.h) and the token-level helpers of the Parser
// class shared by the statement and expression halves.
#include "core/script/parser.h"

#include <algorithm>

#include "core/script/parser_impl.h"

namespace tirx {
namespace script {

const Token& Parser::advance() {
  const Token& t = m_toks[m_pos];
  if (t.kind != Tok::EndOfFile) {
    m_prevEnd = t.span.offset + t.span.length;
    m_prevSpan = t.span;
    m_prevKind = t.kind;
    ++m_pos;
  }
  return t;
}

bool Parser::accept(Tok k) {
  if (!at(k)) return false;
  advance();
  return true;
}

bool Parser::expect(Tok k, const char* what) {
  if (m_panic) return false;
  if (accept(k)) return true;
  failExpected(what);
  return false;
}

bool Parser::expectClose(const Token& open) {
  if (m_panic) return false;
  const Tok closer = open.kind == Tok::LParen     ? Tok::RParen
                     : open.kind == Tok::LBracket ? Tok::RBracket
                                                  : Tok::RBrace;
  if (accept(closer)) return true;
  fail("E0006", missingTokenSpan(),
       std::string("expected ") + tokSpelling(closer) + " to close " + tokSpelling(open.kind) +
           " at " + std::to_string(open.span.line) + ":" + std::to_string(open.span.col) +
           ", found " + describeCurrent());
  return false;
}

SourceSpan Parser::spanFrom(const SourceSpan& start) const {
  return SourceSpan{start.line, start.col, std::max(0, m_prevEnd - start.offset), start.offset};
}

SourceSpan Parser::missingTokenSpan() const {
  const SourceSpan& c = cur().span;
  const bool realNewline = cur().kind == Tok::Newline && c.length > 0;
  const bool afterLineEnd =
      m_prevKind == Tok::Newline || m_prevKind == Tok::Indent || m_prevKind == Tok::Dedent;
  if (!m_prevSpan.valid() || c.line <= m_prevSpan.line || realNewline || afterLineEnd) return c;
  // Just past the previous token, which may itself span lines (a triple-quoted string).
  const Token& prev = m_toks[m_pos - 1];
  int line = prev.span.line, col = prev.span.col + prev.span.length;
  const std::string_view text = prev.text;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'))) {
      ++line;
      col = static_cast<int>(text.size() - i);
    }
  }
  return SourceSpan{line, col, 0, prev.span.offset + prev.span.length};
}

void Parser::fail(const char* code, SourceSpan span, std::string message) {
  if (!m_panic && cur().kind != Tok::Error)
    m_diags.push_back(makeError(code, span, std::move(message)));
  m_panic = true;
}

void Parser::failExpected(const char* what) {
  fail("E0001", missingTokenSpan(),
       std::string("expected ") + what + ", found " + describeCurrent());
}

std::string Parser::describeCurrent() const {
  // The end of an f-string field's tokens is the field's end, not the file's.
  if (m_inField && (at(Tok::EndOfFile) || (at(Tok::Newline) && cur().span.length == 0)))
    return "the end of the f-string field";
  return describeToken(cur());
}

void Parser::report(const char* code, SourceSpan span, std::string message) {
  m_diags.push_back(makeError(code, span, std::move(message)));
}

ast::ExprPtr Parser::placeholder() {
  auto e = std::make_unique<ast::Expr>();
  e->kind = ast::ExprKind::None;
  e->span = SourceSpan{cur().span.line, cur().span.col, 0, cur().span.offset};
  return e;
}

ast::ExprPtr Parser::parseEvalInput() {
  while (at(Tok::Indent) || at(Tok::Newline)) advance();
  ast::ExprPtr e = parseTestListStarExpr(false);
  if (!m_panic) {
    while (at(Tok::Newline) || at(Tok::Dedent)) advance();
    if (!at(Tok::EndOfFile)) failExpected("end of expression");
  }
  if (m_panic) return nullptr;
  return e;
}

}  // namespace script

ParseResult parseScript(std::string_view source, std::string fileName) {
  ParseResult r;
  r.module.fileName = std::move(fileName);
  r.module.source = std::string(source);
  script::LexResult lexed = script::lex(r.module.source);
  r.diagnostics = std::move(lexed.diagnostics);
  script::Parser parser(r.module.source, lexed.tokens, r.diagnostics);
  r.module.body = parser.parseFile();
  sortAndUnique(r.diagnostics);
  return r;
}

ExprParseResult parseExpression(std::string_view source) {
  ExprParseResult r;
  script::LexResult lexed = script::lex(source);
  r.diagnostics = std::move(lexed.diagnostics);
  script::Parser parser(source, lexed.tokens, r.diagnostics);
  r.expr = parser.parseEvalInput();
  sortAndUnique(r.diagnostics);
  if (hasErrors(r.diagnostics)) r.expr.reset();
  return r;
}

}  // namespace tirx
