// DebuggerPanel: buttons and fields, job submission and delivery; the grid is a LayoutCanvas over
// the model the job prepared.
#include "views/widgets/debugger_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QToolTip>
#include <QVBoxLayout>
#include <limits>

#include "views/engine/session.h"
#include "views/models/theme.h"
#include "views/widgets/layout_canvas.h"

namespace tirx::views {

DebuggerPanel::DebuggerPanel(Session& session, QWidget* parent)
    : QWidget(parent), m_session(session) {
  auto* top = new QHBoxLayout;
  auto button = [&](const QString& text, const QString& tip) {
    auto* b = new QPushButton(text, this);
    b->setToolTip(tip);
    top->addWidget(b);
    return b;
  };
  m_start = button(tr("Start"),
                   tr("Record the script's launch on the simulator (restarts a running session)"));
  m_reverse = button(tr("◀◀"), tr("Reverse continue: back to the previous breakpoint hit"));
  m_back = button(tr("◀"), tr("Step back one tile op"));
  m_forward = button(tr("▶"), tr("Step forward one tile op"));
  m_continue = button(tr("▶▶"), tr("Continue to the next breakpoint hit"));
  m_toCursor = button(tr("Run to cursor"), tr("Run to the next tile op on the editor's line"));
  top->addStretch();
  auto* second = new QHBoxLayout;
  second->addWidget(new QLabel(tr("Tile"), this));
  m_buffers = new QComboBox(this);
  m_buffers->setMinimumContentsLength(8);
  second->addWidget(m_buffers);
  second->addWidget(new QLabel(tr("CTA"), this));
  m_cta = new QSpinBox(this);
  m_cta->setRange(0, 1 << 30);
  second->addWidget(m_cta);
  second->addWidget(new QLabel(tr("Thread"), this));
  m_thread = new QSpinBox(this);
  m_thread->setRange(0, 1023);
  m_thread->setToolTip(tr(
      "The focus thread: its scalars are shown, and its warp's copy of lane-only register tiles"));
  second->addWidget(m_thread);
  m_watch = new QLineEdit(this);
  m_watch->setPlaceholderText(tr("watch: C[3, 4] > 1.5, nan(acc), uninit(As[0, 0])"));
  second->addWidget(m_watch, 1);
  // What Start records: which launch, from which step, up to how many MiB (DebugOptions).
  auto* third = new QHBoxLayout;
  third->addWidget(new QLabel(tr("Kernel"), this));
  m_kernel = new QComboBox(this);
  m_kernel->setObjectName(QStringLiteral("kernel"));
  m_kernel->setMinimumContentsLength(10);
  m_kernel->setToolTip(tr("The kernel whose launch Start records"));
  m_kernel->addItem(tr("(first launched)"), QString());
  third->addWidget(m_kernel);
  third->addWidget(new QLabel(tr("Launch"), this));
  m_launch = new QSpinBox(this);
  m_launch->setObjectName(QStringLiteral("launch"));
  m_launch->setRange(0, 1'000'000);
  m_launch->setToolTip(tr("Which launch of the kernel the check code makes (0: the first)"));
  third->addWidget(m_launch);
  third->addWidget(new QLabel(tr("Record from step"), this));
  m_firstStep = new QSpinBox(this);
  m_firstStep->setObjectName(QStringLiteral("firstStep"));
  m_firstStep->setRange(0, std::numeric_limits<int>::max());
  m_firstStep->setToolTip(
      tr("Earlier steps run and are counted but not recorded: a later window of a long launch"));
  third->addWidget(m_firstStep);
  third->addWidget(new QLabel(tr("Trace limit"), this));
  m_traceMib = new QDoubleSpinBox(this);
  m_traceMib->setObjectName(QStringLiteral("traceMib"));
  m_traceMib->setDecimals(3);
  m_traceMib->setRange(0.001, 65536);
  m_traceMib->setValue(256);
  m_traceMib->setSuffix(tr(" MiB"));
  m_traceMib->setToolTip(
      tr("The recording's size limit: past it the later steps are not recorded (W0844)"));
  third->addWidget(m_traceMib);
  third->addStretch();
  m_status = new QLabel(tr("Not debugging: Start records the script on the simulator."), this);
  m_status->setWordWrap(true);
  m_summary = new QLabel(this);
  m_summary->setWordWrap(true);
  m_message = new QLabel(this);
  m_message->setWordWrap(true);
  m_canvas = new LayoutCanvas(this);
  m_canvas->setModel(&m_view.grid);
  m_info = new QLabel(this);
  m_info->setWordWrap(true);
  m_info->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // The contents scroll inside the dock, so that the dock's minimum height stays small and the
  // window's splits (editor | Results) are not held apart by the Debugger's tab.
  auto* inner = new QWidget(this);
  auto* v = new QVBoxLayout(inner);
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidget(inner);
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->addWidget(scroll);
  v->addLayout(top);
  v->addLayout(second);
  v->addLayout(third);
  v->addWidget(m_status);
  v->addWidget(m_message);
  v->addWidget(m_summary);
  v->addWidget(m_canvas, 1);
  v->addWidget(m_info);
  connect(m_start, &QPushButton::clicked, this, &DebuggerPanel::start);
  connect(m_back, &QPushButton::clicked, this, &DebuggerPanel::stepBack);
  connect(m_forward, &QPushButton::clicked, this, &DebuggerPanel::stepForward);
  connect(m_continue, &QPushButton::clicked, this, &DebuggerPanel::continueForward);
  connect(m_reverse, &QPushButton::clicked, this, &DebuggerPanel::continueBackward);
  connect(m_toCursor, &QPushButton::clicked, this, &DebuggerPanel::runToCursor);
  connect(m_buffers, &QComboBox::currentTextChanged, this, [this](const QString& name) {
    if (!m_updatingBuffers && !name.isEmpty()) showBuffer(name);
  });
  connect(m_canvas, &LayoutCanvas::cellHovered, this, [this](qint64 flat) {
    showCell(flat);
    if (flat >= 0) QToolTip::showText(QCursor::pos(), infoText(), m_canvas);
  });
  connect(m_canvas, &LayoutCanvas::cellClicked, this, &DebuggerPanel::showCell);
  connect(&m_session, &Session::breakpointsChanged, this, [this] {
    if (active())
      submit(request(DebugAction::Show));  // new breakpoints: their problems show at once
  });
  connect(&m_session, &Session::factsChanged, this, &DebuggerPanel::updateKernels);
  connect(&m_session, &Session::textReplaced, this, &DebuggerPanel::reset);
  updateButtons();
  updateKernels();
}

// The kernels come from the front end's facts (the IR's kernels), never from the text; the choice
// survives a refresh while the kernel still exists.
void DebuggerPanel::updateKernels() {
  const auto facts = m_session.facts();
  if (!facts || !facts->frontEnd) return;
  QStringList names;
  for (const auto& k : facts->frontEnd->program.kernels) names << QString::fromStdString(k.name);
  QStringList now;
  for (int i = 1; i < m_kernel->count(); ++i) now << m_kernel->itemData(i).toString();
  if (now == names) return;
  const QString chosen = m_kernel->currentData().toString();
  while (m_kernel->count() > 1) m_kernel->removeItem(1);
  for (const QString& n : names) m_kernel->addItem(n, n);
  const int at = m_kernel->findData(chosen);
  m_kernel->setCurrentIndex(at >= 0 ? at : 0);
}

QStringList DebuggerPanel::kernelChoices() const {
  QStringList out;
  for (int i = 0; i < m_kernel->count(); ++i) out << m_kernel->itemData(i).toString();
  return out;
}

void DebuggerPanel::setLaunch(const QString& kernel, int launch) {
  const int at = m_kernel->findData(kernel);
  if (at >= 0) m_kernel->setCurrentIndex(at);
  m_launch->setValue(launch);
}

void DebuggerPanel::setRecording(qint64 firstStep, double traceMib) {
  m_firstStep->setValue(static_cast<int>(firstStep));
  m_traceMib->setValue(traceMib);
}

void DebuggerPanel::updateButtons() {
  for (QPushButton* b : {m_back, m_forward, m_continue, m_reverse, m_toCursor})
    b->setEnabled(active());
  m_start->setText(active() ? tr("Restart") : tr("Start"));
}

DebugRequest DebuggerPanel::request(DebugAction action) const {
  DebugRequest q;
  q.action = action;
  q.target = m_target;
  q.buffer = m_view.buffer.toStdString();
  for (int line : m_session.breakpoints()) q.breakpoints.push_back({line, {}});
  if (!m_watch->text().trimmed().isEmpty())
    q.breakpoints.push_back({0, m_watch->text().trimmed().toStdString()});
  return q;
}

void DebuggerPanel::start() {
  const std::string source = m_session.text().toStdString();
  const std::string name = m_session.displayName().toStdString();
  const int sm = m_session.sm();
  DebugRequest q;
  q.cta = m_cta->value();
  q.thread = m_thread->value();
  q.buffer = m_view.buffer.toStdString();
  q.kernel = m_kernel->currentData().toString().toStdString();
  q.launch = m_launch->value();
  q.firstStep = m_firstStep->value();
  q.traceMib = m_traceMib->value();
  m_status->setText(tr("Recording the launch on the simulator…"));
  const quint64 document = m_document;
  m_session.runner().submitCancellable<DebugStartResult>(
      JobKind::DebugStart,
      [source, name, sm, q](const CancelTokenPtr& cancel) {
        return startDebugSession(source, name, sm, q, cancel);
      },
      this,
      [this, document](DebugStartResult r) {
        if (document != m_document) return;  // recorded from a document replaced since
        m_handle = r.handle;
        updateButtons();
        if (!m_handle) m_session.setDebugLine(0);
        deliver(std::move(r.view));
        // The editor's breakpoints may already be set: report the bad ones now.
        if (m_handle && (!m_session.breakpoints().isEmpty() || !m_watch->text().isEmpty()))
          submit(request(DebugAction::Show));
      });
}

void DebuggerPanel::submit(DebugRequest q) {
  if (!m_handle) return;
  auto handle = m_handle;
  m_session.runner().submitCancellable<DebugView>(
      JobKind::DebugStep,
      [handle, q](const CancelTokenPtr& cancel) {
        return runDebugRequest(*handle, q, cancel.get());
      },
      this,
      [this, handle](DebugView v) {
        if (handle == m_handle) deliver(std::move(v));
      });
}

void DebuggerPanel::stepForward() {
  if (!active()) return;
  m_target = std::min<qint64>(m_target + 1, m_view.last);
  submit(request(DebugAction::GoTo));
}

void DebuggerPanel::stepBack() {
  if (!active()) return;
  m_target = std::max<qint64>(m_target - 1, m_view.first);
  submit(request(DebugAction::GoTo));
}

void DebuggerPanel::goToStep(qint64 step) {
  if (!active()) return;
  m_target = step;
  submit(request(DebugAction::GoTo));
}

void DebuggerPanel::continueForward() {
  submit(request(DebugAction::Continue));
}
void DebuggerPanel::continueBackward() {
  submit(request(DebugAction::ReverseContinue));
}

void DebuggerPanel::runToCursor() {
  DebugRequest q = request(DebugAction::RunToLine);
  q.line = m_session.selectedLine();
  submit(q);
}

void DebuggerPanel::showBuffer(const QString& name) {
  m_view.buffer = name;
  submit(request(DebugAction::Show));
}

void DebuggerPanel::setWatchCondition(const QString& condition) {
  m_watch->setText(condition);
}

void DebuggerPanel::setFocus(qint64 cta, qint64 thread) {
  m_cta->setValue(static_cast<int>(cta));
  m_thread->setValue(static_cast<int>(thread));
}

QString DebuggerPanel::statusText() const {
  return m_status->text();
}
QString DebuggerPanel::infoText() const {
  return m_info->text();
}

void DebuggerPanel::deliver(DebugView v) {
  m_view = std::move(v);
  m_target = m_view.stop.index >= 0 ? m_view.stop.index : 0;
  m_message->setText(m_view.message.trimmed());
  // warnings alone (W0844: the recording stopped early) in amber, errors in red
  const bool errors =
      m_view.message.startsWith('E') || m_view.message.contains(QStringLiteral("\nE"));
  const ThemeColours& theme = themeColours(palette());
  m_message->setStyleSheet(styleSheetColour((errors ? theme.error : theme.warning).text));
  m_message->setVisible(!m_view.message.trimmed().isEmpty());
  if (!m_view.ok) {
    m_status->setText(tr("Not debugging."));
    m_summary->clear();
  } else {
    const auto& s = m_view.stop;
    QString scalars;
    for (const auto& [n, val] : s.scalars)
      scalars += QStringLiteral(" %1=%2").arg(QString::fromStdString(n),
                                              QString::fromStdString(valueText(CellValue{val})));
    // The grid shows the state after the stop's tile op ran (decision DBG-5): said in words.
    m_status->setText(tr("%1 launch %2 · step %3 of %4 · %5 · after line %6 · %7 · %8 %9%10%11")
                          .arg(m_view.kernel)
                          .arg(m_view.launch)
                          .arg(s.index)
                          .arg(m_view.steps)
                          .arg(QString::fromStdString(s.kind))
                          .arg(s.span.line)
                          .arg(QString::fromStdString(s.op))
                          .arg(s.threads)
                          .arg(s.kind == "tile-op" ? tr("threads") : tr("lanes"),
                               s.mixed ? tr(" (diverged)") : QString(),
                               scalars.isEmpty()
                                   ? QString()
                                   : tr(" · thread %1:%2").arg(m_thread->value()).arg(scalars)));
    m_summary->setText(m_view.summary);
    m_session.setDebugLine(s.span.line);
  }
  m_updatingBuffers = true;
  if (m_buffers->count() != m_view.buffers.size() || [&] {
        for (int i = 0; i < m_buffers->count(); ++i)
          if (m_buffers->itemText(i) != m_view.buffers[i]) return true;
        return false;
      }()) {
    m_buffers->clear();
    m_buffers->addItems(m_view.buffers);
  }
  m_buffers->setCurrentText(m_view.buffer);
  m_updatingBuffers = false;
  m_canvas->setModel(&m_view.grid);
  m_canvas->modelChanged();
  showCell(m_canvas->selectedCell());
  emit viewReady();
}

void DebuggerPanel::showCell(qint64 flat) {
  if (flat < 0 || flat >= m_view.grid.cellCount()) {
    m_info->clear();
    return;
  }
  m_info->setText(QString::fromStdString(m_view.grid.cellDetails(flat)).trimmed());
}

// A new document (Open, New, Examples): the recorded session, the stop, the grid, the tile list
// and the messages belong to the old one. A recording still running for it is dropped on arrival.
void DebuggerPanel::reset() {
  ++m_document;
  m_handle.reset();
  m_view = DebugView{};
  m_target = 0;
  m_session.setDebugLine(0);
  m_status->setText(tr("Not debugging: Start records the script on the simulator."));
  m_summary->clear();
  m_message->clear();
  m_message->hide();
  m_info->clear();
  m_updatingBuffers = true;
  m_buffers->clear();
  m_updatingBuffers = false;
  m_kernel->setCurrentIndex(0);
  m_launch->setValue(0);
  m_firstStep->setValue(0);
  m_watch->clear();
  m_canvas->setModel(&m_view.grid);
  m_canvas->modelChanged();
  updateButtons();
}

}  // namespace tirx::views
