// f-strings: the parser splits the body of an f-string token into literal text and replacement
// fields, following CPython 3.11's f-string parser (Python/ast.c before PEP 701), so that a
// script is accepted or refused exactly where Python 3.11 accepts or refuses it:
//   - literal text runs to the next brace; at the top level `{{` and `}}` are a literal brace and
//     a single `}` is an error; escapes are decoded per chunk (so `\x7b` is a literal `{`);
//   - a field's expression runs to the first `!`, `:`, `=` or `}` outside brackets and nested
//     strings (`!=`, `==`, `<=`, `>=` do not end it); it may not contain a backslash or `#`;
//   - then an optional `=` (the debug form: the expression's text, then the value as repr unless
//     a conversion or spec follows), `!s`/`!r`/`!a`, and `:spec`, where the spec is literal text
//     with fields of its own, one level deep.
// The expression is lexed from the source bytes in place (lexFieldExpression), so its nodes carry
// their true line and column, and parsed by a parser of its own. Structural errors are E0015 at
// the offending byte; errors inside the expression keep their own codes (E0001, E0006, ...).
#include <algorithm>
#include <climits>
#include <optional>

#include "core/script/parser_impl.h"

namespace tirx::script {

using ast::Expr;
using ast::ExprKind;
using ast::ExprPtr;

/// One f-string token being split: its body and where each of its bytes lies in the source.
struct FStringSource {
  const Token* token = nullptr;
  std::string_view body;  ///< between the quotes
  int bodyStart = 0;      ///< source offset of body[0]
  bool raw = false;
  int pos = 0;  ///< the scan position, an index into body
  /// Source offsets where a line starts inside the token, with their line numbers.
  std::vector<std::pair<int, int>> lineStarts;

  explicit FStringSource(const Token& t) : token(&t) {
    const StringShape sh = stringShape(t.text);
    body = sh.body;
    raw = sh.raw;
    bodyStart = t.span.offset + sh.bodyOffset;
    lineStarts.emplace_back(t.span.offset - (t.span.col - 1), t.span.line);
    const std::string_view text = t.text;
    int line = t.span.line;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
      if (text[i] == '\n' || text[i] == '\r')
        lineStarts.emplace_back(t.span.offset + static_cast<int>(i) + 1, ++line);
    }
  }

  int size() const { return static_cast<int>(body.size()); }
  char at(int i) const { return i < size() ? body[static_cast<size_t>(i)] : '\0'; }

  /// The span of body bytes [i, i + len).
  SourceSpan span(int i, int len) const {
    const int offset = bodyStart + i;
    auto it =
        std::upper_bound(lineStarts.begin(), lineStarts.end(), std::make_pair(offset, INT_MAX));
    --it;  // the first entry is at or before the token
    return SourceSpan{it->second, offset - it->first + 1, std::max(0, len), offset};
  }
};

namespace {

ExprPtr makeNode(ExprKind kind, SourceSpan span) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->span = span;
  return e;
}

/// A span covering `a` through the end of `b`.
SourceSpan joinSpans(const SourceSpan& a, const SourceSpan& b) {
  return SourceSpan{a.line, a.col, std::max(a.length, b.offset + b.length - a.offset), a.offset};
}

}  // namespace

void appendFStringLiteral(Expr& out, std::string text, SourceSpan span) {
  if (text.empty()) return;
  if (!out.args.empty() && out.args.back()->kind == ExprKind::Str) {
    Expr& last = *out.args.back();
    last.text += text;
    last.span = joinSpans(last.span, span);
    return;
  }
  ExprPtr s = makeNode(ExprKind::Str, span);
  s->text = std::move(text);
  out.args.push_back(std::move(s));
}

