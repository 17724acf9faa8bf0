// The condition language of conditional breakpoints, a hand-written parser:
//   condition := check '(' ref ')' | ref cmp number
//   check     := 'nan' | 'inf' | 'uninit'
//   ref       := NAME [ '[' int { ',' int } ']' ]      (no index: any element of the tile)
//   cmp       := '<' | '<=' | '>' | '>=' | '==' | '!='
//   number    := [ '-' | '+' ] ( decimal | 'inf' | 'nan' )
// A syntax error is E0840 at its column in the condition text.
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "core/debug/debug_internal.h"

namespace tirx::debug {

namespace {

class CondParser {
 public:
  CondParser(const std::string& s, Diagnostic& d) : m_s(s), m_d(d) {}

  std::optional<Condition> parse() {
    Condition c;
    skip();
    const size_t at = m_p;
    std::string word = ident();
    if (word.empty()) return fail("expected a buffer name or nan(...), inf(...), uninit(...)");
    skip();
    if ((word == "nan" || word == "inf" || word == "uninit") && peek() == '(') {
      ++m_p;
      c.kind = word == "nan"   ? Condition::Kind::Nan
               : word == "inf" ? Condition::Kind::Inf
                               : Condition::Kind::Uninit;
      skip();
      c.buffer = ident();
      if (c.buffer.empty()) return fail("expected a buffer name inside " + word + "(...)");
      if (!index(c)) return std::nullopt;
      skip();
      if (peek() != ')') return fail("expected ')' after the buffer of " + word + "(...)");
      ++m_p;
    } else {
      (void)at;
      c.buffer = word;
      if (!index(c)) return std::nullopt;
      skip();
      static const char* ops[] = {"<=", ">=", "==", "!=", "<", ">"};
      for (const char* op : ops)
        if (m_s.compare(m_p, std::string(op).size(), op) == 0) {
          c.op = op;
          break;
        }
      if (c.op.empty())
        return fail("expected a comparison (<, <=, >, >=, ==, !=) after '" + c.buffer + "'");
      m_p += c.op.size();
      skip();
      if (!number(c.number)) return std::nullopt;
    }
    skip();
    if (m_p < m_s.size())
      return fail("unexpected '" + m_s.substr(m_p, 1) + "' after the condition");
    return c;
  }

 private:
  char peek() const { return m_p < m_s.size() ? m_s[m_p] : '\0'; }
  void skip() {
    while (m_p < m_s.size() && std::isspace(static_cast<unsigned char>(m_s[m_p]))) ++m_p;
  }
  std::string ident() {
    const size_t b = m_p;
    if (m_p < m_s.size() && (std::isalpha(static_cast<unsigned char>(m_s[m_p])) || m_s[m_p] == '_'))
      while (m_p < m_s.size() &&
             (std::isalnum(static_cast<unsigned char>(m_s[m_p])) || m_s[m_p] == '_'))
        ++m_p;
    return m_s.substr(b, m_p - b);
  }
  bool index(Condition& c) {
    skip();
    if (peek() != '[') return true;
    ++m_p;
    for (;;) {
      skip();
      const size_t b = m_p;
      while (m_p < m_s.size() && std::isdigit(static_cast<unsigned char>(m_s[m_p]))) ++m_p;
      if (b == m_p || m_p - b > 15)
        return failB("expected a non-negative index in '" + c.buffer + "[...]'");
      c.index.push_back(std::strtoll(m_s.c_str() + b, nullptr, 10));
      skip();
      if (peek() == ',') {
        ++m_p;
        continue;
      }
      if (peek() == ']') {
        ++m_p;
        return true;
      }
      return failB("expected ',' or ']' in the index of '" + c.buffer + "'");
    }
  }
  bool number(double& v) {
    const size_t b = m_p;
    double sign = 1;
    if (peek() == '-' || peek() == '+') sign = m_s[m_p++] == '-' ? -1 : 1;
    const std::string word = ident();
    if (word == "inf" || word == "nan") {
      v = word == "inf" ? sign * INFINITY : NAN;
      return true;
    }
    if (!word.empty()) {
      m_p = b;
      return failB("expected a number, found '" + word + "'");
    }
    const char* start = m_s.c_str() + m_p;
    char* end = nullptr;
    const double x = std::strtod(start, &end);
    if (end == start || *start == '+' || *start == '-') {
      m_p = b;
      return failB("expected a number after the comparison");
    }
    m_p += size_t(end - start);
    v = sign * x;
    return true;
  }
  std::nullopt_t fail(const std::string& why) {
    m_d = makeError("E0840", SourceSpan{1, int(m_p) + 1, 1, 0}, why);
    return std::nullopt;
  }
  bool failB(const std::string& why) {
    fail(why);
    return false;
  }
  const std::string& m_s;
  Diagnostic& m_d;
  size_t m_p = 0;
};

}  // namespace

std::optional<Condition> parseCondition(const std::string& text, Diagnostic& diag) {
  return CondParser(text, diag).parse();
}

}  // namespace tirx::debug
