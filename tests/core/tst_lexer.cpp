// Tests of the script tokenizer (core/script/lexer.h): token kinds, INDENT/DEDENT with tabs and
// blank lines, bracket and backslash joining, CRLF, string decoding, numbers and their errors,
// and exact spans.
#include <QtTest>

#include "core/script/lexer.h"

using namespace tirx;
using namespace tirx::script;

namespace {

std::vector<Tok> kinds(const LexResult& r) {
  std::vector<Tok> out;
  for (const Token& t : r.tokens) out.push_back(t.kind);
  return out;
}

QString kindNames(const std::vector<Tok>& ks) {
  QStringList parts;
  for (Tok k : ks) parts << QString::fromUtf8(tokSpelling(k));
  return parts.join(' ');
}

// The single String token of `src` decoded.
std::string decoded(const std::string& src) {
  LexResult r = lex(src);
  for (const Token& t : r.tokens)
    if (t.kind == Tok::String) return decodeStringLiteral(t.text);
  return "<no string>";
}

#define COMPARE_KINDS(actual, expected) \
  QCOMPARE(kindNames(actual), kindNames(std::vector<Tok>(expected)))

}  // namespace

class TstLexer : public QObject {
  Q_OBJECT
 private slots:
  void simpleStatement() {
    LexResult r = lex("x = a.b(1, 'c')\n");
    QVERIFY(r.diagnostics.empty());
    COMPARE_KINDS(kinds(r),
                  (std::initializer_list<Tok>{
                      Tok::Name, Tok::Assign, Tok::Name, Tok::Dot, Tok::Name, Tok::LParen, Tok::Int,
                      Tok::Comma, Tok::String, Tok::RParen, Tok::Newline, Tok::EndOfFile}));
    QCOMPARE(std::string(r.tokens[4].text), std::string("b"));
  }

  void emptyAndNoTrailingNewline() {
    COMPARE_KINDS(kinds(lex("")), (std::initializer_list<Tok>{Tok::EndOfFile}));
    COMPARE_KINDS(kinds(lex("\n\n  # only a comment\n")),
                  (std::initializer_list<Tok>{Tok::EndOfFile}));
    LexResult r = lex("x");
    COMPARE_KINDS(kinds(r), (std::initializer_list<Tok>{Tok::Name, Tok::Newline, Tok::EndOfFile}));
    QCOMPARE(r.tokens[1].span.length, 0);  // a synthetic NEWLINE at end of file
    QCOMPARE(describeToken(r.tokens[1]), std::string("end of file"));
  }

  void indentation() {
    LexResult r = lex("if a:\n    b\n\n    # comment at another indent\n        \n    c\nd\n");
    QVERIFY(r.diagnostics.empty());
    COMPARE_KINDS(kinds(r), (std::initializer_list<Tok>{
                                Tok::KwIf, Tok::Name, Tok::Colon, Tok::Newline, Tok::Indent,
                                Tok::Name, Tok::Newline, Tok::Name, Tok::Newline, Tok::Dedent,
                                Tok::Name, Tok::Newline, Tok::EndOfFile}));
  }

  void tabsAdvanceToMultiplesOfEight() {
    // A tab and eight spaces are the same level; two spaces then a tab is also column 8.
    LexResult r = lex("if a:\n\tb\n        c\n  \td\ne\n");
    QVERIFY(r.diagnostics.empty());
    COMPARE_KINDS(kinds(r),
                  (std::initializer_list<Tok>{Tok::KwIf, Tok::Name, Tok::Colon, Tok::Newline,
                                              Tok::Indent, Tok::Name, Tok::Newline, Tok::Name,
                                              Tok::Newline, Tok::Name, Tok::Newline, Tok::Dedent,
                                              Tok::Name, Tok::Newline, Tok::EndOfFile}));
  }

