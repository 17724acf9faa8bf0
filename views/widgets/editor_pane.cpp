// EditorPane: a vertical stack (editor, find bar, go-to-line bar) and the actions that open them.
#include "views/widgets/editor_pane.h"

#include <QAction>
#include <QVBoxLayout>
#include <algorithm>

#include "views/widgets/editor_widget.h"
#include "views/widgets/find_bar.h"
#include "views/widgets/goto_line_bar.h"

namespace tirx::views {

EditorPane::EditorPane(EditorWidget* editor, QWidget* parent) : QWidget(parent), m_editor(editor) {
  setObjectName("editorPane");
  auto* box = new QVBoxLayout(this);
  box->setContentsMargins(0, 0, 0, 0);
  box->setSpacing(0);
  m_find = new FindBar(editor, this);
  m_goTo = new GoToLineBar(editor, this);
  box->addWidget(editor, 1);
  box->addWidget(m_find);
  box->addWidget(m_goTo);

  auto add = [this](const QString& text, const QKeySequence& keys, auto slot) {
    auto* a = new QAction(text, this);
    a->setShortcut(keys);
    a->setShortcutContext(Qt::WindowShortcut);
    connect(a, &QAction::triggered, this, slot);
    addAction(a);  // active with or without a menu holding it
    m_actions << a;
    return a;
  };
  add(tr("&Find…"), QKeySequence(Qt::CTRL | Qt::Key_F), [this] {
    m_goTo->hide();
    m_find->open(false);
  });
  add(tr("&Replace…"), QKeySequence(Qt::CTRL | Qt::Key_H), [this] {
    m_goTo->hide();
    m_find->open(true);
  });
  add(tr("Find &Next"), QKeySequence(Qt::Key_F3), [this] {
    if (!m_find->isVisible()) m_find->open(false);
    m_find->findNext();
  });
  add(tr("Find Pre&vious"), QKeySequence(Qt::SHIFT | Qt::Key_F3), [this] {
    if (!m_find->isVisible()) m_find->open(false);
    m_find->findPrevious();
  });
  add(tr("&Go to Line…"), QKeySequence(Qt::CTRL | Qt::Key_G), [this] {
    m_find->close();
    m_goTo->open();
  });
}

void EditorPane::goTo(int line, int col) {
  if (line < 1 || line > m_editor->lines()) return;
  const long base = m_editor->SendScintilla(QsciScintillaBase::SCI_POSITIONFROMLINE,
                                            static_cast<unsigned long>(line - 1));
  const long end = m_editor->SendScintilla(QsciScintillaBase::SCI_GETLINEENDPOSITION,
                                           static_cast<unsigned long>(line - 1));
  const long pos = std::min(end, base + std::max(0, col - 1));
  m_editor->SendScintilla(QsciScintillaBase::SCI_GOTOPOS, static_cast<unsigned long>(pos));
  m_editor->ensureLineVisible(line - 1);
  m_editor->setFocus();
}

}  // namespace tirx::views
