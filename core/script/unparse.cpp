// unparse (AST -> canonical source) and sameTree (structural equality ignoring spans).
// unparse prints 4-space indents, single spaces around binary operators, double-quoted strings
// and the fewest parentheses that keep the tree: an operand is wrapped when its precedence is
// below what its position requires. Tuples keep their own parentheses as written (their
// `parenthesized` flag), so parse(unparse(t)) is sameTree-equal to t for every parsed tree.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/script/parser.h"

namespace tirx {

using ast::Expr;
using ast::ExprKind;
using ast::Op;
using ast::Stmt;
using ast::StmtKind;

namespace {

// Precedence levels, lowest first (Python's table).
enum Prec {
  kTuple = 0,
  kLambda,
  kIfExp,
  kOr,
  kAnd,
  kNot,
  kCompare,
  kBitOr,
  kBitXor,
  kBitAnd,
  kShift,
  kArith,
  kTerm,
  kUnary,
  kPow,
  kPrimary,
  kAtom
};

// The quotes an f-string may be printed with, in order of preference.
constexpr const char* kQuotes[] = {"\"", "'", "\"\"\"", "'''"};

int binaryPrec(Op op) {
  switch (op) {
    case Op::BitOr:
      return kBitOr;
    case Op::BitXor:
      return kBitXor;
    case Op::BitAnd:
      return kBitAnd;
    case Op::LShift:
    case Op::RShift:
      return kShift;
    case Op::Add:
    case Op::Sub:
      return kArith;
    case Op::Pow:
      return kPow;
    default:
      return kTerm;
  }
}

int precOf(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Tuple:
      return e.parenthesized ? kAtom : kTuple;
    case ExprKind::Lambda:
      return kLambda;
    case ExprKind::IfExp:
      return kIfExp;
    case ExprKind::BoolOp:
      return e.op == Op::Or ? kOr : kAnd;
    case ExprKind::Unary:
      return e.op == Op::Not ? kNot : kUnary;
    case ExprKind::Compare:
      return kCompare;
    case ExprKind::Binary:
      return binaryPrec(e.op);
    case ExprKind::Attribute:
    case ExprKind::Subscript:
    case ExprKind::Call:
      return kPrimary;
    case ExprKind::Slice:
      return kTuple;
    case ExprKind::Starred:
      return kBitOr;
    default:
      return kAtom;
  }
}

void quoteString(const std::string& s, std::string& out) {
  out += '"';
  for (char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (u < 0x20 || u == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", u);
          out += buf;
        } else {
          out += c;  // bytes >= 0x80 stay raw: decoding leaves them unchanged
        }
    }
  }
  out += '"';
}

void formatFloat(double d, std::string& out) {
  if (std::isinf(d)) {
    out += "1e999";
    return;
  }
  if (std::isnan(d)) {
    out += "(1e999 - 1e999)";
    return;
  }
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, d);
  std::string text(buf, r.ptr);
  if (text.find_first_of(".en") == std::string::npos) text += ".0";
  out += text;
}

class Printer {
 public:
  std::string out;

  void expr(const Expr* e, int minPrec) {
    if (!e) return;
    // In an f-string field a lambda's ':' would end the expression: it is always parenthesised.
    const bool wrap =
        precOf(*e) < minPrec || (!m_terminators.empty() && e->kind == ExprKind::Lambda);
    if (wrap) out += '(';
    exprBody(*e);
    if (wrap) out += ')';
  }

  void params(const std::vector<ast::Param>& ps) {
    bool first = true, starShown = false;
    for (const ast::Param& p : ps) {
      if (!first) out += ", ";
      first = false;
      if (p.keywordOnly && !starShown) {
        out += "*, ";
        starShown = true;
      }
      if (p.star) {
        out += '*';
        starShown = true;
      }
      if (p.doubleStar) out += "**";
      out += p.name;
      if (p.annotation) {
        out += ": ";
        expr(p.annotation.get(), kLambda);
      }
      if (p.defaultValue) {
        out += p.annotation ? " = " : "=";
        expr(p.defaultValue.get(), kLambda);
      }
    }
  }

  void block(const ast::Block& body, int indent) {
    if (body.empty()) {
      out.append(static_cast<size_t>(indent) * 4, ' ');
      out += "pass\n";
      return;
    }
    for (size_t i = 0; i < body.size(); ++i) {
      const bool def = body[i]->kind == StmtKind::FunctionDef;
      const bool prevDef = i > 0 && body[i - 1]->kind == StmtKind::FunctionDef;
      if (i > 0 && (def || prevDef)) out += indent == 0 ? "\n\n" : "\n";
      stmt(*body[i], indent);
    }
  }

