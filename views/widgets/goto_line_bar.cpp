// GoToLineBar: parse "LINE[:COLUMN]", check it against the document, move the caret.
#include "views/widgets/goto_line_bar.h"

#include <Qsci/qsciscintilla.h>

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QToolButton>

namespace tirx::views {

GoToLineBar::GoToLineBar(QsciScintilla* editor, QWidget* parent)
    : QWidget(parent), m_editor(editor) {
  setObjectName("goToLineBar");
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(4, 2, 4, 2);
  m_edit = new QLineEdit(this);
  m_edit->setObjectName("goToLineEdit");
  m_edit->setPlaceholderText(tr("line or line:column"));
  m_edit->setMaximumWidth(180);
  m_status = new QLabel(this);
  m_status->setObjectName("goToLineStatus");
  auto* closeButton = new QToolButton(this);
  closeButton->setText(QStringLiteral("✕"));
  closeButton->setAutoRaise(true);
  closeButton->setToolTip(tr("Close (Esc)"));
  row->addWidget(new QLabel(tr("Go to line:"), this));
  row->addWidget(m_edit);
  row->addWidget(m_status, 1);
  row->addWidget(closeButton);
  connect(closeButton, &QToolButton::clicked, this, &GoToLineBar::close);
  m_edit->installEventFilter(this);
  hide();
}

void GoToLineBar::open() {
  int line = 0, index = 0;
  m_editor->getCursorPosition(&line, &index);
  m_edit->setText(QString::number(line + 1));
  m_status->setText(tr("1 – %1").arg(m_editor->lines()));
  show();
  m_edit->setFocus();
  m_edit->selectAll();
}

void GoToLineBar::close() {
  hide();
  m_editor->setFocus();
}

bool GoToLineBar::accept(const QString& text) {
  static const QRegularExpression re(QStringLiteral("^\\s*(\\d+)\\s*(?::\\s*(\\d+))?\\s*$"));
  const auto m = re.match(text);
  const int lines = m_editor->lines();
  if (!m.hasMatch()) {
    m_status->setText(
        tr("'%1' is not a line number (expected LINE or LINE:COLUMN)").arg(text.trimmed()));
    return false;
  }
  bool ok = false;
  const int line = m.captured(1).toInt(&ok);
  if (!ok || line < 1 || line > lines) {
    m_status->setText(tr("line %1 is outside 1 – %2").arg(m.captured(1)).arg(lines));
    return false;
  }
  int col = 1;
  if (!m.captured(2).isEmpty()) {
    col = m.captured(2).toInt(&ok);
    const QString content = m_editor->text(line - 1);
    const int maxCol =
        static_cast<int>(content.toUtf8().size() - (content.endsWith('\n') ? 1 : 0)) + 1;
    if (!ok || col < 1 || col > maxCol) {
      m_status->setText(
          tr("column %1 is outside 1 – %2 on line %3").arg(m.captured(2)).arg(maxCol).arg(line));
      return false;
    }
  }
  const long base = m_editor->SendScintilla(QsciScintillaBase::SCI_POSITIONFROMLINE,
                                            static_cast<unsigned long>(line - 1));
  m_editor->SendScintilla(QsciScintillaBase::SCI_GOTOPOS,
                          static_cast<unsigned long>(base + col - 1));
  m_editor->ensureLineVisible(line - 1);
  close();
  return true;
}

QString GoToLineBar::statusText() const {
  return m_status->text();
}

bool GoToLineBar::eventFilter(QObject* watched, QEvent* e) {
  if (watched == m_edit && e->type() == QEvent::ShortcutOverride &&
      static_cast<QKeyEvent*>(e)->key() == Qt::Key_Escape) {
    e->accept();  // Esc closes the bar instead of reaching the window's Stop action
    return true;
  }
  if (watched == m_edit && e->type() == QEvent::KeyPress) {
    auto* ke = static_cast<QKeyEvent*>(e);
    if (ke->key() == Qt::Key_Escape) {
      close();
      return true;
    }
    if (ke->key() == Qt::Key_Return || ke->key() == Qt::Key_Enter) {
      accept(m_edit->text());
      return true;
    }
  }
  return QWidget::eventFilter(watched, e);
}

}  // namespace tirx::views
