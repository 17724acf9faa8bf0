// The abstract syntax tree of the Python subset TIRx scripts are written in (imports, module
// constants, decorated defs, statements, expressions). Every node carries a SourceSpan. The tree
// is a plain value owned by Module; nodes are uniform structs with a kind discriminator so that
// passes (sema, the harness interpreter, the GUI outline) can walk it without visitor boilerplate.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/diag/diagnostic.h"

namespace tirx::ast {

enum class ExprKind {
  Name,       ///< text = identifier
  Int,        ///< intValue
  Float,      ///< floatValue
  Str,        ///< text = decoded string value
  Bool,       ///< boolValue (True/False)
  None,       ///< None
  Attribute,  ///< args[0] = object, text = attribute name
  Subscript,  ///< args[0] = object, args[1] = index (a Tuple for `a[i, j]`, a Slice for `a[1:2]`)
  Call,       ///< args[0] = callee, args[1..] = positional arguments, keywords
  Tuple,      ///< args = elements (parenthesised or bare `a, b`)
  List,       ///< args = elements
  Dict,       ///< args = k0, v0, k1, v1, ...
  Slice,      ///< args[0..2] = lower, upper, step; each may be null
  Unary,      ///< op, args[0]
  Binary,     ///< op, args[0], args[1]
  Compare,    ///< args[0] = left, args[1..] = comparators, ops[i] compares args[i] with args[i+1]
  BoolOp,     ///< op (And/Or), args = operands (two or more)
  IfExp,      ///< args[0] = body, args[1] = test, args[2] = orelse  (`a if c else b`)
  Lambda,     ///< params (names only), args[0] = body
  Starred,    ///< args[0] (`*xs` in a call)
  /// An f-string (with the plain literals concatenated to it): args = the parts in order, each a
  /// Str (literal text, escapes and `{{`/`}}` decoded; adjacent literal text merged) or a
  /// FormattedValue. `f"{x=}"` holds the Str "x=" and a FormattedValue, as Python's ast does.
  FString,
  /// One replacement field `{value!c:spec}` of an FString: args[0] = value, args[1] (present
  /// only when a `:` was written) = the format spec, itself an FString (its fields may nest one
  /// level); text = the conversion ("", "s", "r" or "a"). The span covers the braces.
  FormattedValue,
};

enum class Op {
  None,
  // binary
  Add,
  Sub,
  Mul,
  Div,
  FloorDiv,
  Mod,
  Pow,
  MatMul,
  BitAnd,
  BitOr,
  BitXor,
  LShift,
  RShift,
  // unary
  Neg,
  Pos,
  Not,
  Invert,
  // boolean
  And,
  Or,
  // comparison
  Eq,
  NotEq,
  Lt,
  LtE,
  Gt,
  GtE,
  Is,
  IsNot,
  In,
  NotIn,
};

/// Python spelling of an operator ("+", "//", "not in", ...).
const char* opSpelling(Op op);

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Keyword {
  std::string name;  ///< empty for `**kwargs`
  ExprPtr value;
  SourceSpan span;  ///< covers `name=value`
};

struct Param {
  std::string name;
  ExprPtr annotation;        ///< may be null
  ExprPtr defaultValue;      ///< may be null
  bool keywordOnly = false;  ///< after a bare `*`
  bool star = false;         ///< `*args`
  bool doubleStar = false;   ///< `**kwargs`
  SourceSpan span;           ///< the parameter name
};

struct Expr {
  ExprKind kind = ExprKind::None;
  SourceSpan span;
  std::string text;
  int64_t intValue = 0;
  double floatValue = 0;
  bool boolValue = false;
  Op op = Op::None;
  std::vector<ExprPtr> args;
  std::vector<Keyword> keywords;
  std::vector<Op> ops;         ///< Compare only
  std::vector<Param> params;   ///< Lambda only
  bool parenthesized = false;  ///< written inside ( ) — keeps `(a)` distinct from `a` for tuples
};

enum class StmtKind {
  Import,      ///< names
  ImportFrom,  ///< module, names, level (leading dots)
  Assign,      ///< targets (chained `a = b = v` gives two), value
  AugAssign,   ///< targets[0], op, value
  AnnAssign,   ///< targets[0], annotation, value (may be null)
  ExprStmt,    ///< value
  For,         ///< targets[0] = loop target, value = iterable, body, orelse
  While,       ///< value = test, body, orelse
  If,          ///< value = test, body, orelse (an `elif` is a nested If alone in orelse)
  Return,      ///< value (may be null)
  Pass,
  Break,
  Continue,
  FunctionDef,  ///< name, params, returns, decorators, body
  Assert,       ///< value = test, annotation = message (may be null)
  Del,          ///< targets
  Global,       ///< names (asname empty)
};

struct Alias {
  std::string name;    ///< dotted name ("torch.nn.functional") or imported symbol
  std::string asname;  ///< empty when absent
  SourceSpan span;
};

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

struct Stmt {
  StmtKind kind = StmtKind::Pass;
  SourceSpan span;  ///< the whole statement's first line (header line for compound statements)
  std::vector<ExprPtr> targets;
  ExprPtr value;
  ExprPtr annotation;
  Op op = Op::None;
  Block body;
  Block orelse;
  // FunctionDef
  std::string name;
  SourceSpan nameSpan;
  std::vector<Param> params;
  ExprPtr returns;
  std::vector<ExprPtr> decorators;
  // Import / ImportFrom
  std::string module;
  int level = 0;
  std::vector<Alias> names;
};

struct Module {
  std::string fileName;
  std::string source;  ///< the text the spans refer to
  Block body;
};

/// Lines of `source` (without newlines), for diagnostics and the editor.
std::vector<std::string> splitLines(const std::string& source);

/// Python's integer builtins that static folding evaluates (decision STATIC-IF-1): whether `name`
/// is one ("max", "min", "abs"), and whether `e` is a call of one by a bare name with positional,
/// unstarred arguments of a count Python accepts (max/min two or more, abs one). Callers check
/// that the script does not rebind the name.
bool isIntBuiltinName(const std::string& name);
bool isIntBuiltinCall(const Expr& e);

}  // namespace tirx::ast