 private:
  // ---- f-strings. Python 3.11 ends an f-string at the first occurrence of its quote, and its
  // fields may hold no backslash: inside a field (m_terminators not empty) strings are printed
  // without escapes, in a quote at which none of the enclosing f-strings would end; a field or
  // string that cannot be printed so sets m_failed, and the f-string tries its next quote.
  std::vector<std::string> m_terminators;  // the quotes of the f-strings being printed
  bool m_failed = false;

  bool endsAnFString(const std::string& text) const {
    for (const std::string& t : m_terminators)
      if (text.find(t) != std::string::npos) return true;
    return false;
  }

  /// A string literal inside an f-string field: no escapes, a quote that fits.
  void fieldString(const std::string& s) {
    for (char c : s) {
      const unsigned char u = static_cast<unsigned char>(c);
      if (c == '\\' || (u < 0x20 && c != '\t' && c != '\n') || u == 0x7f) {
        m_failed = true;
        return;
      }
    }
    for (const char* q : kQuotes) {
      const std::string quote(q);
      if (s.find(quote[0]) != std::string::npos) continue;
      if (quote.size() == 1 && s.find('\n') != std::string::npos) continue;
      const std::string literal = quote + s + quote;
      if (endsAnFString(literal)) continue;
      out += literal;
      return;
    }
    m_failed = true;
  }

