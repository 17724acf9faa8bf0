// DiffView: the controls that pick versions A and B, the batch job that compares (core/diff on
// the worker, verified on the session's device, laid out by diff_rows), and the drawing of its
// value: panes, grid, table.
#include "views/widgets/diff_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QTextBlock>
#include <QVBoxLayout>

#include "views/engine/engine_verify.h"
#include "views/engine/job_runner.h"
#include "views/engine/session.h"
#include "views/models/theme.h"
#include "views/widgets/diff_grid.h"

namespace tirx::views {

namespace {

QPlainTextEdit* makePane(QWidget* parent) {
  auto* e = new QPlainTextEdit(parent);
  e->setReadOnly(true);
  e->setLineWrapMode(QPlainTextEdit::NoWrap);
  e->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  return e;
}

}  // namespace

DiffView::DiffView(Session& session, QWidget* parent) : QWidget(parent), m_session(session) {
  auto* top = new QHBoxLayout;
  m_saved = new QPushButton(tr("Compare with Saved"), this);
  m_saved->setToolTip(tr("A: the file as saved on disk, B: the editor's text"));
  auto* file = new QPushButton(tr("Compare with File…"), this);
  file->setToolTip(tr("A: another script file, B: the editor's text"));
  auto* bundle = new QPushButton(tr("Compare with Bundle…"), this);
  bundle->setToolTip(tr("A: a .tirxb kernel bundle (its recorded results), B: the editor's text"));
  m_verify = new QCheckBox(tr("verify both"), this);
  m_verify->setToolTip(
      tr("Run both versions on the device and target chosen in the toolbar "
         "(results, bank conflicts on the simulator, run timings)"));
  m_verify->setChecked(true);
  m_status = new QLabel(tr("Pick the version to compare the editor's script with."), this);
  m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
  for (QWidget* w : {static_cast<QWidget*>(m_saved), static_cast<QWidget*>(file),
                     static_cast<QWidget*>(bundle), static_cast<QWidget*>(m_verify)})
    top->addWidget(w);
  top->addWidget(m_status, 1);
  connect(m_saved, &QPushButton::clicked, this, [this] { compareWithSaved(); });
  connect(file, &QPushButton::clicked, this, [this] { pickFile(false); });
  connect(bundle, &QPushButton::clicked, this, [this] { pickFile(true); });
  // A and B typed in (two files, two bundles, a file and a bundle), then Compare.
  auto* paths = new QHBoxLayout;
  m_pathA = new QLineEdit(this);
  m_pathA->setPlaceholderText(tr("version A: a script or .tirxb bundle"));
  m_pathB = new QLineEdit(this);
  m_pathB->setPlaceholderText(tr("version B: the editor's text, or a script or bundle"));
  m_compare = new QPushButton(tr("Compare"), this);
  paths->addWidget(new QLabel(tr("A:"), this));
  paths->addWidget(m_pathA, 1);
  paths->addWidget(new QLabel(tr("B:"), this));
  paths->addWidget(m_pathB, 1);
  paths->addWidget(m_compare);
  auto compareTyped = [this] {
    if (m_pathA->text().trimmed().isEmpty()) {
      m_status->setText(tr("Type the path of version A (a script or a .tirxb bundle)."));
      return;
    }
    compareFiles(m_pathA->text().trimmed(), m_pathB->text().trimmed());
  };
  connect(m_compare, &QPushButton::clicked, this, compareTyped);
  connect(m_pathA, &QLineEdit::returnPressed, this, compareTyped);
  connect(m_pathB, &QLineEdit::returnPressed, this, compareTyped);

  m_summary = new QLabel(this);
  m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_summary->setWordWrap(true);

  m_sections = new QComboBox(this);
  for (const char* s : {"script", "cuda", "ptx", "sass"})
    m_sections->addItem(QString::fromLatin1(s));
  connect(m_sections, &QComboBox::activated, this,
          [this](int i) { showSection(m_sections->itemText(i)); });
  m_left = makePane(this);
  m_right = makePane(this);
  // Row i faces row i: the panes scroll together.
  connect(m_left->verticalScrollBar(), &QScrollBar::valueChanged, m_right->verticalScrollBar(),
          &QScrollBar::setValue);
  connect(m_right->verticalScrollBar(), &QScrollBar::valueChanged, m_left->verticalScrollBar(),
          &QScrollBar::setValue);
  auto* panes = new QSplitter(Qt::Horizontal, this);
  panes->addWidget(m_left);
  panes->addWidget(m_right);
  auto* paneBox = new QWidget(this);
  auto* pl = new QVBoxLayout(paneBox);
  pl->setContentsMargins(0, 0, 0, 0);
  auto* sectionRow = new QHBoxLayout;
  sectionRow->addWidget(new QLabel(tr("Go to section:"), paneBox));
  sectionRow->addWidget(m_sections);
  sectionRow->addStretch(1);
  pl->addLayout(sectionRow);
  pl->addWidget(panes, 1);

  m_tiles = new QComboBox(this);
  connect(m_tiles, &QComboBox::currentIndexChanged, this, &DiffView::showTile);
  m_tileInfo = new QLabel(this);
  m_tileInfo->setWordWrap(true);
  m_tileInfo->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_grid = new DiffGrid(this);
  auto* gridBox = new QWidget(this);
  auto* gl = new QVBoxLayout(gridBox);
  gl->setContentsMargins(0, 0, 0, 0);
  gl->addWidget(m_tiles);
  gl->addWidget(m_tileInfo);
  gl->addWidget(m_grid, 1);
  m_table = new QTableWidget(0, 4, this);
  m_table->setHorizontalHeaderLabels({tr("quantity"), tr("A"), tr("B"), tr("change")});
  m_table->verticalHeader()->hide();
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  auto* bottom = new QSplitter(Qt::Horizontal, this);
  bottom->addWidget(gridBox);
  bottom->addWidget(m_table);
  bottom->setStretchFactor(0, 3);
  bottom->setStretchFactor(1, 2);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(paneBox);
  split->addWidget(bottom);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);