  void multipleDedentsAndEndOfFile() {
    LexResult r = lex("if a:\n  if b:\n    c\nd\nif e:\n  f");
    COMPARE_KINDS(kinds(r),
                  (std::initializer_list<Tok>{
                      Tok::KwIf,    Tok::Name,    Tok::Colon,   Tok::Newline, Tok::Indent,
                      Tok::KwIf,    Tok::Name,    Tok::Colon,   Tok::Newline, Tok::Indent,
                      Tok::Name,    Tok::Newline, Tok::Dedent,  Tok::Dedent,  Tok::Name,
                      Tok::Newline, Tok::KwIf,    Tok::Name,    Tok::Colon,   Tok::Newline,
                      Tok::Indent,  Tok::Name,    Tok::Newline, Tok::Dedent,  Tok::EndOfFile}));
  }

  void inconsistentDedent() {
    LexResult r = lex("if a:\n        b\n    c\n");
    QCOMPARE(r.diagnostics.size(), size_t(1));
    QCOMPARE(r.diagnostics[0].code, std::string("E0003"));
    QCOMPARE(r.diagnostics[0].span.line, 3);
    QCOMPARE(r.diagnostics[0].span.col, 5);
    // The line stays in the block it falls short of (a lost space is the likely typo).
    COMPARE_KINDS(kinds(r),
                  (std::initializer_list<Tok>{Tok::KwIf, Tok::Name, Tok::Colon, Tok::Newline,
                                              Tok::Indent, Tok::Name, Tok::Newline, Tok::Name,
                                              Tok::Newline, Tok::Dedent, Tok::EndOfFile}));
    QCOMPARE(r.diagnostics[0].message,
             std::string("unindent to column 5 does not match any outer indentation level "
                         "(expected column 9 or 1)"));
  }

  void bracketsJoinLines() {
    LexResult r = lex("f(\n  1,\n\n  2)\ng\n");
    COMPARE_KINDS(kinds(r), (std::initializer_list<Tok>{
                                Tok::Name, Tok::LParen, Tok::Int, Tok::Comma, Tok::Int, Tok::RParen,
                                Tok::Newline, Tok::Name, Tok::Newline, Tok::EndOfFile}));
    QCOMPARE(r.tokens[4].span.line, 4);
    QCOMPARE(r.tokens[4].span.col, 3);
  }

  void unclosedBracketEndsAtStatementKeyword() {
    // `def` cannot continue an expression: the lexer ends the logical line so the parser can
    // report the unclosed bracket and go on.
    LexResult r = lex("x = f(1\ndef g():\n    pass\n");
    COMPARE_KINDS(kinds(r),
                  (std::initializer_list<Tok>{
                      Tok::Name, Tok::Assign, Tok::Name, Tok::LParen, Tok::Int, Tok::Newline,
                      Tok::KwDef, Tok::Name, Tok::LParen, Tok::RParen, Tok::Colon, Tok::Newline,
                      Tok::Indent, Tok::KwPass, Tok::Newline, Tok::Dedent, Tok::EndOfFile}));
    QCOMPARE(r.tokens[5].span.line, 1);
    QCOMPARE(r.tokens[5].span.col, 8);
  }

  void backslashContinuation() {
    LexResult r = lex("x = 1 + \\\n    2\n");
    QVERIFY(r.diagnostics.empty());
    COMPARE_KINDS(kinds(r), (std::initializer_list<Tok>{Tok::Name, Tok::Assign, Tok::Int, Tok::Plus,
                                                        Tok::Int, Tok::Newline, Tok::EndOfFile}));
    QCOMPARE(r.tokens[4].span.line, 2);
    QCOMPARE(r.tokens[4].span.col, 5);
    QCOMPARE(r.tokens[4].span.offset, 14);
    LexResult bad = lex("x = 1 \\ 2\n");
    QCOMPARE(bad.diagnostics.size(), size_t(1));
    QCOMPARE(bad.diagnostics[0].code, std::string("E0007"));
    QCOMPARE(bad.diagnostics[0].span.col, 7);
  }