namespace {

/// How a message names the byte at body[i] ("end of string" past the end).
std::string foundAt(const FStringSource& src, int i) {
  if (i >= src.size()) return "end of string";
  const unsigned char c = static_cast<unsigned char>(src.at(i));
  if (c == '\n' || c == '\r') return "newline";
  if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
  return "a non-ASCII character";
}

bool isPySpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/// A structural error of an f-string: where (a body index) and what.
struct FStringError {
  int pos;
  std::string message;
};

/// Moves src.pos from the start of a field's expression to its end: the first '!', ':', '=' or
/// '}' outside brackets and nested strings (`!=`, `==`, `<=`, `>=` are operators), as CPython's
/// fstring_find_expr; the end of the body when there is none. An error for a backslash or '#'
/// anywhere, unmatched or mismatched brackets, and an unterminated nested string.
std::optional<FStringError> scanFieldExpression(FStringSource& src) {
  std::vector<int> brackets;  // positions of the open brackets
  char quote = 0;
  bool tripleQuote = false;
  int quoteStart = 0;
  for (; src.pos < src.size(); ++src.pos) {
    const char ch = src.at(src.pos);
    if (ch == '\\')
      return FStringError{src.pos, "f-string expression part cannot include a backslash"};
    if (quote) {
      if (ch == quote && !tripleQuote) {
        quote = 0;
      } else if (ch == quote && src.at(src.pos + 1) == ch && src.at(src.pos + 2) == ch) {
        src.pos += 2;
        quote = 0;
      }
      continue;
    }
    if (ch == '\'' || ch == '"') {
      quoteStart = src.pos;
      quote = ch;
      tripleQuote = src.at(src.pos + 1) == ch && src.at(src.pos + 2) == ch;
      if (tripleQuote) src.pos += 2;
    } else if (ch == '(' || ch == '[' || ch == '{') {
      if (brackets.size() >= static_cast<size_t>(Parser::kMaxExprDepth))
        return FStringError{src.pos, "f-string: too many nested parentheses (more than " +
                                         std::to_string(Parser::kMaxExprDepth) + ")"};
      brackets.push_back(src.pos);
    } else if (ch == '#') {
      return FStringError{src.pos, "f-string expression part cannot include '#'"};
    } else if (brackets.empty() &&
               (ch == '!' || ch == ':' || ch == '}' || ch == '=' || ch == '<' || ch == '>')) {
      if (src.at(src.pos + 1) == '=' && ch != ':' && ch != '}') {
        ++src.pos;
        continue;
      }
      if (ch == '<' || ch == '>') continue;
      return std::nullopt;
    } else if (ch == ')' || ch == ']' || ch == '}') {
      if (brackets.empty())
        return FStringError{src.pos, std::string("f-string: unmatched '") + ch + "'"};
      const char opener = src.at(brackets.back());
      if ((opener == '(' && ch != ')') || (opener == '[' && ch != ']') ||
          (opener == '{' && ch != '}')) {
        const SourceSpan o = src.span(brackets.back(), 1);
        return FStringError{src.pos, std::string("f-string: closing parenthesis '") + ch +
                                         "' does not match opening parenthesis '" + opener +
                                         "' at " + std::to_string(o.line) + ":" +
                                         std::to_string(o.col)};
      }
      brackets.pop_back();
    }
  }
  if (quote) return FStringError{quoteStart, "f-string: unterminated string in the expression"};
  if (!brackets.empty())
    return FStringError{brackets.back(),
                        std::string("f-string: unmatched '") + src.at(brackets.back()) + "'"};
  return std::nullopt;
}

}  // namespace

bool Parser::failFString(const FStringSource& src, int pos, int len, std::string message) {
  fail("E0015", src.span(pos, len), std::move(message));
  return false;
}

bool Parser::parseFStringToken(const Token& t, Expr& fstring) {
  FStringSource src(t);
  if (!parseFStringParts(src, 0, fstring)) return false;
  // At the top level only the end of the body stops the scan (a '}' there is an error).
  return !m_panic;
}

bool Parser::parseFStringParts(FStringSource& src, int level, Expr& out) {
  while (src.pos < src.size()) {
    // Literal text up to a brace.
    int start = src.pos;
    bool doubled = false;
    while (src.pos < src.size()) {
      char ch = src.at(src.pos);
      if (!src.raw && ch == '\\' && src.pos + 1 < src.size()) {
        // The escaped byte is still looked at: `\{` is a backslash, then a field (as CPython).
        ++src.pos;
        ch = src.at(src.pos);
      }
      if (ch == '{' || ch == '}') {
        // Doubled braces are a literal brace only at the top level: in a spec, `{x:{w}}}`
        // ends a nested field and then the spec.
        if (level == 0 && src.at(src.pos + 1) == ch) {
          doubled = true;
          break;
        }
        if (level == 0 && ch == '}')
          return failFString(src, src.pos, 1,
                             "f-string: single '}' is not allowed (write '}}' for a literal '}')");
        break;
      }
      ++src.pos;
    }
    const int end = doubled ? src.pos + 1 : src.pos;  // a doubled brace keeps one brace
    appendFStringLiteral(
        out, decodeStringBody(src.body.substr(size_t(start), size_t(end - start)), src.raw, false),
        src.span(start, end - start));
    if (doubled) {
      src.pos += 2;
      continue;
    }
    if (src.pos >= src.size() || src.at(src.pos) == '}') return true;  // the caller ends the spec
    if (!parseReplacementField(src, level, out)) return false;
  }
  return true;
}

