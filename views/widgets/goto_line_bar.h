// Go to line (Ctrl+G): a one-field strip under the editor that takes `LINE` or `LINE:COLUMN`
// (1-based), says the valid range, and moves the caret there on Enter; an out-of-range or
// malformed entry is named in the strip and the caret stays. Esc closes it.
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QsciScintilla;

namespace tirx::views {

class GoToLineBar : public QWidget {
  Q_OBJECT
 public:
  explicit GoToLineBar(QsciScintilla* editor, QWidget* parent = nullptr);

  /// Show the bar with the caret's line preselected.
  void open();
  void close();
  /// Go to the text's position: true when it was a valid line (and column), then the bar closes.
  bool accept(const QString& text);

  QLineEdit* lineEdit() const { return m_edit; }
  /// The range hint or the reason the last entry was refused.
  QString statusText() const;

 protected:
  bool eventFilter(QObject* watched, QEvent* e) override;

 private:
  QsciScintilla* m_editor;
  QLineEdit* m_edit = nullptr;
  QLabel* m_status = nullptr;
};

}  // namespace tirx::views
