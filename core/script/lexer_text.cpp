// Token text helpers of the lexer (see lexer.h): decoding string-literal bodies (escapes, raw
// strings, \x and \u escapes to UTF-8) and the spellings used in diagnostics
// ("expected ')', found newline"). Split from lexer.cpp, which holds the scanning pass.
#include <cstdint>
#include <string>

#include "core/script/lexer.h"
#include "core/script/utf8.h"

namespace tirx::script {
namespace {

int digitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

}  // namespace

StringShape stringShape(std::string_view raw) {
  StringShape sh;
  size_t q = 0;
  while (q < raw.size() && raw[q] != '"' && raw[q] != '\'') {
    const char ch = static_cast<char>(raw[q] | 0x20);
    sh.raw |= ch == 'r';
    sh.bytes |= ch == 'b';
    sh.fstring |= ch == 'f';
    ++q;
  }
  if (q >= raw.size()) return sh;
  sh.quote = raw[q];
  sh.triple = raw.size() >= q + 6 && raw[q + 1] == sh.quote && raw[q + 2] == sh.quote;
  const size_t qlen = sh.triple ? 3 : 1;
  if (raw.size() < q + 2 * qlen) return sh;
  sh.bodyOffset = static_cast<int>(q + qlen);
  sh.body = raw.substr(q + qlen, raw.size() - q - 2 * qlen);
  return sh;
}

std::string decodeStringLiteral(std::string_view raw) {
  const StringShape sh = stringShape(raw);
  return decodeStringBody(sh.body, sh.raw, sh.bytes);
}

std::string decodeStringBody(std::string_view body, bool isRaw, bool bytes) {
  std::string out;
  out.reserve(body.size());
  const size_t n = body.size();
  for (size_t i = 0; i < n; ++i) {
    char c = body[i];
    if (c == '\r') {
      // Newlines inside literals are normalised to "\n", as Python does.
      if (i + 1 < n && body[i + 1] == '\n') ++i;
      out += '\n';
      continue;
    }
    if (c != '\\' || i + 1 >= n) {
      out += c;
      continue;
    }
    const char e = body[i + 1];
    if (isRaw) {
      // A raw string keeps the backslash; it only stops the next quote from ending the string.
      out += c;
      continue;
    }
    ++i;
    switch (e) {
      case '\n':
        break;
      case '\r':
        if (i + 1 < n && body[i + 1] == '\n') ++i;
        break;
      case '\\':
        out += '\\';
        break;
      case '\'':
        out += '\'';
        break;
      case '"':
        out += '"';
        break;
      case 'a':
        out += '\a';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'v':
        out += '\v';
        break;
      case 'x':
      case 'u':
      case 'U': {
        const int need = e == 'x' ? 2 : (e == 'u' ? 4 : 8);
        if ((e != 'x' && bytes) || i + static_cast<size_t>(need) >= n) {
          out += '\\';
          out += e;
          break;
        }
        uint32_t v = 0;
        for (int k = 0; k < need; ++k)
          v = v * 16 + static_cast<uint32_t>(digitValue(body[i + 1 + k]));
        i += static_cast<size_t>(need);
        if (e == 'x' && bytes) {
          out += static_cast<char>(v);
        } else {
          appendUtf8(out, v);
        }
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          uint32_t v = 0;
          int k = 0;
          while (k < 3 && i < n && body[i] >= '0' && body[i] <= '7') {
            v = v * 8 + static_cast<uint32_t>(body[i] - '0');
            ++i;
            ++k;
          }
          --i;
          if (bytes) {
            out += static_cast<char>(v & 0xFF);
          } else {
            appendUtf8(out, v);
          }
        } else {
          out += '\\';  // unknown escapes keep their backslash
          out += e;
        }
    }
  }
  return out;
}

namespace {
/// The quoted spelling of a keyword token; nullptr for any other token.
const char* keywordSpelling(Tok kind) {
  switch (kind) {
    case Tok::KwFalse:
      return "'False'";
    case Tok::KwNone:
      return "'None'";
    case Tok::KwTrue:
      return "'True'";
    case Tok::KwAnd:
      return "'and'";
    case Tok::KwAs:
      return "'as'";
    case Tok::KwAssert:
      return "'assert'";
    case Tok::KwAsync:
      return "'async'";
    case Tok::KwAwait:
      return "'await'";
    case Tok::KwBreak:
      return "'break'";
    case Tok::KwClass:
      return "'class'";
    case Tok::KwContinue:
      return "'continue'";
    case Tok::KwDef:
      return "'def'";
    case Tok::KwDel:
      return "'del'";
    case Tok::KwElif:
      return "'elif'";
    case Tok::KwElse:
      return "'else'";
    case Tok::KwExcept:
      return "'except'";
    case Tok::KwFinally:
      return "'finally'";
    case Tok::KwFor:
      return "'for'";
    case Tok::KwFrom:
      return "'from'";
    case Tok::KwGlobal:
      return "'global'";
    case Tok::KwIf:
      return "'if'";
    case Tok::KwImport:
      return "'import'";
    case Tok::KwIn:
      return "'in'";
    case Tok::KwIs:
      return "'is'";
    case Tok::KwLambda:
      return "'lambda'";
    case Tok::KwNonlocal:
      return "'nonlocal'";
    case Tok::KwNot:
      return "'not'";
    case Tok::KwOr:
      return "'or'";
    case Tok::KwPass:
      return "'pass'";
    case Tok::KwRaise:
      return "'raise'";
    case Tok::KwReturn:
      return "'return'";
    case Tok::KwTry:
      return "'try'";
    case Tok::KwWhile:
      return "'while'";
    case Tok::KwWith:
      return "'with'";
    case Tok::KwYield:
      return "'yield'";
    default:
      return nullptr;
  }
}
}  // namespace

const char* tokSpelling(Tok kind) {
  if (const char* k = keywordSpelling(kind)) return k;
  switch (kind) {
    case Tok::EndOfFile:
      return "end of file";
    case Tok::Newline:
      return "newline";
    case Tok::Indent:
      return "indent";
    case Tok::Dedent:
      return "end of block";
    case Tok::Error:
      return "invalid token";
    case Tok::Name:
      return "name";
    case Tok::Int:
      return "integer";
    case Tok::Float:
      return "number";
    case Tok::String:
      return "string literal";
    case Tok::LParen:
      return "'('";
    case Tok::RParen:
      return "')'";
    case Tok::LBracket:
      return "'['";
    case Tok::RBracket:
      return "']'";
    case Tok::LBrace:
      return "'{'";
    case Tok::RBrace:
      return "'}'";
    case Tok::Colon:
      return "':'";
    case Tok::Comma:
      return "','";
    case Tok::Semicolon:
      return "';'";
    case Tok::Dot:
      return "'.'";
    case Tok::Ellipsis:
      return "'...'";
    case Tok::Arrow:
      return "'->'";
    case Tok::Assign:
      return "'='";
    case Tok::ColonEq:
      return "':='";
    case Tok::AugAssign:
      return "augmented assignment";
    case Tok::Plus:
      return "'+'";
    case Tok::Minus:
      return "'-'";
    case Tok::Star:
      return "'*'";
    case Tok::DoubleStar:
      return "'**'";
    case Tok::Slash:
      return "'/'";
    case Tok::DoubleSlash:
      return "'//'";
    case Tok::Percent:
      return "'%'";
    case Tok::At:
      return "'@'";
    case Tok::Pipe:
      return "'|'";
    case Tok::Caret:
      return "'^'";
    case Tok::Amp:
      return "'&'";
    case Tok::LShift:
      return "'<<'";
    case Tok::RShift:
      return "'>>'";
    case Tok::Tilde:
      return "'~'";
    case Tok::Lt:
      return "'<'";
    case Tok::Gt:
      return "'>'";
    case Tok::LtE:
      return "'<='";
    case Tok::GtE:
      return "'>='";
    case Tok::EqEq:
      return "'=='";
    case Tok::NotEq:
      return "'!='";
    default:
      break;
  }
  return "token";
}

std::string describeToken(const Token& token) {
  switch (token.kind) {
    case Tok::Newline:
      return token.span.length == 0 ? "end of file" : "newline";
    case Tok::Name:
      return "'" + std::string(token.text.substr(0, 40)) + "'";
    case Tok::Int:
    case Tok::Float:
      return "number '" + std::string(token.text.substr(0, 40)) + "'";
    case Tok::AugAssign:
      return "'" + std::string(token.text) + "'";
    default:
      return tokSpelling(token.kind);
  }
}

}  // namespace tirx::script
