// PipelinePanel: wiring of the pickers, the chart and the TMA image tab to the Session's report;
// see the header.
#include "views/widgets/pipeline_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>

#include "views/engine/session.h"
#include "views/widgets/pipeline_view.h"
#include "views/widgets/tma_image_view.h"

namespace tirx::views {

PipelinePanel::PipelinePanel(Session& session, QWidget* parent)
    : QWidget(parent), m_session(session) {
  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Launch")));
  m_runs = new QComboBox;
  m_runs->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  top->addWidget(m_runs);
  top->addWidget(new QLabel(tr("CTA")));
  m_cta = new QSpinBox;
  m_cta->setRange(0, 0);
  top->addWidget(m_cta);
  m_summary = new QLabel;
  top->addWidget(m_summary, 1);
  // A launch too large to simulate whole (the benchmark kernels' thousands of CTAs): one CTA alone.
  m_aloneCta = new QSpinBox;
  m_aloneCta->setRange(0, std::numeric_limits<int>::max());
  m_aloneCta->setToolTip(tr("the CTA (linear index) to simulate alone"));
  m_alone = new QPushButton(tr("Simulate CTA alone"));
  m_alone->setToolTip(
      tr("run only this CTA of each kernel on the simulator, on seeded inputs (the check code is "
         "not run), and show its timeline: for launches too large to simulate whole"));
  top->addWidget(m_aloneCta);
  top->addWidget(m_alone);

  m_view = new PipelineView;
  auto* scroll = new QScrollArea;
  scroll->setWidget(m_view);
  scroll->setWidgetResizable(true);
  auto* legend =
      new QLabel(tr("bars: <span style='color:#e8963c'>■</span> wait  <span "
                    "style='color:#508cdc'>■</span> copy in flight "
                    "(issue → landing) · markers: <span style='color:#3caa5a'>▼</span> arrive / "
                    "expect_tx / complete_tx  "
                    "<span style='color:#aa3caa'>◆</span> phase completes · time: simulated ticks "
                    "(docs/simulator.md)"));
  legend->setTextFormat(Qt::RichText);
  auto* chartTab = new QWidget;
  auto* chartLayout = new QVBoxLayout(chartTab);
  chartLayout->setContentsMargins(0, 0, 0, 0);
  chartLayout->addWidget(scroll, 1);
  chartLayout->addWidget(legend);

  auto* imageTab = new QWidget;
  auto* imageLayout = new QVBoxLayout(imageTab);
  imageLayout->setContentsMargins(0, 0, 0, 0);
  auto* imageTop = new QHBoxLayout;
  m_images = new QComboBox;
  m_colour = new QComboBox;
  m_colour->addItems({tr("colour by global chunk"), tr("colour by global row")});
  imageTop->addWidget(m_images, 1);
  imageTop->addWidget(m_colour);
  m_image = new TmaImageView;
  m_caption = new QLabel;
  m_caption->setWordWrap(true);
  imageLayout->addLayout(imageTop);
  imageLayout->addWidget(m_caption);
  imageLayout->addWidget(m_image, 1);

  m_tabs = new QTabWidget;
  m_tabs->addTab(chartTab, tr("Timeline"));
  m_tabs->addTab(imageTab, tr("TMA box image"));
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(m_tabs, 1);

  connect(&m_session, &Session::reportChanged, this, [this] {
    // a dock behind another tab stays "visible" but is covered: defer then too
    if (isVisible() && !visibleRegion().isEmpty())
      refresh();
    else
      m_dirty = true;
  });
  connect(m_runs, &QComboBox::currentIndexChanged, this, &PipelinePanel::showRun);
  connect(m_cta, &QSpinBox::valueChanged, this, &PipelinePanel::showCta);
  connect(m_images, &QComboBox::currentIndexChanged, this, &PipelinePanel::showImage);
  connect(m_colour, &QComboBox::currentIndexChanged, this, [this](int i) {
    m_image->setColourBy(i == 1 ? TmaImageView::ColourBy::SourceRow
                                : TmaImageView::ColourBy::SourceChunk);
  });
  connect(m_view, &PipelineView::itemClicked, this, &PipelinePanel::onItemClicked);
  connect(m_alone, &QPushButton::clicked, this,
          [this] { m_session.requestCtaTimeline(m_aloneCta->value()); });
  refresh();
}

void PipelinePanel::showEvent(QShowEvent*) {
  refreshIfPending();
}

void PipelinePanel::refreshIfPending() {
  if (m_dirty) refresh();
}

void PipelinePanel::refresh() {
  m_dirty = false;
  const auto report = m_session.report();
  const QSignalBlocker block(m_runs);
  m_runs->clear();
  if (report)  // the launches that recorded asynchronous events; the item keeps the run's index
    for (size_t i = 0; i < report->engine.runs.size(); ++i) {
      const verify::KernelRun& r = report->engine.runs[i];
      if (!r.timeline.empty())
        m_runs->addItem(tr("%1 (line %2)").arg(QString::fromStdString(r.kernel)).arg(r.span.line),
                        int(i));
    }
  showRun(m_runs->count() ? 0 : -1);
}

const verify::KernelRun* PipelinePanel::runAt(const VerifyProducts* report, int pick) const {
  if (!report || pick < 0 || pick >= m_runs->count()) return nullptr;
  const int run = m_runs->itemData(pick).toInt();
  return run >= 0 && run < static_cast<int>(report->engine.runs.size())
             ? &report->engine.runs[size_t(run)]
             : nullptr;
}

void PipelinePanel::showRun(int pick) {
  const auto report = m_session.report();
  const verify::KernelRun* r = runAt(report.get(), pick);
  m_ctas = r ? pipelineCtas(r->timeline) : std::vector<int>{};
  {
    const QSignalBlocker block(m_cta);
    m_cta->setRange(m_ctas.empty() ? 0 : m_ctas.front(), m_ctas.empty() ? 0 : m_ctas.back());
    m_cta->setValue(m_ctas.empty() ? 0 : m_ctas.front());
  }
  {
    const QSignalBlocker block(m_images);
    m_images->clear();
    if (r)
      for (const ir::TmaBoxImage& im : r->timeline.images) {
        QStringList coords;
        for (int64_t c : im.coords) coords << QString::number(c);
        m_images->addItem(tr("line %1 · cta %2 · %3 ← %4 (%5)")
                              .arg(im.span.line)
                              .arg(im.cta)
                              .arg(QString::fromStdString(r->timeline.name(im.buffer)),
                                   QString::fromStdString(r->timeline.name(im.tensor)),
                                   coords.join(", ")));
      }
  }
  showImage(m_images->currentIndex());
  showCta();
}

void PipelinePanel::showCta() {
  const auto report = m_session.report();
  const verify::KernelRun* r = runAt(report.get(), m_runs->currentIndex());
  m_view->setChart(r ? buildPipelineChart(r->timeline, m_cta->value()) : PipelineChart{});
  m_summary->setText(summaryText());
}

void PipelinePanel::showImage(int index) {
  const auto report = m_session.report();
  const verify::KernelRun* r = runAt(report.get(), m_runs->currentIndex());
  const ir::AsyncTimeline* tl = r ? &r->timeline : nullptr;
  m_image->setImage(tl && index >= 0 && index < static_cast<int>(tl->images.size())
                        ? &tl->images[size_t(index)]
                        : nullptr,
                    tl);
  m_caption->setText(m_image->caption());
}

QString PipelinePanel::summaryText() const {
  const auto report = m_session.report();
  if (!report)
    return tr(
        "Compile & Verify on the simulator to see the asynchronous timeline, or simulate "
        "one CTA alone");
  const auto& runs = report->engine.runs;
  if (std::none_of(runs.begin(), runs.end(),
                   [](const verify::KernelRun& r) { return !r.timeline.empty(); }))
    return tr("the last run recorded no asynchronous events (cp.async, mbarrier, TMA)");
  const PipelineChart& c = m_view->chart();
  const verify::KernelRun* r = runAt(report.get(), m_runs->currentIndex());
  const bool truncated = r && r->timeline.truncated;
  int warps = 0;
  for (const auto& row : c.rows) warps += row.copies ? 0 : 1;
  return tr("%1 events in cta %2 · %3 ticks · %4 warps%5")
      .arg(c.items.size())
      .arg(c.cta)
      .arg(c.tEnd)
      .arg(warps)
      .arg(truncated ? tr(" · truncated: the run had more events than the cap") : QString());
}

bool PipelinePanel::pick(const QString& text) {
  for (int i = 0; i < m_tabs->count(); ++i)
    if (m_tabs->tabText(i).contains(text, Qt::CaseInsensitive)) {
      m_tabs->setCurrentIndex(i);
      return true;
    }
  for (int i = 0; i < m_images->count(); ++i)
    if (m_images->itemText(i).contains(text, Qt::CaseInsensitive)) {
      m_images->setCurrentIndex(i);
      m_tabs->setCurrentIndex(1);
      return true;
    }
  return false;
}

void PipelinePanel::onItemClicked(int item) {
  const PipelineChart& c = m_view->chart();
  if (item < 0 || item >= static_cast<int>(c.items.size())) return;
  const PipelineItem& it = c.items[size_t(item)];
  if (it.line > 0) m_session.selectLine(it.line);
  // A TMA load with a recorded image: show that image in the other tab's picker.
  const auto report = m_session.report();
  const verify::KernelRun* r = runAt(report.get(), m_runs->currentIndex());
  if (!r) return;
  const auto& tl = r->timeline;
  if (it.event >= 0 && size_t(it.event) < tl.events.size() &&
      tl.events[size_t(it.event)].image >= 0)
    m_images->setCurrentIndex(tl.events[size_t(it.event)].image);
}

}  // namespace tirx::views
