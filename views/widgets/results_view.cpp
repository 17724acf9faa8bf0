// ResultsView: tables from core/verify's Report, charts from the worker's decimated plots per
// check, cross-view selection.
#include "views/widgets/results_view.h"

#include <QChart>
#include <QChartView>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "views/engine/run_verdict.h"
#include "views/engine/session.h"
#include "views/models/theme.h"
#include "views/widgets/heat_map_widget.h"
#include "views/widgets/output_grid_view.h"

namespace tirx::views {
namespace {

QString num(double v) {
  return QString::number(v, 'g', 4);
}

/// "w1 l5 r2": warp, lane and register slot of the engine's producer (no slot for a scalar store).
QString ownerLabel(const verify::OwnerInfo& o) {
  if (!o.known) return {};
  QString s = QString("w%1 l%2").arg(o.warp).arg(o.lane);
  if (o.slot >= 0) s += QString(" r%1").arg(o.slot);
  return s;
}

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

/// The chart's persistent axes and series (created once: rebuilding them per check cost the GUI
/// thread most of a frame, docs/benchmarks.md "The studio under load").
void setUpChart(QChart* chart, std::initializer_list<QLineSeries*> series, QValueAxis* x,
                QValueAxis* y) {
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (QLineSeries* s : series) {
    chart->addSeries(s);
    s->attachAxis(x);
    s->attachAxis(y);
  }
}

// A tick step of 1, 2 or 5 × 10^k that gives about `target` intervals over `span` (at least 1 for
// an index axis, so that no two ticks share an integer label).
double niceStep(double span, int target, bool integer) {
  if (!(span > 0)) return 1;
  double raw = span / target;
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  return integer ? std::max(1.0, std::round(step)) : step;
}

/// Axes for a chart whose x is a flat element index over [0, count) and whose y covers [lo, hi]:
/// the y range is fitted to every series (output and reference), ticks are at round values, and
/// the index axis ticks at integers only.
void fitAxes(QValueAxis* x, QValueAxis* y, const QString& xTitle, const QString& yTitle,
             int64_t count, double lo, double hi, int heightPx) {
  x->setVisible(true);
  y->setVisible(true);
  x->setTitleText(xTitle);
  y->setTitleText(yTitle);
  const double xMax = std::max<double>(1, static_cast<double>(count - 1));
  x->setRange(0, xMax);
  x->setTickType(QValueAxis::TicksDynamic);
  x->setTickAnchor(0);
  x->setTickInterval(niceStep(xMax, 6, true));
  x->setLabelFormat("%.0f");
  if (!(lo <= hi)) lo = 0, hi = 1;
  if (hi - lo < 1e-12 * std::max(1.0, std::fabs(hi))) {  // a flat series: give it some room
    lo -= 0.5;
    hi += 0.5;
  }
  const double pad = (hi - lo) * 0.04;
  // about one tick per 45 px of chart height (Qt hides labels that would overlap, which left
  // irregular gaps such as "6, 2, 0, −4" on a short chart)
  const double step = niceStep(hi - lo + 2 * pad, std::clamp(heightPx / 45 - 2, 2, 8), false);
  y->setRange(std::floor((lo - pad) / step) * step, std::ceil((hi + pad) / step) * step);
  y->setTickType(QValueAxis::TicksDynamic);
  y->setTickAnchor(0);
  y->setTickInterval(step);
  y->setLabelFormat("%.4g");
}

/// Row heights that fit the wrapped text of each cell at its column's width (QTreeView's own
/// size hints ignore the width, so word-wrapped rows stayed one line tall and were cut off).
class WrappingDelegate : public QStyledItemDelegate {
 public:
  explicit WrappingDelegate(QTreeView* view) : QStyledItemDelegate(view), m_view(view) {}
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    int width = m_view->columnWidth(index.column()) - 8;
    if (index.column() == 0) width -= m_view->indentation() * (index.parent().isValid() ? 2 : 1);
    if (width < 20) return s;
    QRect r =
        QFontMetrics(option.font)
            .boundingRect(QRect(0, 0, width, 1 << 20), Qt::TextWordWrap, index.data().toString());
    return QSize(s.width(), std::max(s.height(), r.height() + 6));
  }

