// The Tune dock (views/widgets/tune_view.h): the sweep runs on the batch lane (JobKind::Tune)
// through core/tune::runTune with the job's cancel token; each finished candidate is posted back to
// the GUI thread (guarded by QPointer) for the table and the progress bar, and the final report,
// ranked, replaces them. The scatter chart is redrawn from the shown results, one series per value
// of the colouring parameter. Apply edits the literals at the spans findTuneSpace reports for the
// editor's current text.
#include "views/widgets/tune_view.h"

#include <Qsci/qsciscintilla.h>

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

#include "views/engine/job_runner.h"
#include "views/engine/session.h"

namespace tirx::views {

namespace {

QString valuesText(const std::map<std::string, int64_t>& values, const tune::TuneSpace& space) {
  QStringList parts;
  for (const auto& p : space.params) {
    const auto it = values.find(p.name);
    if (it != values.end())
      parts << QStringLiteral("%1=%2").arg(QString::fromStdString(p.name)).arg(it->second);
  }
  return parts.join(' ');
}

}  // namespace

TuneView::TuneView(Session& session, QWidget* parent) : QWidget(parent), m_session(session) {
  m_tune = new QPushButton(tr("Tune"));
  m_cancel = new QPushButton(tr("Cancel"));
  m_apply = new QPushButton(tr("Apply"));
  m_cancel->setEnabled(false);
  m_apply->setEnabled(false);
  m_colourBy = new QComboBox;
  m_colourBy->setToolTip(tr("The parameter whose values colour the chart's points"));
  m_progress = new QProgressBar;
  m_status = new QLabel(tr("Tunes the constants listed in the script's TUNE table."));
  m_status->setWordWrap(true);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(m_tune);
  buttons->addWidget(m_cancel);
  buttons->addWidget(m_apply);
  buttons->addWidget(new QLabel(tr("colour by")));
  buttons->addWidget(m_colourBy);
  buttons->addWidget(m_progress, 1);
  m_table = new QTableWidget(0, 8);
  m_table->setHorizontalHeaderLabels({tr("rank"), tr("candidate"), tr("time ms"), tr("sim work"),
                                      tr("regs"), tr("smem B"), tr("occupancy"), tr("status")});
  m_table->horizontalHeader()->setStretchLastSection(true);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::SingleSelection);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_chart = new QChartView(new QChart);
  m_chart->setMinimumHeight(160);
  auto* split = new QHBoxLayout;
  split->addWidget(m_table, 3);
  split->addWidget(m_chart, 2);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(buttons);
  layout->addWidget(m_status);
  layout->addLayout(split, 1);
  connect(m_tune, &QPushButton::clicked, this, &TuneView::start);
  connect(m_cancel, &QPushButton::clicked, this, &TuneView::cancel);
  connect(m_apply, &QPushButton::clicked, this, &TuneView::apply);
  connect(m_colourBy, &QComboBox::currentIndexChanged, this, &TuneView::redrawChart);
}

QString TuneView::statusText() const {
  return m_status->text();
}

void TuneView::start() {
  const std::string source = m_session.text().toStdString();
  m_space = tune::findTuneSpace(source);
  m_results.clear();
  m_table->setRowCount(0);
  redrawChart();
  if (!m_space.ok()) {
    const auto& d = m_space.diagnostics;
    m_status->setText(d.empty() ? tr("Nothing to tune: the script has no TUNE table.")
                                : tr("TUNE table: line %1:%2: %3")
                                      .arg(d.front().span.line)
                                      .arg(d.front().span.col)
                                      .arg(QString::fromStdString(d.front().message)));
    return;
  }
  m_colourBy->blockSignals(true);
  m_colourBy->clear();
  for (const auto& p : m_space.params) m_colourBy->addItem(QString::fromStdString(p.name));
  m_colourBy->blockSignals(false);
  auto device = tune::parseTuneDevice(m_session.device().toStdString());
  tune::TuneOptions options;
  options.evaluate.arch = "sm_" + std::to_string(m_session.sm());
  options.evaluate.fileName = m_session.displayName().toStdString();
  if (device && device->kind == tune::TuneDevice::Kind::Single) options.lanes = {device->single};
  m_simulator = options.lanes.front().isSim();
  const int total = int(tune::enumerateCandidates(m_space).size());
  m_progress->setRange(0, total);
  m_progress->setValue(0);
  m_status->setText(tr("Tuning %1 candidates on %2…").arg(total).arg(m_session.device()));
  m_running = true;
  m_tune->setEnabled(false);
  m_cancel->setEnabled(true);
  m_apply->setEnabled(false);
  const quint64 run = ++m_run;
  QPointer<TuneView> self(this);
  options.onResult = [self, run](const tune::CandidateResult& r, size_t done, size_t total) {
    QMetaObject::invokeMethod(
        self.data(),
        [self, run, r, done, total] {
          if (self && self->m_run == run) self->onProgress(r, int(done), int(total));
        },
        Qt::QueuedConnection);
  };
  const tune::TuneSpace space = m_space;
  m_session.runner().submitCancellable<tune::TuneReport>(
      JobKind::Tune,
      [source, space, options](const CancelTokenPtr& cancel) {
        tune::TuneOptions o = options;
        o.evaluate.cancel = cancel;
        return tune::runTune(source, space, o);
      },
      this,
      [this, run](tune::TuneReport report) {
        if (run == m_run) present(report);
      });
}

void TuneView::cancel() {
  if (!m_running) return;
  m_session.runner().cancelKind(JobKind::Tune);
  m_running = false;
  m_tune->setEnabled(true);
  m_cancel->setEnabled(false);
  m_apply->setEnabled(false);
  ++m_run;  // progress still on its way belongs to the cancelled tune
  m_status->setText(tr("Cancelled after %1 of %2 candidates; their results are shown.")
                        .arg(m_results.size())
                        .arg(m_progress->maximum()));
  emit tuneFinished();
}

