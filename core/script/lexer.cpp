// The tokenizer (see lexer.h). One pass over the bytes with no regex and no per-token string
// copies: tokens are views into the source. Overview:
//  - at the start of each logical line (bracket depth 0) the indentation is measured and
//    compared with the indentation stack, producing INDENT/DEDENT; blank and comment-only lines
//    are skipped;
//  - inside brackets newlines are joined, except when the next line obviously starts a new
//    statement (`def`, `return`, ...): then the brackets are considered unclosed, a NEWLINE is
//    produced and the parser reports the unclosed bracket, so a missing `)` costs one error;
//  - bad input produces a diagnostic and an Error token covering the bad bytes.
#include "core/script/lexer.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <limits>

namespace tirx::script {
namespace {

struct Keyword {
  std::string_view word;
  Tok kind;
};

// Sorted for binary search.
constexpr std::array<Keyword, 35> kKeywords = {{
    {"False", Tok::KwFalse},
    {"None", Tok::KwNone},
    {"True", Tok::KwTrue},
    {"and", Tok::KwAnd},
    {"as", Tok::KwAs},
    {"assert", Tok::KwAssert},
    {"async", Tok::KwAsync},
    {"await", Tok::KwAwait},
    {"break", Tok::KwBreak},
    {"class", Tok::KwClass},
    {"continue", Tok::KwContinue},
    {"def", Tok::KwDef},
    {"del", Tok::KwDel},
    {"elif", Tok::KwElif},
    {"else", Tok::KwElse},
    {"except", Tok::KwExcept},
    {"finally", Tok::KwFinally},
    {"for", Tok::KwFor},
    {"from", Tok::KwFrom},
    {"global", Tok::KwGlobal},
    {"if", Tok::KwIf},
    {"import", Tok::KwImport},
    {"in", Tok::KwIn},
    {"is", Tok::KwIs},
    {"lambda", Tok::KwLambda},
    {"nonlocal", Tok::KwNonlocal},
    {"not", Tok::KwNot},
    {"or", Tok::KwOr},
    {"pass", Tok::KwPass},
    {"raise", Tok::KwRaise},
    {"return", Tok::KwReturn},
    {"try", Tok::KwTry},
    {"while", Tok::KwWhile},
    {"with", Tok::KwWith},
    {"yield", Tok::KwYield},
}};

Tok keywordKind(std::string_view word) {
  auto it = std::lower_bound(kKeywords.begin(), kKeywords.end(), word,
                             [](const Keyword& k, std::string_view w) { return k.word < w; });
  return (it != kKeywords.end() && it->word == word) ? it->kind : Tok::Name;
}

bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isIdentChar(char c) {
  return isIdentStart(c) || (c >= '0' && c <= '9');
}
bool isDigit(char c) {
  return c >= '0' && c <= '9';
}
bool isHexDigit(char c) {
  return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
int digitValue(char c) {
  if (isDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

// Keywords that never continue an expression: seeing one first on a line inside brackets means
// the brackets were left open by mistake.
bool startsStatementAlways(Tok k) {
  switch (k) {
    case Tok::KwDef:
    case Tok::KwClass:
    case Tok::KwReturn:
    case Tok::KwImport:
    case Tok::KwPass:
    case Tok::KwBreak:
    case Tok::KwContinue:
    case Tok::KwWhile:
    case Tok::KwElif:
    case Tok::KwAssert:
    case Tok::KwDel:
    case Tok::KwGlobal:
    case Tok::KwWith:
    case Tok::KwTry:
    case Tok::KwRaise:
    case Tok::KwNonlocal:
    case Tok::KwExcept:
    case Tok::KwFinally:
    case Tok::KwFrom:
      return true;
    default:
      return false;
  }
}

struct OpenBracket {
  char open;
  SourceSpan span;
  int lineIndent;  // indentation of the logical line the bracket was opened on
};

class Lexer {
 public:
  explicit Lexer(std::string_view src) : m_src(src), m_n(static_cast<int>(src.size())) {
    // Scripts average about three bytes per token; reserving for two avoids regrowing the vector.
    m_out.tokens.reserve(src.size() / 2 + 16);
  }

  /// Field mode (lexFieldExpression): the bytes [begin, end) of `src`, positioned at line:col,
  /// inside a virtual bracket so that newlines join lines.
  Lexer(std::string_view src, int begin, int end, int line, int col)
      : m_src(src), m_n(std::min(end, static_cast<int>(src.size()))) {
    m_pos = begin;
    m_line = line;
    m_lineStart = begin - (col - 1);
    m_atLineStart = false;
    // lineIndent -1: a line starting with `if`/`for` continues the expression (`x\nif c else y`).
    m_brackets.push_back(OpenBracket{'(', SourceSpan{line, col, 0, begin}, -1});
  }

  LexResult run() {
    while (true) {
      if (m_atLineStart && !startLine()) break;
      skipSpaces();
      if (m_pos >= m_n) break;
      lexOne();
    }
    finish();
    return std::move(m_out);
  }

 private:
  char at(int i) const { return i < m_n ? m_src[i] : '\0'; }
  int col(int pos) const { return pos - m_lineStart + 1; }

  SourceSpan spanFrom(int startPos, int startLine, int startCol, int endPos) const {
    return SourceSpan{startLine, startCol, endPos - startPos, startPos};
  }
  SourceSpan spanHere(int startPos, int endPos) const {
    return SourceSpan{m_line, col(startPos), endPos - startPos, startPos};
  }

  Token& push(Tok kind, SourceSpan span) {
    Token t;
    t.kind = kind;
    t.span = span;
    t.text = m_src.substr(static_cast<size_t>(span.offset), static_cast<size_t>(span.length));
    m_out.tokens.push_back(t);
    return m_out.tokens.back();
  }

  // Reports a problem and, by default, leaves an Error token so that the parser skips the
  // statement without reporting it a second time.
  void error(const char* code, SourceSpan span, std::string message, bool errorToken = true) {
    m_out.diagnostics.push_back(makeError(code, span, std::move(message)));
    if (errorToken) push(Tok::Error, span);
  }

  // Consumes one "\n", "\r\n" or "\r" at m_pos.
  void consumeNewline() {
    if (at(m_pos) == '\r' && at(m_pos + 1) == '\n') ++m_pos;
    ++m_pos;
    ++m_line;
    m_lineStart = m_pos;
  }

  void skipSpaces() {
    while (m_pos < m_n) {
      const char c = m_src[m_pos];
      if (c == ' ' || c == '\t' || c == '\f') {
        ++m_pos;
      } else if (c == '\\' && (at(m_pos + 1) == '\n' || at(m_pos + 1) == '\r')) {
        ++m_pos;
        consumeNewline();
      } else {
        break;
      }
    }
  }

  // Measures the indentation at m_pos (a line start) without consuming; returns the column width
  // and sets `end` to the first non-blank byte.
  int measureIndent(int pos, int& end) const {
    int width = 0;
    while (pos < m_n) {
      const char c = m_src[pos];
      if (c == ' ') {
        ++width;
      } else if (c == '\t') {
        width = (width / 8 + 1) * 8;
      } else if (c == '\f') {
        width = 0;
      } else {
        break;
      }
      ++pos;
    }
    end = pos;
    return width;
  }

  // Handles indentation at the start of a logical line; skips blank and comment lines.
  // Returns false at end of input.
  bool startLine() {
    while (true) {
      int end = 0;
      const int width = measureIndent(m_pos, end);
      m_pos = end;
      if (m_pos >= m_n) return false;
      const char c = m_src[m_pos];
      if (c == '#') {
        while (m_pos < m_n && m_src[m_pos] != '\n' && m_src[m_pos] != '\r') ++m_pos;
        if (m_pos >= m_n) return false;
        consumeNewline();
        continue;
      }
      if (c == '\n' || c == '\r') {
        consumeNewline();
        continue;
      }
      m_atLineStart = false;
      m_lineIndent = width;
      const SourceSpan here = spanHere(m_pos, m_pos);
      if (width > m_indents.back()) {
        m_indents.push_back(width);
        push(Tok::Indent, here);
      } else if (width < m_indents.back()) {
        int popped = 0, innermost = 0;
        while (m_indents.size() > 1 && width < m_indents.back()) {
          innermost = m_indents.back();
          m_indents.pop_back();
          ++popped;
        }
        if (width != m_indents.back()) {
          // Between two levels: keep the line in the block it falls short of (a lost space is
          // the likely typo), so the lines after it, at the block's level, stay consistent.
          int lineEnd = m_pos;
          while (lineEnd < m_n && m_src[lineEnd] != '\n' && m_src[lineEnd] != '\r') ++lineEnd;
          error("E0003", spanHere(m_pos, std::max(lineEnd, m_pos)),
                "unindent to column " + std::to_string(width + 1) +
                    " does not match any outer indentation level (expected column " +
                    std::to_string(innermost + 1) + " or " + std::to_string(m_indents.back() + 1) +
                    ")",
                /*errorToken=*/false);
          m_indents.push_back(innermost);
          --popped;
          m_lineIndent = innermost;
        }
        for (int i = 0; i < popped; ++i) push(Tok::Dedent, here);
      }
      return true;
    }
  }

  void finish() {
    const SourceSpan end = spanHere(m_n, m_n);
    if (!m_out.tokens.empty() && m_out.tokens.back().kind != Tok::Newline) push(Tok::Newline, end);
    while (m_indents.size() > 1) {
      m_indents.pop_back();
      push(Tok::Dedent, end);
    }
    push(Tok::EndOfFile, end);
  }

  void lexOne() {
    const char c = m_src[m_pos];
    if (c == '#') {
      while (m_pos < m_n && m_src[m_pos] != '\n' && m_src[m_pos] != '\r') ++m_pos;
      return;
    }
    if (c == '\n' || c == '\r') {
      lexNewline();
      return;
    }
    if (isIdentStart(c)) {
      lexNameOrString();
      return;
    }
    if (isDigit(c) || (c == '.' && isDigit(at(m_pos + 1)))) {
      lexNumber();
      return;
    }
    if (c == '"' || c == '\'') {
      lexString(m_pos, m_pos);
      return;
    }
    if (c == '\\') {
      error("E0007", spanHere(m_pos, m_pos + 1),
            "unexpected character after line continuation character");
      ++m_pos;
      return;
    }
    if (!lexPunct()) lexInvalid();
  }

  void lexNewline() {
    const int nlPos = m_pos;
    const int nlLine = m_line;
    const int nlCol = col(m_pos);
    consumeNewline();
    const SourceSpan nlSpan = spanFrom(nlPos, nlLine, nlCol, m_pos);
    if (m_brackets.empty()) {
      push(Tok::Newline, nlSpan);
      m_atLineStart = true;
      return;
    }
    if (nextLineStartsStatement()) {
      // An unclosed bracket: end the logical line here and let the parser report it.
      m_brackets.clear();
      push(Tok::Newline, nlSpan);
      m_atLineStart = true;
    }
  }

  // Inside brackets: does the next non-blank line begin with a statement keyword?
  bool nextLineStartsStatement() const {
    int pos = m_pos;
    while (pos < m_n) {
      int end = 0;
      const int width = measureIndent(pos, end);
      pos = end;
      if (pos >= m_n) return false;
      const char c = m_src[pos];
      if (c == '#') {
        while (pos < m_n && m_src[pos] != '\n' && m_src[pos] != '\r') ++pos;
      }
      if (pos < m_n && (m_src[pos] == '\n' || m_src[pos] == '\r')) {
        pos += (m_src[pos] == '\r' && at(pos + 1) == '\n') ? 2 : 1;
        continue;
      }
      if (pos >= m_n || !isIdentStart(m_src[pos])) return false;
      int e = pos;
      while (e < m_n && isIdentChar(m_src[e])) ++e;
      const Tok k = keywordKind(m_src.substr(pos, e - pos));
      if (startsStatementAlways(k)) return true;
      if (k == Tok::KwFor || k == Tok::KwIf) return width <= m_brackets.front().lineIndent;
      return false;
    }
    return false;
  }

  void lexNameOrString() {
    const int start = m_pos;
    int e = m_pos;
    while (e < m_n && isIdentChar(m_src[e])) ++e;
    const std::string_view word = m_src.substr(start, e - start);
    const char q = at(e);
    if ((q == '"' || q == '\'') && word.size() <= 2) {
      bool valid = true, raw = false;
      std::string lower;
      for (char ch : word) lower += static_cast<char>(ch | 0x20);
      for (char ch : lower) {
        if (ch == 'r') raw = true;
        if (ch != 'r' && ch != 'b' && ch != 'u' && ch != 'f') valid = false;
      }
      if (lower.size() == 2 && !(lower == "rb" || lower == "br" || lower == "rf" || lower == "fr"))
        valid = false;
      if (valid) {
        (void)raw;
        lexString(start, e);
        return;
      }
    }
    m_pos = e;
    push(keywordKind(word), spanHere(start, e));
  }

  // A string literal with its prefix at [start, quotePos).
  void lexString(int start, int quotePos) {
    bool raw = false, bytes = false;
    for (int i = start; i < quotePos; ++i) {
      const char ch = static_cast<char>(m_src[i] | 0x20);
      raw |= ch == 'r';
      bytes |= ch == 'b';
    }
    const char q = m_src[quotePos];
    const bool triple = at(quotePos + 1) == q && at(quotePos + 2) == q;
    const int startLine = m_line, startCol = col(start);
    m_pos = quotePos + (triple ? 3 : 1);
    int badEscape = -1;
    std::string badMessage;
    while (true) {
      if (m_pos >= m_n || (!triple && (m_src[m_pos] == '\n' || m_src[m_pos] == '\r'))) {
        if (triple) {
          error("E0002", spanFrom(start, startLine, startCol, quotePos + 3),
                std::string("unterminated triple-quoted string: expected closing ") + q + q + q +
                    " before end of file");
        } else {
          error("E0002", spanFrom(start, startLine, startCol, m_pos),
                std::string("unterminated string literal: expected closing ") + q +
                    " before end of line");
        }
        return;
      }
      const char c = m_src[m_pos];
      if (c == '\\') {
        if (!raw && badEscape < 0) checkEscape(m_pos, bytes, badEscape, badMessage);
        ++m_pos;
        if (m_pos < m_n && (m_src[m_pos] == '\n' || m_src[m_pos] == '\r')) {
          consumeNewline();
        } else if (m_pos < m_n) {
          ++m_pos;
        }
        continue;
      }
      if (c == '\n' || c == '\r') {
        consumeNewline();
        continue;
      }
      if (c == q && (!triple || (at(m_pos + 1) == q && at(m_pos + 2) == q))) {
        m_pos += triple ? 3 : 1;
        break;
      }
      ++m_pos;
    }
    const SourceSpan span = spanFrom(start, startLine, startCol, m_pos);
    if (badEscape >= 0) {
      // Report at the escape itself; the Error token covers the whole literal.
      m_out.diagnostics.push_back(
          makeError("E0014",
                    SourceSpan{startLine == m_line ? m_line : lineOf(badEscape), colOf(badEscape),
                               2, badEscape},
                    std::move(badMessage)));
      push(Tok::Error, span);
      return;
    }
    push(Tok::String, span);
  }

  // Line and column of an earlier offset (only used for rare escape errors in multi-line strings).
  int lineOf(int pos) const {
    int line = 1;
    for (int i = 0; i < pos && i < m_n; ++i) {
      if (m_src[i] == '\n' || (m_src[i] == '\r' && at(i + 1) != '\n')) ++line;
    }
    return line;
  }
  int colOf(int pos) const {
    int s = pos;
    while (s > 0 && m_src[s - 1] != '\n' && m_src[s - 1] != '\r') --s;
    return pos - s + 1;
  }

  void checkEscape(int pos, bool bytes, int& badPos, std::string& message) const {
    const char e = at(pos + 1);
    int need = 0;
    if (e == 'x') need = 2;
    if (e == 'u' && !bytes) need = 4;
    if (e == 'U' && !bytes) need = 8;
    if (e == 'N' && !bytes) {
      badPos = pos;
      message = "named unicode escapes (\\N{...}) are not supported";
      return;
    }
    if (need == 0) return;
    uint32_t value = 0;
    for (int i = 0; i < need; ++i) {
      const char h = at(pos + 2 + i);
      if (!isHexDigit(h)) {
        badPos = pos;
        message = std::string("truncated \\") + e + " escape: expected " + std::to_string(need) +
                  " hex digits";
        return;
      }
      value = value * 16 + static_cast<uint32_t>(digitValue(h));
    }
    if (value > 0x10FFFF) {
      badPos = pos;
      message = "escape \\" + std::string(1, e) + " is outside the unicode range";
    }
  }

  void lexNumber() {
    const int start = m_pos;
    int p = m_pos;
    bool isFloat = false;
    const char* problem = nullptr;
    uint64_t value = 0;
    bool overflow = false;
    auto digitsRun = [&](int base) {
      // Digits of `base` with single underscores between them; returns the number of digits.
      // Runs start at a digit, except after a base prefix where `0x_ff` is allowed.
      int count = 0;
      bool lastUnderscore = false;
      while (p < m_n) {
        const char c = m_src[p];
        if (c == '_') {
          if (lastUnderscore && !problem) problem = "consecutive underscores in number literal";
          lastUnderscore = true;
          ++p;
          continue;
        }
        const int d = digitValue(c);
        if (d >= base) {
          if (isDigit(c) && !problem) problem = "invalid digit in number literal";
          break;
        }
        if (value > (std::numeric_limits<uint64_t>::max() - static_cast<uint64_t>(d)) /
                        static_cast<uint64_t>(base)) {
          overflow = true;
        } else {
          value = value * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
        }
        lastUnderscore = false;
        ++count;
        ++p;
      }
      if (lastUnderscore && !problem) problem = "number literal cannot end with an underscore";
      return count;
    };
    const char c1 = static_cast<char>(at(p + 1) | 0x20);
    if (m_src[p] == '0' && (c1 == 'x' || c1 == 'o' || c1 == 'b')) {
      const int base = c1 == 'x' ? 16 : (c1 == 'o' ? 8 : 2);
      p += 2;
      if (digitsRun(base) == 0 && !problem) problem = "number literal has no digits";
      if (p < m_n && isDigit(m_src[p]) && !problem) problem = "invalid digit in number literal";
    } else {
      const bool leadingZero = m_src[p] == '0';
      const int intStart = p;
      digitsRun(10);
      if (leadingZero) {
        for (int i = intStart; i < p; ++i) {
          if (m_src[i] != '0' && m_src[i] != '_') {
            if (at(p) != '.' && (at(p) | 0x20) != 'e')
              problem = "leading zeros in decimal integer literals are not permitted";
            break;
          }
        }
      }
      if (at(p) == '.' && at(p + 1) != '_') {
        isFloat = true;
        ++p;
        if (isDigit(at(p))) digitsRun(10);
      }
      if ((at(p) | 0x20) == 'e') {
        const int save = p;
        ++p;
        if (at(p) == '+' || at(p) == '-') ++p;
        if (isDigit(at(p))) {
          isFloat = true;
          digitsRun(10);
        } else {
          p = save + 1;
          problem = "exponent has no digits";
        }
      }
      if ((at(p) | 0x20) == 'j' && !problem) problem = "complex literals are not supported";
    }
    if (!problem && p < m_n && (isIdentChar(m_src[p]) || m_src[p] == '.'))
      problem = "invalid number literal";
    if (problem) {
      while (p < m_n && (isIdentChar(m_src[p]) || m_src[p] == '.')) ++p;
      m_pos = p;
      error("E0008", spanHere(start, p),
            std::string(problem) + " '" + std::string(m_src.substr(start, p - start)) + "'");
      return;
    }
    m_pos = p;
    const SourceSpan span = spanHere(start, p);
    if (isFloat) {
      std::string digits;
      digits.reserve(static_cast<size_t>(p - start));
      for (int i = start; i < p; ++i)
        if (m_src[i] != '_') digits += m_src[i];
      double d = 0;
      auto r = std::from_chars(digits.data(), digits.data() + digits.size(), d);
      if (r.ec == std::errc::result_out_of_range) {
        // Overflow gives inf (as Python does); underflow gives 0.
        bool big = false;
        const size_t epos = digits.find_first_of("eE");
        big = epos == std::string::npos || digits[epos + 1] != '-';
        d = big ? std::numeric_limits<double>::infinity() : 0.0;
      }
      Token& t = push(Tok::Float, span);
      t.floatValue = d;
      return;
    }
    if (overflow || value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      error("E0008", span,
            "integer literal '" + std::string(span.length > 40 ? "..." : "") +
                std::string(m_src.substr(start, std::min(p - start, 40))) +
                "' does not fit in 64 bits");
      return;
    }
    Token& t = push(Tok::Int, span);
    t.intValue = static_cast<int64_t>(value);
  }

  bool lexPunct() {
    const char c = m_src[m_pos];
    const char c2 = at(m_pos + 1);
    const char c3 = at(m_pos + 2);
    Tok kind = Tok::Error;
    ast::Op aug = ast::Op::None;
    int len = 1;
    auto two = [&](char second, Tok k) {
      if (c2 == second) {
        kind = k;
        len = 2;
        return true;
      }
      return false;
    };
    auto augment = [&](ast::Op op, int baseLen) {
      if (at(m_pos + baseLen) == '=') {
        kind = Tok::AugAssign;
        aug = op;
        len = baseLen + 1;
        return true;
      }
      return false;
    };
    switch (c) {
      case '(':
        kind = Tok::LParen;
        break;
      case ')':
        kind = Tok::RParen;
        break;
      case '[':
        kind = Tok::LBracket;
        break;
      case ']':
        kind = Tok::RBracket;
        break;
      case '{':
        kind = Tok::LBrace;
        break;
      case '}':
        kind = Tok::RBrace;
        break;
      case ',':
        kind = Tok::Comma;
        break;
      case ';':
        kind = Tok::Semicolon;
        break;
      case '~':
        kind = Tok::Tilde;
        break;
      case ':':
        if (!two('=', Tok::ColonEq)) kind = Tok::Colon;
        break;
      case '.':
        if (c2 == '.' && c3 == '.') {
          kind = Tok::Ellipsis;
          len = 3;
        } else {
          kind = Tok::Dot;
        }
        break;
      case '+':
        if (!augment(ast::Op::Add, 1)) kind = Tok::Plus;
        break;
      case '-':
        if (!augment(ast::Op::Sub, 1) && !two('>', Tok::Arrow)) kind = Tok::Minus;
        break;
      case '*':
        if (c2 == '*') {
          if (!augment(ast::Op::Pow, 2)) {
            kind = Tok::DoubleStar;
            len = 2;
          }
        } else if (!augment(ast::Op::Mul, 1)) {
          kind = Tok::Star;
        }
        break;
      case '/':
        if (c2 == '/') {
          if (!augment(ast::Op::FloorDiv, 2)) {
            kind = Tok::DoubleSlash;
            len = 2;
          }
        } else if (!augment(ast::Op::Div, 1)) {
          kind = Tok::Slash;
        }
        break;
      case '%':
        if (!augment(ast::Op::Mod, 1)) kind = Tok::Percent;
        break;
      case '@':
        if (!augment(ast::Op::MatMul, 1)) kind = Tok::At;
        break;
      case '|':
        if (!augment(ast::Op::BitOr, 1)) kind = Tok::Pipe;
        break;
      case '^':
        if (!augment(ast::Op::BitXor, 1)) kind = Tok::Caret;
        break;
      case '&':
        if (!augment(ast::Op::BitAnd, 1)) kind = Tok::Amp;
        break;
      case '<':
        if (c2 == '<') {
          if (!augment(ast::Op::LShift, 2)) {
            kind = Tok::LShift;
            len = 2;
          }
        } else if (!two('=', Tok::LtE)) {
          kind = Tok::Lt;
        }
        break;
      case '>':
        if (c2 == '>') {
          if (!augment(ast::Op::RShift, 2)) {
            kind = Tok::RShift;
            len = 2;
          }
        } else if (!two('=', Tok::GtE)) {
          kind = Tok::Gt;
        }
        break;
      case '=':
        if (!two('=', Tok::EqEq)) kind = Tok::Assign;
        break;
      case '!':
        if (!two('=', Tok::NotEq)) return false;
        break;
      default:
        return false;
    }
    const SourceSpan span = spanHere(m_pos, m_pos + len);
    m_pos += len;
    Token& t = push(kind, span);
    t.op = aug;
    trackBracket(t);
    return true;
  }

  void trackBracket(const Token& t) {
    switch (t.kind) {
      case Tok::LParen:
      case Tok::LBracket:
      case Tok::LBrace:
        m_brackets.push_back(OpenBracket{t.text[0], t.span, m_lineIndent});
        return;
      case Tok::RParen:
      case Tok::RBracket:
      case Tok::RBrace: {
        if (m_brackets.empty()) return;  // the parser reports the stray closer
        const char open = t.kind == Tok::RParen ? '(' : (t.kind == Tok::RBracket ? '[' : '{');
        // Pop down to the matching opener; a closer matching nothing closes the innermost one.
        size_t i = m_brackets.size();
        while (i > 0 && m_brackets[i - 1].open != open) --i;
        if (i == 0) i = m_brackets.size();
        m_brackets.resize(i - 1);
        return;
      }
      default:
        return;
    }
  }

  void lexInvalid() {
    const int start = m_pos;
    std::string shown;
    // One diagnostic for a run of invalid characters.
    while (m_pos < m_n) {
      const unsigned char c = static_cast<unsigned char>(m_src[m_pos]);
      if (c < 0x80) {
        const char ch = static_cast<char>(c);
        const bool valid =
            isIdentChar(ch) || ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '#' ||
            ch == '"' || ch == '\'' || ch == '\\' ||
            std::string_view("()[]{},;:.~+-*/%@|^&<>=").find(ch) != std::string_view::npos ||
            (ch == '!' && at(m_pos + 1) == '=');
        if (valid && m_pos > start) break;
        if (valid) break;
        if (shown.empty()) {
          char buf[16];
          if (c >= 0x20 && c < 0x7f) {
            std::snprintf(buf, sizeof buf, "'%c'", c);
          } else {
            std::snprintf(buf, sizeof buf, "U+%04X", c);
          }
          shown = buf;
        }
        ++m_pos;
        continue;
      }
      // A UTF-8 sequence (or a stray byte): consume it whole.
      int len = c >= 0xF0 ? 4 : (c >= 0xE0 ? 3 : (c >= 0xC0 ? 2 : 1));
      uint32_t cp = len == 1 ? c : (c & (0x7F >> len));
      for (int i = 1; i < len; ++i) {
        const unsigned char cc = static_cast<unsigned char>(at(m_pos + i));
        if ((cc & 0xC0) != 0x80) {
          len = 1;
          cp = c;
          break;
        }
        cp = (cp << 6) | (cc & 0x3F);
      }
      if (shown.empty()) {
        char buf[24];
        if (len == 1) {
          std::snprintf(buf, sizeof buf, "byte 0x%02X", c);
        } else {
          std::snprintf(buf, sizeof buf, "U+%04X", cp);
        }
        shown = buf;
      }
      m_pos += len;
    }
    if (m_pos == start) ++m_pos;  // cannot happen, but never stall
    error("E0007", spanHere(start, m_pos), "invalid character " + shown + " in script");
  }

  std::string_view m_src;
  int m_n;
  int m_pos = 0;
  int m_line = 1;
  int m_lineStart = 0;
  int m_lineIndent = 0;
  bool m_atLineStart = true;
  std::vector<int> m_indents{0};
  std::vector<OpenBracket> m_brackets;
  LexResult m_out;
};

}  // namespace

LexResult lexFieldExpression(std::string_view source, int begin, int end, int line, int col) {
  return Lexer(source, begin, end, line, col).run();
}

LexResult lex(std::string_view source) {
  // Offsets are ints; a script beyond 2 GiB is cut (it would not fit in the editor either).
  if (source.size() > static_cast<size_t>(std::numeric_limits<int>::max() / 2))
    source = source.substr(0, std::numeric_limits<int>::max() / 2);
  return Lexer(source).run();
}

}  // namespace tirx::script