 private:
  QTreeView* m_view;
};

QList<QPointF> points(const PlotSeries& s) {
  QList<QPointF> out;
  out.reserve(static_cast<qsizetype>(s.size()));
  for (size_t i = 0; i < s.size(); ++i) out << QPointF(s.x[i], s.y[i]);
  return out;
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
  m_stale = new QLabel(tr("Out of date: the script changed after this run. Compile & Verify "
                          "(Ctrl+Return) to refresh."),
                       this);
  m_stale->setObjectName("staleBanner");
  m_stale->setWordWrap(true);
  m_stale->setStyleSheet(bannerStyleSheet(themeColours(false).staleBanner));
  m_stale->hide();

  m_checks = new QTreeWidget(this);
  m_checks->setHeaderLabels(
      {tr("check"), tr("result"), tr("max abs"), tr("max rel"), tr("mismatches")});
  m_checks->setRootIsDecorated(false);
  m_worst = new QTreeWidget(this);
  m_worst->setHeaderLabels(
      {tr("element"), tr("actual"), tr("expected"), tr("abs err"), tr("owners"), tr("line")});
  m_worst->setRootIsDecorated(false);
  m_worst->setToolTip(tr("Click an element to select its cell in the layout view and its line"));
  // Faults get their own table: the message wraps (a race names two accesses) instead of being cut
  // off in a narrow column, and a click selects the line in the editor.
  m_faults = new QTreeWidget(this);
  m_faults->setObjectName("faults");
  m_faults->setHeaderLabels({tr("line"), tr("fault")});
  m_faults->setRootIsDecorated(true);
  m_faults->setWordWrap(true);
  m_faults->setUniformRowHeights(false);
  m_faults->setTextElideMode(Qt::ElideNone);
  m_faults->header()->setStretchLastSection(true);
  m_faults->setItemDelegate(new WrappingDelegate(m_faults));
  connect(m_faults->header(), &QHeaderView::sectionResized, m_faults,
          [this] { m_faults->doItemsLayout(); });
  m_faults->setToolTip(tr("Click a fault to select its line in the editor"));
  m_faults->hide();

  m_plots = new QTabWidget(this);
  m_valuesChart = makeChartView(this);
  m_valuesChart->installEventFilter(this);
  m_errorChart = makeChartView(this);
  m_output = new QLineSeries;
  m_output->setName(tr("output"));
  m_reference = new QLineSeries;
  m_reference->setName(tr("reference"));
  m_error = new QLineSeries;
  m_error->setName(tr("absolute error"));
  m_valuesX = new QValueAxis;
  m_valuesY = new QValueAxis;
  m_errorX = new QValueAxis;
  m_errorY = new QValueAxis;
  setUpChart(m_valuesChart->chart(), {m_output, m_reference}, m_valuesX, m_valuesY);
  setUpChart(m_errorChart->chart(), {m_error}, m_errorX, m_errorY);
  m_heat = new HeatMapWidget(this);
  m_plots->addTab(m_valuesChart, tr("Output vs reference"));
  m_plots->addTab(m_errorChart, tr("Error"));
  m_plots->addTab(m_heat, tr("Heat map"));
  m_grid = new OutputGridView(session, this);
  m_plots->addTab(m_grid, tr("Grid"));
  auto* exportButton = new QToolButton(this);
  exportButton->setText(tr("Export plot PNG…"));
  m_plots->setCornerWidget(exportButton);

  auto* tables = new QSplitter(Qt::Vertical, this);
  m_tables = tables;
  tables->addWidget(m_checks);
  tables->addWidget(m_faults);
  tables->addWidget(m_worst);
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(tables);
  split->addWidget(m_plots);
  split->setStretchFactor(1, 2);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(m_verdict);
  layout->addWidget(m_stale);
  layout->addWidget(split, 1);
  layout->addWidget(m_timings);

  connect(m_checks, &QTreeWidget::currentItemChanged, this, [this] {
    if (auto* it = m_checks->currentItem()) showCheck(it->data(0, Qt::UserRole).toInt());
  });
  connect(m_worst, &QTreeWidget::itemClicked, this, &ResultsView::onWorstActivated);
  connect(m_faults, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* it) {
    int line = it ? it->data(0, Qt::UserRole).toInt() : 0;
    if (line > 0) m_session.selectLine(line);
  });
  connect(&m_session, &Session::staleChanged, this,
          [this] { m_stale->setVisible(m_session.reportStale()); });
  connect(exportButton, &QToolButton::clicked, this, [this] {
    QString path = QFileDialog::getSaveFileName(this, tr("Export plot"), QString(), "PNG (*.png)");
    if (!path.isEmpty()) exportPlot(path);
  });
  connect(&m_session, &Session::reportChanged, this, [this] {
    if (isVisible())
      refresh();
    else
      m_dirty = true;  // hidden docks refresh when shown
  });
  refresh();
}

