// LayoutPanel: symbol/typed-layout selection, the worker job that tabulates ownership, and the
// info area (owners of a cell, lines touching the symbol, bank conflicts).
#include "views/widgets/layout_panel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <set>

#include "core/ir/buffer_access.h"
#include "core/ir/element_access.h"
#include "core/layout/layout_parse.h"
#include "views/engine/session.h"
#include "views/widgets/layout_canvas.h"

namespace tirx::views {
namespace {

QString shapeText(const std::vector<int64_t>& shape) {
  QStringList parts;
  for (auto s : shape) parts << QString::number(s);
  return "(" + parts.join(", ") + ")";
}

QString report_stale_note(bool stale) {
  return stale ? QObject::tr("(from a run before the last edit) ") : QString();
}

}  // namespace

LayoutPanel::LayoutPanel(Session& session, QWidget* parent) : QWidget(parent), m_session(session) {
  auto* top = new QHBoxLayout;
  m_symbols = new QComboBox(this);
  m_symbols->setMinimumContentsLength(24);
  m_symbols->setToolTip(tr("Tiles, views and layout constants of the script"));
  m_typed = new QLineEdit(this);
  m_typed->setObjectName("typedLayout");
  m_typed->setPlaceholderText(tr("or type a layout: S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]"));
  top->addWidget(m_symbols, 2);
  top->addWidget(m_typed, 3);

  auto* second = new QHBoxLayout;
  m_mode = new QComboBox(this);
  m_mode->addItems({tr("Owners (warp hue, lane shade)"), tr("One thread (inverse view)"),
                    tr("Shared-memory banks")});
  m_thread = new QSpinBox(this);
  m_thread->setRange(0, 1 << 20);
  m_thread->setPrefix(tr("thread "));
  m_thread->setEnabled(false);
  m_tileOps = new QComboBox(this);
  m_tileOps->setToolTip(tr("Outline the atoms of a tile op on this tile"));
  auto button = [this](const QString& text, const QString& tip) {
    auto* b = new QToolButton(this);
    b->setText(text);
    b->setToolTip(tip);
    return b;
  };
  auto* zoomIn = button("+", tr("Zoom in (+)"));
  auto* zoomOut = button("−", tr("Zoom out (-)"));
  auto* fit = button(tr("Fit"), tr("Fit the grid (0)"));
  auto* png = button(tr("PNG…"), tr("Export the grid as PNG"));
  auto* svg = button(tr("SVG…"), tr("Export the grid as SVG"));
  second->addWidget(m_mode);
  second->addWidget(m_thread);
  second->addWidget(m_tileOps, 1);
  for (auto* b : {zoomIn, zoomOut, fit, png, svg}) second->addWidget(b);

  m_canvas = new LayoutCanvas(this);
  m_canvas->setModel(&m_model);
  m_bounded = new QLabel(this);
  m_bounded->setWordWrap(true);
  m_bounded->setTextFormat(Qt::PlainText);
  m_bounded->setObjectName("boundedState");
  m_bounded->hide();
  m_region = new QLineEdit(this);
  m_region->setObjectName("regionField");
  m_region->setPlaceholderText(tr("region start: row, column (Enter)"));
  m_region->setToolTip(
      tr("The tile is too large to tabulate whole: the first row and column of "
         "the region to show"));
  m_region->hide();
  m_stats = new QLabel(this);
  m_stats->setWordWrap(true);
  m_stats->setTextFormat(Qt::RichText);
  m_info = new QLabel(this);
  m_info->setWordWrap(true);
  m_info->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
  m_info->setMinimumHeight(48);
  m_info->setAlignment(Qt::AlignTop | Qt::AlignLeft);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(top);
  layout->addLayout(second);
  auto* bounded = new QHBoxLayout;
  bounded->addWidget(m_bounded, 1);
  bounded->addWidget(m_region);
  layout->addLayout(bounded);
  layout->addWidget(m_canvas, 1);
  layout->addWidget(m_stats);
  layout->addWidget(m_info);

  connect(m_symbols, &QComboBox::activated, this, &LayoutPanel::onSymbolChosen);
  connect(m_typed, &QLineEdit::returnPressed, this, [this] { showLayoutText(m_typed->text()); });
  connect(m_region, &QLineEdit::returnPressed, this, [this] {
    const QStringList parts = m_region->text().split(',', Qt::SkipEmptyParts);
    bool okRow = parts.size() == 2, okCol = okRow;
    const qint64 row = okRow ? parts[0].trimmed().toLongLong(&okRow) : 0;
    const qint64 col = okCol ? parts[1].trimmed().toLongLong(&okCol) : 0;
    if (okRow && okCol && row >= 0 && col >= 0)
      showRegion(row, col);
    else
      m_info->setText(tr("region: type the first row and column as \"row, column\""));
  });
  connect(m_mode, &QComboBox::currentIndexChanged, this, &LayoutPanel::setMode);
  connect(m_thread, &QSpinBox::valueChanged, this, &LayoutPanel::setFocusThread);
  connect(m_tileOps, &QComboBox::currentIndexChanged, this, &LayoutPanel::onTileOpChosen);
  connect(zoomIn, &QToolButton::clicked, m_canvas, [this] { m_canvas->zoomBy(1.25); });
  connect(zoomOut, &QToolButton::clicked, m_canvas, [this] { m_canvas->zoomBy(0.8); });
  connect(fit, &QToolButton::clicked, m_canvas, &LayoutCanvas::fitToView);
  connect(png, &QToolButton::clicked, this, [this] { exportImage(false); });
  connect(svg, &QToolButton::clicked, this, [this] { exportImage(true); });
  connect(m_canvas, &LayoutCanvas::cellClicked, this, &LayoutPanel::selectCell);
  connect(m_canvas, &LayoutCanvas::cellHovered, this, [this](qint64 f) {
    if (f >= 0)
      updateInfo(f);
    else if (m_canvas->selectedCell() >= 0)
      updateInfo(m_canvas->selectedCell());
  });
  connect(m_info, &QLabel::linkActivated, this,
          [this](const QString& link) { m_session.selectLine(link.mid(5).toInt()); });
  connect(&m_session, &Session::factsChanged, this, [this] {
    if (!isVisible()) {
      m_dirty = true;  // hidden docks refresh when shown
      return;
    }
    refreshSymbols();
  });
  connect(&m_session, &Session::reportChanged, this, &LayoutPanel::updateStats);
  connect(&m_session, &Session::elementSelected, this,
          [this](const QString& kernel, int buffer, qint64 flat) {
            // an element of a bounded tile outside the shown region moves the region when it
            // arrives
            m_pendingSelect = flat;
            if (!showBuffer(kernel, buffer)) m_pendingSelect = -1;
          });
}

void LayoutPanel::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  if (m_dirty || (m_symbols->count() == 0 && m_session.facts())) {
    m_dirty = false;
    refreshSymbols();
  }
}

