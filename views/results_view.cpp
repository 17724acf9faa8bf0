// ResultsView: tables from the VerifyProducts value, charts per check, cross-view selection.
#include "views/results_view.h"

#include <QChart>
#include <QChartView>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSplitter>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeWidget>
#include <QValueAxis>
#include <QVBoxLayout>
#include <cmath>

#include "views/heat_map_widget.h"
#include "views/session.h"

namespace tirx::views {
namespace {

QString num(double v) { return QString::number(v, 'g', 4); }

QString indexText(const std::vector<int64_t>& idx) {
  QStringList p;
  for (auto i : idx) p << QString::number(i);
  return "[" + p.join(", ") + "]";
}

QChartView* makeChartView(QWidget* parent) {
  auto* chart = new QChart;
  chart->legend()->setAlignment(Qt::AlignBottom);
  chart->setMargins(QMargins(4, 4, 4, 4));
  auto* view = new QChartView(chart, parent);
  view->setRenderHint(QPainter::Antialiasing);
  return view;
}

void resetChart(QChart* chart, const QString& title) {
  chart->removeAllSeries();
  for (auto* a : chart->axes()) {
    chart->removeAxis(a);
    delete a;
  }
  chart->setTitle(title);
}

void attachAxes(QChart* chart, const QString& xTitle, const QString& yTitle) {
  auto* x = new QValueAxis;
  auto* y = new QValueAxis;
  x->setTitleText(xTitle);
  y->setTitleText(yTitle);
  x->setLabelFormat("%d");
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (auto* s : chart->series()) {
    s->attachAxis(x);
    s->attachAxis(y);
  }
}

}  // namespace

ResultsView::ResultsView(Session& session, QWidget* parent) : QWidget(parent), m_session(session) {
  m_verdict = new QLabel(this);
  QFont big = font();
  big.setPointSize(big.pointSize() + 4);
  big.setBold(true);
  m_verdict->setFont(big);
  m_verdict->setWordWrap(true);
  m_timings = new QLabel(this);
  m_timings->setWordWrap(true);

  m_checks = new QTreeWidget(this);
  m_checks->setHeaderLabels({tr("check"), tr("result"), tr("max abs"), tr("max rel"), tr("mismatches")});
  m_checks->setRootIsDecorated(false);
  m_worst = new QTreeWidget(this);
  m_worst->setHeaderLabels({tr("element"), tr("actual"), tr("expected"), tr("abs err"), tr("owners"), tr("line")});
  m_worst->setRootIsDecorated(false);
  m_worst->setToolTip(tr("Click an element to select its cell in the layout view and its line"));

  m_plots = new QTabWidget(this);
  m_valuesChart = makeChartView(this);
  m_errorChart = makeChartView(this);
  m_heat = new HeatMapWidget(this);
  m_plots->addTab(m_valuesChart, tr("Output vs reference"));
  m_plots->addTab(m_errorChart, tr("Error"));
  m_plots->addTab(m_heat, tr("Heat map"));
  auto* exportButton = new QToolButton(this);
  exportButton->setText(tr("Export plot PNG…"));
  m_plots->setCornerWidget(exportButton);

  auto* tables = new QSplitter(Qt::Vertical, this);
  tables->addWidget(m_checks);
  tables->addWidget(m_worst);
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(tables);
  split->addWidget(m_plots);
  split->setStretchFactor(1, 2);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(m_verdict);
  layout->addWidget(split, 1);
  layout->addWidget(m_timings);

  connect(m_checks, &QTreeWidget::currentItemChanged, this, [this] {
    if (auto* it = m_checks->currentItem()) showCheck(it->data(0, Qt::UserRole).toInt());
  });
  connect(m_worst, &QTreeWidget::itemClicked, this, &ResultsView::onWorstActivated);
  connect(exportButton, &QToolButton::clicked, this, [this] {
    QString path = QFileDialog::getSaveFileName(this, tr("Export plot"), QString(), "PNG (*.png)");
    if (!path.isEmpty()) exportPlot(path);
  });
  connect(&m_session, &Session::reportChanged, this, [this] {
    if (isVisible()) refresh();
    else m_dirty = true;  // hidden docks refresh when shown
  });
  refresh();
}

void ResultsView::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  if (m_dirty) {
    m_dirty = false;
    refresh();
  }
}

QString ResultsView::verdictText() const { return m_verdict->text(); }

