// The editor's completion source: a fixed, small word list (the TIRx API names, the core's PTX
// opcode examples, the thread axes) matched synchronously on the GUI thread. It replaces
// QsciAPIs, whose prepare() runs a QThread that QsciAPIs' destructor aborts after a 500 ms wait and
// then destroys while still running (a crash when an editor dies soon after it was created on a
// loaded machine). The list is a few hundred entries, so there is nothing to prepare.
#pragma once

#include <Qsci/qsciabstractapis.h>

#include <QStringList>

namespace tirx::views {

class CompletionApis : public QsciAbstractAPIs {
  Q_OBJECT
 public:
  /// Attach to `lexer` (its parent); entries are dotted paths such as "T.cuda.tile.apply".
  explicit CompletionApis(QsciLexer* lexer);

  void add(const QString& entry);
  /// Completions for `context` (words before the caret, the last one partial): the next word of
  /// every entry whose leading words equal the context's; for a one-word context also every word
  /// of any entry that starts with it. Sorted, without duplicates.
  void updateAutoCompletionList(const QStringList& context, QStringList& list) override;
  QStringList callTips(const QStringList& context, int commas, QsciScintilla::CallTipsStyle style,
                       QList<int>& shifts) override;

 private:
  QList<QStringList> m_entries;  ///< each entry split at '.'
};

}  // namespace tirx::views
