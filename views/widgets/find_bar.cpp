// FindBar: Scintilla target searches over the editor's bytes, an indicator on every match, and
// replace-all inside one undo action.
#include "views/widgets/find_bar.h"

#include <Qsci/qsciscintilla.h>

#include <QCheckBox>
#include <QGridLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <algorithm>

namespace tirx::views {

namespace {
QToolButton* makeButton(const QString& text, const QString& tip, const QString& name,
                        QWidget* parent) {
  auto* b = new QToolButton(parent);
  b->setText(text);
  b->setToolTip(tip);
  b->setObjectName(name);
  b->setAutoRaise(true);
  return b;
}
}  // namespace

FindBar::FindBar(QsciScintilla* editor, QWidget* parent) : QWidget(parent), m_editor(editor) {
  setObjectName("findBar");
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(4, 2, 4, 2);
  grid->setHorizontalSpacing(4);
  grid->setVerticalSpacing(2);

  m_find = new QLineEdit(this);
  m_find->setObjectName("findEdit");
  m_find->setPlaceholderText(tr("Find"));
  m_find->setClearButtonEnabled(true);
  auto* prev = makeButton(QStringLiteral("↑"), tr("Previous match (Shift+Enter, Shift+F3)"),
                          "findPrevious", this);
  auto* next = makeButton(QStringLiteral("↓"), tr("Next match (Enter, F3)"), "findNext", this);
  m_case = new QCheckBox(tr("Match case"), this);
  m_case->setObjectName("matchCase");
  m_word = new QCheckBox(tr("Whole word"), this);
  m_word->setObjectName("wholeWord");
  m_status = new QLabel(this);
  m_status->setObjectName("findStatus");
  m_status->setMinimumWidth(90);
  auto* closeButton = makeButton(QStringLiteral("✕"), tr("Close (Esc)"), "findClose", this);
  grid->addWidget(new QLabel(tr("Find:"), this), 0, 0);
  grid->addWidget(m_find, 0, 1);
  grid->addWidget(prev, 0, 2);
  grid->addWidget(next, 0, 3);
  grid->addWidget(m_case, 0, 4);
  grid->addWidget(m_word, 0, 5);
  grid->addWidget(m_status, 0, 6);
  grid->addWidget(closeButton, 0, 7);
  grid->setColumnStretch(1, 1);

  m_replaceRow = new QWidget(this);
  auto* row = new QHBoxLayout(m_replaceRow);
  row->setContentsMargins(0, 0, 0, 0);
  m_replace = new QLineEdit(m_replaceRow);
  m_replace->setObjectName("replaceEdit");
  m_replace->setPlaceholderText(tr("Replace with"));
  auto* one = makeButton(tr("Replace"), tr("Replace this match and find the next (Enter)"),
                         "replaceOne", m_replaceRow);
  auto* all = makeButton(tr("Replace All"), tr("Replace every match (one undo step)"), "replaceAll",
                         m_replaceRow);
  row->addWidget(m_replace, 1);
  row->addWidget(one);
  row->addWidget(all);
  auto* replaceLabel = new QLabel(tr("Replace:"), this);
  grid->addWidget(replaceLabel, 1, 0);
  grid->addWidget(m_replaceRow, 1, 1, 1, 7);
  m_replaceLabel = replaceLabel;

  // the editor's "every match" highlight: a translucent box, drawn under the text
  m_editor->SendScintilla(QsciScintillaBase::SCI_INDICSETSTYLE, MatchIndicator,
                          QsciScintillaBase::INDIC_STRAIGHTBOX);
  m_editor->SendScintilla(QsciScintillaBase::SCI_INDICSETFORE, MatchIndicator,
                          0x00a5ff);  // 0xBBGGRR: orange
  m_editor->SendScintilla(QsciScintillaBase::SCI_INDICSETALPHA, MatchIndicator, 90);
  m_editor->SendScintilla(QsciScintillaBase::SCI_INDICSETUNDER, MatchIndicator, 1);

  connect(m_find, &QLineEdit::textChanged, this, [this] { refresh(true); });
  connect(m_case, &QCheckBox::toggled, this, [this] { refresh(true); });
  connect(m_word, &QCheckBox::toggled, this, [this] { refresh(true); });
  connect(prev, &QToolButton::clicked, this, &FindBar::findPrevious);
  connect(next, &QToolButton::clicked, this, &FindBar::findNext);
  connect(one, &QToolButton::clicked, this, &FindBar::replaceCurrent);
  connect(all, &QToolButton::clicked, this, &FindBar::replaceAll);
  connect(closeButton, &QToolButton::clicked, this, &FindBar::close);
  // Re-highlight after edits, later: a search inside the modification notification would move
  // Scintilla's target between the delete and the insert of a replacement in progress.
  m_refreshLater.setSingleShot(true);
  m_refreshLater.setInterval(30);
  connect(&m_refreshLater, &QTimer::timeout, this, [this] {
    if (isVisible()) refresh(false);
  });
  connect(m_editor, &QsciScintilla::textChanged, &m_refreshLater, qOverload<>(&QTimer::start));
  m_find->installEventFilter(this);
  m_replace->installEventFilter(this);
  hide();
}

void FindBar::open(bool replace) {
  m_replaceMode = replace;
  m_replaceRow->setVisible(replace);
  m_replaceLabel->setVisible(replace);
  const QString selected = m_editor->selectedText();
  if (!selected.isEmpty() && !selected.contains('\n')) {
    const QSignalBlocker block(m_find);
    m_find->setText(selected);
  }
  show();
  m_find->setFocus();
  m_find->selectAll();
  refresh(false);
}

void FindBar::close() {
  highlight({});
  hide();
  m_editor->setFocus();
}

int FindBar::searchFlags() const {
  return (m_case->isChecked() ? QsciScintillaBase::SCFIND_MATCHCASE : 0) |
         (m_word->isChecked() ? QsciScintillaBase::SCFIND_WHOLEWORD : 0);
}

QVector<QPair<int, int>> FindBar::matches() const {
  QVector<QPair<int, int>> out;
  const QByteArray pattern = m_find->text().toUtf8();
  if (pattern.isEmpty()) return out;
  auto send = [this](unsigned int msg, unsigned long w = 0, long l = 0) {
    return static_cast<int>(m_editor->SendScintilla(msg, w, l));
  };
  const int length = send(QsciScintillaBase::SCI_GETLENGTH);
  send(QsciScintillaBase::SCI_SETSEARCHFLAGS, static_cast<unsigned long>(searchFlags()));
  int from = 0;
  while (from < length) {
    send(QsciScintillaBase::SCI_SETTARGETRANGE, static_cast<unsigned long>(from), length);
    const int at = static_cast<int>(
        m_editor->SendScintilla(QsciScintillaBase::SCI_SEARCHINTARGET,
                                static_cast<unsigned long>(pattern.size()), pattern.constData()));
    if (at < 0) break;
    const int end = send(QsciScintillaBase::SCI_GETTARGETEND);
    out.append({at, end});
    from = std::max(end, at + 1);
  }
  return out;
}

void FindBar::highlight(const QVector<QPair<int, int>>& ranges) {
  const long length = m_editor->SendScintilla(QsciScintillaBase::SCI_GETLENGTH);
  m_editor->SendScintilla(QsciScintillaBase::SCI_SETINDICATORCURRENT, MatchIndicator);
  m_editor->SendScintilla(QsciScintillaBase::SCI_INDICATORCLEARRANGE, 0UL, length);
  for (const auto& [start, end] : ranges)
    m_editor->SendScintilla(QsciScintillaBase::SCI_INDICATORFILLRANGE,
                            static_cast<unsigned long>(start), end - start);
}

void FindBar::selectMatch(const QPair<int, int>& m) {
  m_editor->SendScintilla(QsciScintillaBase::SCI_SETSEL, static_cast<unsigned long>(m.first),
                          m.second);
  m_editor->SendScintilla(QsciScintillaBase::SCI_SCROLLRANGE, static_cast<unsigned long>(m.second),
                          m.first);
}

void FindBar::updateStatus(const QVector<QPair<int, int>>& ranges) {
  if (m_find->text().isEmpty()) {
    m_status->clear();
    return;
  }
  if (ranges.isEmpty()) {
    m_status->setText(tr("no matches"));
    return;
  }
  const int selStart =
      static_cast<int>(m_editor->SendScintilla(QsciScintillaBase::SCI_GETSELECTIONSTART));
  const int selEnd =
      static_cast<int>(m_editor->SendScintilla(QsciScintillaBase::SCI_GETSELECTIONEND));
  const int index = static_cast<int>(ranges.indexOf(QPair<int, int>(selStart, selEnd)));
  m_status->setText(
      index >= 0 ? tr("%1 of %2").arg(index + 1).arg(ranges.size())
                 : (ranges.size() == 1 ? tr("1 match") : tr("%1 matches").arg(ranges.size())));
}

void FindBar::refresh(bool moveToMatch) {
  const auto ranges = matches();
  highlight(ranges);
  if (moveToMatch && !ranges.isEmpty()) {
    // incremental search: the first match at or after the selection's start
    const int from =
        static_cast<int>(m_editor->SendScintilla(QsciScintillaBase::SCI_GETSELECTIONSTART));
    auto it = std::find_if(ranges.begin(), ranges.end(),
                           [from](const auto& r) { return r.first >= from; });
    selectMatch(it != ranges.end() ? *it : ranges.front());
  }
  updateStatus(ranges);
}

bool FindBar::findNext() {
  const auto ranges = matches();
  highlight(ranges);
  if (ranges.isEmpty()) {
    updateStatus(ranges);
    return false;
  }
  const int from =
      static_cast<int>(m_editor->SendScintilla(QsciScintillaBase::SCI_GETSELECTIONEND));
  auto it =
      std::find_if(ranges.begin(), ranges.end(), [from](const auto& r) { return r.first >= from; });
  selectMatch(it != ranges.end() ? *it : ranges.front());  // wrap to the top
  updateStatus(ranges);
  return true;
}

bool FindBar::findPrevious() {
  const auto ranges = matches();
  highlight(ranges);
  if (ranges.isEmpty()) {
    updateStatus(ranges);
    return false;
  }
  const int before =
      static_cast<int>(m_editor->SendScintilla(QsciScintillaBase::SCI_GETSELECTIONSTART));
  auto it = std::find_if(ranges.rbegin(), ranges.rend(),
                         [before](const auto& r) { return r.second <= before; });
  selectMatch(it != ranges.rend() ? *it : ranges.back());  // wrap to the bottom
  updateStatus(ranges);
  return true;
}

bool FindBar::replaceCurrent() {
  if (m_editor->isReadOnly()) return false;
  const auto ranges = matches();
  const int selStart =
      static_cast<int>(m_editor->SendScintilla(QsciScintillaBase::SCI_GETSELECTIONSTART));
  const int selEnd =
      static_cast<int>(m_editor->SendScintilla(QsciScintillaBase::SCI_GETSELECTIONEND));
  if (!ranges.contains(QPair<int, int>(selStart, selEnd))) {
    findNext();  // nothing selected to replace yet: go to the next match first
    return false;
  }
  const QByteArray with = m_replace->text().toUtf8();
  m_editor->SendScintilla(QsciScintillaBase::SCI_SETTARGETRANGE,
                          static_cast<unsigned long>(selStart), selEnd);
  m_editor->SendScintilla(QsciScintillaBase::SCI_REPLACETARGET,
                          static_cast<unsigned long>(with.size()), with.constData());
  const int after = selStart + static_cast<int>(with.size());
  m_editor->SendScintilla(QsciScintillaBase::SCI_SETSEL, static_cast<unsigned long>(after), after);
  findNext();
  return true;
}

int FindBar::replaceAll() {
  if (m_editor->isReadOnly()) return 0;
  const auto ranges = matches();
  if (ranges.isEmpty()) {
    updateStatus(ranges);
    return 0;
  }
  const QByteArray with = m_replace->text().toUtf8();
  m_editor->beginUndoAction();
  // from the last match backwards, so the earlier byte ranges stay valid
  for (auto it = ranges.rbegin(); it != ranges.rend(); ++it) {
    m_editor->SendScintilla(QsciScintillaBase::SCI_SETTARGETRANGE,
                            static_cast<unsigned long>(it->first), it->second);
    m_editor->SendScintilla(QsciScintillaBase::SCI_REPLACETARGET,
                            static_cast<unsigned long>(with.size()), with.constData());
  }
  m_editor->endUndoAction();
  highlight(matches());
  const int n = static_cast<int>(ranges.size());
  m_status->setText(n == 1 ? tr("replaced 1") : tr("replaced %1").arg(n));
  return n;
}

QString FindBar::statusText() const {
  return m_status->text();
}

bool FindBar::eventFilter(QObject* watched, QEvent* e) {
  if (e->type() == QEvent::ShortcutOverride &&
      static_cast<QKeyEvent*>(e)->key() == Qt::Key_Escape) {
    e->accept();
    return true;
  }
  if (e->type() != QEvent::KeyPress) return QWidget::eventFilter(watched, e);
  auto* ke = static_cast<QKeyEvent*>(e);
  if (ke->key() == Qt::Key_Escape) {
    close();
    return true;
  }
  if (ke->key() == Qt::Key_Return || ke->key() == Qt::Key_Enter) {
    if (watched == m_replace)
      replaceCurrent();
    else if (ke->modifiers() & Qt::ShiftModifier)
      findPrevious();
    else
      findNext();
    return true;
  }
  return QWidget::eventFilter(watched, e);
}

}  // namespace tirx::views
