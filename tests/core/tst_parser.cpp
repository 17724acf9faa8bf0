// Tests of the script parser (core/script/parser.h): Python precedence (checked on tree shape
// through an S-expression dump), every statement kind, exact spans of nodes in the project's
// scripts, parse -> unparse -> parse round trips, and error recovery with exact codes and
// positions (one typo gives one diagnostic and the statements after it survive).
#include <QtTest>
#include <fstream>
#include <sstream>

#include "core/script/parser.h"

using namespace tirx;
using ast::ExprKind;
using ast::StmtKind;

namespace {

std::string readKernel(const char* name) {
  std::ifstream f(std::string(TIRX_SOURCE_DIR) + "/tests/data/kernels/" + name, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

const char* const kKernels[] = {"affine_relu.py", "silu.py", "to_float16.py", "two_kernels.py"};

// A fully bracketed dump of an expression tree, e.g. `(+ a (* b c))`.
std::string sexpr(const ast::Expr* e) {
  if (!e) return "_";
  auto all = [&](size_t from) {
    std::string s;
    for (size_t i = from; i < e->args.size(); ++i) s += " " + sexpr(e->args[i].get());
    return s;
  };
  switch (e->kind) {
    case ExprKind::Name:
      return e->text;
    case ExprKind::Int:
      return std::to_string(e->intValue);
    case ExprKind::Float: {
      std::ostringstream os;
      os << e->floatValue << "f";
      return os.str();
    }
    case ExprKind::Str:
      return "'" + e->text + "'";
    case ExprKind::Bool:
      return e->boolValue ? "True" : "False";
    case ExprKind::None:
      return "None";
    case ExprKind::Attribute:
      return "(. " + sexpr(e->args[0].get()) + " " + e->text + ")";
    case ExprKind::Subscript:
      return "(sub" + all(0) + ")";
    case ExprKind::Call: {
      std::string s = "(call" + all(0);
      for (const auto& k : e->keywords)
        s += " " + (k.name.empty() ? std::string("**") : k.name + "=") + sexpr(k.value.get());
      return s + ")";
    }
    case ExprKind::Tuple:
      return std::string(e->parenthesized ? "(ptuple" : "(tuple") + all(0) + ")";
    case ExprKind::List:
      return "(list" + all(0) + ")";
    case ExprKind::Dict:
      return "(dict" + all(0) + ")";
    case ExprKind::Slice:
      return "(slice" + all(0) + ")";
    case ExprKind::Unary:
    case ExprKind::Binary:
    case ExprKind::BoolOp:
      return std::string("(") + ast::opSpelling(e->op) + all(0) + ")";
    case ExprKind::Compare: {
      std::string s = "(cmp " + sexpr(e->args[0].get());
      for (size_t i = 0; i < e->ops.size(); ++i)
        s += std::string(" ") + ast::opSpelling(e->ops[i]) + " " + sexpr(e->args[i + 1].get());
      return s + ")";
    }
    case ExprKind::IfExp:
      return "(if" + all(0) + ")";
    case ExprKind::Lambda: {
      std::string s = "(lambda (";
      for (size_t i = 0; i < e->params.size(); ++i) {
        const auto& p = e->params[i];
        s += (i ? " " : "") + std::string(p.star ? "*" : (p.doubleStar ? "**" : "")) + p.name +
             (p.defaultValue ? "=" + sexpr(p.defaultValue.get()) : "");
      }
      return s + ")" + all(0) + ")";
    }
    case ExprKind::Starred:
      return "(*" + all(0) + ")";
    case ExprKind::FString:
      return "(f" + all(0) + ")";
    case ExprKind::FormattedValue:
      return "(fv" + (e->text.empty() ? std::string() : "!" + e->text) + all(0) + ")";
  }
  return "?";
}

std::string shapeOf(const std::string& src) {
  ExprParseResult r = parseExpression(src);
  if (!r.expr)
    return "<error: " + (r.diagnostics.empty() ? std::string() : r.diagnostics[0].message) + ">";
  return sexpr(r.expr.get());
}

struct Diag {
  std::string code;
  int line, col;
};

}  // namespace

class TstParser : public QObject {
  Q_OBJECT
 private slots:
  void precedence_data() {
    QTest::addColumn<QString>("src");
    QTest::addColumn<QString>("shape");
    const std::pair<const char*, const char*> cases[] = {
        {"a + b * c", "(+ a (* b c))"},
        {"a * b + c", "(+ (* a b) c)"},
        {"a - b - c", "(- (- a b) c)"},
        {"a - (b - c)", "(- a (- b c))"},
        {"-x ** 2", "(- (** x 2))"},
        {"2 ** -1", "(** 2 (- 1))"},
        {"a ** b ** c", "(** a (** b c))"},
        {"(-x) ** 2", "(** (- x) 2)"},
        {"~-+x", "(~ (- (+ x)))"},
        {"a // b % c @ d / e", "(/ (@ (% (// a b) c) d) e)"},
        {"1 @ warpid", "(@ 1 warpid)"},
        {"a | b ^ c & d << e + f", "(| a (^ b (& c (<< d (+ e f)))))"},
        {"a >> b << c", "(<< (>> a b) c)"},
        {"a & b | c & d", "(| (& a b) (& c d))"},
        {"a < b < c", "(cmp a < b < c)"},
        {"a == b != c <= d >= e > f", "(cmp a == b != c <= d >= e > f)"},
        {"a not in b is not c in d is e", "(cmp a not in b is not c in d is e)"},
        {"a + 1 < b * 2", "(cmp (+ a 1) < (* b 2))"},
        {"not a == b", "(not (cmp a == b))"},
        {"not not a", "(not (not a))"},
        {"a or b and c", "(or a (and b c))"},
        {"a or b or c", "(or a b c)"},
        {"a or (b or c)", "(or a (or b c))"},
        {"a and not b or c", "(or (and a (not b)) c)"},
        {"x if c else y if d else z", "(if x c (if y d z))"},
        {"a or b if c and d else e", "(if (or a b) (and c d) e)"},
        {"lambda: 0", "(lambda () 0)"},
        {"lambda x, *a, y=1, **k: x + 1", "(lambda (x *a y=1 **k) (+ x 1))"},
        {"lambda x: x if x else -x", "(lambda (x) (if x x (- x)))"},
        {"a.b[c](d, *e, k=1, **f)", "(call (sub (. a b) c) d (* e) k=1 **f)"},
        {"f()()", "(call (call f))"},
        {"x[1][2].y", "(. (sub (sub x 1) 2) y)"},
        {"-a.b ** -c[0]", "(- (** (. a b) (- (sub c 0))))"},
        {"(a, b)", "(ptuple a b)"},
        {"a, b", "(tuple a b)"},
        {"a,", "(tuple a)"},
        {"()", "(ptuple)"},
        {"(a,)", "(ptuple a)"},
        {"(a)", "a"},
        {"((a, b), [c, *d])", "(ptuple (ptuple a b) (list c (* d)))"},
        {"a[:, 1:2]", "(sub a (tuple (slice _ _ _) (slice 1 2 _)))"},
        {"a[::2]", "(sub a (slice _ _ 2))"},
        {"a[1:]", "(sub a (slice 1 _ _))"},
        {"a[:-1, ::]", "(sub a (tuple (slice _ (- 1) _) (slice _ _ _)))"},
        {"A.sub[tid, :]", "(sub (. A sub) (tuple tid (slice _ _ _)))"},
        {"a[i, j,]", "(sub a (tuple i j))"},
        {"a[(i, j)]", "(sub a (ptuple i j))"},
        {"S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)]",
         "(sub S (slice (ptuple 2 32 4) (ptuple (@ 1 warpid) (@ 1 laneid) 1) _))"},
        {"{1: 2, 'a': b}", "(dict 1 2 'a' b)"},
        {"{}", "(dict)"},
        {"[1, 2.5, 'x', True, None, False]", "(list 1 2.5f 'x' True None False)"},
        {"0x1F + 0o17 + 0b101 + 1_000", "(+ (+ (+ 31 15) 5) 1000)"},
        {"'a' 'b' \"c\" r'\\d'", "'abc\\d'"},
        {"f(\n  a,\n  b,\n)", "(call f a b)"},
        {"f(x)(y)[z]", "(sub (call (call f x) y) z)"},
        {"f(a for_ = 1)", "<error: expected ')' to close '(' at 1:2, found 'for_'>"},
    };
    for (const auto& [src, shape] : cases)
      QTest::newRow(src) << QString::fromUtf8(src) << QString::fromUtf8(shape);
  }
  void precedence() {
    QFETCH(QString, src);
    QFETCH(QString, shape);
    QCOMPARE(QString::fromStdString(shapeOf(src.toStdString())), shape);
  }

  void unparseMinimalParens_data() {
    QTest::addColumn<QString>("src");
    QTest::addColumn<QString>("canonical");
    const std::pair<const char*, const char*> cases[] = {
        {"(a+b)*c", "(a + b) * c"},
        {"a-(b-c)", "a - (b - c)"},
        {"(a-b)-c", "a - b - c"},
        {"(-x)**2", "(-x) ** 2"},
        {"-x**2", "-x ** 2"},
        {"(a**b)**c", "(a ** b) ** c"},
        {"a**(b**c)", "a ** b ** c"},
        {"(lambda: 1)()", "(lambda: 1)()"},
        {"not (a and b)", "not (a and b)"},
        {"(a or b) and c", "(a or b) and c"},
        {"(a < b) < c", "(a < b) < c"},
        {"(a if b else c) if d else e", "(a if b else c) if d else e"},
        {"(1).real", "(1).real"},
        {"x [ 1 : 2 , :: 3 ]", "x[1:2, ::3]"},
        {"f(* a , ** b , c = 1)", "f(*a, **b, c=1)"},
        {"'it\\'s' \"\\n\"", "\"it's\\n\""},
        {"1e-5", "1e-05"},
        {"2.", "2.0"},
        {"(a,)", "(a,)"},
        {"-(-1)", "--1"},
    };
    for (const auto& [src, canonical] : cases)
      QTest::newRow(src) << QString::fromUtf8(src) << QString::fromUtf8(canonical);
  }
  void unparseMinimalParens() {
    QFETCH(QString, src);
    QFETCH(QString, canonical);
    ExprParseResult r = parseExpression(src.toStdString());
    QVERIFY(r.expr);
    const std::string printed = unparse(*r.expr);
    QCOMPARE(QString::fromStdString(printed), canonical);
    ExprParseResult again = parseExpression(printed);
    QVERIFY(again.expr);
    QVERIFY(sameTree(*r.expr, *again.expr));
  }

  // f-strings: literal parts and replacement fields, parsed as Python 3.11 parses them (the
  // shapes mirror Python's ast: JoinedStr / FormattedValue, `{x=}` as literal text plus a repr).
  void fstrings_data() {
    QTest::addColumn<QString>("src");
    QTest::addColumn<QString>("shape");
    const std::pair<const char*, const char*> cases[] = {
        {"f\"a{b}c\"", "(f 'a' (fv b) 'c')"},
        {"f\"{x:.3f}\"", "(f (fv x (f '.3f')))"},
        {"f\"{y!r:>{w}}\"", "(f (fv!r y (f '>' (fv w))))"},
        {"f\"{x!a:{w}.{p}}\"", "(f (fv!a x (f (fv w) '.' (fv p))))"},
        {"f\"{x:}\"", "(f (fv x (f)))"},
        {"f\"{{lit}} {{}}\"", "(f '{lit} {}')"},
        {"f\"\"", "(f)"},
        {"f\"{x=}\"", "(f 'x=' (fv!r x))"},
        {"f\"{ x = }\"", "(f ' x = ' (fv!r x))"},
        {"f\"{x=:.2f}\"", "(f 'x=' (fv x (f '.2f')))"},
        {"f\"{x=!s}\"", "(f 'x=' (fv!s x))"},
        {"'a' f'{b}' \"c\" 'd'", "(f 'a' (fv b) 'cd')"},
        {"F\"{x}\" rf\"\\d{y}\"", "(f (fv x) '\\d' (fv y))"},
        {"f\"\\{x}\"", "(f '\\' (fv x))"},  // a backslash, then a field (as CPython)
        {"f\"\\x7b{x}\\x7d\"", "(f '{' (fv x) '}')"},
        {"f\"{a, b}\"", "(f (fv (tuple a b)))"},
        {"f\"{a if b else c}\"", "(f (fv (if a b c)))"},
        {"f\"{x!=y} {x<y} {x>=y} {x==y}\"",
         "(f (fv (cmp x != y)) ' ' (fv (cmp x < y)) ' ' (fv (cmp x >= y)) ' ' (fv (cmp x == y)))"},
        {"f\"{ {1: 2}[1] }\"", "(f (fv (sub (dict 1 2) 1)))"},
        {"f\"{d['k']:>5}\"", "(f (fv (sub d 'k') (f '>5')))"},
        {"f\"{f'{x}'}\"", "(f (fv (f (fv x))))"},
        {"f\"{(lambda: 1)()}\"", "(f (fv (call (lambda () 1))))"},
        {"f\"{x:{{}}}\"", "(f (fv x (f (fv (dict)))))"},  // in a spec `{` opens a field
    };
    for (const auto& [src, shape] : cases)
      QTest::newRow(src) << QString::fromUtf8(src) << QString::fromUtf8(shape);
  }
  void fstrings() {
    QFETCH(QString, src);
    QFETCH(QString, shape);
    QCOMPARE(QString::fromStdString(shapeOf(src.toStdString())), shape);
    // Round trip: the canonical form parses back to the same tree.
    ExprParseResult r = parseExpression(src.toStdString());
    QVERIFY(r.expr);
    const std::string printed = unparse(*r.expr);
    ExprParseResult again = parseExpression(printed);
    QVERIFY2(again.expr, printed.c_str());
    QVERIFY2(sameTree(*r.expr, *again.expr), printed.c_str());
  }

  void fstringUnparse_data() {
    QTest::addColumn<QString>("src");
    QTest::addColumn<QString>("canonical");
    const std::pair<const char*, const char*> cases[] = {
        {"f'{x:.3f}'", "f\"{x:.3f}\""},
        {"f\"{x=}\"", "f\"x={x!r}\""},
        {"f\"{{}}{y}\"", "f\"{{}}{y}\""},
        {"f\"{d['k']}\"", "f\"{d['k']}\""},
        {"f'''{d[\"it's\"]}'''", "f\"\"\"{d[\"it's\"]}\"\"\""},  // both quotes in it
        {"f\"{ {1: 2}[1] }\"", "f\"{ {1: 2}[1]}\""},             // a field never starts with `{{`
        {"f\"{(lambda: 1)}\"", "f\"{(lambda: 1)}\""},  // a lambda's ':' would end the field
        {"f\"a\\n'\\\"\"", "f\"a\\n'\\\"\""},
        {"f\"{x:\\x7b}\"", "f\"{x:\\x7b}\""},  // a brace in a spec is an escape, not `{{`
        {"f'''{f\"{f'{x}'}\"}'''", "f\"{f'''{f'{x}'}'''}\""},
        {"'p' f\"{a}\" 'q'", "f\"p{a}q\""},
    };
    for (const auto& [src, canonical] : cases)
      QTest::newRow(src) << QString::fromUtf8(src) << QString::fromUtf8(canonical);
  }
  void fstringUnparse() { unparseMinimalParens(); }

  // Fields are parsed in place: their nodes carry their line and 1-based byte column.
  void fstringSpans() {
    const std::string src = "a = 1\nx = f\"\"\"é{y +\n  z:>{w}}\nb{c!r}\"\"\"\n";
    ParseResult r = parseScript(src, "spans.py");
    QVERIFY2(r.diagnostics.empty(), formatGcc(r.diagnostics, "spans.py").c_str());
    const ast::Expr& f = *r.module.body[1]->value;
    QCOMPARE(int(f.kind), int(ExprKind::FString));
    QCOMPARE(f.span, (SourceSpan{2, 5, 30, 10}));
    QCOMPARE(f.args.size(), size_t(4));
    QCOMPARE(f.args[0]->text, std::string("é"));
    QCOMPARE(f.args[0]->span, (SourceSpan{2, 9, 2, 14}));  // é is two bytes
    const ast::Expr& field = *f.args[1];
    QCOMPARE(int(field.kind), int(ExprKind::FormattedValue));
    QCOMPARE(field.span, (SourceSpan{2, 11, 14, 16}));  // from `{` to its `}` on line 3
    QCOMPARE(sexpr(field.args[0].get()), std::string("(+ y z)"));
    QCOMPARE(field.args[0]->args[0]->span, (SourceSpan{2, 12, 1, 17}));
    QCOMPARE(field.args[0]->args[1]->span, (SourceSpan{3, 3, 1, 23}));
    QCOMPARE(field.args[1]->args[0]->span, (SourceSpan{3, 5, 1, 25}));           // '>', in the spec
    QCOMPARE(field.args[1]->args[1]->args[0]->span, (SourceSpan{3, 7, 1, 27}));  // w
    QCOMPARE(f.args[2]->text, std::string("\nb"));
    QCOMPARE(f.args[2]->span, (SourceSpan{3, 10, 2, 30}));
    QCOMPARE(f.args[3]->args[0]->span, (SourceSpan{4, 3, 1, 33}));  // c
  }

  // Malformed f-strings: one diagnostic at the offending byte, and the statements after the
  // bad one survive (the parser recovers at the next statement, as for any syntax error).
  void fstringErrors_data() {
    QTest::addColumn<QString>("src");
    QTest::addColumn<QString>("code");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("col");
    QTest::addColumn<QString>("message");
    struct Case {
      const char* src;
      const char* code;
      int line, col;
      const char* message;
    };
    const Case cases[] = {
        {"x = f\"a}b\"", "E0015", 1, 8, "f-string: single '}' is not allowed"},
        {"x = f\"{a\"", "E0015", 1, 9,
         "f-string: expected '}' to close the replacement field at 1:7, found end of string"},
        {"x = f\"{a!r x}\"", "E0015", 1, 11,
         "expected '}' to close the replacement field at 1:7, found ' '"},
        {"x = f\"{}\"", "E0015", 1, 7, "f-string: empty expression not allowed"},
        {"x = f\"{  !r}\"", "E0015", 1, 7, "f-string: empty expression not allowed"},
        {"x = f\"{x!z}\"", "E0015", 1, 10,
         "f-string: invalid conversion character 'z': expected 's', 'r', or 'a'"},
        {"x = f\"{x!}\"", "E0015", 1, 10, "invalid conversion character '}'"},
        {"x = f\"{x['\\n']}\"", "E0015", 1, 11,
         "f-string expression part cannot include a backslash"},
        {"x = f\"{x # no}\"", "E0015", 1, 10, "f-string expression part cannot include '#'"},
        {"x = f\"{(x]}\"", "E0015", 1, 10,
         "f-string: closing parenthesis ']' does not match opening parenthesis '(' at 1:8"},
        {"x = f\"{x)}\"", "E0015", 1, 9, "f-string: unmatched ')'"},
        {"x = f\"{(x}\"", "E0015", 1, 10,
         "f-string: closing parenthesis '}' does not match opening parenthesis '(' at 1:8"},
        {"x = f\"{(x\"", "E0015", 1, 8, "f-string: unmatched '('"},
        {"x = f\"{x:{y:{z}}}\"", "E0015", 1, 13, "f-string: expressions nested too deeply"},
        {"x = f\"{*a}\"", "E0015", 1, 8, "f-string: cannot use a starred expression here"},
        {"x = 1\ny = f'''{a +\n   b c}'''", "E0001", 3, 6,
         "expected '}', '!' or ':' after the expression of the f-string field, found 'c'"},
        {"x = f\"{a if b}\"", "E0001", 1, 14,
         "expected 'else' in the conditional expression, found the end of the f-string field"},
        {"x = f\"{1_}\"", "E0008", 1, 8, "number literal cannot end with an underscore"},
        {"x = f\"{a $ b}\"", "E0007", 1, 10, "invalid character '$'"},
        {"x = f\"{[i for i in y]}\"", "E0010", 1, 11, "comprehensions"},
        {"f\"{x}\" = 1", "E0011", 1, 1, "cannot assign to a formatted string literal"},
    };
    for (const Case& c : cases)
      QTest::newRow(c.src) << QString::fromUtf8(c.src) << QString::fromUtf8(c.code) << c.line
                           << c.col << QString::fromUtf8(c.message);
  }
  void fstringErrors() {
    QFETCH(QString, src);
    QFETCH(QString, code);
    QFETCH(int, line);
    QFETCH(int, col);
    QFETCH(QString, message);
    ParseResult r = parseScript(src.toStdString() + "\nz = 3\n");
    QVERIFY2(r.diagnostics.size() == 1, formatGcc(r.diagnostics, "x").c_str());
    const Diagnostic& d = r.diagnostics[0];
    QCOMPARE(QString::fromStdString(d.code), code);
    QCOMPARE(d.span.line, line);
    QCOMPARE(d.span.col, col);
    QVERIFY2(QString::fromStdString(d.message).contains(message), d.message.c_str());
    QVERIFY(!d.message.empty() && !(d.message[0] >= 'A' && d.message[0] <= 'Z') &&
            d.message.back() != '.');
    QCOMPARE(int(r.module.body.back()->kind), int(StmtKind::Assign));  // `z = 3` survives
    QCOMPARE(r.module.body.back()->targets[0]->text, std::string("z"));
  }

  void parseExpressionErrors() {
    ExprParseResult trailing = parseExpression("a b");
    QVERIFY(!trailing.expr);
    QCOMPARE(trailing.diagnostics.size(), size_t(1));
    QCOMPARE(trailing.diagnostics[0].code, std::string("E0001"));
    QCOMPARE(trailing.diagnostics[0].message, std::string("expected end of expression, found 'b'"));
    ExprParseResult empty = parseExpression("");
    QVERIFY(!empty.expr);
    QCOMPARE(empty.diagnostics[0].message,
             std::string("expected an expression, found end of file"));
    ExprParseResult spaced = parseExpression("  S[(2,) : (1,)]  \n");
    QVERIFY(spaced.expr);
    QCOMPARE(spaced.expr->span, (SourceSpan{1, 3, 14, 2}));
  }

  void statementKinds() {
    const std::string src =
        "import a.b as c, d\n"
        "from ..pkg.mod import (x, y as z,)\n"
        "from . import *\n"
        "k = j = 1, 2\n"
        "a, *b = c\n"
        "x += 1\n"
        "n: int = 5\n"
        "m: float\n"
        "f(x)\n"
        "del a, b[0]\n"
        "global g, h\n"
        "assert x > 0, 'msg'\n"
        "@dec\n"
        "@T.function(private=True)\n"
        "def f(a, b: int = 2, *args, c, d=1, **kw) -> int:\n"
        "    for i, (p, q) in enumerate(xs):\n"
        "        if i: continue\n"
        "        elif p: break\n"
        "        else: pass\n"
        "    else:\n"
        "        pass\n"
        "    while x:\n"
        "        x -= 1\n"
        "    return a, b\n"
        "def g(*, key): return\n";
    ParseResult r = parseScript(src, "kinds.py");
    QVERIFY2(r.diagnostics.empty(), formatGcc(r.diagnostics, "kinds.py").c_str());
    const ast::Block& b = r.module.body;
    QCOMPARE(r.module.fileName, std::string("kinds.py"));
    QCOMPARE(b.size(), size_t(14));
    const StmtKind expected[] = {StmtKind::Import,      StmtKind::ImportFrom, StmtKind::ImportFrom,
                                 StmtKind::Assign,      StmtKind::Assign,     StmtKind::AugAssign,
                                 StmtKind::AnnAssign,   StmtKind::AnnAssign,  StmtKind::ExprStmt,
                                 StmtKind::Del,         StmtKind::Global,     StmtKind::Assert,
                                 StmtKind::FunctionDef, StmtKind::FunctionDef};
    for (size_t i = 0; i < b.size(); ++i) QCOMPARE(int(b[i]->kind), int(expected[i]));
    QCOMPARE(b[0]->names.size(), size_t(2));
    QCOMPARE(b[0]->names[0].name, std::string("a.b"));
    QCOMPARE(b[0]->names[0].asname, std::string("c"));
    QCOMPARE(b[0]->names[0].span, (SourceSpan{1, 8, 8, 7}));
    QCOMPARE(b[1]->level, 2);
    QCOMPARE(b[1]->module, std::string("pkg.mod"));
    QCOMPARE(b[1]->names[1].name, std::string("y"));
    QCOMPARE(b[1]->names[1].asname, std::string("z"));
    QCOMPARE(b[2]->level, 1);
    QCOMPARE(b[2]->module, std::string());
    QCOMPARE(b[2]->names[0].name, std::string("*"));
    QCOMPARE(b[3]->targets.size(), size_t(2));
    QCOMPARE(sexpr(b[3]->value.get()), std::string("(tuple 1 2)"));
    QCOMPARE(sexpr(b[4]->targets[0].get()), std::string("(tuple a (* b))"));
    QCOMPARE(int(b[5]->op), int(ast::Op::Add));
    QCOMPARE(sexpr(b[6]->annotation.get()), std::string("int"));
    QCOMPARE(sexpr(b[6]->value.get()), std::string("5"));
    QVERIFY(!b[7]->value);
    QCOMPARE(b[9]->targets.size(), size_t(2));
    QCOMPARE(b[10]->names[1].name, std::string("h"));
    QCOMPARE(sexpr(b[11]->annotation.get()), std::string("'msg'"));
    const ast::Stmt& f = *b[12];
    QCOMPARE(f.name, std::string("f"));
    QCOMPARE(f.nameSpan, (SourceSpan{15, 5, 1, 204}));
    QCOMPARE(f.decorators.size(), size_t(2));
    QCOMPARE(sexpr(f.decorators[1].get()), std::string("(call (. T function) private=True)"));
    QCOMPARE(f.params.size(), size_t(6));
    QCOMPARE(sexpr(f.params[1].annotation.get()), std::string("int"));
    QCOMPARE(sexpr(f.params[1].defaultValue.get()), std::string("2"));
    QVERIFY(f.params[2].star && !f.params[2].keywordOnly);
    QVERIFY(f.params[3].keywordOnly && !f.params[3].defaultValue);
    QVERIFY(f.params[4].keywordOnly);
    QVERIFY(f.params[5].doubleStar);
    QCOMPARE(sexpr(f.returns.get()), std::string("int"));
    QCOMPARE(f.body.size(), size_t(3));
    const ast::Stmt& loop = *f.body[0];
    QCOMPARE(int(loop.kind), int(StmtKind::For));
    QCOMPARE(sexpr(loop.targets[0].get()), std::string("(tuple i (ptuple p q))"));
    QCOMPARE(loop.orelse.size(), size_t(1));
    const ast::Stmt& cond = *loop.body[0];
    QCOMPARE(int(cond.kind), int(StmtKind::If));
    QCOMPARE(int(cond.body[0]->kind), int(StmtKind::Continue));
    QCOMPARE(cond.orelse.size(), size_t(1));
    QCOMPARE(int(cond.orelse[0]->kind), int(StmtKind::If));  // elif
    QCOMPARE(int(cond.orelse[0]->body[0]->kind), int(StmtKind::Break));
    QCOMPARE(int(cond.orelse[0]->orelse[0]->kind), int(StmtKind::Pass));
    QCOMPARE(int(f.body[1]->kind), int(StmtKind::While));
    QCOMPARE(int(f.body[1]->body[0]->op), int(ast::Op::Sub));
    QCOMPARE(sexpr(f.body[2]->value.get()), std::string("(tuple a b)"));
    QVERIFY(b[13]->params[0].keywordOnly);
    QVERIFY(!b[13]->body[0]->value);
    // Compound statement spans cover the header up to its ':'.
    QCOMPARE(loop.span, (SourceSpan{16, 5, 31, 254}));
    // Unparse and parse again: same tree.
    ParseResult again = parseScript(unparse(r.module));
    QVERIFY(again.diagnostics.empty());
    QVERIFY(sameTree(r.module, again.module));
  }

  void semicolonsAndOneLineSuites() {
    ParseResult r = parseScript("a = 1; b = 2;\nif a: b = 3; c = 4\n");
    QVERIFY(r.diagnostics.empty());
    QCOMPARE(r.module.body.size(), size_t(3));
    QCOMPARE(r.module.body[2]->body.size(), size_t(2));
  }

  void acceptanceSpans() {
    const std::string src = readKernel("two_kernels.py");
    ParseResult r = parseScript(src, "two_kernels.py");
    QVERIFY(r.diagnostics.empty());
    const ast::Block& b = r.module.body;
    QCOMPARE(b.size(), size_t(12));
    // `reg_layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])`, line 7
    const ast::Expr& layoutArg = *b[3]->value->args[1];
    QCOMPARE(int(layoutArg.kind), int(ExprKind::Subscript));
    QCOMPARE(layoutArg.span, (SourceSpan{7, 25, 43, 333}));
    QCOMPARE(layoutArg.args[1]->span, (SourceSpan{7, 27, 40, 335}));
    // the first T.cuda.tile.apply call of `activation`, line 20
    const ast::Stmt& activation = *b[5];
    QCOMPARE(activation.name, std::string("activation"));
    QCOMPARE(activation.nameSpan, (SourceSpan{17, 5, 10, 570}));
    QCOMPARE(activation.params[1].span, (SourceSpan{17, 52, 3, 617}));
    const ast::Expr& apply = *activation.body[2]->value;
    QCOMPARE(int(apply.kind), int(ExprKind::Call));
    QCOMPARE(apply.span, (SourceSpan{20, 5, 63, 789}));
    QCOMPARE(apply.args[0]->span, (SourceSpan{20, 5, 17, 789}));  // T.cuda.tile.apply
    QCOMPARE(apply.keywords[0].name, std::string("scope"));
    QCOMPARE(apply.keywords[0].span, (SourceSpan{20, 56, 11, 840}));
    // decorated def: the statement starts at `def`, the decorator has its own span
    QCOMPARE(b[4]->span.line, 11);
    QCOMPARE(b[4]->decorators[0]->span, (SourceSpan{10, 2, 24, 381}));
    // the final for loop's iterable spans lines 52..55
    const ast::Stmt& loop = *b[11];
    QCOMPARE(loop.value->span, (SourceSpan{52, 27, 162, 1933}));
    QCOMPARE(loop.targets[0]->args.size(), size_t(3));

    // A multi-line call in affine_relu.py (lines 17-19).
    ParseResult ar = parseScript(readKernel("affine_relu.py"));
    QVERIFY(ar.diagnostics.empty());
    const ast::Stmt& kernel = *ar.module.body[4];
    QCOMPARE(kernel.body[4]->value->span, (SourceSpan{17, 5, 111, 690}));
    QCOMPARE(kernel.body[4]->span, (SourceSpan{17, 5, 111, 690}));
  }

  void roundTripAcceptance_data() {
    QTest::addColumn<QString>("name");
    for (const char* n : kKernels) QTest::newRow(n) << QString::fromUtf8(n);
  }
  void roundTripAcceptance() {
    QFETCH(QString, name);
    const std::string src = readKernel(name.toUtf8().constData());
    QVERIFY(!src.empty());
    ParseResult first = parseScript(src, name.toStdString());
    QVERIFY2(first.diagnostics.empty(), formatGcc(first.diagnostics, "x").c_str());
    const std::string printed = unparse(first.module);
    ParseResult second = parseScript(printed);
    QVERIFY2(second.diagnostics.empty(), printed.c_str());
    QVERIFY(sameTree(first.module, second.module));
    QCOMPARE(unparse(second.module), printed);  // canonical form is a fixed point
    // CRLF line endings and tabs give the same tree.
    std::string crlf;
    for (char c : src) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    ParseResult third = parseScript(crlf);
    QVERIFY(third.diagnostics.empty());
    QVERIFY(sameTree(first.module, third.module));
    // A changed tree is not the same.
    ParseResult other = parseScript(src + "\nx = 1\n");
    QVERIFY(!sameTree(first.module, other.module));
  }

  void sameTreeDistinguishes() {
    auto e = [](const char* s) { return parseExpression(s).expr; };
    QVERIFY(sameTree(*e("(a + b)"), *e("a+b")));
    QVERIFY(!sameTree(*e("a + b"), *e("a - b")));
    QVERIFY(!sameTree(*e("(a, b)"), *e("a, b")));
    QVERIFY(!sameTree(*e("f(a, k=1)"), *e("f(a, j=1)")));
    QVERIFY(!sameTree(*e("a[1:2]"), *e("a[1:2:3]")));
    QVERIFY(!sameTree(*e("1"), *e("1.0")));
    QVERIFY(!sameTree(*e("'a'"), *e("'b'")));
  }

  void errors_data() {
    QTest::addColumn<QString>("src");
    QTest::addColumn<QString>("code");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("col");
    QTest::addColumn<int>("statements");  // top-level statements that survive
    struct Case {
      const char* name;
      const char* src;
      const char* code;
      int line, col, statements;
    };
    const Case cases[] = {
        {"unexpected token", "a = 1\nif a b:\n    c = 2\nelse:\n    c = 3\nz = 3\n", "E0001", 2, 6,
         2},
        {"missing operand", "a = 1 +\nz = 3\n", "E0001", 1, 8, 1},
        {"unterminated string", "a = 1\nb = 'abc\nz = 3\n", "E0002", 2, 5, 2},
        {"inconsistent dedent", "if a:\n        b = 1\n    c = 2\nz = 3\n", "E0003", 3, 5, 2},
        {"unexpected indent", "a = 1\n    b = 2\nz = 3\n", "E0004", 2, 5, 3},
        {"expected block", "def f():\nreturn 1\nz = 3\n", "E0005", 2, 1, 2},
        {"expected block at eof", "a = 1\nwhile a:\n", "E0005", 3, 1, 2},
        {"unclosed paren", "a = 1\nb = foo(1, 2\ndef g():\n    return 2\nz = 3\n", "E0006", 2, 13,
         3},
        {"mismatched bracket", "a = [1, 2)\nz = 3\n", "E0006", 1, 10, 1},
        {"unclosed at eof", "z = 3\na = (1,\n", "E0006", 2, 8, 1},
        {"invalid character", "a = 1 $ 2\nz = 3\n", "E0007", 1, 7, 1},
        {"invalid number", "a = 0x\nz = 3\n", "E0008", 1, 5, 1},
        {"unsupported class", "class A:\n    x = 1\nz = 3\n", "E0010", 1, 1, 1},
        {"unsupported comprehension", "a = [i for i in y]\nz = 3\n", "E0010", 1, 8, 1},
        {"unsupported set", "a = {1, 2}\nz = 3\n", "E0010", 1, 6, 1},
        {"assign to call", "f() = 1\nz = 3\n", "E0011", 1, 1, 1},
        {"assign to literal", "a, 1 = x\nz = 3\n", "E0011", 1, 4, 1},
        {"break outside loop", "break\nz = 3\n", "E0012", 1, 1, 1},
        {"return outside function", "return 1\nz = 3\n", "E0012", 1, 1, 1},
        {"default order", "def f(a=1, b):\n    pass\nz = 3\n", "E0013", 1, 12, 1},
        {"positional after keyword", "f(a=1, b)\nz = 3\n", "E0013", 1, 8, 1},
        {"bad escape", "a = '\\x4'\nz = 3\n", "E0014", 1, 6, 1},
        {"decorator at block end", "if x:\n    @dec\ny = 1\nz = 3\n", "E0001", 3, 1, 3},
        {"stray else", "else:\n    a = 1\nz = 3\n", "E0001", 1, 1, 1},
        {"mistyped def", "dfe f(x):\n    return x\nz = 3\n", "E0001", 1, 5, 1},
        {"elif header", "if a:\n    pass\nelif b c:\n    pass\nelse:\n    pass\nz = 3\n", "E0001",
         3, 8, 1},
    };
    for (const Case& c : cases)
      QTest::newRow(c.name) << QString::fromUtf8(c.src) << QString::fromUtf8(c.code) << c.line
                            << c.col << c.statements;
  }
  void errors() {
    QFETCH(QString, src);
    QFETCH(QString, code);
    QFETCH(int, line);
    QFETCH(int, col);
    QFETCH(int, statements);
    ParseResult r = parseScript(src.toStdString());
    QVERIFY2(r.diagnostics.size() == 1, formatGcc(r.diagnostics, "x").c_str());
    QCOMPARE(QString::fromStdString(r.diagnostics[0].code), code);
    QCOMPARE(r.diagnostics[0].span.line, line);
    QCOMPARE(r.diagnostics[0].span.col, col);
    QCOMPARE(int(r.module.body.size()), statements);
    // Diagnostic messages are lower-case and have no trailing period.
    const std::string& m = r.diagnostics[0].message;
    QVERIFY(!m.empty() && !(m[0] >= 'A' && m[0] <= 'Z') && m.back() != '.');
  }

  void errorMessages() {
    ParseResult r = parseScript("a = 1\nb = foo(1, 2\ndef g():\n    pass\n");
    QCOMPARE(r.diagnostics[0].message,
             std::string("expected ')' to close '(' at 2:8, found newline"));
    ParseResult eof = parseScript("a = [1,\n  2");
    QCOMPARE(eof.diagnostics[0].message,
             std::string("expected ']' to close '[' at 1:5, found end of file"));
    ParseResult blk = parseScript("if x:\ny = 1\n");
    QCOMPARE(blk.diagnostics[0].message,
             std::string("expected an indented block after 'if' statement on line 1, found 'y'"));
    ParseResult colon = parseScript("for i in range(4)\n    pass\n");
    QCOMPARE(colon.diagnostics[0].message,
             std::string("expected ':' after the 'for' header, found newline"));
  }

  void deepNestingIsAnError() {
    const std::string deep =
        "x = " + std::string(300, '(') + "1" + std::string(300, ')') + "\nz = 3\n";
    ParseResult r = parseScript(deep);
    QCOMPARE(r.diagnostics.size(), size_t(1));
    QCOMPARE(r.diagnostics[0].code, std::string("E0009"));
    QCOMPARE(r.module.body.size(), size_t(1));
    // 150 levels are fine.
    const std::string ok = "x = " + std::string(150, '(') + "1" + std::string(150, ')') + "\n";
    QVERIFY(parseScript(ok).diagnostics.empty());
    std::string blocks;
    for (int i = 0; i < 150; ++i) blocks += std::string(size_t(i), ' ') + "if x:\n";
    blocks += std::string(150, ' ') + "pass\nz = 3\n";
    ParseResult b = parseScript(blocks);
    QCOMPARE(b.diagnostics.size(), size_t(1));
    QCOMPARE(b.diagnostics[0].code, std::string("E0009"));
    QCOMPARE(int(b.module.body.back()->kind), int(StmtKind::Assign));
  }

  // One typo in the middle of a test kernel gives exactly one diagnostic, on the typo's
  // line, and everything after it is still parsed.
  void oneTypoOneError_data() {
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<int>("line");
    const std::tuple<const char*, const char*, int> typos[] = {
        {"def silu(value: T.float32) -> T.float32:", "def silu(value: T.float32) -> T.float32", 10},
        {"registers, registers, scope=\"cta\")", "registers, registers, scope=\"cta\"", 21},
        {"registers, registers, scope=\"cta\")", "registers, registers, scope=\"cta)", 21},
        {"layout=register_layout)", "layout=register_layout))", 19},
        {"@T.function\ndef affine_relu(", "@T.function\ndfe affine_relu(", 14},
        {"    T.cuda.tile.ewise(", "   T.cuda.tile.ewise(", 21},
        {"registers, A, scope", "registers A, scope", 20},
        {"(2, 32, 4), \"float32\", layout", "(2, 32, 4) \"float32\", layout", 19},
        {"    registers = T", "    registers = = T", 19},
        {"value / (T.float32(1)", "value / (T.float32(1) $", 11},
        {"return value", "retrun value", 11},
        {"import numpy as np\n", "import numpy as np.\n", 24},
    };
    for (const auto& [from, to, line] : typos)
      QTest::newRow(to) << QString::fromUtf8(from) << QString::fromUtf8(to) << line;
  }
  void oneTypoOneError() {
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(int, line);
    std::string src = readKernel("silu.py");
    const size_t at = src.find(from.toStdString());
    QVERIFY(at != std::string::npos);
    src.replace(at, size_t(from.toUtf8().size()), to.toStdString());
    ParseResult r = parseScript(src);
    QVERIFY2(r.diagnostics.size() == 1, formatGcc(r.diagnostics, "x").c_str());
    QCOMPARE(r.diagnostics[0].span.line, line);
    // The statements after the typo survive: the script ends with the numpy check.
    const ast::Stmt& last = *r.module.body.back();
    QCOMPARE(int(last.kind), int(StmtKind::ExprStmt));
    QCOMPARE(sexpr(last.value->args[0].get()), std::string("(. (. np testing) assert_allclose)"));
    QVERIFY(r.module.body.size() >= 9);
  }
};

QTEST_APPLESS_MAIN(TstParser)
#include "tst_parser.moc"