void LayoutPanel::refreshSymbols() {
  auto facts = m_session.facts();
  QString previous = QString::fromStdString(m_symbolName);
  m_symbols->clear();
  if (!facts) return;
  const auto& syms = facts->frontEnd->program.symbols;
  int keep = -1;
  for (int i = 0; i < static_cast<int>(syms.size()); ++i) {
    const ir::Symbol& s = syms[i];
    QString kind;
    switch (s.kind) {
      case ir::Symbol::Kind::Layout:
        kind = tr("layout");
        break;
      case ir::Symbol::Kind::Tensor:
        kind = QString::fromUtf8(ir::memScopeName(s.scope).data());
        break;
      case ir::Symbol::Kind::View:
        kind = tr("view");
        break;
      default:
        continue;
    }
    QString label = QString::fromStdString(s.name) + "  — " + kind;
    if (!s.shape.empty()) label += " " + shapeText(s.shape);
    if (!s.kernel.empty()) label += tr(" in %1").arg(QString::fromStdString(s.kernel));
    m_symbols->addItem(label, i);
    if (keep < 0 && QString::fromStdString(s.name) == previous) keep = m_symbols->count() - 1;
  }
  if (m_symbolIndex < 0 && !m_typed->text().isEmpty() && m_symbolName.empty()) return;
  if (m_symbols->count() == 0) return;
  // prefer the tile the user was looking at; otherwise the first register tile
  if (keep < 0)
    for (int k = 0; k < m_symbols->count() && keep < 0; ++k)
      if (syms[m_symbols->itemData(k).toInt()].kind == ir::Symbol::Kind::Tensor &&
          syms[m_symbols->itemData(k).toInt()].scope == ir::MemScope::Local)
        keep = k;
  m_symbols->setCurrentIndex(std::max(0, keep));
  onSymbolChosen(m_symbols->currentIndex());
}

