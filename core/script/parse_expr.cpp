// Expressions, with Python's grammar and precedence (lowest first):
//   lambda; `a if c else b`; or; and; not; comparisons (chained, in, not in, is, is not);
//   |; ^; &; << >>; + -; * / // % @; unary - + ~; ** (right associative, binds tighter than a
//   unary operator on its left); primaries (calls, subscripts, attributes); atoms.
// The binary levels from `|` to `*` use precedence climbing, so the C++ stack depth per nesting
// level stays small. Every nesting level (brackets, unary chains, `**` chains, trailer and
// operator chains) counts against kMaxExprDepth so that no input builds a tree deep enough to
// overflow the stack of a later recursive pass.
#include <algorithm>

#include "core/script/parser_impl.h"

namespace tirx::script {

using ast::Expr;
using ast::ExprKind;
using ast::ExprPtr;
using ast::Op;

namespace {

ExprPtr makeExpr(ExprKind kind, SourceSpan span) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->span = span;
  return e;
}

// Binary operators from `|` (1) to `*` (6); 0 = not a binary operator.
int binaryPrec(Tok k, Op& op) {
  switch (k) {
    case Tok::Pipe:
      op = Op::BitOr;
      return 1;
    case Tok::Caret:
      op = Op::BitXor;
      return 2;
    case Tok::Amp:
      op = Op::BitAnd;
      return 3;
    case Tok::LShift:
      op = Op::LShift;
      return 4;
    case Tok::RShift:
      op = Op::RShift;
      return 4;
    case Tok::Plus:
      op = Op::Add;
      return 5;
    case Tok::Minus:
      op = Op::Sub;
      return 5;
    case Tok::Star:
      op = Op::Mul;
      return 6;
    case Tok::Slash:
      op = Op::Div;
      return 6;
    case Tok::DoubleSlash:
      op = Op::FloorDiv;
      return 6;
    case Tok::Percent:
      op = Op::Mod;
      return 6;
    case Tok::At:
      op = Op::MatMul;
      return 6;
    default:
      return 0;
  }
}

bool startsExpression(Tok k) {
  switch (k) {
    case Tok::Name:
    case Tok::Int:
    case Tok::Float:
    case Tok::String:
    case Tok::KwTrue:
    case Tok::KwFalse:
    case Tok::KwNone:
    case Tok::LParen:
    case Tok::LBracket:
    case Tok::LBrace:
    case Tok::Minus:
    case Tok::Plus:
    case Tok::Tilde:
    case Tok::KwNot:
    case Tok::KwLambda:
    case Tok::Star:
    case Tok::Ellipsis:
    case Tok::KwAwait:
    case Tok::KwYield:
    case Tok::Error:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool Parser::enterExpr() {
  if (m_exprDepth < kMaxExprDepth) return true;
  fail("E0009", cur().span,
       "expression nested too deeply (more than " + std::to_string(kMaxExprDepth) + " levels)");
  return false;
}

// testlist_star_expr: (test|star_expr) (',' (test|star_expr))* [',']
// With allowStar false the elements are plain tests (testlist).
ExprPtr Parser::parseTestListStarExpr(bool allowStar) {
  const SourceSpan start = cur().span;
  ExprPtr first = allowStar && at(Tok::Star) ? parseStarExpr() : parseTest();
  if (m_panic || !at(Tok::Comma)) return first;
  ExprPtr tuple = makeExpr(ExprKind::Tuple, start);
  tuple->args.push_back(std::move(first));
  while (!m_panic && accept(Tok::Comma)) {
    if (!startsExpression(cur().kind)) break;
    tuple->args.push_back(allowStar && at(Tok::Star) ? parseStarExpr() : parseTest());
  }
  tuple->span = spanFrom(start);
  return tuple;
}

// exprlist: (expr|star_expr) (',' (expr|star_expr))* [',']   (for targets, del)
ExprPtr Parser::parseExprList() {
  const SourceSpan start = cur().span;
  ExprPtr first = at(Tok::Star) ? parseStarExpr() : parseBinary(1);
  if (m_panic || !at(Tok::Comma)) return first;
  ExprPtr tuple = makeExpr(ExprKind::Tuple, start);
  tuple->args.push_back(std::move(first));
  while (!m_panic && accept(Tok::Comma)) {
    if (!startsExpression(cur().kind)) break;
    tuple->args.push_back(at(Tok::Star) ? parseStarExpr() : parseBinary(1));
  }
  tuple->span = spanFrom(start);
  return tuple;
}

// test: or_test ['if' or_test 'else' test] | lambdef
ExprPtr Parser::parseTest() {
  if (m_panic || !enterExpr()) return placeholder();
  DepthGuard guard(m_exprDepth);
  if (at(Tok::KwLambda)) return parseLambda();
  const SourceSpan start = cur().span;
  ExprPtr body = parseOrTest();
  if (m_panic || !at(Tok::KwIf)) return body;
  advance();
  ExprPtr test = parseOrTest();
  if (!expect(Tok::KwElse, "'else' in the conditional expression")) return placeholder();
  ExprPtr orelse = parseTest();
  ExprPtr e = makeExpr(ExprKind::IfExp, spanFrom(start));
  e->args.push_back(std::move(body));
  e->args.push_back(std::move(test));
  e->args.push_back(std::move(orelse));
  return e;
}

// lambdef: 'lambda' [varargslist] ':' test
ExprPtr Parser::parseLambda() {
  const SourceSpan start = cur().span;
  advance();
  ExprPtr e = makeExpr(ExprKind::Lambda, start);
  e->params = parseParams(Tok::Colon, false);
  if (!expect(Tok::Colon, "':' after the lambda parameters")) return placeholder();
  e->args.push_back(parseTest());
  e->span = spanFrom(start);
  return e;
}

// or_test: and_test ('or' and_test)*
ExprPtr Parser::parseOrTest() {
  const SourceSpan start = cur().span;
  ExprPtr first = parseAndTest();
  if (m_panic || !at(Tok::KwOr)) return first;
  ExprPtr e = makeExpr(ExprKind::BoolOp, start);
  e->op = Op::Or;
  e->args.push_back(std::move(first));
  while (!m_panic && accept(Tok::KwOr)) e->args.push_back(parseAndTest());
  e->span = spanFrom(start);
  return e;
}

// and_test: not_test ('and' not_test)*
ExprPtr Parser::parseAndTest() {
  const SourceSpan start = cur().span;
  ExprPtr first = parseNotTest();
  if (m_panic || !at(Tok::KwAnd)) return first;
  ExprPtr e = makeExpr(ExprKind::BoolOp, start);
  e->op = Op::And;
  e->args.push_back(std::move(first));
  while (!m_panic && accept(Tok::KwAnd)) e->args.push_back(parseNotTest());
  e->span = spanFrom(start);
  return e;
}

// not_test: 'not' not_test | comparison
ExprPtr Parser::parseNotTest() {
  if (!at(Tok::KwNot)) return parseComparison();
  if (!enterExpr()) return placeholder();
  DepthGuard guard(m_exprDepth);
  const SourceSpan start = cur().span;
  advance();
  ExprPtr operand = parseNotTest();
  ExprPtr e = makeExpr(ExprKind::Unary, spanFrom(start));
  e->op = Op::Not;
  e->args.push_back(std::move(operand));
  return e;
}

// comparison: expr (comp_op expr)*
// comp_op: '<'|'>'|'=='|'>='|'<='|'!='|'in'|'not' 'in'|'is'|'is' 'not'
ExprPtr Parser::parseComparison() {
  const SourceSpan start = cur().span;
  ExprPtr left = parseBinary(1);
  ExprPtr cmp;
  while (!m_panic) {
    Op op = Op::None;
    int width = 1;
    switch (cur().kind) {
      case Tok::Lt:
        op = Op::Lt;
        break;
      case Tok::Gt:
        op = Op::Gt;
        break;
      case Tok::EqEq:
        op = Op::Eq;
        break;
      case Tok::GtE:
        op = Op::GtE;
        break;
      case Tok::LtE:
        op = Op::LtE;
        break;
      case Tok::NotEq:
        op = Op::NotEq;
        break;
      case Tok::KwIn:
        op = Op::In;
        break;
      case Tok::KwNot:
        if (peekTok().kind == Tok::KwIn) {
          op = Op::NotIn;
          width = 2;
        }
        break;
      case Tok::KwIs:
        if (peekTok().kind == Tok::KwNot) {
          op = Op::IsNot;
          width = 2;
        } else {
          op = Op::Is;
        }
        break;
      default:
        break;
    }
    if (op == Op::None) break;
    for (int i = 0; i < width; ++i) advance();
    if (!cmp) {
      cmp = makeExpr(ExprKind::Compare, start);
      cmp->args.push_back(std::move(left));
    }
    cmp->ops.push_back(op);
    cmp->args.push_back(parseBinary(1));
  }
  if (!cmp) return left;
  cmp->span = spanFrom(start);
  return cmp;
}

// Precedence climbing over the binary levels `|` .. `*` (all left associative).
ExprPtr Parser::parseBinary(int minPrec) {
  const SourceSpan start = cur().span;
  ExprPtr left = parseFactor();
  const int savedDepth = m_exprDepth;
  while (!m_panic) {
    Op op = Op::None;
    const int prec = binaryPrec(cur().kind, op);
    if (prec == 0 || prec < minPrec) break;
    // A left-nested chain deepens the tree by one per operator.
    if (!enterExpr()) break;
    ++m_exprDepth;
    advance();
    ExprPtr right = parseBinary(prec + 1);
    ExprPtr e = makeExpr(ExprKind::Binary, spanFrom(start));
    e->op = op;
    e->args.push_back(std::move(left));
    e->args.push_back(std::move(right));
    left = std::move(e);
  }
  m_exprDepth = savedDepth;
  return left;
}

// factor: ('+'|'-'|'~') factor | power
ExprPtr Parser::parseFactor() {
  Op op = Op::None;
  if (at(Tok::Minus)) op = Op::Neg;
  if (at(Tok::Plus)) op = Op::Pos;
  if (at(Tok::Tilde)) op = Op::Invert;
  if (op == Op::None) return parsePower();
  if (!enterExpr()) return placeholder();
  DepthGuard guard(m_exprDepth);
  const SourceSpan start = cur().span;
  advance();
  ExprPtr operand = parseFactor();
  ExprPtr e = makeExpr(ExprKind::Unary, spanFrom(start));
  e->op = op;
  e->args.push_back(std::move(operand));
  return e;
}

// power: atom_expr ['**' factor]
ExprPtr Parser::parsePower() {
  const SourceSpan start = cur().span;
  ExprPtr base = parseAtomExpr();
  if (m_panic || !at(Tok::DoubleStar)) return base;
  if (!enterExpr()) return placeholder();
  DepthGuard guard(m_exprDepth);
  advance();
  ExprPtr exponent = parseFactor();
  ExprPtr e = makeExpr(ExprKind::Binary, spanFrom(start));
  e->op = Op::Pow;
  e->args.push_back(std::move(base));
  e->args.push_back(std::move(exponent));
  return e;
}

// atom_expr: atom trailer*
// trailer: '(' [arglist] ')' | '[' subscriptlist ']' | '.' NAME
ExprPtr Parser::parseAtomExpr() {
  const SourceSpan start = cur().span;
  ExprPtr e = parseAtom();
  const int savedDepth = m_exprDepth;
  while (!m_panic && (at(Tok::Dot) || at(Tok::LParen) || at(Tok::LBracket))) {
    if (!enterExpr()) break;
    ++m_exprDepth;
    if (accept(Tok::Dot)) {
      if (!at(Tok::Name)) {
        failExpected("an attribute name after '.'");
        break;
      }
      ExprPtr attr = makeExpr(ExprKind::Attribute, start);
      attr->text = std::string(cur().text);
      advance();
      attr->args.push_back(std::move(e));
      attr->span = spanFrom(start);
      e = std::move(attr);
    } else if (at(Tok::LParen)) {
      const Token& open = advance();
      ExprPtr call = makeExpr(ExprKind::Call, start);
      call->args.push_back(std::move(e));
      parseCallArguments(*call, open);
      call->span = spanFrom(start);
      e = std::move(call);
    } else {
      const Token& open = advance();
      ExprPtr sub = makeExpr(ExprKind::Subscript, start);
      sub->args.push_back(std::move(e));
      sub->args.push_back(parseSubscriptList());
      expectClose(open);
      sub->span = spanFrom(start);
      e = std::move(sub);
    }
  }
  m_exprDepth = savedDepth;
  if (m_panic) return placeholder();
  return e;
}

// atom: '(' [testlist_comp] ')' | '[' [testlist_comp] ']' | '{' [dictmaker] '}' | NAME | NUMBER
//     | STRING+ | 'None' | 'True' | 'False'
ExprPtr Parser::parseAtom() {
  if (m_panic) return placeholder();
  const Token& t = cur();
  switch (t.kind) {
    case Tok::Name: {
      ExprPtr e = makeExpr(ExprKind::Name, t.span);
      e->text = std::string(t.text);
      advance();
      return e;
    }
    case Tok::Int: {
      ExprPtr e = makeExpr(ExprKind::Int, t.span);
      e->intValue = t.intValue;
      advance();
      return e;
    }
    case Tok::Float: {
      ExprPtr e = makeExpr(ExprKind::Float, t.span);
      e->floatValue = t.floatValue;
      advance();
      return e;
    }
    case Tok::String:
      return parseStrings();
    case Tok::KwTrue:
    case Tok::KwFalse: {
      ExprPtr e = makeExpr(ExprKind::Bool, t.span);
      e->boolValue = t.kind == Tok::KwTrue;
      advance();
      return e;
    }
    case Tok::KwNone: {
      ExprPtr e = makeExpr(ExprKind::None, t.span);
      advance();
      return e;
    }
    case Tok::LParen:
      return parseParenthesized();
    case Tok::LBracket:
      return parseListDisplay();
    case Tok::LBrace:
      return parseBraceDisplay();
    case Tok::Ellipsis:
      fail("E0010", t.span, "'...' (Ellipsis) is not supported in scripts");
      return placeholder();
    case Tok::KwAwait:
    case Tok::KwYield:
      fail("E0010", t.span,
           std::string(tokSpelling(t.kind)) + " expressions are not supported in scripts");
      return placeholder();
    default:
      failExpected("an expression");
      return placeholder();
  }
}

// STRING+ : adjacent literals concatenate. With an f-string among them the result is an FString
// whose literal parts hold the plain literals' text (parse_fstring.cpp).
ExprPtr Parser::parseStrings() {
  const SourceSpan start = cur().span;
  const size_t first = m_pos;
  bool anyF = false;
  while (at(Tok::String)) anyF = stringShape(advance().text).fstring || anyF;
  const size_t last = m_pos;
  if (!anyF) {
    ExprPtr e = makeExpr(ExprKind::Str, spanFrom(start));
    for (size_t i = first; i < last; ++i) e->text += decodeStringLiteral(m_toks[i].text);
    return e;
  }
  ExprPtr e = makeExpr(ExprKind::FString, spanFrom(start));
  for (size_t i = first; i < last && !m_panic; ++i) {
    const Token& t = m_toks[i];
    if (stringShape(t.text).fstring) {
      parseFStringToken(t, *e);
      continue;
    }
    appendFStringLiteral(*e, decodeStringLiteral(t.text), t.span);
  }
  if (m_panic) return placeholder();
  return e;
}

// '(' [ (test|star_expr) (',' (test|star_expr))* [','] ] ')'
ExprPtr Parser::parseParenthesized() {
  const Token& open = advance();
  if (accept(Tok::RParen)) {
    ExprPtr e = makeExpr(ExprKind::Tuple, spanFrom(open.span));
    e->parenthesized = true;
    return e;
  }
  ExprPtr first = at(Tok::Star) ? parseStarExpr() : parseTest();
  if (m_panic) return placeholder();
  if (at(Tok::KwFor)) rejectComprehension();
  if (at(Tok::ColonEq))
    fail("E0010", cur().span, "assignment expressions (':=') are not supported");
  if (!at(Tok::Comma)) {
    if (!expectClose(open)) return placeholder();
    first->parenthesized = true;
    return first;
  }
  ExprPtr tuple = makeExpr(ExprKind::Tuple, open.span);
  tuple->args.push_back(std::move(first));
  while (!m_panic && accept(Tok::Comma)) {
    if (at(Tok::RParen) || !startsExpression(cur().kind)) break;  // expectClose reports
    tuple->args.push_back(at(Tok::Star) ? parseStarExpr() : parseTest());
  }
  if (!expectClose(open)) return placeholder();
  tuple->parenthesized = true;
  tuple->span = spanFrom(open.span);
  return tuple;
}

// '[' [ (test|star_expr) (',' (test|star_expr))* [','] ] ']'
ExprPtr Parser::parseListDisplay() {
  const Token& open = advance();
  ExprPtr list = makeExpr(ExprKind::List, open.span);
  while (!m_panic && !at(Tok::RBracket) && startsExpression(cur().kind)) {
    list->args.push_back(at(Tok::Star) ? parseStarExpr() : parseTest());
    if (!m_panic && at(Tok::KwFor)) rejectComprehension();
    if (!accept(Tok::Comma)) break;
  }
  if (!expectClose(open)) return placeholder();
  list->span = spanFrom(open.span);
  return list;
}

// '{' [ test ':' test (',' test ':' test)* [','] ] '}'   (sets are not supported)
ExprPtr Parser::parseBraceDisplay() {
  const Token& open = advance();
  ExprPtr dict = makeExpr(ExprKind::Dict, open.span);
  while (!m_panic && !at(Tok::RBrace) && (startsExpression(cur().kind) || at(Tok::DoubleStar))) {
    if (at(Tok::DoubleStar)) {
      fail("E0010", cur().span, "dictionary unpacking ('**') is not supported");
      break;
    }
    dict->args.push_back(parseTest());
    if (m_panic) break;
    if (!at(Tok::Colon)) {
      if (at(Tok::Comma) || at(Tok::RBrace) || at(Tok::KwFor)) {
        fail("E0010", dict->args.back()->span, "set displays and comprehensions are not supported");
      } else {
        failExpected("':' after the dictionary key");
      }
      break;
    }
    advance();
    dict->args.push_back(parseTest());
    if (!m_panic && at(Tok::KwFor)) rejectComprehension();
    if (!accept(Tok::Comma)) break;
  }
  if (!expectClose(open)) return placeholder();
  dict->span = spanFrom(open.span);
  return dict;
}

// star_expr: '*' expr
ExprPtr Parser::parseStarExpr() {
  const SourceSpan start = cur().span;
  advance();
  ExprPtr operand = parseBinary(1);
  ExprPtr e = makeExpr(ExprKind::Starred, spanFrom(start));
  e->args.push_back(std::move(operand));
  return e;
}

// arglist: argument (',' argument)* [',']
// argument: test | NAME '=' test | '*' test | '**' test
void Parser::parseCallArguments(Expr& call, const Token& open) {
  bool sawKeyword = false, sawDoubleStar = false;
  while (!m_panic && !at(Tok::RParen) && (startsExpression(cur().kind) || at(Tok::DoubleStar))) {
    const SourceSpan argStart = cur().span;
    if (accept(Tok::DoubleStar)) {
      ExprPtr value = parseTest();
      call.keywords.push_back(ast::Keyword{std::string(), std::move(value), spanFrom(argStart)});
      sawDoubleStar = true;
    } else if (at(Tok::Name) && peekTok().kind == Tok::Assign) {
      std::string name(cur().text);
      advance();
      advance();
      ExprPtr value = parseTest();
      for (const ast::Keyword& k : call.keywords) {
        if (k.name == name) {
          fail("E0013", argStart, "keyword argument '" + name + "' repeated");
          break;
        }
      }
      call.keywords.push_back(ast::Keyword{std::move(name), std::move(value), spanFrom(argStart)});
      sawKeyword = true;
    } else if (accept(Tok::Star)) {
      ExprPtr operand = parseTest();
      if (sawDoubleStar)
        fail("E0013", argStart, "iterable argument unpacking follows keyword argument unpacking");
      ExprPtr e = makeExpr(ExprKind::Starred, spanFrom(argStart));
      e->args.push_back(std::move(operand));
      call.args.push_back(std::move(e));
    } else {
      ExprPtr value = parseTest();
      if (m_panic) break;
      if (at(Tok::KwFor)) rejectComprehension();
      if (at(Tok::Assign)) {
        fail("E0001", cur().span, "expected a parameter name before '=', found an expression");
      }
      if (sawKeyword || sawDoubleStar) {
        fail("E0013", value->span,
             sawDoubleStar ? "positional argument follows keyword argument unpacking"
                           : "positional argument follows keyword argument");
      }
      call.args.push_back(std::move(value));
    }
    if (!accept(Tok::Comma)) break;
  }
  expectClose(open);
}

// subscriptlist: subscript (',' subscript)* [',']
ExprPtr Parser::parseSubscriptList() {
  const SourceSpan start = cur().span;
  ExprPtr first = parseSubscript();
  if (m_panic || !at(Tok::Comma)) return first;
  ExprPtr tuple = makeExpr(ExprKind::Tuple, start);
  tuple->args.push_back(std::move(first));
  while (!m_panic && accept(Tok::Comma)) {
    if (at(Tok::RBracket) || !(startsExpression(cur().kind) || at(Tok::Colon))) break;
    tuple->args.push_back(parseSubscript());
  }
  tuple->span = spanFrom(start);
  return tuple;
}

// subscript: test | [test] ':' [test] [':' [test]]
ExprPtr Parser::parseSubscript() {
  const SourceSpan start = cur().span;
  ExprPtr lower;
  if (!at(Tok::Colon)) {
    lower = parseTest();
    if (m_panic || !at(Tok::Colon)) return lower;
  }
  advance();
  auto endsPart = [this] { return at(Tok::Colon) || at(Tok::RBracket) || at(Tok::Comma); };
  ExprPtr upper = endsPart() ? nullptr : parseTest();
  ExprPtr step;
  if (!m_panic && accept(Tok::Colon)) {
    if (!at(Tok::RBracket) && !at(Tok::Comma)) step = parseTest();
  }
  ExprPtr slice = makeExpr(ExprKind::Slice, spanFrom(start));
  slice->args.push_back(std::move(lower));
  slice->args.push_back(std::move(upper));
  slice->args.push_back(std::move(step));
  return slice;
}

void Parser::rejectComprehension() {
  fail("E0010", cur().span, "comprehensions and generator expressions are not supported");
}

}  // namespace tirx::script
