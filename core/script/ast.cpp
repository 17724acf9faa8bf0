// Small helpers that belong to the AST itself: operator spellings and line splitting.
#include "core/script/ast.h"

namespace tirx::ast {

const char* opSpelling(Op op) {
  switch (op) {
    case Op::None:
      return "";
    case Op::Add:
      return "+";
    case Op::Sub:
      return "-";
    case Op::Mul:
      return "*";
    case Op::Div:
      return "/";
    case Op::FloorDiv:
      return "//";
    case Op::Mod:
      return "%";
    case Op::Pow:
      return "**";
    case Op::MatMul:
      return "@";
    case Op::BitAnd:
      return "&";
    case Op::BitOr:
      return "|";
    case Op::BitXor:
      return "^";
    case Op::LShift:
      return "<<";
    case Op::RShift:
      return ">>";
    case Op::Neg:
      return "-";
    case Op::Pos:
      return "+";
    case Op::Not:
      return "not";
    case Op::Invert:
      return "~";
    case Op::And:
      return "and";
    case Op::Or:
      return "or";
    case Op::Eq:
      return "==";
    case Op::NotEq:
      return "!=";
    case Op::Lt:
      return "<";
    case Op::LtE:
      return "<=";
    case Op::Gt:
      return ">";
    case Op::GtE:
      return ">=";
    case Op::Is:
      return "is";
    case Op::IsNot:
      return "is not";
    case Op::In:
      return "in";
    case Op::NotIn:
      return "not in";
  }
  return "";
}

std::vector<std::string> splitLines(const std::string& source) {
  // "\n", "\r\n" and a lone "\r" all end a line, as in the lexer.
  std::vector<std::string> lines;
  size_t start = 0;
  const size_t n = source.size();
  for (size_t i = 0; i < n; ++i) {
    const char c = source[i];
    if (c != '\n' && c != '\r') continue;
    lines.emplace_back(source, start, i - start);
    if (c == '\r' && i + 1 < n && source[i + 1] == '\n') ++i;
    start = i + 1;
  }
  if (start < n || lines.empty()) lines.emplace_back(source, start, n - start);
  return lines;
}

bool isIntBuiltinName(const std::string& name) {
  return name == "max" || name == "min" || name == "abs";
}

bool isIntBuiltinCall(const Expr& e) {
  if (e.kind != ExprKind::Call || e.args.empty() || e.args[0]->kind != ExprKind::Name ||
      !e.keywords.empty() || !isIntBuiltinName(e.args[0]->text))
    return false;
  for (size_t i = 1; i < e.args.size(); ++i)
    if (e.args[i]->kind == ExprKind::Starred) return false;
  return e.args[0]->text == "abs" ? e.args.size() == 2 : e.args.size() >= 3;
}

}  // namespace tirx::ast