bool LayoutPanel::showSymbol(const QString& name) {
  if (m_symbols->count() == 0) refreshSymbols();
  auto facts = m_session.facts();
  if (!facts) return false;
  for (int k = 0; k < m_symbols->count(); ++k) {
    int i = m_symbols->itemData(k).toInt();
    if (QString::fromStdString(facts->frontEnd->program.symbols[i].name) == name) {
      m_symbols->setCurrentIndex(k);
      onSymbolChosen(k);
      return true;
    }
  }
  return false;
}

bool LayoutPanel::showBuffer(const QString& kernel, int buffer) {
  if (m_symbols->count() == 0) refreshSymbols();
  auto facts = m_session.facts();
  if (!facts || buffer < 0) return false;
  const auto& syms = facts->frontEnd->program.symbols;
  const std::string k = kernel.toStdString();
  auto isBuffer = [&](int i) {
    const ir::Symbol& s = syms[size_t(i)];
    return s.kernel == k && s.buffer == buffer &&
           (s.kind == ir::Symbol::Kind::Tensor || s.kind == ir::Symbol::Kind::View);
  };
  int tensor = -1, view = -1;
  for (int c = 0; c < m_symbols->count(); ++c) {
    const int i = m_symbols->itemData(c).toInt();
    if (!isBuffer(i)) continue;
    if (i == m_symbolIndex) {  // already shown (the tensor or a view of it): keep it, select in it
      onSymbolChosen(c);
      return true;
    }
    int& first = syms[size_t(i)].kind == ir::Symbol::Kind::Tensor ? tensor : view;
    if (first < 0) first = c;
  }
  const int pick = tensor >= 0 ? tensor : view;
  if (pick < 0) return false;
  m_symbols->setCurrentIndex(pick);
  onSymbolChosen(pick);
  return true;
}

void LayoutPanel::onSymbolChosen(int index) {
  auto facts = m_session.facts();
  if (!facts || index < 0) return;
  int i = m_symbols->itemData(index).toInt();
  const ir::Symbol& s = facts->frontEnd->program.symbols[i];
  m_symbolIndex = i;
  m_symbolName = s.name;
  int bytes = s.kind == ir::Symbol::Kind::Layout ? 4 : ir::dtypeBytes(s.dtype);
  // global and shared tensors (and views of them) are memory: cells show byte offsets and banks
  const bool memory = s.kind != ir::Symbol::Kind::Layout && s.scope != ir::MemScope::Local;
  requestTable(TableRequest{s.layout, s.shape, bytes, memory, false});
  refreshTileOps();
  if (s.scope == ir::MemScope::Shared && s.kind != ir::Symbol::Kind::Layout &&
      m_mode->currentIndex() == 0)
    m_mode->setCurrentIndex(2);
}