  /// Literal text of an f-string quoted by `quote`; in a spec (`inSpec`) braces are escapes,
  /// since doubling them means something else there.
  void fstringLiteral(const std::string& s, const std::string& quote, bool inSpec) {
    const bool inField = m_terminators.size() > 1;  // an f-string inside another's field
    for (char c : s) {
      const unsigned char u = static_cast<unsigned char>(c);
      std::string esc;
      if ((c == '{' || c == '}') && !inSpec) {
        out += std::string(2, c);
        continue;
      }
      if (c == '{' || c == '}') {
        esc = c == '{' ? "\\x7b" : "\\x7d";
      } else if (c == '\\') {
        esc = "\\\\";
      } else if (c == quote[0]) {
        esc = std::string("\\") + c;
      } else if (c == '\n') {
        esc = "\\n";
      } else if (c == '\r') {
        esc = "\\r";
      } else if (c == '\t') {
        esc = "\\t";
      } else if (u < 0x20 || u == 0x7f) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", u);
        esc = buf;
      } else {
        out += c;
        continue;
      }
      if (inField) {  // no backslash anywhere in a field
        m_failed = true;
        return;
      }
      out += esc;
    }
  }

  /// The parts of an FString (or of a format spec) between the quotes.
  void fstringParts(const Expr& e, const std::string& quote, bool inSpec) {
    for (const ast::ExprPtr& part : e.args) {
      if (!part || m_failed) return;
      if (part->kind == ExprKind::Str) {
        fstringLiteral(part->text, quote, inSpec);
        continue;
      }
      if (part->kind != ExprKind::FormattedValue || part->args.empty()) continue;
      out += '{';
      const size_t fieldStart = out.size();
      expr(part->args[0].get(), kTuple);
      std::string field = out.substr(fieldStart);
      out.resize(fieldStart);
      if (!field.empty() && field[0] == '{') field.insert(field.begin(), ' ');  // not `{{`
      if (endsAnFString(field)) m_failed = true;
      out += field;
      if (!part->text.empty()) out += "!" + part->text;
      if (part->args.size() > 1 && part->args[1]) {
        out += ':';
        fstringParts(*part->args[1], quote, true);
      }
      out += '}';
    }
  }

  void fstring(const Expr& e) {
    const bool nested = !m_terminators.empty();
    const bool failedBefore = m_failed;
    std::string first;
    for (const char* q : kQuotes) {
      const std::string quote(q);
      std::string saved = std::move(out);
      out = "f" + quote;
      m_failed = false;
      m_terminators.push_back(quote);
      fstringParts(e, quote, false);
      m_terminators.pop_back();
      out += quote;
      std::string printed = std::move(out);
      out = std::move(saved);
      if (!m_failed && !(nested && endsAnFString(printed))) {
        out += printed;
        m_failed = failedBefore;
        return;
      }
      if (first.empty()) first = std::move(printed);
    }
    // No quote fits (never for a tree parsed from Python 3.11 source): the closest text.
    out += first;
    m_failed = true;
  }

  void list(const std::vector<ast::ExprPtr>& items, int minPrec) {
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) out += ", ";
      expr(items[i].get(), minPrec);
    }
  }

  void subscriptElement(const Expr* e) {
    if (e && e->kind == ExprKind::Slice) {
      for (size_t i = 0; i < 3 && i < e->args.size(); ++i) {
        if (i == 1) out += ':';
        if (i == 2 && e->args[2]) out += ':';
        expr(e->args[i].get(), kIfExp);
      }
      return;
    }
    expr(e, kLambda);
  }

  void subscript(const Expr& e) {
    if (e.args.size() < 2) return;
    expr(e.args[0].get(), kPrimary);
    out += '[';
    const Expr* index = e.args[1].get();
    if (index && index->kind == ExprKind::Tuple && !index->parenthesized && !index->args.empty()) {
      for (size_t i = 0; i < index->args.size(); ++i) {
        if (i) out += ", ";
        subscriptElement(index->args[i].get());
      }
      if (index->args.size() == 1) out += ',';
    } else {
      subscriptElement(index);
    }
    out += ']';
  }

  void call(const Expr& e) {
    if (e.args.empty()) return;
    expr(e.args[0].get(), kPrimary);
    out += '(';
    bool first = true;
    for (size_t i = 1; i < e.args.size(); ++i) {
      if (!first) out += ", ";
      first = false;
      expr(e.args[i].get(), kLambda);
    }
    for (const ast::Keyword& k : e.keywords) {
      if (!first) out += ", ";
      first = false;
      if (k.name.empty()) {
        out += "**";
        expr(k.value.get(), kBitOr);
      } else {
        out += k.name;
        out += '=';
        expr(k.value.get(), kLambda);
      }
    }
    out += ')';
  }

  void exprBody(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Name:
        out += e.text;
        break;
      case ExprKind::Int:
        out += std::to_string(e.intValue);
        break;
      case ExprKind::Float:
        formatFloat(e.floatValue, out);
        break;
      case ExprKind::Str:
        if (m_terminators.empty())
          quoteString(e.text, out);
        else
          fieldString(e.text);
        break;
      case ExprKind::FString:
        fstring(e);
        break;
      case ExprKind::FormattedValue:
        // Only ever a part of an FString (fstringParts); alone it prints as its value.
        if (!e.args.empty()) expr(e.args[0].get(), kAtom);
        break;
      case ExprKind::Bool:
        out += e.boolValue ? "True" : "False";
        break;
      case ExprKind::None:
        out += "None";
        break;
      case ExprKind::Attribute: {
        const Expr* obj = e.args.empty() ? nullptr : e.args[0].get();
        // `1.real` would lex as the float `1.` followed by a name.
        expr(obj, obj && (obj->kind == ExprKind::Int || obj->kind == ExprKind::Float) ? kAtom + 1
                                                                                      : kPrimary);
        out += '.';
        out += e.text;
        break;
      }
      case ExprKind::Subscript:
        subscript(e);
        break;
      case ExprKind::Call:
        call(e);
        break;
      case ExprKind::Tuple:
        if (e.parenthesized) out += '(';
        list(e.args, kLambda);
        if (e.args.size() == 1) out += ',';
        if (e.parenthesized) out += ')';
        break;
      case ExprKind::List:
        out += '[';
        list(e.args, kLambda);
        out += ']';
        break;
      case ExprKind::Dict:
        out += '{';
        for (size_t i = 0; i + 1 < e.args.size(); i += 2) {
          if (i) out += ", ";
          expr(e.args[i].get(), kIfExp);
          out += ": ";
          expr(e.args[i + 1].get(), kLambda);
        }
        out += '}';
        break;
      case ExprKind::Slice:
        subscriptElement(&e);
        break;
      case ExprKind::Unary:
        if (e.args.empty()) break;
        out += ast::opSpelling(e.op);
        if (e.op == Op::Not) out += ' ';
        expr(e.args[0].get(), e.op == Op::Not ? kNot : kUnary);
        break;
      case ExprKind::Binary: {
        if (e.args.size() < 2) break;
        const int p = binaryPrec(e.op);
        if (e.op == Op::Pow) {
          expr(e.args[0].get(), kPrimary);
          out += " ** ";
          expr(e.args[1].get(), kUnary);
          break;
        }
        expr(e.args[0].get(), p);
        out += ' ';
        out += ast::opSpelling(e.op);
        out += ' ';
        expr(e.args[1].get(), p + 1);
        break;
      }
      case ExprKind::Compare:
        if (e.args.empty()) break;
        expr(e.args[0].get(), kBitOr);
        for (size_t i = 0; i < e.ops.size() && i + 1 < e.args.size(); ++i) {
          out += ' ';
          out += ast::opSpelling(e.ops[i]);
          out += ' ';
          expr(e.args[i + 1].get(), kBitOr);
        }
        break;
      case ExprKind::BoolOp: {
        const int p = e.op == Op::Or ? kOr : kAnd;
        for (size_t i = 0; i < e.args.size(); ++i) {
          if (i) out += e.op == Op::Or ? " or " : " and ";
          expr(e.args[i].get(), p + 1);
        }
        break;
      }
      case ExprKind::IfExp:
        if (e.args.size() < 3) break;
        expr(e.args[0].get(), kOr);
        out += " if ";
        expr(e.args[1].get(), kOr);
        out += " else ";
        expr(e.args[2].get(), kLambda);
        break;
      case ExprKind::Lambda:
        out += "lambda";
        if (!e.params.empty()) {
          out += ' ';
          params(e.params);
        }
        out += ": ";
        if (!e.args.empty()) expr(e.args[0].get(), kLambda);
        break;
      case ExprKind::Starred:
        out += '*';
        if (!e.args.empty()) expr(e.args[0].get(), kBitOr);
        break;
    }
  }

  void pad(int indent) { out.append(static_cast<size_t>(indent) * 4, ' '); }

  void ifChain(const Stmt& s, int indent, const char* keyword) {
    pad(indent);
    out += keyword;
    out += ' ';
    expr(s.value.get(), kLambda);
    out += ":\n";
    block(s.body, indent + 1);
    if (s.orelse.size() == 1 && s.orelse[0]->kind == StmtKind::If) {
      ifChain(*s.orelse[0], indent, "elif");
    } else if (!s.orelse.empty()) {
      pad(indent);
      out += "else:\n";
      block(s.orelse, indent + 1);
    }
  }

  void elseBlock(const Stmt& s, int indent) {
    if (s.orelse.empty()) return;
    pad(indent);
    out += "else:\n";
    block(s.orelse, indent + 1);
  }

  void stmt(const Stmt& s, int indent) {
    if (s.kind == StmtKind::If) {
      ifChain(s, indent, "if");
      return;
    }
    if (s.kind == StmtKind::FunctionDef) {
      for (const ast::ExprPtr& d : s.decorators) {
        pad(indent);
        out += '@';
        expr(d.get(), kLambda);
        out += '\n';
      }
    }
    pad(indent);
    switch (s.kind) {
      case StmtKind::Import:
        out += "import ";
        for (size_t i = 0; i < s.names.size(); ++i) {
          if (i) out += ", ";
          out += s.names[i].name;
          if (!s.names[i].asname.empty()) out += " as " + s.names[i].asname;
        }
        break;
      case StmtKind::ImportFrom:
        out += "from ";
        out.append(static_cast<size_t>(s.level), '.');
        out += s.module;
        out += " import ";
        for (size_t i = 0; i < s.names.size(); ++i) {
          if (i) out += ", ";
          out += s.names[i].name;
          if (!s.names[i].asname.empty()) out += " as " + s.names[i].asname;
        }
        break;
      case StmtKind::Assign:
        for (const ast::ExprPtr& t : s.targets) {
          expr(t.get(), kTuple);
          out += " = ";
        }
        expr(s.value.get(), kTuple);
        break;
      case StmtKind::AugAssign:
        if (!s.targets.empty()) expr(s.targets[0].get(), kTuple);
        out += ' ';
        out += ast::opSpelling(s.op);
        out += "= ";
        expr(s.value.get(), kTuple);
        break;
      case StmtKind::AnnAssign:
        if (!s.targets.empty()) expr(s.targets[0].get(), kLambda);
        out += ": ";
        expr(s.annotation.get(), kLambda);
        if (s.value) {
          out += " = ";
          expr(s.value.get(), kTuple);
        }
        break;
      case StmtKind::ExprStmt:
        expr(s.value.get(), kTuple);
        break;
      case StmtKind::For:
        out += "for ";
        if (!s.targets.empty()) expr(s.targets[0].get(), kTuple);
        out += " in ";
        expr(s.value.get(), kTuple);
        out += ":\n";
        block(s.body, indent + 1);
        elseBlock(s, indent);
        return;
      case StmtKind::While:
        out += "while ";
        expr(s.value.get(), kLambda);
        out += ":\n";
        block(s.body, indent + 1);
        elseBlock(s, indent);
        return;
      case StmtKind::Return:
        out += "return";
        if (s.value) {
          out += ' ';
          expr(s.value.get(), kTuple);
        }
        break;
      case StmtKind::Pass:
        out += "pass";
        break;
      case StmtKind::Break:
        out += "break";
        break;
      case StmtKind::Continue:
        out += "continue";
        break;
      case StmtKind::FunctionDef:
        out += "def ";
        out += s.name;
        out += '(';
        params(s.params);
        out += ')';
        if (s.returns) {
          out += " -> ";
          expr(s.returns.get(), kLambda);
        }
        out += ":\n";
        block(s.body, indent + 1);
        return;
      case StmtKind::Assert:
        out += "assert ";
        expr(s.value.get(), kLambda);
        if (s.annotation) {
          out += ", ";
          expr(s.annotation.get(), kLambda);
        }
        break;
      case StmtKind::Del:
        out += "del ";
        list(s.targets, kBitOr);
        break;
      case StmtKind::Global:
        out += "global ";
        for (size_t i = 0; i < s.names.size(); ++i) {
          if (i) out += ", ";
          out += s.names[i].name;
        }
        break;
      case StmtKind::If:
        break;  // handled above
    }
    out += '\n';
  }
};

