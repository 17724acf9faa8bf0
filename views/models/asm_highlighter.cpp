// AsmHighlighter: a few regular-expression rules per language, applied in order.
#include "views/models/asm_highlighter.h"

#include "views/models/theme.h"

namespace tirx::views {

AsmHighlighter::AsmHighlighter(Language language, QTextDocument* document)
    : QSyntaxHighlighter(document), m_language(language) {
  buildRules();
}

void AsmHighlighter::setDark(bool dark) {
  m_dark = dark;
  buildRules();
  rehighlight();
}

void AsmHighlighter::buildRules() {
  m_rules.clear();
  // the script editor's syntax colours (views/models/theme.h): one table, checked for contrast on
  // the highlighted-line background too
  const SyntaxColours& c = themeColours(m_dark).syntax;
  auto fmt = [](const QColor& colour, bool bold = false) {
    QTextCharFormat f;
    f.setForeground(colour);
    if (bold) f.setFontWeight(QFont::Bold);
    return f;
  };
  auto add = [this](const QString& re, const QTextCharFormat& f) {
    m_rules.push_back({QRegularExpression(re), f});
  };
  const auto number = fmt(c.number);
  const auto comment = fmt(c.comment);
  switch (m_language) {
    case Language::Cuda:
      add(R"(\b(extern|__global__|__device__|__forceinline__|__shared__|asm|volatile|const|int|unsigned|float|double|void|for|if|else|return|alignas|static|struct|half|__half)\b)",
          fmt(c.keyword, true));
      add(R"(^\s*#\s*\w+.*$)", fmt(c.decorator));
      add(R"("([^"\\]|\\.)*")", fmt(c.string));
      add(R"(\b\d+(\.\d+)?f?\b)", number);
      add(R"(//.*$)", comment);
      break;
    case Language::Ptx:
      add(R"(^\s*\.\w+)", fmt(c.builtin));
      add(R"(^\s*(@!?%p\d+\s+)?[a-z][a-z0-9]*(\.[a-z0-9:]+)*)", fmt(c.keyword, true));
      add(R"(%[a-z]+\d*)", fmt(c.name));
      add(R"(\b0[xXfF][0-9a-fA-F]+\b|\b\d+\b)", number);
      add(R"(//.*$)", comment);
      break;
    case Language::Sass:
      add(R"(\b[A-Z][A-Z0-9]+(\.[A-Z0-9_]+)*\b)", fmt(c.keyword, true));
      add(R"(\b(R\d+|RZ|P\d|PT|UR\d+|SR_\w+)\b)", fmt(c.name));
      add(R"(\b0x[0-9a-fA-F]+\b)", number);
      add(R"((//|/\*).*$)", comment);
      break;
    case Language::Plain:
      add(R"(\b\d+\b)", number);
      break;
  }
}

void AsmHighlighter::highlightBlock(const QString& text) {
  for (const Rule& r : m_rules) {
    auto it = r.pattern.globalMatch(text);
    while (it.hasNext()) {
      auto m = it.next();
      setFormat(static_cast<int>(m.capturedStart()), static_cast<int>(m.capturedLength()),
                r.format);
    }
  }
}

}  // namespace tirx::views
