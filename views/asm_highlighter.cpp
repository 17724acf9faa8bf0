// AsmHighlighter: a few regular-expression rules per language, applied in order.
#include "views/asm_highlighter.h"

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
  auto fmt = [this](const char* light, const char* dark, bool bold = false) {
    QTextCharFormat f;
    f.setForeground(QColor(m_dark ? dark : light));
    if (bold) f.setFontWeight(QFont::Bold);
    return f;
  };
  auto add = [this](const QString& re, const QTextCharFormat& f) {
    m_rules.push_back({QRegularExpression(re), f});
  };
  const auto number = fmt("#1750eb", "#2aacb8");
  const auto comment = fmt("#6a737d", "#7a8a7a");
  switch (m_language) {
    case Language::Cuda:
      add(R"(\b(extern|__global__|__device__|__forceinline__|__shared__|asm|volatile|const|int|unsigned|float|double|void|for|if|else|return|alignas|static|struct|half|__half)\b)",
          fmt("#0033b3", "#cf8e6d", true));
      add(R"(^\s*#\s*\w+.*$)", fmt("#9e880d", "#b3ae60"));
      add(R"("([^"\\]|\\.)*")", fmt("#067d17", "#6aab73"));
      add(R"(\b\d+(\.\d+)?f?\b)", number);
      add(R"(//.*$)", comment);
      break;
    case Language::Ptx:
      add(R"(^\s*\.\w+)", fmt("#8a2be2", "#c77dff"));
      add(R"(^\s*(@!?%p\d+\s+)?[a-z][a-z0-9]*(\.[a-z0-9:]+)*)", fmt("#0033b3", "#cf8e6d", true));
      add(R"(%[a-z]+\d*)", fmt("#00627a", "#56a8f5"));
      add(R"(\b0[xXfF][0-9a-fA-F]+\b|\b\d+\b)", number);
      add(R"(//.*$)", comment);
      break;
    case Language::Sass:
      add(R"(\b[A-Z][A-Z0-9]+(\.[A-Z0-9_]+)*\b)", fmt("#0033b3", "#cf8e6d", true));
      add(R"(\b(R\d+|RZ|P\d|PT|UR\d+|SR_\w+)\b)", fmt("#00627a", "#56a8f5"));
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
      setFormat(static_cast<int>(m.capturedStart()), static_cast<int>(m.capturedLength()), r.format);
    }
  }
}

}  // namespace tirx::views
