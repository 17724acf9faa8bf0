// Syntax highlighting for the assembly dock's texts: CUDA C++ (keywords, #line, comments), PTX
// (directives, opcodes, registers, comments) and SASS (opcodes, registers, predicates).
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <vector>

namespace tirx::views {

class AsmHighlighter : public QSyntaxHighlighter {
  Q_OBJECT
 public:
  enum class Language { Cuda, Ptx, Sass, Plain };
  AsmHighlighter(Language language, QTextDocument* document);
  void setDark(bool dark);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  struct Rule {
    QRegularExpression pattern;
    QTextCharFormat format;
  };
  void buildRules();
  Language m_language;
  bool m_dark = false;
  std::vector<Rule> m_rules;
};

}  // namespace tirx::views
