// The tokenizer of the script language: bytes in, a flat token vector out. It follows Python's
// tokenizer: NEWLINE ends a logical line, INDENT/DEDENT track indentation (tabs advance to the
// next multiple of 8), newlines inside brackets and after a backslash are joined, comments and
// blank lines produce nothing. Problems it finds (bad characters, unterminated strings, invalid
// numbers, inconsistent dedents) become diagnostics plus an Error token, so the parser can
// recover without reporting the same problem twice. Private to core/script except for tests.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/script/ast.h"

namespace tirx::script {

/// Token kinds. Keywords have their own kinds; augmented assignments share one (`op` says which).
enum class Tok : uint8_t {
  EndOfFile,
  Newline,
  Indent,
  Dedent,
  Error,
  Name,
  Int,
  Float,
  String,
  // keywords
  KwFalse,
  KwNone,
  KwTrue,
  KwAnd,
  KwAs,
  KwAssert,
  KwAsync,
  KwAwait,
  KwBreak,
  KwClass,
  KwContinue,
  KwDef,
  KwDel,
  KwElif,
  KwElse,
  KwExcept,
  KwFinally,
  KwFor,
  KwFrom,
  KwGlobal,
  KwIf,
  KwImport,
  KwIn,
  KwIs,
  KwLambda,
  KwNonlocal,
  KwNot,
  KwOr,
  KwPass,
  KwRaise,
  KwReturn,
  KwTry,
  KwWhile,
  KwWith,
  KwYield,
  // punctuation
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Colon,
  Comma,
  Semicolon,
  Dot,
  Ellipsis,
  Arrow,
  Assign,
  ColonEq,
  AugAssign,
  Plus,
  Minus,
  Star,
  DoubleStar,
  Slash,
  DoubleSlash,
  Percent,
  At,
  Pipe,
  Caret,
  Amp,
  LShift,
  RShift,
  Tilde,
  Lt,
  Gt,
  LtE,
  GtE,
  EqEq,
  NotEq,
};

struct Token {
  Tok kind = Tok::EndOfFile;
  ast::Op op = ast::Op::None;  ///< AugAssign: the operator (`+=` gives Add)
  SourceSpan span;
  std::string_view text;  ///< the source bytes of the token (a view into the lexed source)
  int64_t intValue = 0;   ///< Int
  double floatValue = 0;  ///< Float
};

struct LexResult {
  std::vector<Token>
      tokens;  ///< always ends with Newline (if anything precedes), Dedents, EndOfFile
  Diagnostics diagnostics;
};

/// Tokenize `source`. Never fails: problems are diagnostics plus Error tokens.
/// The returned tokens' `text` views point into `source`, which must outlive them.
LexResult lex(std::string_view source);

/// The value of a String token (prefix and quotes included in `raw`) with escapes decoded.
/// The lexer has already validated the escapes of every String token it produced. For an
/// f-string this is the text as written (braces included); the parser splits it instead.
std::string decodeStringLiteral(std::string_view raw);

/// The pieces of a String token's text: prefix flags, quote and body (between the quotes).
struct StringShape {
  bool raw = false, bytes = false, fstring = false;
  char quote = '"';
  bool triple = false;
  int bodyOffset = 0;     ///< where the body starts in the token text
  std::string_view body;  ///< empty when the text is not a terminated literal
};
StringShape stringShape(std::string_view raw);

/// Decodes the escapes of part of a literal body (no quotes), as decodeStringLiteral does.
std::string decodeStringBody(std::string_view body, bool raw, bool bytes);

/// Tokens of the expression of one f-string replacement field, the bytes [begin, end) of
/// `source`, with spans in `source` (`line` and `col` are those of `begin`). The expression is
/// lexed as if inside parentheses (newlines join lines, no INDENT), as Python compiles it. Never
/// fails: problems are diagnostics plus Error tokens, as for lex().
LexResult lexFieldExpression(std::string_view source, int begin, int end, int line, int col);

/// A fixed spelling for a token kind ("')'", "newline", "'def'", "name").
const char* tokSpelling(Tok kind);

/// How a message names a token: "'foo'", "number '12'", "string literal", "newline",
/// "end of file", "indent", "')'".
std::string describeToken(const Token& token);

}  // namespace tirx::script
