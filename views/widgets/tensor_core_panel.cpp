// TensorCorePanel: the picker over the engine's fragment facts and shared tiles, the warp choice,
// the summary line and the per-instruction bank-conflict table; see the header.
#include "views/widgets/tensor_core_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "views/engine/descriptor_facts.h"
#include "views/engine/job_runner.h"
#include "views/engine/session.h"
#include "views/engine/tensor_core_facts.h"
#include "views/widgets/bank_image_view.h"
#include "views/widgets/fragment_view.h"

namespace tirx::views {

namespace {
// item data: fragment fact index ≥ 0, shared tile −1 − index; a wgmma descriptor item carries
// its tile's data and, under kDescriptorRole, the descriptor fact's index
int tileData(int index) {
  return -1 - index;
}
constexpr int kDescriptorRole = Qt::UserRole + 1;
}  // namespace

TensorCorePanel::TensorCorePanel(Session& session, QWidget* parent)
    : QWidget(parent), m_session(session) {
  m_pick = new QComboBox(this);
  m_pick->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_pick->setMinimumContentsLength(30);
  m_warp = new QSpinBox(this);
  m_warp->setPrefix(tr("warp "));
  m_sub = new QSpinBox(this);
  m_sub->setPrefix(tr("instruction "));
  m_sub->setVisible(false);
  m_summary = new QLabel(this);
  m_summary->setWordWrap(true);
  m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_fragment = new FragmentView(this);
  m_bank = new BankImageView(this);
  m_accesses = new QTableWidget(0, 6, this);
  m_accesses->setHorizontalHeaderLabels({tr("line"), tr("instruction"), tr("warp instrs"),
                                         tr("wavefronts"), tr("ideal"), tr("worst bank")});
  m_accesses->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
  m_accesses->verticalHeader()->hide();
  m_accesses->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_accesses->setSelectionBehavior(QAbstractItemView::SelectRows);
  auto* bankPage = new QSplitter(Qt::Vertical, this);
  bankPage->addWidget(m_bank);
  bankPage->addWidget(m_accesses);
  bankPage->setChildrenCollapsible(true);
  m_accesses->setMinimumHeight(0);
  bankPage->setStretchFactor(0, 4);
  bankPage->setStretchFactor(1, 1);
  m_stack = new QStackedWidget(this);
  m_stack->addWidget(m_fragment);
  m_stack->addWidget(bankPage);
  // a small minimum: the dock shares its column with Layout and Assembly and must not pin the
  // window's splits
  m_stack->setMinimumSize(120, 60);

  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Operand:"), this));
  top->addWidget(m_pick, 1);
  top->addWidget(m_warp);
  top->addWidget(m_sub);
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(4, 4, 4, 4);
  lay->addLayout(top);
  lay->addWidget(m_summary);
  lay->addWidget(m_stack, 1);

  // an explicit small minimum (the layout's would be the sum of its rows): the dock shares its
  // column with Layout and Assembly and must not pin the window's splits
  setMinimumSize(160, 120);

  connect(m_pick, &QComboBox::currentIndexChanged, this, [this](int) { showPicked(); });
  connect(m_warp, &QSpinBox::valueChanged, this, [this](int w) {
    if (m_stack->currentIndex() == 1) {  // a tile: the bank view draws this warp's instructions
      showAccessRow(m_accesses->currentRow());
      return;
    }
    m_fragment->setWarp(w);
    showPicked();
  });
  connect(m_sub, &QSpinBox::valueChanged, this, [this](int) { showPicked(); });
  connect(m_accesses, &QTableWidget::cellClicked, this, [this](int row, int) {
    if (auto* it = m_accesses->item(row, 0)) {
      m_fromTable = true;
      m_session.selectLine(it->text().toInt());
      m_fromTable = false;
    }
  });
  connect(m_accesses, &QTableWidget::currentCellChanged, this,
          [this](int row, int, int previous, int) {
            if (row != previous) showAccessRow(row);
          });
  // The fragment facts, descriptors and tile images are the session's second stage (LIVE-3):
  // the dock follows detailsChanged and keeps the previous ones on screen until they arrive.
  connect(&m_session, &Session::detailsChanged, this, [this] {
    if (isVisible())
      refresh();
    else
      m_dirty = true;
  });
  connect(&m_session, &Session::reportChanged, this, [this] {
    if (isVisible())
      fillAccesses();
    else
      m_dirty = true;
  });
  connect(&m_session, &Session::lineSelected, this, &TensorCorePanel::followLine);
  refresh();
}

void TensorCorePanel::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  const auto latest = m_session.facts();
  if (m_dirty || (latest && latest->detailed && m_facts != latest)) {
    m_dirty = false;
    refresh();
  }
}