void ResultsView::setDark(bool dark) {
  m_darkCharts = dark;
  for (QChartView* v : {m_valuesChart, m_errorChart}) {
    v->chart()->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    v->chart()->legend()->setAlignment(Qt::AlignBottom);
  }
  m_stale->setStyleSheet(bannerStyleSheet(themeColours(dark).staleBanner));
  const int check = m_check;
  refresh();                         // the verdict's and the rows' colours are the theme's
  if (check >= 0) showCheck(check);  // the theme resets the series pens
}

bool ResultsView::staleShown() const {
  return !m_stale->isHidden();
}

bool ResultsView::eventFilter(QObject* watched, QEvent* e) {
  // the next run decimates its series to the chart's width (two points per pixel column at most)
  if (watched == m_valuesChart && e->type() == QEvent::Resize)
    m_session.setPlotColumns(std::max(32, m_valuesChart->width() / 2));
  return QWidget::eventFilter(watched, e);
}

void ResultsView::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  if (m_dirty) {
    m_dirty = false;
    refresh();
  }
}

QString ResultsView::verdictText() const {
  return m_verdict->text();
}

void ResultsView::refresh() {
  auto r = m_session.report();
  m_checks->clear();
  m_worst->clear();
  m_faults->clear();
  m_faults->hide();
  m_check = -1;
  m_grid->showCheck(-1);
  clearCharts();
  m_heat->clear(tr("no 2-D output"));
  m_timings->clear();
  const ThemeColours& theme = themeColours(m_darkCharts);
  const RunVerdict verdict = runVerdict(r.get());
  m_verdict->setToolTip(r ? QString::fromStdString(r->summary) : QString());
  switch (verdict) {
    case RunVerdict::NotRun:
      m_verdict->setText(tr("Not run yet — Compile & Verify (Ctrl+Return)"));
      m_verdict->setStyleSheet(styleSheetColour(theme.neutral.text));
      return;
    case RunVerdict::DidNotRun:
      m_verdict->setText(tr("Did not run: %1").arg(QString::fromStdString(r->summary)));
      m_verdict->setStyleSheet(styleSheetColour(theme.warning.text));
      break;
    case RunVerdict::Cancelled:  // a Stop: neither a failure nor a fault
      m_verdict->setText(verdictWord(verdict));
      m_verdict->setStyleSheet(styleSheetColour(theme.cancelled.text));
      break;
    case RunVerdict::Pass:
    case RunVerdict::Fail:
      m_verdict->setText(verdictWord(verdict));
      m_verdict->setStyleSheet(
          styleSheetColour((verdict == RunVerdict::Pass ? theme.pass : theme.fail).text));
      break;
  }
  const verify::Report& e = r->engine;
  for (int i = 0; i < static_cast<int>(e.checks.size()); ++i) {
    const verify::Check& c = e.checks[size_t(i)];
    // a cancelled run's checks compared an unfinished output: not a verdict on the kernel
    const QString word = r->cancelled ? tr("cancelled") : c.pass ? tr("PASS") : tr("FAIL");
    auto* it = new QTreeWidgetItem(m_checks, {QString::fromStdString(c.name), word, num(c.maxAbs),
                                              num(c.maxRel), QString::number(c.mismatches)});
    it->setData(0, Qt::UserRole, i);
    it->setForeground(1, (r->cancelled ? theme.cancelled : c.pass ? theme.pass : theme.fail).text);
    if (!c.message.empty()) it->setToolTip(0, QString::fromStdString(c.message));
  }
  // front-end and harness errors first, then the runs' faults (a race names both accesses)
  auto addFault = [this, &r, &theme](const Diagnostic& d) {
    // where a Stop ended the run: said as such, in the neutral colour, not as a red fault
    const bool stop = isStopDiagnostic(*r, d);
    auto* it = new QTreeWidgetItem(
        m_faults, {d.span.line > 0 ? QString::number(d.span.line) : QString(),
                   stop ? tr("stopped here: %1").arg(QString::fromStdString(d.message))
                        : QString::fromStdString(d.code + " " + d.message)});
    it->setData(0, Qt::UserRole, d.span.line);
    it->setForeground(1, (stop ? theme.cancelled : theme.error).text);
    it->setToolTip(1, QString::fromStdString(d.message));
    for (const DiagNote& n : d.notes) {
      auto* child =
          new QTreeWidgetItem(it, {n.span.line > 0 ? QString::number(n.span.line) : QString(),
                                   tr("note: %1").arg(QString::fromStdString(n.message))});
      child->setData(0, Qt::UserRole, n.span.line);
    }
    it->setExpanded(true);
  };
  for (const Diagnostic& d : e.errors) addFault(d);
  for (const ir::Fault& f : e.faults) addFault(f.diag);
  if (m_faults->topLevelItemCount() > 0) {
    m_faults->show();
    m_faults->resizeColumnToContents(0);
    // a splitter gives a child shown late no room: share the height, faults first
    const int h = std::max(300, m_tables->height());
    m_tables->setSizes({h / 4, h / 2, h / 4});
  }
  QStringList t;
  for (const verify::KernelRun& run : e.runs)
    t << QString("%1 compile %2 ms").arg(QString::fromStdString(run.kernel), num(run.compileMs))
      << QString("%1 run %2 ms").arg(QString::fromStdString(run.kernel), num(run.runMs));
  t << QString("total %1 ms").arg(num(e.totalMs));
  m_timings->setText(tr("device %1 · %2").arg(QString::fromStdString(r->device), t.join(" · ")));
  for (int c = 0; c < m_checks->columnCount(); ++c) m_checks->resizeColumnToContents(c);
  if (!e.checks.empty()) m_checks->setCurrentItem(m_checks->topLevelItem(0));
}

