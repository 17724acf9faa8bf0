// Invariants every parse result must satisfy, for the robustness tests: each span of the tree
// and of the diagnostics lies inside the source and its line/column agree with its byte offset
// (lines end at "\n", "\r\n" or "\r", as in the lexer). Returns a description of the first
// violation, or an empty string.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/script/ast.h"

namespace tirx::testing {

class SpanChecker {
 public:
  explicit SpanChecker(const std::string& source) : m_size(static_cast<int>(source.size())) {
    m_lineStarts.push_back(0);
    for (size_t i = 0; i < source.size(); ++i) {
      if (source[i] == '\r' && i + 1 < source.size() && source[i + 1] == '\n') continue;
      if (source[i] == '\n' || source[i] == '\r') m_lineStarts.push_back(static_cast<int>(i + 1));
    }
  }

  /// Lines of the source as the lexer counts them (an empty last line after a final break too).
  int lineCount() const { return static_cast<int>(m_lineStarts.size()); }

  std::string check(const SourceSpan& s, const char* what) const {
    if (!s.valid()) return std::string(what) + ": invalid span";
    if (s.offset < 0 || s.length < 0 || s.offset + s.length > m_size)
      return std::string(what) + ": span outside the source (offset " + std::to_string(s.offset) +
             ", length " + std::to_string(s.length) + ", size " + std::to_string(m_size) + ")";
    const auto it = std::upper_bound(m_lineStarts.begin(), m_lineStarts.end(), s.offset);
    const int line = static_cast<int>(it - m_lineStarts.begin());
    const int col = s.offset - m_lineStarts[static_cast<size_t>(line - 1)] + 1;
    if (line != s.line || col != s.col)
      return std::string(what) + ": " + std::to_string(s.line) + ":" + std::to_string(s.col) +
             " but offset " + std::to_string(s.offset) + " is " + std::to_string(line) + ":" +
             std::to_string(col);
    return {};
  }

  std::string check(const ast::Expr* e) const {
    if (!e) return {};
    std::string err = check(e->span, "expression");
    for (const ast::ExprPtr& a : e->args)
      if (err.empty()) err = check(a.get());
    for (const ast::Keyword& k : e->keywords) {
      if (err.empty()) err = check(k.span, "keyword");
      if (err.empty()) err = check(k.value.get());
    }
    for (const ast::Param& p : e->params)
      if (err.empty()) err = check(p);
    return err;
  }

  std::string check(const ast::Param& p) const {
    std::string err = check(p.span, "parameter");
    if (err.empty()) err = check(p.annotation.get());
    if (err.empty()) err = check(p.defaultValue.get());
    return err;
  }

  std::string check(const ast::Block& block) const {
    for (const ast::StmtPtr& s : block) {
      if (!s) return "null statement";
      std::string err = check(s->span, "statement");
      if (err.empty() && s->kind == ast::StmtKind::FunctionDef) err = check(s->nameSpan, "name");
      for (const ast::ExprPtr& t : s->targets)
        if (err.empty()) err = check(t.get());
      if (err.empty()) err = check(s->value.get());
      if (err.empty()) err = check(s->annotation.get());
      if (err.empty()) err = check(s->returns.get());
      for (const ast::ExprPtr& d : s->decorators)
        if (err.empty()) err = check(d.get());
      for (const ast::Param& p : s->params)
        if (err.empty()) err = check(p);
      for (const ast::Alias& a : s->names)
        if (err.empty()) err = check(a.span, "alias");
      if (err.empty()) err = check(s->body);
      if (err.empty()) err = check(s->orelse);
      if (!err.empty()) return err;
    }
    return {};
  }

  std::string check(const Diagnostics& ds) const {
    for (const Diagnostic& d : ds) {
      std::string err = check(d.span, "diagnostic");
      if (!err.empty()) return err + " [" + d.code + " " + d.message + "]";
    }
    return {};
  }

 private:
  int m_size;
  std::vector<int> m_lineStarts;
};

}  // namespace tirx::testing