void LayoutPanel::showLayoutText(const QString& text) {
  m_symbolIndex = -1;
  m_symbolName.clear();
  m_typed->setText(text);
  m_tileOps->clear();
  // The parse is instant; the table goes through the same bounded job as a script's tile.
  Diagnostics diags;
  auto layout = parseLayoutText(text.toStdString(), diags);
  if (!layout) {
    m_info->setText(tr("<b>layout error:</b> %1")
                        .arg(diags.empty()
                                 ? tr("not a layout")
                                 : QString::fromStdString(diags.front().message).toHtmlEscaped()));
    return;
  }
  // a typed layout is shown over its shard extents, e.g. S[(2, 32, 4) : …] as (2, 32, 4)
  std::vector<int64_t> shape;
  for (const Iter& it : layout->shard) shape.push_back(it.extent);
  requestTable(TableRequest{*layout, shape, 4, false, true});
}

void LayoutPanel::showRegion(qint64 row, qint64 col) {
  if (m_model.empty() || !m_model.bounded()) return;
  requestTable(m_request, row, col);
}

QString LayoutPanel::boundedText() const {
  return m_model.bounded() ? m_bounded->text() : QString();
}

void LayoutPanel::requestTable(TableRequest request, qint64 row0, qint64 col0) {
  m_request = request;
  m_session.runner().submit<LayoutGridModel>(
      JobKind::Layout,
      [request, row0, col0] {
        // bounded by kMaxOwnershipEntries whatever the tile (LayoutGridModel::setLayout)
        LayoutGridModel model;
        model.setMemory(request.memory);
        model.setLayout(request.layout, request.shape, request.elementBytes, row0, col0);
        return model;
      },
      this,
      [this, typed = request.typed](LayoutGridModel model) {
        onTableReady(std::move(model), typed);
      });
}

void LayoutPanel::onTableReady(LayoutGridModel model, bool typed) {
  if (typed) {
    model.setColouring(m_model.colouring());
  } else {
    model.setColouring(m_mode->currentIndex() == 2 ? LayoutColouring::Banks
                                                   : LayoutColouring::Owners);
    if (m_mode->currentIndex() == 1) model.setFocusThread(m_thread->value());
    model.setAtom(m_tileOps->currentIndex() > 0 ? m_opAtoms[size_t(m_tileOps->currentIndex())] : 0);
  }
  // an element selected outside a bounded tile's region: tabulate the region around it
  if (m_pendingSelect >= 0 && model.bounded() && model.cellOf(m_pendingSelect) < 0) {
    const auto [row, col] = model.windowFor(m_pendingSelect);
    requestTable(m_request, row, col);
    return;
  }
  m_model = std::move(model);
  m_canvas->modelChanged();
  const bool bounded = m_model.bounded();
  m_bounded->setText(QString::fromStdString(m_model.boundedText()));
  m_bounded->setVisible(bounded);
  m_region->setVisible(bounded);
  if (bounded) m_region->setText(QString("%1, %2").arg(m_model.row0()).arg(m_model.col0()));
  updateStats();
  if (typed) {
    m_info->setText(
        tr("typed layout: %1").arg(QString::fromStdString(m_model.layout().toString())));
  } else if (m_pendingSelect >= 0) {
    const qint64 cell = m_model.cellOf(m_pendingSelect);
    m_pendingSelect = -1;
    if (cell >= 0) {
      selectCell(cell);
      m_canvas->ensureVisible(cell);
    }
  } else {
    m_info->setText(tr("click a cell for its owners; used on %1").arg(linesTouching()));
  }
  emit modelReady();
}