void TuneView::onProgress(const tune::CandidateResult& r, int done, int total) {
  m_results.push_back(r);
  addRow(r, 0);
  m_progress->setValue(done);
  m_status->setText(tr("Tuning: %1 of %2 candidates done…").arg(done).arg(total));
  redrawChart();
}

void TuneView::present(const tune::TuneReport& report) {
  m_running = false;
  m_tune->setEnabled(true);
  m_cancel->setEnabled(false);
  m_results = report.results;
  m_table->setRowCount(0);
  int rank = 0;
  for (const auto& r : m_results) addRow(r, r.outcome == tune::Outcome::Ranked ? ++rank : 0);
  m_progress->setValue(int(report.total));
  const tune::CandidateResult* best = report.best();
  m_apply->setEnabled(best != nullptr);
  const QString stopped = report.cancelled ? tr("Stopped: ") : QString();
  m_status->setText(stopped +
                    (best ? tr("%1 ranked of %2 candidates; best: %3")
                                .arg(rank)
                                .arg(report.total)
                                .arg(valuesText(best->values, m_space))
                          : tr("No candidate verified (%1 candidates).").arg(report.total)));
  redrawChart();
  emit tuneFinished();
}

void TuneView::addRow(const tune::CandidateResult& r, int rank) {
  const bool ranked = r.outcome == tune::Outcome::Ranked;
  const int row = m_table->rowCount();
  m_table->insertRow(row);
  const QStringList cells = {
      rank > 0 ? QString::number(rank) : QStringLiteral("-"),
      valuesText(r.values, m_space),
      ranked ? QString::number(r.timeMs, 'f', 3) : QString(),
      ranked && m_simulator ? QString::number(r.simWork) : QString(),
      QString::number(r.registers),
      QString::number(r.sharedBytes),
      r.occupancy > 0 ? QString::number(100 * r.occupancy, 'f', 1) + "%" : QString(),
      ranked ? tr("ok")
             : QString::fromStdString(std::string(tune::outcomeName(r.outcome)) + ": " + r.reason)};
  for (int c = 0; c < cells.size(); ++c) m_table->setItem(row, c, new QTableWidgetItem(cells[c]));
}

void TuneView::redrawChart() {
  QChart* chart = m_chart->chart();
  chart->removeAllSeries();
  for (auto* axis : chart->axes()) chart->removeAxis(axis);
  const std::string colourBy = m_colourBy->currentText().toStdString();
  std::map<int64_t, QScatterSeries*> series;
  auto* x = new QValueAxis;
  auto* y = new QValueAxis;
  x->setTitleText(tr("candidate"));
  y->setTitleText(m_simulator ? tr("simulator work") : tr("time (ms)"));
  double maxY = 0;
  int index = 0;
  for (const auto& r : m_results) {
    ++index;
    if (r.outcome != tune::Outcome::Ranked) continue;
    const auto it = r.values.find(colourBy);
    const int64_t key = it == r.values.end() ? 0 : it->second;
    QScatterSeries*& s = series[key];
    if (!s) {
      s = new QScatterSeries;
      s->setName(QStringLiteral("%1=%2").arg(QString::fromStdString(colourBy)).arg(key));
      s->setMarkerSize(9);
    }
    const double v = m_simulator ? double(r.simWork) : r.timeMs;
    s->append(index, v);
    maxY = std::max(maxY, v);
  }
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (auto& [key, s] : series) {
    chart->addSeries(s);
    s->attachAxis(x);
    s->attachAxis(y);
  }
  x->setRange(0, std::max(1, index) + 1);
  y->setRange(0, maxY > 0 ? maxY * 1.1 : 1);
}

int TuneView::plottedPoints() const {
  int n = 0;
  for (auto* s : m_chart->chart()->series())
    if (auto* scatter = qobject_cast<QScatterSeries*>(s)) n += scatter->count();
  return n;
}

std::map<std::string, int64_t> TuneView::chosenValues() const {
  const auto rows = m_table->selectionModel()->selectedRows();
  if (!rows.isEmpty() && rows.front().row() < int(m_results.size()) &&
      m_results[size_t(rows.front().row())].outcome == tune::Outcome::Ranked)
    return m_results[size_t(rows.front().row())].values;
  for (const auto& r : m_results)
    if (r.outcome == tune::Outcome::Ranked) return r.values;
  return {};
}

bool TuneView::apply() {
  const std::map<std::string, int64_t> values = chosenValues();
  if (values.empty() || !m_editor) return false;
  // The spans of the editor's current text (it may have changed since the tune).
  const tune::TuneSpace space = tune::findTuneSpace(m_editor->text().toStdString());
  std::vector<const tune::TuneParam*> params;
  for (const auto& p : space.params)
    if (values.count(p.name)) params.push_back(&p);
  if (params.empty()) return false;
  std::sort(params.begin(), params.end(), [](auto* a, auto* b) {
    return a->literal.offset > b->literal.offset;  // last first: earlier spans stay valid
  });
  m_editor->beginUndoAction();
  for (const auto* p : params) {
    const int line = p->literal.line - 1, col = p->literal.col - 1;
    m_editor->setSelection(line, col, line, col + p->literal.length);
    m_editor->replaceSelectedText(QString::number(values.at(p->name)));
  }
  m_editor->endUndoAction();
  m_status->setText(tr("Applied %1 to the editor.").arg(valuesText(values, space)));
  return true;
}

}  // namespace tirx::views