  void crlf() {
    LexResult r = lex("a = 1\r\nif a:\r\n    b = 2\r\n");
    QVERIFY(r.diagnostics.empty());
    const Token& ifTok = r.tokens[4];
    QCOMPARE(ifTok.kind, Tok::KwIf);
    QCOMPARE(ifTok.span.line, 2);
    QCOMPARE(ifTok.span.col, 1);
    QCOMPARE(ifTok.span.offset, 7);
    QCOMPARE(r.tokens[3].kind, Tok::Newline);
    QCOMPARE(r.tokens[3].span.length, 2);
    const Token& b = r.tokens[9];
    QCOMPARE(std::string(b.text), std::string("b"));
    QCOMPARE(b.span.line, 3);
    QCOMPARE(b.span.col, 5);
    QCOMPARE(b.span.offset, 18);
  }

  void spans() {
    LexResult r = lex("foo = 12.5  # trailing\n  \nbar\n");
    QCOMPARE(r.tokens[0].span, (SourceSpan{1, 1, 3, 0}));
    QCOMPARE(r.tokens[1].span, (SourceSpan{1, 5, 1, 4}));
    QCOMPARE(r.tokens[2].span, (SourceSpan{1, 7, 4, 6}));
    QCOMPARE(r.tokens[3].kind, Tok::Newline);
    QCOMPARE(r.tokens[3].span, (SourceSpan{1, 23, 1, 22}));
    QCOMPARE(r.tokens[4].span, (SourceSpan{3, 1, 3, 26}));
  }

  void keywordsAndOperators() {
    LexResult r = lex("not in is lambda None True False and or\n");
    COMPARE_KINDS(kinds(r),
                  (std::initializer_list<Tok>{Tok::KwNot, Tok::KwIn, Tok::KwIs, Tok::KwLambda,
                                              Tok::KwNone, Tok::KwTrue, Tok::KwFalse, Tok::KwAnd,
                                              Tok::KwOr, Tok::Newline, Tok::EndOfFile}));
    LexResult ops =
        lex("a **= b //= c >>= d <<= e -> f != g ... h @= i ** j // k << l >> m <= n >= o == p := "
            "q ~ r\n");
    QVERIFY(ops.diagnostics.empty());
    std::vector<Tok> got;
    std::vector<ast::Op> augs;
    for (const Token& t : ops.tokens) {
      if (t.kind == Tok::Name || t.kind == Tok::Newline || t.kind == Tok::EndOfFile) continue;
      got.push_back(t.kind);
      if (t.kind == Tok::AugAssign) augs.push_back(t.op);
    }
    COMPARE_KINDS(got, (std::initializer_list<Tok>{
                           Tok::AugAssign, Tok::AugAssign, Tok::AugAssign, Tok::AugAssign,
                           Tok::Arrow, Tok::NotEq, Tok::Ellipsis, Tok::AugAssign, Tok::DoubleStar,
                           Tok::DoubleSlash, Tok::LShift, Tok::RShift, Tok::LtE, Tok::GtE,
                           Tok::EqEq, Tok::ColonEq, Tok::Tilde}));
    QVERIFY((augs == std::vector<ast::Op>{ast::Op::Pow, ast::Op::FloorDiv, ast::Op::RShift,
                                          ast::Op::LShift, ast::Op::MatMul}));
  }

  void strings() {
    QCOMPARE(decoded("'a\\tb'"), std::string("a\tb"));
    QCOMPARE(decoded("\"it's\""), std::string("it's"));
    QCOMPARE(decoded("'it\\'s'"), std::string("it's"));
    QCOMPARE(decoded("\"\"\"x\ny\"\"\""), std::string("x\ny"));
    QCOMPARE(decoded("'''a'b'''"), std::string("a'b"));
    QCOMPARE(decoded("r'\\d+'"), std::string("\\d+"));
    QCOMPARE(decoded("R\"\\\"\""), std::string("\\\""));
    QCOMPARE(decoded("b'\\x41\\101'"), std::string("AA"));
    QCOMPARE(decoded("'\\u00e9'"), std::string("\xc3\xa9"));
    QCOMPARE(decoded("'\\U0001F600'"), std::string("\xf0\x9f\x98\x80"));
    QCOMPARE(decoded("f'{x!r}'"), std::string("{x!r}"));  // the parser splits f-strings
    QCOMPARE(decoded("'a\\\nb'"), std::string("ab"));
    QCOMPARE(decoded("'\\d'"), std::string("\\d"));  // unknown escapes keep the backslash
    QCOMPARE(decoded("\"\"\"a\r\nb\"\"\""), std::string("a\nb"));
    // A string prefix only counts right before a quote; `rb` and `br` are prefixes, `ub` is not.
    LexResult r = lex("rb'x' ub'y'\n");
    QCOMPARE(r.tokens[0].kind, Tok::String);
    QCOMPARE(r.tokens[1].kind, Tok::Name);
    QCOMPARE(r.tokens[2].kind, Tok::String);
    // Triple-quoted strings span lines; the next token's line is right.
    LexResult t = lex("x = '''a\nb\nc''' + y\n");
    QCOMPARE(t.tokens[2].span, (SourceSpan{1, 5, 11, 4}));
    QCOMPARE(t.tokens[4].span.line, 3);
    QCOMPARE(t.tokens[4].span.col, 8);
  }

