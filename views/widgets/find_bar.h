// The editor's find/replace bar (Ctrl+F, Ctrl+H): a strip under the editor with the pattern, an
// optional replacement, Match case and Whole word, next/previous (Enter, Shift+Enter, F3,
// Shift+F3), Replace and Replace All (one undo step). Every match of the pattern is highlighted
// with an indicator and the strip says "3 of 12". Searching is Scintilla's own target search on
// the editor's bytes (no view-side text scanning of the script's meaning).
#pragma once

#include <QPair>
#include <QTimer>
#include <QVector>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QToolButton;
class QsciScintilla;

namespace tirx::views {

class FindBar : public QWidget {
  Q_OBJECT
 public:
  /// Indicator number of the "every match" highlight (after the editor's 8–11).
  static constexpr int MatchIndicator = 12;

  explicit FindBar(QsciScintilla* editor, QWidget* parent = nullptr);

  /// Show the bar for finding (`replace` false) or replacing; the pattern starts as the editor's
  /// one-line selection, if any, and is selected for typing.
  void open(bool replace);
  /// Hide the bar, clear the highlights and give the focus back to the editor.
  void close();
  bool replaceMode() const { return m_replaceMode; }

  /// Select the next / previous match after / before the selection, wrapping around the
  /// document; false (and "no matches") when there is none.
  bool findNext();
  bool findPrevious();
  /// Replace the selected match (if the selection is one) and select the next; false when there
  /// was nothing to replace.
  bool replaceCurrent();
  /// Replace every match as one undo step; the number replaced.
  int replaceAll();

  /// Byte ranges [start, end) of every match of the current pattern and options.
  QVector<QPair<int, int>> matches() const;

  QLineEdit* findEdit() const { return m_find; }
  QLineEdit* replaceEdit() const { return m_replace; }
  QCheckBox* matchCaseBox() const { return m_case; }
  QCheckBox* wholeWordBox() const { return m_word; }
  /// "3 of 12", "no matches", "replaced 5".
  QString statusText() const;

 protected:
  bool eventFilter(QObject* watched, QEvent* e) override;

 private:
  void refresh(bool moveToMatch);
  void highlight(const QVector<QPair<int, int>>& ranges);
  void selectMatch(const QPair<int, int>& m);
  void updateStatus(const QVector<QPair<int, int>>& ranges);
  int searchFlags() const;

  QsciScintilla* m_editor;
  QLineEdit* m_find = nullptr;
  QLineEdit* m_replace = nullptr;
  QCheckBox* m_case = nullptr;
  QCheckBox* m_word = nullptr;
  QLabel* m_status = nullptr;
  QWidget* m_replaceRow = nullptr;
  QLabel* m_replaceLabel = nullptr;
  bool m_replaceMode = false;
  QTimer m_refreshLater;
};

}  // namespace tirx::views