void LayoutPanel::refreshTileOps() {
  m_tileOps->blockSignals(true);
  m_tileOps->clear();
  m_opAtoms.clear();
  m_tileOps->addItem(tr("no atom outline"));
  m_opAtoms.push_back(0);
  auto facts = m_session.facts();
  if (facts && m_symbolIndex >= 0) {
    // The engine's uses of the symbol's buffer (ir::tileOpUses through Symbol::buffer).
    const auto& prog = facts->frontEnd->program;
    const ir::Symbol& sym = prog.symbols[m_symbolIndex];
    const ir::Kernel* k = sym.kernel.empty() ? nullptr : prog.findKernel(sym.kernel);
    if (k && sym.buffer >= 0)
      for (const ir::TileOpUse& u : ir::tileOpUses(*k, sym.buffer)) {
        m_tileOps->addItem(tr("line %1: %2 · %3 (atom %4)")
                               .arg(u.stmt->span.line)
                               .arg(QString::fromStdString(u.opcode))
                               .arg(u.write ? tr("writes") : tr("reads"))
                               .arg(u.atom));
        m_opAtoms.push_back(u.atom);
      }
  }
  m_tileOps->blockSignals(false);
}

void LayoutPanel::onTileOpChosen(int index) {
  m_model.setAtom(index > 0 && index < (int)m_opAtoms.size() ? m_opAtoms[index] : 0);
  m_canvas->update();
}

void LayoutPanel::setMode(int mode) {
  if (m_mode->currentIndex() != mode) m_mode->setCurrentIndex(mode);
  m_thread->setEnabled(mode == 1);
  m_model.setColouring(mode == 2 ? LayoutColouring::Banks : LayoutColouring::Owners);
  m_model.setFocusThread(mode == 1 ? m_thread->value() : -1);
  m_canvas->modelChanged();
  updateStats();
  if (mode == 1) m_info->setText(QString::fromStdString(m_model.threadDetails(m_thread->value())));
}

void LayoutPanel::setFocusThread(int thread) {
  if (m_thread->value() != thread) m_thread->setValue(thread);
  if (m_mode->currentIndex() != 1) return;
  m_model.setFocusThread(thread);
  m_canvas->modelChanged();
  m_info->setText(QString::fromStdString(m_model.threadDetails(thread)));
}

void LayoutPanel::selectCell(qint64 flat) {
  m_canvas->setSelectedCell(flat);
  updateInfo(flat);
}

QStringList LayoutPanel::tileOpTexts() const {
  QStringList out;
  for (int i = 0; i < m_tileOps->count(); ++i) out << m_tileOps->itemText(i);
  return out;
}

QString LayoutPanel::linesTouching() const {
  auto facts = m_session.facts();
  if (!facts || m_symbolIndex < 0) return tr("no script lines (typed layout)");
  const ir::Symbol& s = facts->frontEnd->program.symbols[m_symbolIndex];
  std::set<int> lines;
  if (s.span.valid()) lines.insert(s.span.line);
  for (const auto& u : s.uses)
    if (u.valid()) lines.insert(u.line);
  QStringList links;
  for (int l : lines) links << QString("<a href=\"line:%1\">%1</a>").arg(l);
  return tr("lines ") + links.join(", ");
}

void LayoutPanel::updateInfo(qint64 flat) {
  if (flat < 0 || m_model.empty()) return;
  QString details = QString::fromStdString(m_model.cellDetails(flat)).toHtmlEscaped();
  details.replace("\n", "<br>");
  QString head = QString::fromStdString(m_model.cellLabel(flat)).toHtmlEscaped();
  m_info->setText(QString("<b>%1</b> — %2<br>%3 %4%5")
                      .arg(head, details, tr("touched by"), linesTouching(), memoryTouches(flat)));
}

