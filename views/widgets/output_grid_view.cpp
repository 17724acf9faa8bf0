// OutputGridView: the Show box, the note, the canvas and the cell text; the grid is built by a
// JobKind::OutputGrid job from the report the session holds and delivered as a value.
#include "views/widgets/output_grid_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>

#include "core/layout/tile_layout.h"
#include "views/engine/session.h"
#include "views/models/theme.h"
#include "views/widgets/layout_canvas.h"

namespace tirx::views {

OutputGridView::OutputGridView(Session& session, QWidget* parent)
    : QWidget(parent), m_session(session) {
  m_modeBox = new QComboBox(this);
  m_modeBox->addItem(tr("value"), int(OutputGridMode::Value));
  m_modeBox->addItem(tr("|error|"), int(OutputGridMode::AbsError));
  m_modeBox->addItem(tr("relative error"), int(OutputGridMode::RelError));
  m_modeBox->setToolTip(
      tr("Paint the output's values, |output − reference| or the relative "
         "error; cells outside the check's tolerance are framed"));
  m_note = new QLabel(this);
  m_note->setWordWrap(true);
  m_canvas = new LayoutCanvas(this);
  m_canvas->setModel(&m_grid.grid);
  m_info = new QLabel(this);
  m_info->setWordWrap(true);
  m_info->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Show"), this));
  top->addWidget(m_modeBox);
  top->addWidget(m_note, 1);
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(2, 2, 2, 2);
  v->addLayout(top);
  v->addWidget(m_canvas, 1);
  v->addWidget(m_info);
  connect(m_modeBox, &QComboBox::currentIndexChanged, this, [this] {
    m_mode = static_cast<OutputGridMode>(m_modeBox->currentData().toInt());
    build();
  });
  connect(m_canvas, &LayoutCanvas::cellHovered, this, [this](qint64 cell) {
    showCell(cell >= 0 ? cell : m_canvas->selectedCell());
    if (cell >= 0) QToolTip::showText(QCursor::pos(), infoText(), m_canvas);
  });
  connect(m_canvas, &LayoutCanvas::cellClicked, this, &OutputGridView::showCell);
  m_note->setText(tr("Compile & Verify (Ctrl+Return) to see the checked outputs here"));
}

void OutputGridView::setMode(OutputGridMode mode) {
  m_modeBox->setCurrentIndex(m_modeBox->findData(int(mode)));
}

void OutputGridView::showCheck(int index) {
  m_check = index;
  m_pendingFlat = -1;
  build();
}

const verify::Check* OutputGridView::shownCheck() const {
  if (!m_report || m_check < 0 || m_check >= int(m_report->engine.checks.size())) return nullptr;
  return &m_report->engine.checks[size_t(m_check)];
}

void OutputGridView::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  if (m_dirty) build();
}

void OutputGridView::build() {
  if (!isVisible()) {  // a hidden tab builds when shown
    m_dirty = true;
    return;
  }
  m_dirty = false;
  const auto report = m_session.report();
  const int check = m_check;
  if (!report || check < 0 || check >= int(report->engine.checks.size())) {
    m_report = report;
    m_grid = OutputGrid{};
    m_gridCheck = -1;
    m_canvas->modelChanged();
    m_note->setText(report ? tr("no check selected")
                           : tr("Compile & Verify (Ctrl+Return) to see the checked outputs here"));
    m_info->clear();
    return;
  }
  // The cell budget: about one cell per pixel of the canvas at most (never below 64 a side).
  const QRectF area = m_canvas->gridArea();
  const int64_t maxRows = std::clamp<int64_t>(int64_t(area.height()), 64, 1024);
  const int64_t maxCols = std::clamp<int64_t>(int64_t(area.width()), 64, 1024);
  const OutputGridMode mode = m_mode;
  m_note->setText(
      tr("laying out %1…").arg(QString::fromStdString(report->engine.checks[size_t(check)].name)));
  m_session.runner().submit<std::shared_ptr<OutputGrid>>(
      JobKind::OutputGrid,
      [report, check, mode, maxRows, maxCols] {
        return std::make_shared<OutputGrid>(
            buildOutputGrid(report->engine.checks[size_t(check)], mode, maxRows, maxCols));
      },
      this,
      [this, report, check](std::shared_ptr<OutputGrid> g) {
        deliver(std::move(g), report, check);
      });
}

void OutputGridView::deliver(std::shared_ptr<OutputGrid> g,
                             std::shared_ptr<const VerifyProducts> report, int check) {
  if (report != m_session.report() || check != m_check) return;  // superseded
  const int64_t keep = m_report == report ? m_canvas->selectedCell() : -1;
  m_report = std::move(report);
  const int64_t kept = m_gridCheck == check ? keep : -1;
  m_grid = std::move(*g);
  m_gridCheck = check;
  m_canvas->modelChanged();
  m_note->setText(QString::fromStdString(m_grid.note));
  // the theme's FAIL colour (#c0302f, once fixed here, read 2.4:1 on the dark window)
  m_note->setStyleSheet(m_grid.mismatches > 0 ? styleSheetColour(themeColours(palette()).fail.text)
                                              : QString());
  int64_t cell = kept;
  if (m_pendingFlat >= 0) cell = outputGridCellOf(m_grid, m_pendingFlat);
  m_pendingFlat = -1;
  m_canvas->setSelectedCell(cell);
  if (cell >= 0) m_canvas->ensureVisible(cell);
  showCell(cell);
  emit gridReady();
}

void OutputGridView::selectElement(const std::vector<int64_t>& coord) {
  const verify::Check* c =
      m_session.report() && m_check >= 0 && m_check < int(m_session.report()->engine.checks.size())
          ? &m_session.report()->engine.checks[size_t(m_check)]
          : nullptr;
  if (!c || coord.size() != c->shape.size()) return;
  const int64_t flat = flatten(coord, c->shape);
  if (m_dirty || m_report != m_session.report() || m_gridCheck != m_check) {
    m_pendingFlat = flat;  // the grid of this check is still on its way
    return;
  }
  const int64_t cell = outputGridCellOf(m_grid, flat);
  m_canvas->setSelectedCell(cell);
  m_canvas->ensureVisible(cell);
  showCell(cell);
}

void OutputGridView::showCell(qint64 cell) {
  const verify::Check* c = shownCheck();
  m_info->setText(c ? QString::fromStdString(outputGridDetails(m_grid, *c, cell)) : QString());
}

QString OutputGridView::noteText() const {
  return m_note->text();
}
QString OutputGridView::infoText() const {
  return m_info->text();
}

}  // namespace tirx::views