void TensorCorePanel::refresh() {
  // stage-1 facts alone (no fragment facts yet): the details shown stay until the new ones come
  if (const auto latest = m_session.facts(); !latest || latest->detailed) m_facts = latest;
  const QString previous = m_pick->currentText();
  {
    const QSignalBlocker block(m_pick);
    m_pick->clear();
    if (m_facts) {
      const auto& frags = m_facts->fragments;
      for (int i = 0; i < static_cast<int>(frags.size()); ++i)
        m_pick->addItem(QString::fromStdString(describeFragmentFact(frags[size_t(i)])), i);
      for (int i = 0; i < static_cast<int>(m_facts->sharedTiles.size()); ++i) {
        const SharedTileImage& t = m_facts->sharedTiles[size_t(i)];
        QString text =
            tr("tile %1 · shared · %2")
                .arg(QString::fromStdString(t.name), QString::fromStdString(t.layoutText));
        if (t.swizzled && !t.swizzleMode.empty())
          text += tr(" · %1 swizzle").arg(QString::fromStdString(t.swizzleMode));
        m_pick->addItem(text, tileData(i));
      }
      for (int i = 0; i < static_cast<int>(m_facts->descriptors.size()); ++i) {
        const DescriptorFact& f = m_facts->descriptors[size_t(i)];
        for (int t = 0; t < static_cast<int>(m_facts->sharedTiles.size()); ++t) {
          const SharedTileImage& tile = m_facts->sharedTiles[size_t(t)];
          if (tile.name != f.buffer || tile.kernel != f.kernel) continue;
          m_pick->addItem(QString::fromStdString(describeDescriptorPick(f)), tileData(t));
          m_pick->setItemData(m_pick->count() - 1, i, kDescriptorRole);
          break;
        }
      }
    }
    int keep = m_pick->findText(previous);
    if (keep < 0) {
      // first choice: an operand with wrong cells, else the first A operand, else the first item
      keep = 0;
      bool wrong = false;
      for (int i = 0; i < m_pick->count() && !wrong; ++i) {
        const int d = m_pick->itemData(i).toInt();
        if (d < 0) continue;
        const auto& f = m_facts->fragments[size_t(d)];
        if (f.mismatches > 0) keep = i, wrong = true;
      }
      if (!wrong) {
        const int a = m_pick->findText(QStringLiteral(" · a ("), Qt::MatchContains);
        if (a >= 0) keep = a;
      }
    }
    m_pick->setCurrentIndex(m_pick->count() ? keep : -1);
  }
  showPicked();
}

QString TensorCorePanel::summary() const {
  return m_summary->text();
}

bool TensorCorePanel::pick(const QString& text) {
  const int i = m_pick->findText(text, Qt::MatchContains);
  if (i < 0) return false;
  m_pick->setCurrentIndex(i);
  showPicked();
  return true;
}

bool TensorCorePanel::selectAccessLine(int line) {
  for (int r = 0; r < static_cast<int>(m_rows.size()) && r < m_accesses->rowCount(); ++r)
    if (m_accesses->item(r, 0) && m_accesses->item(r, 0)->text().toInt() == line) {
      m_accesses->setCurrentCell(r, 1);
      return true;
    }
  return false;
}

void TensorCorePanel::followLine(int line) {
  if (!m_facts || m_fromTable) return;
  const auto& frags = m_facts->fragments;
  const int current = m_pick->currentData().toInt();
  if (current >= 0 && current < static_cast<int>(frags.size()) &&
      frags[size_t(current)].opSpan.line == line)
    return;
  for (int i = 0; i < m_pick->count(); ++i) {
    const int d = m_pick->itemData(i).toInt();
    if (d >= 0 && frags[size_t(d)].opSpan.line == line) {
      m_pick->setCurrentIndex(i);
      return;
    }
  }
}