  // Stop (Esc) drops a queued comparison without delivering it: say so instead of "Comparing…".
  connect(&m_session, &Session::stopped, this, [this] {
    if (!m_busy) return;
    m_busy = false;
    m_status->setText(tr("Stopped."));
  });

  // The contents scroll inside the dock, so that the dock's minimum height stays small and the
  // window's editor | Results split is not held apart by the Diff tab (tst_studio_truth).
  auto* inner = new QWidget(this);
  auto* layout = new QVBoxLayout(inner);
  layout->addLayout(top);
  layout->addLayout(paths);
  layout->addWidget(m_summary);
  layout->addWidget(split, 1);
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidget(inner);
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->addWidget(scroll);
}

void DiffView::setVerify(bool verify) {
  m_verify->setChecked(verify);
}

QString DiffView::summaryText() const {
  return m_summary->text();
}
QString DiffView::statusText() const {
  return m_status->text();
}

void DiffView::pickFile(bool bundle) {
  const QString path = QFileDialog::getOpenFileName(
      this, bundle ? tr("Compare with Bundle") : tr("Compare with File"), QString(),
      bundle ? tr("Kernel bundles (*.tirxb);;All files (*)")
             : tr("TIRx scripts (*.py);;All files (*)"));
  if (!path.isEmpty()) compareWithFile(path);
}

bool DiffView::compareWithSaved() {
  if (m_session.filePath().isEmpty()) {
    m_status->setText(
        tr("The document has no file on disk yet: save it first, or compare with a file."));
    return false;
  }
  start(m_session.filePath(), tr("%1 (saved)").arg(QFileInfo(m_session.filePath()).fileName()),
        QString());
  return true;
}

void DiffView::compareWithFile(const QString& path) {
  start(path, QString(), QString());
}