QString LayoutPanel::memoryTouches(qint64 flat) const {
  // A global or shared tensor's cell: the engine's threads and registers of each ld/st tile op
  // on that element (ir::elementTouches), one line per op.
  auto facts = m_session.facts();
  if (!facts || m_symbolIndex < 0 || !m_model.isMemory()) return {};
  const ir::Program& prog = facts->frontEnd->program;
  const ir::Symbol& sym = prog.symbols[size_t(m_symbolIndex)];
  const ir::Kernel* k = sym.kernel.empty() ? nullptr : prog.findKernel(sym.kernel);
  if (!k || sym.kind != ir::Symbol::Kind::Tensor || sym.buffer < 0) return {};
  const int64_t element = m_model.byteOffset(flat) / std::max(1, ir::dtypeBytes(sym.dtype));
  const ir::ElementTouches t = ir::elementTouches(*k, sym.buffer, element);
  QStringList lines;
  const ir::Stmt* cur = nullptr;
  QStringList owners;
  auto flush = [&](const ir::ElementTouch* last) {
    if (!last) return;
    lines << tr("line %1 %2 %3 %4")
                 .arg(last->stmt->span.line)
                 .arg(QString::fromStdString(last->opcode).toHtmlEscaped())
                 .arg(last->write ? tr("writes it from") : tr("reads it into"))
                 .arg(owners.join(", "));
    owners.clear();
  };
  for (size_t i = 0; i < t.touches.size(); ++i) {
    const ir::ElementTouch& e = t.touches[i];
    if (e.stmt != cur && i > 0) flush(&t.touches[i - 1]);
    cur = e.stmt;
    const QString reg =
        QString::fromStdString(k->buffers[size_t(e.regBuffer)].name).toHtmlEscaped();
    owners << (e.thread < 0 ? tr("every thread's %1 slot %2").arg(reg).arg(e.slot)
                            : tr("thread %1 (warp %2, lane %3) %4 slot %5")
                                  .arg(e.thread)
                                  .arg(e.thread / 32)
                                  .arg(e.thread % 32)
                                  .arg(reg)
                                  .arg(e.slot));
  }
  if (!t.touches.empty()) flush(&t.touches.back());
  if (t.truncated) lines << tr("… (more owners)");
  for (const ir::Stmt* s : t.unresolved)
    lines << tr("line %1: its region start is only known at run time").arg(s->span.line);
  if (lines.isEmpty()) return {};
  return "<br>" + tr("tile ops on this element:") + "<br>" + lines.join("<br>");
}

QString LayoutPanel::infoText() const {
  return m_info->text();
}

QString LayoutPanel::statsText() const {
  return m_stats->text();
}

void LayoutPanel::updateStats() {
  if (m_model.empty()) {
    m_stats->clear();
    return;
  }
  const auto& t = m_model.table();
  const auto& shape = m_model.shape();
  int64_t bytes = 0;
  if (m_model.bounded())  // the whole tensor's span, not the region's
    bytes =
        std::max<int64_t>(0, m_model.layout().span("m") - 1) * std::max(1, m_request.elementBytes);
  else
    for (int64_t f = 0; f < m_model.cellCount(); ++f)
      bytes = std::max(bytes, m_model.byteOffset(f));
  QString s;
  if (m_model.isMemory()) {
    // a global or shared tensor is memory, not thread registers
    const ir::Symbol* sym = nullptr;
    if (auto facts = m_session.facts(); facts && m_symbolIndex >= 0)
      sym = &facts->frontEnd->program.symbols[m_symbolIndex];
    const int elementBytes = sym ? ir::dtypeBytes(sym->dtype) : 4;
    s = tr("%1 memory %2 · %3 elements of %4 B · %5 B span")
            .arg(sym ? QString::fromUtf8(ir::memScopeName(sym->scope).data()) : QString())
            .arg(shapeText(shape))
            .arg(m_model.elementCount())
            .arg(elementBytes)
            .arg(bytes + elementBytes);
  } else {
    const int64_t threads = t.threadsUsed(), regs = t.maxSlotsUsed;
    s = tr("%1 × %2 cells · %3 %4 · %5 %6 per thread")
            .arg(m_model.fullRows())
            .arg(m_model.fullCols())
            .arg(threads)
            .arg(threads == 1 ? tr("thread") : tr("threads"))
            .arg(regs)
            .arg(regs == 1 ? tr("register") : tr("registers"));
    if (m_model.bounded()) s += tr(" in the region shown");
  }
  if (m_model.colouring() == LayoutColouring::Banks) s += "<br>" + bankText();
  m_stats->setText(s);
}