void TensorCorePanel::showPicked() {
  const int d = m_pick->currentIndex() >= 0 ? m_pick->currentData().toInt() : 0;
  if (!m_facts || m_pick->currentIndex() < 0) {
    m_fragment->setFact(nullptr, -1);
    m_bank->setTile(nullptr, -1);
    m_warp->setVisible(false);
    m_summary->setText(m_facts ? tr("no mma.sync, wgmma, ldmatrix or stmatrix operand and no "
                                    "shared tile in this script")
                               : QString());
    return;
  }
  if (d >= 0) {
    m_sub->setVisible(false);
    const FragmentFact& f = m_facts->fragments[size_t(d)];
    m_warp->setVisible(f.warps > 1);
    {
      const QSignalBlocker block(m_warp);
      m_warp->setRange(0, f.warps - 1);
    }
    m_fragment->setFact(m_facts, d);
    m_fragment->setWarp(m_warp->value());
    m_stack->setCurrentIndex(0);
    QString s = tr("%1 · operand %2 '%3' · atom %4×%5 elements · %6")
                    .arg(QString::fromStdString(f.opcode), QString::fromStdString(f.role),
                         QString::fromStdString(f.tensor))
                    .arg(f.rows)
                    .arg(f.cols)
                    .arg(QString::fromStdString(f.mapName));
    if (f.mismatches > 0)
      s += tr("<br><span style='color:%1'><b>%2 elements are in the wrong lane</b></span> "
              "(outlined); the map is %3")
               .arg(FragmentView::warningColor().name())
               .arg(f.mismatches)
               .arg(QString::fromStdString(f.mapLayout).toHtmlEscaped());
    else
      s += tr("<br>every element is in the lane the instruction needs");
    if (f.truncated) s += tr(" · drawing the first %1 elements").arg(f.cells.size());
    m_summary->setText(s);
    return;
  }
  const int t = -1 - d;
  m_warp->setVisible(false);  // until a row of the conflict table is selected
  m_bank->setTile(m_facts, t);
  m_stack->setCurrentIndex(1);
  if (const QVariant desc = m_pick->currentData(kDescriptorRole); desc.isValid()) {
    showDescriptor(desc.toInt());
    fillAccesses();
    return;
  }
  m_sub->setVisible(false);
  m_summary->setText(tileSummary(m_facts->sharedTiles[size_t(t)]));
  fillAccesses();
}

QString TensorCorePanel::tileSummary(const SharedTileImage& tile) const {
  return tr("shared tile '%1' · %2 · colour = bank of each element (numbers when large enough; "
            "else 16-byte chunks) · select a row below to draw its accesses")
      .arg(QString::fromStdString(tile.name),
           QString::fromStdString(tile.layoutText).toHtmlEscaped());
}

void TensorCorePanel::showDescriptor(int index) {
  const DescriptorFact& f = m_facts->descriptors[size_t(index)];
  {
    const QSignalBlocker block(m_sub);
    m_sub->setRange(0, std::max(0, static_cast<int>(f.subs.size()) - 1));
  }
  m_sub->setVisible(f.subs.size() > 1);
  const int sub = m_sub->value();
  if (sub < 0 || size_t(sub) >= f.subs.size()) {
    m_bank->setHighlight({});
    return;
  }
  const DescriptorSubOperand& s = f.subs[size_t(sub)];
  m_bank->setHighlight(s.elements);
  QString text = tr("%1 · %2<br>%3 elements of '%4' read through this descriptor (outlined)")
                     .arg(QString::fromStdString(f.opcode),
                          QString::fromStdString(describeDescriptorSub(f, sub)).toHtmlEscaped())
                     .arg(m_bank->highlightedCount())
                     .arg(QString::fromStdString(f.buffer));
  if (s.unmapped > 0) text += tr(" · %1 reads land on no element").arg(s.unmapped);
  m_summary->setText(text);
}

void TensorCorePanel::fillAccesses() {
  {
    const QSignalBlocker block(m_accesses);
    m_accesses->setRowCount(0);
  }
  m_rows.clear();
  showAccessRow(-1);
  const int d = m_pick->currentData().toInt();
  if (!m_facts || d >= 0) return;
  const SharedTileImage& tile = m_facts->sharedTiles[size_t(-1 - d)];
  auto report = m_session.report();
  const QSignalBlocker block(m_accesses);
  if (!report) {
    m_accesses->setRowCount(1);
    m_accesses->setItem(
        0, 1,
        new QTableWidgetItem(tr("Compile & Verify on the simulator to count bank conflicts")));
    return;
  }
  m_rows = tileAccessRows(report->engine, tile.kernel, tile.buffer);
  if (m_rows.empty()) {
    m_accesses->setRowCount(1);
    m_accesses->setItem(0, 1,
                        new QTableWidgetItem(tr("no simulator counts for this tile (device %1)")
                                                 .arg(QString::fromStdString(report->device))));
    return;
  }
  m_accesses->setRowCount(static_cast<int>(m_rows.size()));
  for (int i = 0; i < static_cast<int>(m_rows.size()); ++i) {
    const ir::SharedAccessCount& c = accessOf(report->engine, m_rows[size_t(i)]);
    const QString cells[6] = {
        QString::number(c.span.line),
        QString::fromStdString(c.op + "  (" + c.tensor + ")"),
        QString::number(c.instructions),
        QString::number(c.wavefronts),
        QString::number(c.idealWavefronts),
        c.maxWays > 1 ? tr("%1-way (+%2 wavefronts)").arg(c.maxWays).arg(c.conflictWavefronts())
                      : tr("none")};
    for (int k = 0; k < 6; ++k) {
      auto* it = new QTableWidgetItem(cells[k]);
      if (c.maxWays > 1) it->setForeground(FragmentView::warningColor());
      it->setToolTip(tr("select the row to draw its instructions of one warp on the tile"));
      m_accesses->setItem(i, k, it);
    }
  }
  m_accesses->resizeColumnsToContents();
  m_accesses->setCurrentCell(-1, -1);  // nothing drawn until the user selects a row
}