void DiffView::compareFiles(const QString& pathA, const QString& pathB) {
  start(pathA, QString(), pathB);
}

namespace {

/// The device's verify options: a GPU device ("cuda:N", ssh://…) runs each side through the
/// executor core/driver makes for it with that side's script. The session's device comes from the
/// device picker (validated texts); one that does not parse is not run on at all.
void setDevice(diff::DiffOptions& o, const std::string& device) {
  VerifyRequest request;
  request.device = device;
  auto spec = deviceOf(request);
  if (spec)
    o.device = *spec;
  else
    o.verify = false;
}

}  // namespace

void DiffView::start(const QString& path, const QString& labelA, const QString& pathB) {
  const std::string other = path.toStdString(), label = labelA.toStdString();
  const std::string otherB = pathB.toStdString();
  const std::string text = m_session.text().toStdString();
  const std::string file =
      (m_session.filePath().isEmpty() ? m_session.displayName() : m_session.filePath())
          .toStdString();
  const std::string labelB = m_session.displayName().toStdString() + " (editor)";
  m_request = {path, pathB, m_session.device(), m_session.sm(), m_verify->isChecked()};
  diff::DiffOptions options;
  options.verify = m_request.verify;
  options.arch = "sm_" + std::to_string(m_request.sm);
  setDevice(options, m_request.device.toStdString());
  m_busy = true;
  m_status->setText(
      tr("Comparing %1 with %2%3…")
          .arg(QFileInfo(path).fileName(),
               pathB.isEmpty() ? tr("the editor's text") : QFileInfo(pathB).fileName(),
               m_request.verify
                   ? tr(", verifying both on %1 (sm_%2)").arg(m_request.device).arg(m_request.sm)
                   : QString()));
  m_session.runner().submitCancellable<DiffViewData>(
      JobKind::Diff,
      [other, label, otherB, text, file, labelB, options](const CancelTokenPtr& cancel) {
        auto failed = [](const Status& s) {
          DiffViewData d;
          d.error = s.message;
          return d;
        };
        Result<diff::Version> a = diff::loadVersion(other);
        if (!a) return failed(a.error());
        if (!label.empty()) a->label = label;
        Result<diff::Version> b =
            otherB.empty() ? Result<diff::Version>(diff::versionFromText(text, file, labelB))
                           : diff::loadVersion(otherB);
        if (!b) return failed(b.error());
        diff::DiffOptions o = options;
        o.cancel = cancel;
        return layOutDiff(diff::diffVersions(*a, *b, o));
      },
      this,
      [this, document = m_document](DiffViewData d) {
        if (document == m_document) present(std::move(d));  // else: for a document replaced since
      });
}

// A new document (Open, New, Examples): the comparison shown was of the old one's text.
void DiffView::reset() {
  ++m_document;
  m_busy = false;
  m_data.reset();
  m_request = {};
  m_status->setText(tr("Pick the version to compare the editor's script with."));
  m_summary->clear();
  m_left->clear();
  m_right->clear();
  m_table->setRowCount(0);
  m_tiles->blockSignals(true);
  m_tiles->clear();
  m_tiles->blockSignals(false);
  m_sections->blockSignals(true);
  m_sections->clear();
  m_sections->blockSignals(false);
  m_pathA->clear();
  m_pathB->clear();
  showTile(-1);
}