void ResultsView::showCheck(int index) {
  auto r = m_session.report();
  if (!r || index < 0 || index >= static_cast<int>(r->engine.checks.size())) return;
  m_check = index;
  m_grid->showCheck(index);
  const verify::Check& c = r->engine.checks[size_t(index)];
  m_worst->clear();
  for (int w = 0; w < static_cast<int>(c.worst.size()); ++w) {
    const verify::WorstElement& e = c.worst[size_t(w)];
    const int line = e.owner.producerLine();
    auto* it = new QTreeWidgetItem(
        m_worst, {indexText(e.coord), num(e.actual), num(e.expected), num(e.absErr),
                  ownerLabel(e.owner), line > 0 ? QString::number(line) : QString()});
    it->setData(0, Qt::UserRole, w);
    if (e.owner.known) it->setToolTip(4, QString::fromStdString(e.owner.text()));
  }
  for (int col = 0; col < m_worst->columnCount(); ++col) m_worst->resizeColumnToContents(col);
  static const CheckPlots kNoPlots;
  const CheckPlots& p = size_t(index) < r->plots.size() ? r->plots[size_t(index)] : kNoPlots;
  const int64_t elements = static_cast<int64_t>(std::max(c.output.size(), c.reference.size()));

  // The series were decimated on the worker (≤ 2 points per pixel column): drawing them costs
  // the same for 256 elements and for 2^20.
  // The series and axes persist; only their points, pens and ranges change.
  // a Stop leaves an unfinished output: the plots say so rather than show it as a failure
  const QString partial = r->cancelled ? tr(" (cancelled run: unfinished output)") : QString();
  m_valuesChart->chart()->setTitle(
      tr("%1: output against reference").arg(QString::fromStdString(c.name)) + partial);
  QPen solid(QColor(40, 110, 200));
  solid.setWidthF(1.5);
  // A dashed reference reads well over a few hundred points; over thousands the raster engine's
  // dash stroker costs tens of milliseconds a frame, so long series use solid thin lines and no
  // antialiasing (measured in bench/gui_bench_studio.cpp).
  const bool dense = p.output.size() + p.reference.size() > 1024;
  QPen dashed(QColor(220, 80, 40));
  dashed.setStyle(dense ? Qt::SolidLine : Qt::DashLine);
  dashed.setWidthF(dense ? 1.0 : 1.5);
  if (dense) solid.setWidthF(1.0);
  m_output->setPen(solid);
  m_reference->setPen(dashed);
  m_valuesChart->setRenderHint(QPainter::Antialiasing, !dense);
  m_errorChart->setRenderHint(QPainter::Antialiasing, !dense);
  m_output->replace(points(p.output));
  m_reference->replace(points(p.reference));
  double lo = 0, hi = 0;
  seriesRange({&p.output, &p.reference}, &lo, &hi);
  fitAxes(m_valuesX, m_valuesY, tr("flat index"), tr("value"), elements, lo, hi,
          m_valuesChart->height());

  m_errorChart->chart()->setTitle(
      tr("%1: |output − reference|").arg(QString::fromStdString(c.name)) + partial);
  m_error->replace(points(p.error));
  seriesRange({&p.error}, &lo, &hi);
  fitAxes(m_errorX, m_errorY, tr("flat index"), tr("abs error"), elements, std::min(0.0, lo), hi,
          m_errorChart->height());

  if (!p.heat.empty())
    m_heat->setGrid(
        p.heat, tr("|error| of %1 (rows × last dimension)").arg(QString::fromStdString(c.name)));
  else
    m_heat->clear(tr("heat map: the output is not 2-D"));
}