bool Parser::parseReplacementField(FStringSource& src, int level, Expr& out) {
  const int open = src.pos;
  const SourceSpan openSpan = src.span(open, 1);
  const std::string openAt = std::to_string(openSpan.line) + ":" + std::to_string(openSpan.col);
  if (level >= 2)
    return failFString(
        src, open, 1,
        "f-string: expressions nested too deeply (a format spec may hold replacement "
        "fields, but theirs may not)");
  const int exprStart = ++src.pos;
  if (std::optional<FStringError> e = scanFieldExpression(src))
    return failFString(src, e->pos, 1, std::move(e->message));
  const int exprEnd = src.pos;
  auto expectingBrace = [&](int at) {
    return failFString(src, at, at < src.size() ? 1 : 0,
                       "f-string: expected '}' to close the replacement field at " + openAt +
                           ", found " + foundAt(src, at));
  };
  if (src.pos >= src.size()) return expectingBrace(src.pos);
  bool blank = true;
  for (int i = exprStart; i < exprEnd; ++i) blank = blank && isPySpace(src.at(i));
  if (blank)
    return failFString(src, open, src.pos - open + (src.at(src.pos) == '}' ? 1 : 0),
                       "f-string: empty expression not allowed");
  ExprPtr value = parseFieldExpression(src, src.bodyStart + exprStart, src.bodyStart + exprEnd);
  if (m_panic) return false;

  // `=`: the expression's text (up to the `=` and the blanks after it) becomes literal text.
  bool debug = false;
  if (src.at(src.pos) == '=') {
    debug = true;
    ++src.pos;
    while (src.pos < src.size() && isPySpace(src.at(src.pos))) ++src.pos;
    if (src.pos >= src.size()) return expectingBrace(src.pos);
    std::string text;
    for (int i = exprStart; i < src.pos; ++i) {
      const char c = src.at(i);
      if (c == '\r') {  // newlines are "\n" in Python's source text
        if (src.at(i + 1) == '\n') ++i;
        text += '\n';
      } else {
        text += c;
      }
    }
    appendFStringLiteral(out, std::move(text), src.span(exprStart, src.pos - exprStart));
  }
  std::string conversion;
  if (src.at(src.pos) == '!') {
    ++src.pos;
    if (src.pos >= src.size()) return expectingBrace(src.pos);
    const char c = src.at(src.pos);
    if (c != 's' && c != 'r' && c != 'a')
      return failFString(src, src.pos, 1,
                         "f-string: invalid conversion character " + foundAt(src, src.pos) +
                             ": expected 's', 'r', or 'a'");
    conversion = std::string(1, c);
    ++src.pos;
  }
  ExprPtr spec;
  if (src.at(src.pos) == ':') {
    const int specStart = ++src.pos;
    if (src.pos >= src.size()) return expectingBrace(src.pos);
    spec = makeNode(ExprKind::FString, src.span(specStart, 0));
    if (!parseFStringParts(src, level + 1, *spec)) return false;
    spec->span = src.span(specStart, src.pos - specStart);
  }
  if (src.pos >= src.size() || src.at(src.pos) != '}') return expectingBrace(src.pos);
  ++src.pos;
  if (debug && !spec && conversion.empty()) conversion = "r";
  ExprPtr field = makeNode(ExprKind::FormattedValue, src.span(open, src.pos - open));
  field->text = std::move(conversion);
  field->args.push_back(std::move(value));
  if (spec) field->args.push_back(std::move(spec));
  out.args.push_back(std::move(field));
  return true;
}

ExprPtr Parser::parseFieldExpression(const FStringSource& src, int begin, int end) {
  const SourceSpan at = src.span(begin - src.bodyStart, end - begin);
  LexResult lexed = lexFieldExpression(m_source, begin, end, at.line, at.col);
  if (!lexed.diagnostics.empty()) {
    // The lexer's own errors (a bad number, an invalid character): reported as they are.
    if (!m_panic)
      for (Diagnostic& d : lexed.diagnostics) m_diags.push_back(std::move(d));
    m_panic = true;
    return placeholder();
  }
  Parser sub(m_source, lexed.tokens, m_diags);
  sub.m_exprDepth = m_exprDepth + 1;  // nested f-strings count against the same limit
  sub.m_inField = true;
  ExprPtr e = sub.parseFieldInput();
  if (sub.m_panic) {
    m_panic = true;
    return placeholder();
  }
  return e;
}

ExprPtr Parser::parseFieldInput() {
  if (!enterExpr()) return placeholder();
  DepthGuard guard(m_exprDepth);
  ExprPtr e = parseTestListStarExpr(true);
  if (m_panic) return placeholder();
  while (at(Tok::Newline)) advance();
  if (!at(Tok::EndOfFile)) {
    failExpected("'}', '!' or ':' after the expression of the f-string field");
    return placeholder();
  }
  if (e->kind == ExprKind::Starred) {
    fail("E0015", e->span, "f-string: cannot use a starred expression here");
    return placeholder();
  }
  return e;
}

}  // namespace tirx::script
