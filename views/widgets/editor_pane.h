// The Editor dock's content: the script editor with its find/replace bar and go-to-line bar
// under it, and the actions that open them (Find Ctrl+F, Replace Ctrl+H, Find Next F3, Find
// Previous Shift+F3, Go to Line Ctrl+G), which the main window puts in its Edit menu.
#pragma once

#include <QList>
#include <QWidget>

class QAction;

namespace tirx::views {

class EditorWidget;
class FindBar;
class GoToLineBar;

class EditorPane : public QWidget {
  Q_OBJECT
 public:
  explicit EditorPane(EditorWidget* editor, QWidget* parent = nullptr);

  EditorWidget* editor() const { return m_editor; }
  FindBar* findBar() const { return m_find; }
  GoToLineBar* goToLineBar() const { return m_goTo; }
  /// Find, Replace, Find Next, Find Previous, Go to Line (window-wide shortcuts).
  QList<QAction*> editActions() const { return m_actions; }
  /// Put the caret at (1-based line, 1-based byte column), scrolled into view, and focus it.
  void goTo(int line, int col);

 private:
  EditorWidget* m_editor;
  FindBar* m_find;
  GoToLineBar* m_goTo;
  QList<QAction*> m_actions;
};

}  // namespace tirx::views
