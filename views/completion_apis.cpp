// CompletionApis: prefix matching over dotted API paths, no worker thread.
#include "views/completion_apis.h"

#include <algorithm>

namespace tirx::views {

CompletionApis::CompletionApis(QsciLexer* lexer) : QsciAbstractAPIs(lexer) {}

void CompletionApis::add(const QString& entry) {
  QString path = entry.trimmed();
  int paren = path.indexOf('(');
  if (paren >= 0) path.truncate(paren);
  if (path.isEmpty()) return;
  m_entries.append(path.split('.', Qt::SkipEmptyParts));
}

void CompletionApis::updateAutoCompletionList(const QStringList& context, QStringList& list) {
  if (context.isEmpty()) return;
  const QString& partial = context.last();
  const qsizetype lead = context.size() - 1;
  for (const QStringList& words : m_entries) {
    if (words.size() > lead) {
      bool same = true;
      for (qsizetype i = 0; i < lead && same; ++i) same = words[i] == context[i];
      if (same && words[lead].startsWith(partial)) list << words[lead];
    }
    if (lead == 0 && !partial.isEmpty())
      for (const QString& w : words)
        if (w.startsWith(partial)) list << w;
  }
  list.sort();
  list.removeDuplicates();
}

QStringList CompletionApis::callTips(const QStringList&, int, QsciScintilla::CallTipsStyle,
                                     QList<int>&) {
  return {};
}

}  // namespace tirx::views
