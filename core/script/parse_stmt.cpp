// Statements and blocks. Grammar (a subset of Python 3's):
//   file_input: (NEWLINE | stmt)* ENDMARKER
//   stmt: simple_stmt | compound_stmt
//   simple_stmt: small_stmt (';' small_stmt)* [';'] NEWLINE
//   small_stmt: expr_stmt | pass | break | continue | return [testlist_star_expr]
//             | del exprlist | global NAME (',' NAME)* | assert test [',' test]
//             | import dotted_as_names | from ('.'* dotted_name | '.'+) import (...)
//   expr_stmt: testlist_star_expr (annassign | augassign testlist | ('=' testlist_star_expr)*)
//   compound_stmt: if_stmt | while_stmt | for_stmt | decorated | funcdef
//   suite: simple_stmt | NEWLINE INDENT stmt+ DEDENT
// Recovery (see parser_impl.h): a failed statement is dropped and parsing resumes at the next
// NEWLINE; when the failed statement was a compound header, its indented block and any
// elif/else clauses are parsed (so errors inside still show) and dropped with it.
#include <algorithm>

#include "core/script/parser_impl.h"

namespace tirx::script {

using ast::Block;
using ast::Expr;
using ast::ExprKind;
using ast::ExprPtr;
using ast::Stmt;
using ast::StmtKind;
using ast::StmtPtr;

namespace {

StmtPtr makeStmt(StmtKind kind, SourceSpan span) {
  auto s = std::make_unique<Stmt>();
  s->kind = kind;
  s->span = span;
  return s;
}

const char* describeTargetKind(ExprKind k) {
  switch (k) {
    case ExprKind::Call:
      return "function call";
    case ExprKind::Int:
    case ExprKind::Float:
    case ExprKind::Str:
    case ExprKind::Bool:
    case ExprKind::None:
      return "literal";
    case ExprKind::Compare:
      return "comparison";
    case ExprKind::BoolOp:
      return "boolean expression";
    case ExprKind::IfExp:
      return "conditional expression";
    case ExprKind::Lambda:
      return "lambda";
    case ExprKind::Dict:
      return "dict display";
    case ExprKind::Slice:
      return "slice";
    case ExprKind::FString:
    case ExprKind::FormattedValue:
      return "formatted string literal";
    default:
      return "expression";
  }
}

}  // namespace

Block Parser::parseFile() {
  Block body;
  while (!at(Tok::EndOfFile)) {
    if (at(Tok::Newline) || at(Tok::Dedent)) {
      advance();
      continue;
    }
    if (at(Tok::Indent)) {
      report("E0004", peekTok().span, "unexpected indent");
      advance();
      parseIndentedStatements(body);
      continue;
    }
    parseStatement(body);
  }
  return body;
}

// The statements of an indented block whose INDENT was consumed, up to and including its DEDENT.
void Parser::parseIndentedStatements(Block& out) {
  if (m_blockDepth >= kMaxBlockDepth) {
    report("E0009", cur().span,
           "blocks nested too deeply (more than " + std::to_string(kMaxBlockDepth) + " levels)");
    for (int depth = 1; depth > 0 && !at(Tok::EndOfFile);) {
      if (at(Tok::Indent)) ++depth;
      if (at(Tok::Dedent)) --depth;
      advance();
    }
    return;
  }
  DepthGuard guard(m_blockDepth);
  while (!at(Tok::Dedent) && !at(Tok::EndOfFile)) {
    if (at(Tok::Newline)) {
      advance();
      continue;
    }
    if (at(Tok::Indent)) {
      report("E0004", peekTok().span, "unexpected indent");
      advance();
      parseIndentedStatements(out);
      continue;
    }
    parseStatement(out);
  }
  accept(Tok::Dedent);
}

void Parser::parseStatement(Block& out) {
  m_panic = false;
  StmtPtr stmt;
  const Token& first = cur();
  switch (first.kind) {
    case Tok::At:
    case Tok::KwDef: {
      std::vector<ExprPtr> decorators;
      while (!m_panic && accept(Tok::At)) {
        decorators.push_back(parseTest());
        expect(Tok::Newline, "newline after the decorator");
      }
      if (m_panic) break;
      if (!at(Tok::KwDef)) {
        if (at(Tok::KwClass) || at(Tok::KwAsync)) {
          fail("E0010", cur().span,
               std::string(tokSpelling(cur().kind)) + " definitions are not supported in scripts");
        } else {
          failExpected("'def' after the decorator");
        }
        break;
      }
      stmt = parseFunctionDef(std::move(decorators));
      break;
    }
    case Tok::KwIf:
      stmt = parseIf();
      break;
    case Tok::KwFor:
      stmt = parseFor();
      break;
    case Tok::KwWhile:
      stmt = parseWhile();
      break;
    case Tok::KwClass:
    case Tok::KwTry:
    case Tok::KwWith:
    case Tok::KwAsync:
      fail("E0010", first.span,
           std::string(tokSpelling(first.kind)) + " statements are not supported in scripts");
      break;
    case Tok::KwElif:
    case Tok::KwElse:
    case Tok::KwExcept:
    case Tok::KwFinally:
      fail("E0001", first.span,
           std::string("expected a statement, found ") + tokSpelling(first.kind) +
               " without a matching 'if', 'for' or 'while'");
      break;
    default: {
      parseSimpleStatements(out);
      if (m_panic) recoverStatement(false);
      return;
    }
  }
  if (m_panic || !stmt) {
    m_panic = true;
    recoverStatement(true);
    return;
  }
  out.push_back(std::move(stmt));
}

// Skips the rest of the logical line. It never crosses an INDENT or DEDENT: a statement can
// fail right after a NEWLINE (a decorator followed by the end of its block), and skipping the
// DEDENT would put the following statements into the wrong block.
void Parser::skipLine() {
  while (!at(Tok::Newline) && !at(Tok::EndOfFile) && !at(Tok::Indent) && !at(Tok::Dedent))
    advance();
  accept(Tok::Newline);
}

void Parser::recoverStatement(bool compound) {
  skipLine();
  m_panic = false;
  // An indented block right after a failed statement belongs to it (a mistyped header such as
  // `dfe f():` fails as a simple statement), so it goes too instead of being an unexpected indent.
  if (accept(Tok::Indent)) dropBlock();
  if (!compound) return;
  while (at(Tok::KwElif) || at(Tok::KwElse) || at(Tok::KwExcept) || at(Tok::KwFinally)) {
    skipLine();
    if (accept(Tok::Indent)) dropBlock();
  }
}

// Parses an indented block that belongs to a dropped statement: its own errors are reported, but
// not "'return' outside function" and the like, which would only be consequences.
void Parser::dropBlock() {
  Block sink;
  ++m_funcDepth;
  ++m_loopDepth;
  parseIndentedStatements(sink);
  --m_funcDepth;
  --m_loopDepth;
}

void Parser::parseSimpleStatements(Block& out) {
  Block line;
  while (true) {
    StmtPtr s = parseSmallStatement();
    if (m_panic) return;
    line.push_back(std::move(s));
    if (!accept(Tok::Semicolon) || at(Tok::Newline) || at(Tok::EndOfFile)) break;
  }
  if (!accept(Tok::Newline) && !at(Tok::EndOfFile)) {
    failExpected("newline or ';' after the statement");
    return;
  }
  for (StmtPtr& s : line) out.push_back(std::move(s));
}

StmtPtr Parser::parseSmallStatement() {
  const Token& first = cur();
  const SourceSpan start = first.span;
  switch (first.kind) {
    case Tok::KwPass:
      advance();
      return makeStmt(StmtKind::Pass, start);
    case Tok::KwBreak:
    case Tok::KwContinue:
      advance();
      if (m_loopDepth == 0) {
        fail("E0012", start, std::string(tokSpelling(first.kind)) + " outside a loop");
        return nullptr;
      }
      return makeStmt(first.kind == Tok::KwBreak ? StmtKind::Break : StmtKind::Continue, start);
    case Tok::KwReturn: {
      advance();
      if (m_funcDepth == 0) {
        fail("E0012", start, "'return' outside a function");
        return nullptr;
      }
      StmtPtr s = makeStmt(StmtKind::Return, start);
      if (!at(Tok::Newline) && !at(Tok::Semicolon) && !at(Tok::EndOfFile))
        s->value = parseTestListStarExpr(true);
      s->span = spanFrom(start);
      return s;
    }
    case Tok::KwDel: {
      advance();
      StmtPtr s = makeStmt(StmtKind::Del, start);
      ExprPtr targets = parseExprList();
      if (m_panic) return nullptr;
      if (targets->kind == ExprKind::Tuple && !targets->parenthesized) {
        for (ExprPtr& t : targets->args) s->targets.push_back(std::move(t));
      } else {
        s->targets.push_back(std::move(targets));
      }
      for (const ExprPtr& t : s->targets)
        if (!checkTarget(*t, true)) return nullptr;
      s->span = spanFrom(start);
      return s;
    }
    case Tok::KwGlobal: {
      advance();
      StmtPtr s = makeStmt(StmtKind::Global, start);
      do {
        if (!at(Tok::Name)) {
          failExpected("a name after 'global'");
          return nullptr;
        }
        s->names.push_back(ast::Alias{std::string(cur().text), std::string(), cur().span});
        advance();
      } while (accept(Tok::Comma));
      s->span = spanFrom(start);
      return s;
    }
    case Tok::KwAssert: {
      advance();
      StmtPtr s = makeStmt(StmtKind::Assert, start);
      s->value = parseTest();
      if (!m_panic && accept(Tok::Comma)) s->annotation = parseTest();
      s->span = spanFrom(start);
      return s;
    }
    case Tok::KwImport:
      return parseImport();
    case Tok::KwFrom:
      return parseImportFrom();
    case Tok::KwRaise:
    case Tok::KwNonlocal:
    case Tok::KwYield:
      fail("E0010", start,
           std::string(tokSpelling(first.kind)) + " statements are not supported in scripts");
      return nullptr;
    default:
      return parseExprStatement();
  }
}

// expr_stmt: testlist_star_expr (':' test ['=' testlist_star_expr] | augassign testlist
//          | ('=' testlist_star_expr)*)
StmtPtr Parser::parseExprStatement() {
  const SourceSpan start = cur().span;
  ExprPtr first = parseTestListStarExpr(true);
  if (m_panic) return nullptr;
  if (at(Tok::Colon)) {
    if (first->kind == ExprKind::Tuple && !first->parenthesized) {
      fail("E0011", first->span, "only a single target (not a tuple) can be annotated");
      return nullptr;
    }
    if (!checkTarget(*first, false)) return nullptr;
    advance();
    StmtPtr s = makeStmt(StmtKind::AnnAssign, start);
    s->targets.push_back(std::move(first));
    s->annotation = parseTest();
    if (!m_panic && accept(Tok::Assign)) s->value = parseTestListStarExpr(true);
    s->span = spanFrom(start);
    return s;
  }
  if (at(Tok::AugAssign)) {
    const ExprKind k = first->kind;
    if (k != ExprKind::Name && k != ExprKind::Attribute && k != ExprKind::Subscript) {
      fail("E0011", first->span,
           std::string("cannot use augmented assignment on a ") + describeTargetKind(k));
      return nullptr;
    }
    StmtPtr s = makeStmt(StmtKind::AugAssign, start);
    s->op = cur().op;
    advance();
    s->targets.push_back(std::move(first));
    s->value = parseTestListStarExpr(false);
    s->span = spanFrom(start);
    return s;
  }
  if (at(Tok::Assign)) {
    StmtPtr s = makeStmt(StmtKind::Assign, start);
    s->targets.push_back(std::move(first));
    while (!m_panic && accept(Tok::Assign)) s->targets.push_back(parseTestListStarExpr(true));
    if (m_panic) return nullptr;
    s->value = std::move(s->targets.back());
    s->targets.pop_back();
    for (const ExprPtr& t : s->targets)
      if (!checkTarget(*t, true)) return nullptr;
    s->span = spanFrom(start);
    return s;
  }
  if (first->kind == ExprKind::Starred) {
    fail("E0011", first->span, "a starred expression cannot stand alone as a statement");
    return nullptr;
  }
  StmtPtr s = makeStmt(StmtKind::ExprStmt, spanFrom(start));
  s->value = std::move(first);
  return s;
}

bool Parser::checkTarget(const Expr& e, bool allowTuple) {
  switch (e.kind) {
    case ExprKind::Name:
    case ExprKind::Attribute:
    case ExprKind::Subscript:
      return true;
    case ExprKind::Tuple:
    case ExprKind::List:
      if (!allowTuple) break;
      for (const ExprPtr& el : e.args) {
        const Expr& inner = el->kind == ExprKind::Starred ? *el->args[0] : *el;
        if (!checkTarget(inner, true)) return false;
      }
      return true;
    default:
      break;
  }
  fail("E0011", e.span, std::string("cannot assign to a ") + describeTargetKind(e.kind));
  return false;
}

// dotted_name: NAME ('.' NAME)*
std::string Parser::parseDottedName(SourceSpan& span) {
  const SourceSpan start = cur().span;
  std::string name;
  if (!at(Tok::Name)) {
    failExpected("a module name");
    return name;
  }
  name = std::string(advance().text);
  while (!m_panic && accept(Tok::Dot)) {
    if (!at(Tok::Name)) {
      failExpected("a name after '.'");
      break;
    }
    name += '.';
    name += advance().text;
  }
  span = spanFrom(start);
  return name;
}

// import_name: 'import' dotted_name ['as' NAME] (',' dotted_name ['as' NAME])*
StmtPtr Parser::parseImport() {
  const SourceSpan start = advance().span;
  StmtPtr s = makeStmt(StmtKind::Import, start);
  do {
    ast::Alias alias;
    const SourceSpan aliasStart = cur().span;
    alias.name = parseDottedName(alias.span);
    if (!m_panic && accept(Tok::KwAs)) {
      if (!at(Tok::Name)) {
        failExpected("a name after 'as'");
        return nullptr;
      }
      alias.asname = std::string(advance().text);
    }
    if (m_panic) return nullptr;
    alias.span = spanFrom(aliasStart);
    s->names.push_back(std::move(alias));
  } while (accept(Tok::Comma));
  s->span = spanFrom(start);
  return s;
}

// import_from: 'from' ('.'* dotted_name | '.'+) 'import' ('*' | '(' names [','] ')' | names)
StmtPtr Parser::parseImportFrom() {
  const SourceSpan start = advance().span;
  StmtPtr s = makeStmt(StmtKind::ImportFrom, start);
  while (at(Tok::Dot) || at(Tok::Ellipsis)) s->level += advance().kind == Tok::Dot ? 1 : 3;
  if (at(Tok::Name) || s->level == 0) {
    SourceSpan ignored;
    s->module = parseDottedName(ignored);
  }
  if (!expect(Tok::KwImport, "'import'")) return nullptr;
  if (at(Tok::Star)) {
    s->names.push_back(ast::Alias{"*", std::string(), cur().span});
    advance();
    s->span = spanFrom(start);
    return s;
  }
  const Token* open = at(Tok::LParen) ? &advance() : nullptr;
  do {
    if (open && at(Tok::RParen)) break;
    if (!at(Tok::Name)) {
      failExpected("a name to import");
      return nullptr;
    }
    const SourceSpan aliasStart = cur().span;
    ast::Alias alias;
    alias.name = std::string(advance().text);
    if (accept(Tok::KwAs)) {
      if (!at(Tok::Name)) {
        failExpected("a name after 'as'");
        return nullptr;
      }
      alias.asname = std::string(advance().text);
    }
    alias.span = spanFrom(aliasStart);
    s->names.push_back(std::move(alias));
  } while (accept(Tok::Comma));
  if (open && !expectClose(*open)) return nullptr;
  s->span = spanFrom(start);
  return s;
}

// funcdef: 'def' NAME '(' [typedargslist] ')' ['->' test] ':' suite
StmtPtr Parser::parseFunctionDef(std::vector<ExprPtr> decorators) {
  const Token& defTok = advance();
  StmtPtr s = makeStmt(StmtKind::FunctionDef, defTok.span);
  s->decorators = std::move(decorators);
  if (!at(Tok::Name)) {
    failExpected("a function name after 'def'");
    return nullptr;
  }
  s->name = std::string(cur().text);
  s->nameSpan = cur().span;
  advance();
  const Token& open = cur();
  if (!expect(Tok::LParen, "'(' after the function name")) return nullptr;
  s->params = parseParams(Tok::RParen, true);
  if (!expectClose(open)) return nullptr;
  if (accept(Tok::Arrow)) s->returns = parseTest();
  if (!expect(Tok::Colon, "':' after the function signature")) return nullptr;
  s->span = spanFrom(defTok.span);
  const int savedLoops = m_loopDepth;
  m_loopDepth = 0;
  ++m_funcDepth;
  parseSuite(s->body, defTok);
  --m_funcDepth;
  m_loopDepth = savedLoops;
  return m_panic ? nullptr : std::move(s);
}

// typedargslist / varargslist: params with optional annotations and defaults, a bare `*` or
// `*args` (what follows is keyword-only) and a final `**kwargs`.
std::vector<ast::Param> Parser::parseParams(Tok closer, bool annotations) {
  std::vector<ast::Param> params;
  bool seenDefault = false, keywordOnly = false, seenStar = false, seenDoubleStar = false;
  bool bareStar = false;
  while (!m_panic && !at(closer)) {
    ast::Param p;
    const SourceSpan markStart = cur().span;
    if (seenDoubleStar) {
      fail("E0013", cur().span, "no parameter may follow '**" + params.back().name + "'");
      break;
    }
    if (accept(Tok::DoubleStar)) {
      p.doubleStar = true;
    } else if (accept(Tok::Star)) {
      if (seenStar) {
        fail("E0013", markStart, "only one '*' is allowed in a parameter list");
        break;
      }
      seenStar = true;
      if (at(Tok::Comma) || at(closer)) {
        bareStar = true;
        keywordOnly = true;
        if (!accept(Tok::Comma)) break;
        continue;
      }
      p.star = true;
    } else if (at(Tok::Slash)) {
      fail("E0010", cur().span, "positional-only parameters ('/') are not supported");
      break;
    }
    if (!at(Tok::Name)) {
      failExpected("a parameter name");
      break;
    }
    p.name = std::string(cur().text);
    p.span = cur().span;
    advance();
    for (const ast::Param& q : params) {
      if (q.name == p.name) {
        fail("E0013", p.span, "duplicate parameter '" + p.name + "'");
        break;
      }
    }
    if (annotations && accept(Tok::Colon)) p.annotation = parseTest();
    if (!p.star && !p.doubleStar && accept(Tok::Assign)) {
      p.defaultValue = parseTest();
      if (!keywordOnly) seenDefault = true;
    } else if (!p.star && !p.doubleStar && !keywordOnly && seenDefault) {
      fail("E0013", p.span,
           "parameter '" + p.name + "' without a default follows a parameter with a default");
    }
    p.keywordOnly = keywordOnly && !p.star && !p.doubleStar;
    if (p.star) keywordOnly = true;
    if (p.doubleStar) seenDoubleStar = true;
    params.push_back(std::move(p));
    if (!accept(Tok::Comma)) break;
  }
  if (!m_panic && bareStar &&
      std::none_of(params.begin(), params.end(), [](const ast::Param& q) { return q.keywordOnly; }))
    fail("E0013", cur().span, "named parameters must follow a bare '*'");
  return params;
}

// if_stmt: 'if' test ':' suite ('elif' test ':' suite)* ['else' ':' suite]
// An elif becomes an If alone in orelse; the chain counts as nesting for the depth bound.
StmtPtr Parser::parseIf() {
  const Token& ifTok = advance();
  StmtPtr s = makeStmt(StmtKind::If, ifTok.span);
  s->value = parseTest();
  if (!expect(Tok::Colon, ifTok.kind == Tok::KwIf ? "':' after the 'if' condition"
                                                  : "':' after the 'elif' condition"))
    return nullptr;
  s->span = spanFrom(ifTok.span);
  parseSuite(s->body, ifTok);
  if (m_panic) return nullptr;
  if (at(Tok::KwElif)) {
    if (m_blockDepth >= kMaxBlockDepth) {
      fail("E0009", cur().span, "'elif' chain nested too deeply");
      return nullptr;
    }
    DepthGuard guard(m_blockDepth);
    StmtPtr elif = parseIf();
    if (!elif) return nullptr;
    s->orelse.push_back(std::move(elif));
  } else if (at(Tok::KwElse)) {
    const Token& elseTok = advance();
    if (!expect(Tok::Colon, "':' after 'else'")) return nullptr;
    parseSuite(s->orelse, elseTok);
  }
  return m_panic ? nullptr : std::move(s);
}

// for_stmt: 'for' exprlist 'in' testlist_star_expr ':' suite ['else' ':' suite]
StmtPtr Parser::parseFor() {
  const Token& forTok = advance();
  StmtPtr s = makeStmt(StmtKind::For, forTok.span);
  ExprPtr target = parseExprList();
  if (m_panic || !checkTarget(*target, true)) return nullptr;
  s->targets.push_back(std::move(target));
  if (!expect(Tok::KwIn, "'in' after the loop variable")) return nullptr;
  s->value = parseTestListStarExpr(true);
  if (!expect(Tok::Colon, "':' after the 'for' header")) return nullptr;
  s->span = spanFrom(forTok.span);
  ++m_loopDepth;
  parseSuite(s->body, forTok);
  --m_loopDepth;
  if (!m_panic && at(Tok::KwElse)) {
    const Token& elseTok = advance();
    if (!expect(Tok::Colon, "':' after 'else'")) return nullptr;
    parseSuite(s->orelse, elseTok);
  }
  return m_panic ? nullptr : std::move(s);
}

// while_stmt: 'while' test ':' suite ['else' ':' suite]
StmtPtr Parser::parseWhile() {
  const Token& whileTok = advance();
  StmtPtr s = makeStmt(StmtKind::While, whileTok.span);
  s->value = parseTest();
  if (!expect(Tok::Colon, "':' after the 'while' condition")) return nullptr;
  s->span = spanFrom(whileTok.span);
  ++m_loopDepth;
  parseSuite(s->body, whileTok);
  --m_loopDepth;
  if (!m_panic && at(Tok::KwElse)) {
    const Token& elseTok = advance();
    if (!expect(Tok::Colon, "':' after 'else'")) return nullptr;
    parseSuite(s->orelse, elseTok);
  }
  return m_panic ? nullptr : std::move(s);
}

// suite: simple_stmt | NEWLINE INDENT stmt+ DEDENT
void Parser::parseSuite(Block& body, const Token& header) {
  if (m_panic) return;
  if (!accept(Tok::Newline)) {
    parseSimpleStatements(body);  // `if x: pass`
    return;
  }
  if (accept(Tok::Indent)) {
    parseIndentedStatements(body);
    return;
  }
  size_t i = m_pos;
  while (i + 1 < m_toks.size() && m_toks[i].kind == Tok::Dedent) ++i;
  const Token& found = m_toks[i];
  report("E0005", found.span,
         std::string("expected an indented block after ") + tokSpelling(header.kind) +
             " statement on line " + std::to_string(header.span.line) + ", found " +
             describeToken(found));
  // A body that lost its indentation: take the next statement (and an indented block right
  // after it) as the body, so the one mistake does not cascade into more errors.
  if (at(Tok::Dedent) || at(Tok::EndOfFile)) return;
  parseStatement(body);
  if (accept(Tok::Indent)) parseIndentedStatements(body);
}

}  // namespace tirx::script