  // f-strings lex as one String token, like any literal; stringShape tells the parser where
  // the body is, and lexFieldExpression lexes one field's expression in place.
  void fstringTokens() {
    LexResult r = lex("x = f'a{b!r:>{w}}' Rf\"\"\"c\n{d}\"\"\"\n");
    QVERIFY(r.diagnostics.empty());
    COMPARE_KINDS(kinds(r),
                  (std::initializer_list<Tok>{Tok::Name, Tok::Assign, Tok::String, Tok::String,
                                              Tok::Newline, Tok::EndOfFile}));
    const StringShape a = stringShape(r.tokens[2].text);
    QVERIFY(a.fstring && !a.raw && !a.triple);
    QCOMPARE(a.bodyOffset, 2);
    QCOMPARE(std::string(a.body), std::string("a{b!r:>{w}}"));
    const StringShape b = stringShape(r.tokens[3].text);
    QVERIFY(b.fstring && b.raw && b.triple);
    QCOMPARE(std::string(b.body), std::string("c\n{d}"));
    QVERIFY(!stringShape("'x'").fstring);
    QVERIFY(!stringShape("b'x'").fstring);
    // The escapes of an f-string are checked like any other's (E0014 at the escape).
    LexResult bad = lex("x = f'{a}\\x4'\n");
    QCOMPARE(bad.diagnostics.size(), size_t(1));
    QCOMPARE(bad.diagnostics[0].code, std::string("E0014"));
    QCOMPARE(bad.diagnostics[0].span.col, 10);
  }

  void fieldExpressionSpans() {
    // The field `{y +\n  z}` of a triple-quoted f-string on line 2: its tokens carry their place
    // in the whole source, and the newline inside joins the lines.
    const std::string src = "a = 1\nx = f\"\"\"{y +\n  z}\"\"\"\n";
    const int begin = static_cast<int>(src.find("y +"));
    const int end = static_cast<int>(src.find('}'));
    LexResult r = lexFieldExpression(src, begin, end, 2, 10);
    QVERIFY(r.diagnostics.empty());
    COMPARE_KINDS(kinds(r), (std::initializer_list<Tok>{Tok::Name, Tok::Plus, Tok::Name,
                                                        Tok::Newline, Tok::EndOfFile}));
    QCOMPARE(r.tokens[0].span, (SourceSpan{2, 10, 1, begin}));
    QCOMPARE(r.tokens[2].span, (SourceSpan{3, 3, 1, begin + 6}));
    QCOMPARE(std::string(r.tokens[2].text), std::string("z"));
    // A line starting with `if` continues the expression (`x\nif c else y` is one expression).
    const std::string cond = "f'''{x\nif c else y}'''";
    LexResult c = lexFieldExpression(cond, 5, static_cast<int>(cond.find('}')), 1, 6);
    QVERIFY(c.diagnostics.empty());
    QCOMPARE(c.tokens[1].kind, Tok::KwIf);
    QCOMPARE(c.tokens[1].span.line, 2);
    // The lexer's own errors inside a field keep their place.
    const std::string num = "f'{1_}'";
    LexResult n = lexFieldExpression(num, 3, 5, 1, 4);
    QCOMPARE(n.diagnostics.size(), size_t(1));
    QCOMPARE(n.diagnostics[0].code, std::string("E0008"));
    QCOMPARE(n.diagnostics[0].span, (SourceSpan{1, 4, 2, 3}));
  }