// The bank conflicts of the kernel's real accesses, as the simulator counted them in the last run
// (ir::SharedAccessCount per statement); the rows that access the shown tensor come first and in
// bold. A typed layout has no kernel: its numbers are the hypothetical model, labelled as such.
QString LayoutPanel::bankText() const {
  if (m_symbolIndex < 0) {
    BankStats b = m_model.bankStats();
    return tr("banks (hypothetical: one warp access per 32 consecutive elements): %1 of %2 "
              "conflict, worst %3-way")
        .arg(b.conflicted)
        .arg(b.accesses)
        .arg(b.maxDegree);
  }
  auto report = m_session.report();
  if (!report || !report->ran())
    return tr("bank conflicts: Compile & Verify (Ctrl+Return) to count the kernel's real accesses");
  // every kernel run's, in launch order; the shown tensor's rows are those filed under its buffer
  // id in its kernel (SharedAccessCount::buffer), not those whose text names it
  std::vector<std::pair<const ir::SharedAccessCount*, bool>> accesses;
  const ir::Symbol* shown = nullptr;
  if (auto facts = m_session.facts();
      facts && m_symbolIndex >= 0 &&
      size_t(m_symbolIndex) < facts->frontEnd->program.symbols.size())
    shown = &facts->frontEnd->program.symbols[size_t(m_symbolIndex)];
  for (const verify::KernelRun& run : report->engine.runs)
    for (const ir::SharedAccessCount& a : run.sharedAccesses)
      accesses.push_back({&a, shown && shown->buffer >= 0 && a.buffer == shown->buffer &&
                                  run.kernel == shown->kernel});
  if (accesses.empty()) return tr("bank conflicts: the last run touched no shared memory");
  QStringList mine, others;
  for (const auto& [access, isShown] : accesses) {
    const ir::SharedAccessCount& a = *access;
    // element accesses are spelled "store S" by the engine already; tile ops name the opcode
    const bool named = a.op.size() > a.tensor.size() &&
                       a.op.compare(a.op.size() - a.tensor.size(), a.tensor.size(), a.tensor) == 0;
    const std::string what = named ? a.op : a.op + " on " + a.tensor;
    QString row =
        tr("line %1 · %2 · %3 warp instr. · %4-way · %5 wavefronts (%6 without conflicts)")
            .arg(a.span.line)
            .arg(QString::fromStdString(what).toHtmlEscaped())
            .arg(a.instructions)
            .arg(a.maxWays)
            .arg(a.wavefronts)
            .arg(a.idealWavefronts);
    if (isShown)
      mine << "<b>" + row + "</b>";
    else
      others << row;
  }
  QString head = report_stale_note(m_session.reportStale());
  return head + tr("bank conflicts counted by the simulator in the last run:<br>") +
         (mine + others).join("<br>");
}

void LayoutPanel::exportImage(bool svg) {
  QString path = QFileDialog::getSaveFileName(this, svg ? tr("Export SVG") : tr("Export PNG"),
                                              QString(), svg ? "SVG (*.svg)" : "PNG (*.png)");
  if (path.isEmpty()) return;
  bool ok = svg ? m_canvas->exportSvg(path) : m_canvas->exportPng(path);
  if (!ok) m_session.statusMessage(tr("could not write %1").arg(path));
}

// A new document: the tile shown, the typed layout, the atom choices and the line links were the
// old one's; the next facts pick the new document's first register tile.
void LayoutPanel::reset() {
  m_symbolIndex = -1;
  m_symbolName.clear();
  m_pendingSelect = -1;
  m_opAtoms.clear();
  m_symbols->blockSignals(true);
  m_symbols->clear();
  m_symbols->blockSignals(false);
  m_tileOps->blockSignals(true);
  m_tileOps->clear();
  m_tileOps->blockSignals(false);
  m_typed->clear();
  m_model.clear();
  m_canvas->modelChanged();
  m_info->clear();
  m_stats->clear();
  m_dirty = true;
}

}  // namespace tirx::views
