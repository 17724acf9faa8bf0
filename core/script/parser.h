// The front door of the script module: text in, AST and diagnostics out. The lexer produces
// INDENT/DEDENT tokens (tabs to multiples of 8, as Python), the parser is recursive descent with
// Python precedence and recovers at the next statement, so one typo gives one error.
#pragma once

#include <string>
#include <string_view>

#include "core/diag/diagnostic.h"
#include "core/script/ast.h"

namespace tirx {

struct ParseResult {
  ast::Module module;       ///< whatever could be parsed (statements with errors are skipped)
  Diagnostics diagnostics;  ///< syntax errors: codes E0001..E0099 (see docs/diagnostics.md)
};

/// Parse a whole script. Never throws, never loops forever; any byte string is accepted.
ParseResult parseScript(std::string_view source, std::string fileName = "<script>");

/// Parse a single expression (e.g. a layout typed into the layout view:
/// `S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]`). Trailing tokens are an error.
struct ExprParseResult {
  ast::ExprPtr expr;  ///< null on error
  Diagnostics diagnostics;
};
ExprParseResult parseExpression(std::string_view source);

/// Print an AST back as canonical Python source (normalised spacing, 4-space indents,
/// minimal parentheses). parse(unparse(parse(x))) == parse(x) structurally.
std::string unparse(const ast::Module& module);
std::string unparse(const ast::Expr& expr);

/// Structural equality ignoring spans (for round-trip tests).
bool sameTree(const ast::Module& a, const ast::Module& b);
bool sameTree(const ast::Expr& a, const ast::Expr& b);

}  // namespace tirx