namespace {
/// The worker's bank map of one row and warp, with the texts the panel shows.
struct BankMapResult {
  std::shared_ptr<const sim::WarpBankMap> map;
  std::string why;
};
}  // namespace

void TensorCorePanel::showAccessRow(int row) {
  auto report = m_session.report();
  const int d = m_pick->currentIndex() >= 0 ? m_pick->currentData().toInt() : 0;
  if (!m_facts || !report || d >= 0 || row < 0 || row >= static_cast<int>(m_rows.size())) {
    if (m_bank->bankMap()) {
      m_bank->setBankMap(nullptr);
      if (m_facts && d < 0) m_summary->setText(tileSummary(m_facts->sharedTiles[size_t(-1 - d)]));
    }
    if (d < 0 && m_stack->currentIndex() == 1) m_warp->setVisible(false);
    return;
  }
  const SharedTileImage& tile = m_facts->sharedTiles[size_t(-1 - d)];
  const TileAccessRow ref = m_rows[size_t(row)];
  const ir::SharedAccessCount& c = accessOf(report->engine, ref);
  const std::vector<int64_t> warps = sim::sampledWarps(c);
  if (warps.empty()) {
    m_bank->setBankMap(nullptr);
    m_summary->setText(tr("line %1 · %2: the simulator kept no instruction of this statement")
                           .arg(c.span.line)
                           .arg(QString::fromStdString(c.op).toHtmlEscaped()));
    return;
  }
  {
    const QSignalBlocker block(m_warp);
    m_warp->setRange(int(warps.front()), int(warps.back()));
  }
  m_warp->setVisible(warps.size() > 1);
  const int64_t warp = m_warp->value();
  const std::string kernel = report->engine.runs[size_t(ref.run)].kernel;
  auto facts = m_facts;
  const QString what = QString::fromStdString(c.op);
  const int line = c.span.line;
  // on the worker: the kernel of the facts must still be the one the report ran (same buffer)
  m_session.runner().submit<BankMapResult>(
      JobKind::BankMap,
      [facts, report, ref, kernel, warp, name = tile.name] {
        BankMapResult r;
        const ir::SharedAccessCount& count = accessOf(report->engine, ref);
        const ir::Kernel* k = facts->frontEnd->program.findKernel(kernel);
        if (!k || count.buffer < 0 || size_t(count.buffer) >= k->buffers.size() ||
            k->buffers[size_t(count.buffer)].name != name) {
          r.why = "the report is from a run before the last edit: Compile & Verify again";
          return r;
        }
        auto map = std::make_shared<sim::WarpBankMap>(sim::warpBankMap(*k, count, warp));
        r.why = map->why;
        r.map = std::move(map);
        return r;
      },
      this,
      [this, what, line, warp, row](BankMapResult r) {
        if (m_accesses->currentRow() != row || m_warp->value() != warp) return;  // moved on
        m_bank->setBankMap(r.why.empty() ? r.map : nullptr, what);
        if (!r.why.empty()) {
          m_summary->setText(tr("line %1 · %2 · warp %3: %4")
                                 .arg(line)
                                 .arg(what.toHtmlEscaped())
                                 .arg(warp)
                                 .arg(QString::fromStdString(r.why).toHtmlEscaped()));
          return;
        }
        const sim::WarpBankMap& m = *r.map;
        QString s = tr("line %1 · %2 · warp %3: %4 warp %5, %6 wavefronts (%7 without conflicts) · "
                       "%8 elements touched (outlined)")
                        .arg(line)
                        .arg(what.toHtmlEscaped())
                        .arg(warp)
                        .arg(m.samples.size())
                        .arg(m.samples.size() == 1 ? tr("instruction") : tr("instructions"))
                        .arg(m.wavefronts)
                        .arg(m.idealWavefronts)
                        .arg(m_bank->highlightedCount());
        if (m_bank->conflictingCount() > 0)
          s += tr(", <span style='color:%1'><b>%2 in bank conflicts</b></span> (red frame, worst "
                  "%3-way)")
                   .arg(BankImageView::conflictColor().name())
                   .arg(m_bank->conflictingCount())
                   .arg(m.maxWays);
        else
          s += tr(", no bank conflict");
        if (m.truncated) s += tr(" · the first %1 instructions of the warp").arg(m.samples.size());
        m_summary->setText(s);
      });
}

void TensorCorePanel::reset() {
  {
    const QSignalBlocker block(m_pick);
    m_pick->clear();  // refresh() keeps the previous pick by its text: not across documents
  }
  m_rows.clear();
  m_accesses->setRowCount(0);
  m_facts.reset();
  refresh();
}

}  // namespace tirx::views