bool same(const ast::ExprPtr& a, const ast::ExprPtr& b) {
  if (!a || !b) return !a && !b;
  return sameTree(*a, *b);
}

bool sameList(const std::vector<ast::ExprPtr>& a, const std::vector<ast::ExprPtr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!same(a[i], b[i])) return false;
  return true;
}

bool sameParams(const std::vector<ast::Param>& a, const std::vector<ast::Param>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const ast::Param& x = a[i];
    const ast::Param& y = b[i];
    if (x.name != y.name || x.keywordOnly != y.keywordOnly || x.star != y.star ||
        x.doubleStar != y.doubleStar || !same(x.annotation, y.annotation) ||
        !same(x.defaultValue, y.defaultValue))
      return false;
  }
  return true;
}

bool sameBlock(const ast::Block& a, const ast::Block& b);

bool sameStmt(const Stmt& a, const Stmt& b) {
  if (a.kind != b.kind || a.op != b.op || a.name != b.name || a.module != b.module ||
      a.level != b.level || a.names.size() != b.names.size())
    return false;
  for (size_t i = 0; i < a.names.size(); ++i)
    if (a.names[i].name != b.names[i].name || a.names[i].asname != b.names[i].asname) return false;
  return sameList(a.targets, b.targets) && same(a.value, b.value) &&
         same(a.annotation, b.annotation) && sameParams(a.params, b.params) &&
         same(a.returns, b.returns) && sameList(a.decorators, b.decorators) &&
         sameBlock(a.body, b.body) && sameBlock(a.orelse, b.orelse);
}