void DiffView::present(DiffViewData d) {
  m_busy = false;
  if (!d.ok) {
    m_status->setText(tr("Cannot compare: %1").arg(QString::fromStdString(d.error)));
    emit diffReady();
    return;
  }
  m_data = std::make_shared<const DiffViewData>(std::move(d));
  const DiffViewData& v = *m_data;
  const diff::DiffReport& r = v.report;
  auto ranOn = [](const diff::ResultSide& s) {
    return QString::fromStdString(s.source + (s.unavailable ? ": " + s.firstProblem : ""));
  };
  m_status->setText(tr("A: %1 (%2) · B: %3 (%4)%5")
                        .arg(QString::fromStdString(r.a.label), ranOn(r.resultA),
                             QString::fromStdString(r.b.label), ranOn(r.resultB),
                             r.cancelled ? tr(" (stopped: incomplete)") : QString()));
  QStringList lines;
  for (const std::string& s : v.summary) lines << QString::fromStdString(s).toHtmlEscaped();
  m_summary->setText(lines.join("<br>"));
  m_left->setPlainText(QString::fromStdString(v.leftText));
  m_right->setPlainText(QString::fromStdString(v.rightText));
  paintRows();
  m_table->setRowCount(int(v.table.size()));
  for (int i = 0; i < int(v.table.size()); ++i) {
    const DiffTableRow& row = v.table[size_t(i)];
    const std::string cells[4] = {row.what, row.a, row.b, row.delta};
    for (int c = 0; c < 4; ++c) {
      auto* item = new QTableWidgetItem(QString::fromStdString(cells[c]));
      QFont f = item->font();
      f.setBold(row.changed);
      item->setFont(f);
      m_table->setItem(i, c, item);
    }
  }
  m_tiles->blockSignals(true);
  m_tiles->clear();
  int firstChanged = -1;
  for (const diff::LayoutDiff& l : r.layouts) {
    const bool changed = l.status != diff::LayoutDiff::Status::Compared || l.moved > 0;
    if (changed && firstChanged < 0) firstChanged = m_tiles->count();
    m_tiles->addItem(QString::fromStdString(l.kernel + "." + l.buffer) +
                     (l.status == diff::LayoutDiff::Status::Compared
                          ? tr(" — %1 of %2 cells moved").arg(l.moved).arg(l.cells)
                          : tr(" — %1").arg(QString::fromStdString(l.note))));
  }
  for (const diff::SharedLayoutDiff& l : r.shared) {
    if (l.changed() && firstChanged < 0) firstChanged = m_tiles->count();
    m_tiles->addItem(QString::fromStdString(l.kernel + "." + l.buffer) +
                     (l.status == diff::LayoutDiff::Status::Compared
                          ? tr(" (shared) — %1 of %2 elements moved, %3 to another bank")
                                .arg(l.moved)
                                .arg(l.cells)
                                .arg(l.bankMoved)
                          : tr(" (shared) — %1").arg(QString::fromStdString(l.note))));
  }
  m_tiles->blockSignals(false);
  showTile(m_tiles->count() ? std::max(0, firstChanged) : -1);
  if (m_tiles->count()) m_tiles->setCurrentIndex(std::max(0, firstChanged));
  emit diffReady();
}

void DiffView::showTile(int index) {
  const int registers = m_data ? int(m_data->report.layouts.size()) : 0;
  const int shared = m_data ? int(m_data->report.shared.size()) : 0;
  if (!m_data || index < 0 || index >= registers + shared) {
    m_grid->clear();
    m_tileInfo->setText(
        m_data && !m_data->report.a.checked   ? tr("Layouts not compared: version A has errors")
        : m_data && !m_data->report.b.checked ? tr("Layouts not compared: version B has errors")
                                              : tr("No register or shared tile in either version"));
    return;
  }
  if (index >= registers) {
    showSharedTile(m_data->report.shared[size_t(index - registers)]);
    return;
  }
  const diff::LayoutDiff& l = m_data->report.layouts[size_t(index)];
  m_grid->setTile(l);
  QString how = tr("moved cells are coloured by their owner in B (hover for both owners)");
  if (m_grid->cellCount() == 0)
    how = l.status == diff::LayoutDiff::Status::Compared
              ? tr("grid not drawn: more than %1 cells").arg(diff::kMaxGridCells)
              : QString::fromStdString(l.note);
  m_tileInfo->setText(tr("A: %1\nB: %2\n%3")
                          .arg(QString::fromStdString(l.layoutA.empty() ? "-" : l.layoutA),
                               QString::fromStdString(l.layoutB.empty() ? "-" : l.layoutB), how));
}