void ResultsView::refresh() {
  auto r = m_session.report();
  m_checks->clear();
  m_worst->clear();
  m_check = -1;
  resetChart(m_valuesChart->chart(), QString());
  resetChart(m_errorChart->chart(), QString());
  m_heat->clear(tr("no 2-D output"));
  m_timings->clear();
  if (!verifyAvailable()) {
    m_verdict->setText(tr("Verification is not available yet"));
    m_verdict->setStyleSheet("color: gray");
    m_timings->setText(QString::fromStdString(verifyUnavailableReason()));
    return;
  }
  if (!r) {
    m_verdict->setText(tr("Not run yet — Compile & Verify (Ctrl+Return)"));
    m_verdict->setStyleSheet("color: gray");
    return;
  }
  if (!r->ran) {
    m_verdict->setText(tr("Did not run: %1").arg(QString::fromStdString(r->summary)));
    m_verdict->setStyleSheet("color: #b36b00");
  } else {
    m_verdict->setText(r->passed ? tr("PASS") : tr("FAIL"));
    m_verdict->setStyleSheet(r->passed ? "color: #1a8f2a" : "color: #d0302f");
    if (!r->summary.empty()) m_verdict->setToolTip(QString::fromStdString(r->summary));
  }
  for (int i = 0; i < static_cast<int>(r->checks.size()); ++i) {
    const CheckResult& c = r->checks[i];
    auto* it = new QTreeWidgetItem(m_checks, {QString::fromStdString(c.name), c.passed ? "PASS" : "FAIL",
                                              num(c.maxAbsError), num(c.maxRelError),
                                              QString::number(c.mismatches)});
    it->setData(0, Qt::UserRole, i);
    it->setForeground(1, c.passed ? QColor(26, 143, 42) : QColor(208, 48, 47));
    if (!c.message.empty()) it->setToolTip(0, QString::fromStdString(c.message));
  }
  for (const Diagnostic& d : r->faults) {
    auto* it = new QTreeWidgetItem(m_checks, {QString::fromStdString(d.code + " " + d.message), "FAULT"});
    it->setData(0, Qt::UserRole, -1);
    it->setForeground(1, QColor(208, 48, 47));
  }
  QStringList t;
  for (const auto& [phase, ms] : r->timings) t << QString("%1 %2 ms").arg(QString::fromStdString(phase), num(ms));
  m_timings->setText(tr("device %1 · %2").arg(QString::fromStdString(r->device), t.join(" · ")));
  for (int c = 0; c < m_checks->columnCount(); ++c) m_checks->resizeColumnToContents(c);
  if (!r->checks.empty()) m_checks->setCurrentItem(m_checks->topLevelItem(0));
}

void ResultsView::showCheck(int index) {
  auto r = m_session.report();
  if (!r || index < 0 || index >= static_cast<int>(r->checks.size())) return;
  m_check = index;
  const CheckResult& c = r->checks[index];
  m_worst->clear();
  for (int w = 0; w < static_cast<int>(c.worst.size()); ++w) {
    const WorstElement& e = c.worst[w];
    auto* it = new QTreeWidgetItem(m_worst, {indexText(e.index), num(e.actual), num(e.expected),
                                             num(e.absError), QString::fromStdString(e.owners),
                                             e.line > 0 ? QString::number(e.line) : QString()});
    it->setData(0, Qt::UserRole, w);
  }
  for (int col = 0; col < m_worst->columnCount(); ++col) m_worst->resizeColumnToContents(col);

  QChart* vc = m_valuesChart->chart();
  resetChart(vc, tr("%1: output against reference").arg(QString::fromStdString(c.name)));
  auto* actual = new QLineSeries;
  actual->setName(tr("output"));
  auto* expected = new QLineSeries;
  expected->setName(tr("reference"));
  QPen dashed(QColor(220, 80, 40));
  dashed.setStyle(Qt::DashLine);
  dashed.setWidthF(1.5);
  expected->setPen(dashed);
  QList<QPointF> pa, pe, perr;
  for (size_t i = 0; i < c.actual.size(); ++i) pa << QPointF(i, c.actual[i]);
  for (size_t i = 0; i < c.expected.size(); ++i) pe << QPointF(i, c.expected[i]);
  for (size_t i = 0; i < std::min(c.actual.size(), c.expected.size()); ++i)
    perr << QPointF(i, std::fabs(c.actual[i] - c.expected[i]));
  actual->replace(pa);
  expected->replace(pe);
  vc->addSeries(actual);
  vc->addSeries(expected);
  attachAxes(vc, tr("flat index"), tr("value"));

  QChart* ec = m_errorChart->chart();
  resetChart(ec, tr("%1: |output − reference|").arg(QString::fromStdString(c.name)));
  auto* err = new QLineSeries;
  err->setName(tr("absolute error"));
  err->replace(perr);
  ec->addSeries(err);
  attachAxes(ec, tr("flat index"), tr("abs error"));

  if (c.shape.size() >= 2 && !perr.isEmpty()) {
    int cols = static_cast<int>(c.shape.back());
    int rows = static_cast<int>(perr.size() / std::max(1, cols));
    std::vector<double> e(perr.size());
    for (int i = 0; i < perr.size(); ++i) e[i] = perr[i].y();
    m_heat->setData(e, rows, cols, tr("|error| of %1 (rows × last dimension)").arg(QString::fromStdString(c.name)));
  } else {
    m_heat->clear(tr("heat map: the output is not 2-D"));
  }
}

int ResultsView::plottedPoints() const {
  int n = 0;
  for (auto* s : m_valuesChart->chart()->series())
    if (auto* ls = qobject_cast<QLineSeries*>(s)) n += ls->count();
  return n;
}

void ResultsView::onWorstActivated() {
  auto r = m_session.report();
  auto* it = m_worst->currentItem();
  if (!r || !it || m_check < 0) return;
  const WorstElement& e = r->checks[m_check].worst[it->data(0, Qt::UserRole).toInt()];
  if (!e.tile.empty()) m_session.selectElement(QString::fromStdString(e.tile), e.flat);
  if (e.line > 0) m_session.selectLine(e.line);
}

bool ResultsView::exportPlot(const QString& path) const {
  QWidget* w = m_plots->currentWidget();
  return w && w->grab().save(path, "PNG");
}

}  // namespace tirx::views