bool sameBlock(const ast::Block& a, const ast::Block& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i] || !b[i]) {
      if (a[i] || b[i]) return false;
      continue;
    }
    if (!sameStmt(*a[i], *b[i])) return false;
  }
  return true;
}

}  // namespace

std::string unparse(const ast::Module& module) {
  Printer p;
  p.out.reserve(module.source.size() + 64);
  p.block(module.body, 0);
  if (module.body.empty()) p.out.clear();
  return std::move(p.out);
}

std::string unparse(const ast::Expr& expr) {
  Printer p;
  p.expr(&expr, kTuple);
  return std::move(p.out);
}

bool sameTree(const ast::Module& a, const ast::Module& b) {
  return sameBlock(a.body, b.body);
}

bool sameTree(const ast::Expr& a, const ast::Expr& b) {
  if (a.kind != b.kind || a.text != b.text || a.intValue != b.intValue || a.op != b.op ||
      a.boolValue != b.boolValue || a.ops != b.ops)
    return false;
  // Floats compare by value, with NaN equal to itself.
  if (!(a.floatValue == b.floatValue || (std::isnan(a.floatValue) && std::isnan(b.floatValue))))
    return false;
  // Parentheses only change the tree for tuples (`(a, b)` vs a bare `a, b`).
  if (a.kind == ExprKind::Tuple && a.parenthesized != b.parenthesized) return false;
  if (!sameList(a.args, b.args) || !sameParams(a.params, b.params)) return false;
  if (a.keywords.size() != b.keywords.size()) return false;
  for (size_t i = 0; i < a.keywords.size(); ++i) {
    if (a.keywords[i].name != b.keywords[i].name || !same(a.keywords[i].value, b.keywords[i].value))
      return false;
  }
  return true;
}

}  // namespace tirx