void ResultsView::clearCharts() {
  for (QLineSeries* s : {m_output, m_reference, m_error}) s->clear();
  for (QValueAxis* a : {m_valuesX, m_valuesY, m_errorX, m_errorY}) a->setVisible(false);
  m_valuesChart->chart()->setTitle(QString());
  m_errorChart->chart()->setTitle(QString());
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
  const verify::Check& c = r->engine.checks[size_t(m_check)];
  const verify::WorstElement& e = c.worst[size_t(it->data(0, Qt::UserRole).toInt())];
  m_grid->selectElement(e.coord);
  const int64_t flat = c.flatIndex(e);
  if (e.owner.buffer >= 0 && flat >= 0)
    m_session.selectElement(QString::fromStdString(e.owner.kernel), e.owner.buffer, flat);
  if (const int line = e.owner.producerLine(); line > 0) m_session.selectLine(line);
}

bool ResultsView::pickTab(const QString& title) {
  for (int i = 0; i < m_plots->count(); ++i)
    if (m_plots->tabText(i).contains(title, Qt::CaseInsensitive)) {
      m_plots->setCurrentIndex(i);
      return true;
    }
  return false;
}

bool ResultsView::exportPlot(const QString& path) const {
  QWidget* w = m_plots->currentWidget();
  return w && w->grab().save(path, "PNG");
}

}  // namespace tirx::views