  void stringErrors() {
    LexResult a = lex("x = 'abc\ny = 1\n");
    QCOMPARE(a.diagnostics.size(), size_t(1));
    QCOMPARE(a.diagnostics[0].code, std::string("E0002"));
    QCOMPARE(a.diagnostics[0].span, (SourceSpan{1, 5, 4, 4}));
    QCOMPARE(a.tokens[2].kind, Tok::Error);
    QCOMPARE(a.tokens[3].kind, Tok::Newline);  // the next line still lexes
    QCOMPARE(a.tokens[4].span.line, 2);
    LexResult b = lex("x = \"\"\"abc\n\n");
    QCOMPARE(b.diagnostics.size(), size_t(1));
    QCOMPARE(b.diagnostics[0].code, std::string("E0002"));
    LexResult c = lex("x = '\\x4g'\n");
    QCOMPARE(c.diagnostics.size(), size_t(1));
    QCOMPARE(c.diagnostics[0].code, std::string("E0014"));
    QCOMPARE(c.diagnostics[0].span.col, 6);
  }

  void numbers() {
    LexResult r = lex("0x1F 0o17 0b101 1_000 0 00 0xdead_beef 9223372036854775807\n");
    QVERIFY(r.diagnostics.empty());
    const std::vector<int64_t> ints = {31, 15, 5, 1000, 0, 0, 0xdeadbeef, INT64_MAX};
    for (size_t i = 0; i < ints.size(); ++i) {
      QCOMPARE(r.tokens[i].kind, Tok::Int);
      QCOMPARE(r.tokens[i].intValue, ints[i]);
    }
    LexResult f = lex("1e-5 2. .5 1.5e+3 1_0.2_5 1E3 01.5 1e400\n");
    QVERIFY(f.diagnostics.empty());
    const std::vector<double> floats = {
        1e-5, 2.0, 0.5, 1500.0, 10.25, 1000.0, 1.5, std::numeric_limits<double>::infinity()};
    for (size_t i = 0; i < floats.size(); ++i) {
      QCOMPARE(f.tokens[i].kind, Tok::Float);
      QCOMPARE(f.tokens[i].floatValue, floats[i]);
    }
  }

  void numberErrors_data() {
    QTest::addColumn<QString>("src");
    for (const char* s : {"1__0", "0b2", "1_", "0x", "1e", "012", "1j", "99999999999999999999",
                          "0o8", "12abc", "1.5.2", "0x_"})
      QTest::newRow(s) << QString::fromUtf8(s);
  }
  void numberErrors() {
    QFETCH(QString, src);
    LexResult r = lex(("x = " + src + "\n").toStdString());
    QCOMPARE(r.diagnostics.size(), size_t(1));
    QCOMPARE(r.diagnostics[0].code, std::string("E0008"));
    QCOMPARE(r.diagnostics[0].span.col, 5);
    QCOMPARE(r.diagnostics[0].span.length, int(src.size()));
    QCOMPARE(r.tokens[2].kind, Tok::Error);
    QCOMPARE(r.tokens[3].kind, Tok::Newline);
  }

  void invalidCharacters() {
    LexResult r = lex("a ? b $$ c \xc2\xa7 d\n");
    QCOMPARE(r.diagnostics.size(), size_t(3));
    QCOMPARE(r.diagnostics[0].code, std::string("E0007"));
    QCOMPARE(r.diagnostics[0].span, (SourceSpan{1, 3, 1, 2}));
    QCOMPARE(r.diagnostics[0].message, std::string("invalid character '?' in script"));
    QCOMPARE(r.diagnostics[1].span, (SourceSpan{1, 7, 2, 6}));  // one error for the run
    QCOMPARE(r.diagnostics[2].message, std::string("invalid character U+00A7 in script"));
    QCOMPARE(r.diagnostics[2].span.length, 2);
  }
};

QTEST_APPLESS_MAIN(TstLexer)
#include "tst_lexer.moc"