void DiffView::showSharedTile(const diff::SharedLayoutDiff& l) {
  m_grid->setSharedTile(l);
  QString how =
      tr("moved elements are coloured by their bank in B (hover for both byte offsets "
         "and banks)");
  if (m_grid->cellCount() == 0)
    how = l.status == diff::LayoutDiff::Status::Compared
              ? tr("grid not drawn: more than %1 elements").arg(diff::kMaxGridCells)
              : QString::fromStdString(l.note);
  m_tileInfo->setText(tr("A: %1 %2\nB: %3 %4\n%5\n%6")
                          .arg(QString::fromStdString(l.layoutA.empty() ? "-" : l.layoutA),
                               QString::fromStdString(l.dtypeA),
                               QString::fromStdString(l.layoutB.empty() ? "-" : l.layoutB),
                               QString::fromStdString(l.dtypeB), how,
                               l.accessesCounted ? tr("bank conflicts per statement: in the table")
                                                 : QString::fromStdString(l.accessNote)));
}

void DiffView::paintRows() {
  // One full-width background per row: red for A's removed lines, green for B's added ones, in
  // the theme's colours (text and background together: readable in both themes).
  const ThemeColours& theme = themeColours(palette());
  const Highlight removed = theme.diffRemoved, added = theme.diffAdded, header = theme.diffHeader,
                  blank = theme.diffBlank;
  for (const bool leftSide : {true, false}) {
    QPlainTextEdit* pane = leftSide ? m_left : m_right;
    QList<QTextEdit::ExtraSelection> sels;
    QTextBlock block = pane->document()->begin();
    for (const DiffRow& row : m_data->rows) {
      if (!block.isValid()) break;
      Highlight c;
      const bool has =
          leftSide ? row.leftNo > 0 || !row.left.empty() : row.rightNo > 0 || !row.right.empty();
      switch (row.kind) {
        case DiffRow::Kind::Header:
          c = header;
          break;
        case DiffRow::Kind::Equal:
          break;
        case DiffRow::Kind::Changed:
          c = leftSide ? removed : added;
          break;
        case DiffRow::Kind::Deleted:
          c = leftSide ? removed : blank;
          break;
        case DiffRow::Kind::Inserted:
          c = leftSide ? blank : added;
          break;
      }
      if (!has && row.kind != DiffRow::Kind::Header) c = blank;
      if (c.background.isValid()) {
        QTextEdit::ExtraSelection line;  // the background across the pane's width
        line.cursor = QTextCursor(block);
        line.format.setBackground(c.background);
        line.format.setProperty(QTextFormat::FullWidthSelection, true);
        sels << line;
        QTextEdit::ExtraSelection text;  // the text colour on the line's characters
        text.cursor = QTextCursor(block);
        text.cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        text.format.setBackground(c.background);
        text.format.setForeground(c.text);
        if (row.kind == DiffRow::Kind::Header) text.format.setFontWeight(QFont::Bold);
        sels << text;
      }
      block = block.next();
    }
    pane->setExtraSelections(sels);
  }
}

void DiffView::changeEvent(QEvent* e) {
  QWidget::changeEvent(e);
  if (e->type() == QEvent::PaletteChange && m_data) paintRows();  // the other theme's colours
}

bool DiffView::showSection(const QString& name) {
  if (!m_data) return false;
  for (const DiffSection& s : m_data->sections) {
    if (QString::fromStdString(s.name) != name) continue;
    for (QPlainTextEdit* pane : {m_left, m_right}) {
      QTextCursor c(pane->document()->findBlockByNumber(s.firstRow));
      pane->setTextCursor(c);
      pane->verticalScrollBar()->setValue(s.firstRow);
    }
    m_sections->setCurrentText(name);
    return true;
  }
  return false;
}

int DiffView::firstVisibleRow() const {
  return m_left->verticalScrollBar()->value();
}

}  // namespace tirx::views
