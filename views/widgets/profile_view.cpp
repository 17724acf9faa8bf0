// The Profile dock (profile_view.h): table, roofline chart and heat gutter of a saved profile.
#include "views/widgets/profile_view.h"

#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyle.h>

#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QScatterSeries>
#include <QSplitter>
#include <QToolTip>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/diff/profile_diff.h"

namespace tirx::views {

namespace {

QString topReasons(const toolchain::LineProfile& l) {
  std::vector<std::pair<int64_t, std::string>> top;
  for (const auto& [r, n] : l.stalls) top.emplace_back(n, r);
  std::sort(top.rbegin(), top.rend());
  QStringList parts;
  for (size_t i = 0; i < top.size() && i < 3; ++i)
    parts << QString("%1 %2%")
                 .arg(QString::fromStdString(top[i].second))
                 .arg(l.samples ? 100.0 * double(top[i].first) / double(l.samples) : 0.0, 0, 'f',
                      0);
  return parts.join(", ");
}

}  // namespace

ProfileView::ProfileView(QsciScintilla* editor, int margin, QWidget* parent)
    : QWidget(parent), m_editor(editor), m_margin(margin) {
  m_summary =
      new QLabel(tr("No profile: File > Open Profile… reads a tirx profile REPORT.json"), this);
  m_summary->setObjectName("profile_summary");
  m_summary->setWordWrap(true);
  m_table = new QTreeWidget(this);
  m_table->setObjectName("profile_lines");
  m_table->setRootIsDecorated(false);
  m_table->setHeaderLabels({tr("line"), tr("samples"), tr("share"), tr("stalls"),
                            tr("instructions"), tr("bank-conflict wavefronts")});
  m_chart = new QChartView(new QChart(), this);
  m_chart->setObjectName("roofline");
  m_chart->setMinimumHeight(180);
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(m_table);
  split->addWidget(m_chart);
  // The roofline needs room for its log axes' labels: the table and the chart share the width
  // (a splitter without sizes gives the chart its size hint, a sliver).
  m_chart->setMinimumWidth(360);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  m_compare = new QPushButton(tr("Compare with…"), this);
  m_compare->setObjectName("profile_compare");
  m_compare->setToolTip(tr("Per-line deltas against a second tirx profile REPORT.json"));
  m_clear = new QPushButton(tr("Clear Comparison"), this);
  m_clear->setObjectName("profile_clear");
  m_clear->setEnabled(false);
  connect(m_compare, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Compare with profile"), QString(),
                                                      tr("tirx profiles (*.json)"));
    QString why;
    if (!path.isEmpty() && !compareWith(path, why))
      m_summary->setText(summaryText() + "\n" + tr("cannot compare: %1").arg(why));
  });
  connect(m_clear, &QPushButton::clicked, this, &ProfileView::clearComparison);
  auto* top = new QHBoxLayout();
  top->addWidget(m_summary, 1);
  top->addWidget(m_compare);
  top->addWidget(m_clear);
  auto* lay = new QVBoxLayout(this);
  lay->addLayout(top);
  lay->addWidget(split, 1);
  if (!m_editor) return;
  connect(m_editor, &QsciScintilla::marginClicked, this,
          [this](int margin, int line, Qt::KeyboardModifiers) {
            if (margin != m_margin || !selectLine(line + 1)) return;
            QToolTip::showText(QCursor::pos(), heatToolTip(line + 1), m_editor);
          });
  connect(m_table, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* it, int) {
    const int line = it->data(0, Qt::UserRole).toInt();
    if (line <= 0) return;
    m_editor->setCursorPosition(line - 1, 0);
    m_editor->ensureLineVisible(line - 1);
  });
}

bool ProfileView::selectLine(int line) {
  for (int i = 0; i < m_table->topLevelItemCount(); ++i) {
    QTreeWidgetItem* it = m_table->topLevelItem(i);
    if (it->data(0, Qt::UserRole).toInt() != line) continue;
    m_table->setCurrentItem(it);
    m_table->scrollToItem(it);
    return true;
  }
  return false;
}

bool ProfileView::readProfile(const QString& path, toolchain::Profile& p, QString& why) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    why = tr("cannot read %1").arg(path);
    return false;
  }
  const nlohmann::json j = nlohmann::json::parse(f.readAll().toStdString(), nullptr, false);
  std::string err;
  if (j.is_discarded() || !toolchain::profileFromJson(j, p, err)) {
    why = j.is_discarded() ? tr("%1 is not JSON").arg(path) : QString::fromStdString(err);
    return false;
  }
  return true;
}

bool ProfileView::openFile(const QString& path, QString& why) {
  toolchain::Profile p;
  if (!readProfile(path, p, why)) return false;
  setProfile(p);
  return true;
}

bool ProfileView::compareWith(const QString& path, QString& why) {
  toolchain::Profile b;
  if (!readProfile(path, b, why)) return false;
  m_comparing = true;
  m_clear->setEnabled(true);
  const auto& kb = b.kernel;
  m_summary->setText(summaryText() + "\n" +
                     tr("compared with %1: %2 us, %3 stall samples, %4 registers")
                         .arg(QFileInfo(path).fileName())
                         .arg(kb.durationNs / 1000, 0, 'f', 1)
                         .arg(kb.totalSamples)
                         .arg(kb.registers));
  fillDeltaTable(b);
  return true;
}

void ProfileView::clearComparison() {
  m_comparing = false;
  m_clear->setEnabled(false);
  m_summary->setText(summaryText());
  fillTable();
}

void ProfileView::fillDeltaTable(const toolchain::Profile& b) {
  const diff::ProfileDiff d = diff::diffProfiles(m_profile, b);
  m_table->clear();
  m_table->setHeaderLabels({tr("line"), tr("share A"), tr("share B"), tr("change"), tr("samples"),
                            tr("instructions"), tr("bank conflicts"), tr("top stall")});
  auto pair = [](int64_t x, int64_t y) { return QString("%1 -> %2").arg(x).arg(y); };
  for (const diff::ProfileLineDelta& l : d.lines) {
    auto* it = new QTreeWidgetItem(
        m_table,
        {QString::number(l.line), QString("%1%").arg(l.shareA, 0, 'f', 1),
         QString("%1%").arg(l.shareB, 0, 'f', 1),
         QString("%1%2").arg(l.shareB >= l.shareA ? "+" : "").arg(l.shareB - l.shareA, 0, 'f', 1),
         pair(l.samplesA, l.samplesB), pair(l.instructionsA, l.instructionsB),
         pair(l.bankConflictsA, l.bankConflictsB),
         QString::fromStdString((l.topStallA.empty() ? "-" : l.topStallA) + " -> " +
                                (l.topStallB.empty() ? "-" : l.topStallB))});
    it->setData(0, Qt::UserRole, l.line);
    if (l.changed())
      for (int c = 0; c < m_table->columnCount(); ++c) {
        QFont f = it->font(c);
        f.setBold(true);
        it->setFont(c, f);
      }
  }
  for (int c = 0; c < m_table->columnCount(); ++c) m_table->resizeColumnToContents(c);
}

void ProfileView::setProfile(const toolchain::Profile& p) {
  m_profile = p;
  m_comparing = false;
  if (m_clear) m_clear->setEnabled(false);
  const auto& k = p.kernel;
  m_summary->setText(summaryText());
  (void)k;
  fillTable();
  fillChart();
  paintGutter();
}

QString ProfileView::summaryText() const {
  const auto& k = m_profile.kernel;
  return tr("%1 on %2: %3 us, %4 TFLOP/s, %5 GB/s; occupancy %6% achieved, %7% theoretical, "
            "limited by %8; %9 registers, %10 B spilled; %11 stall samples")
      .arg(QString::fromStdString(k.kernel), QString::fromStdString(k.device))
      .arg(k.durationNs / 1000, 0, 'f', 1)
      .arg(k.achievedFlops() / 1e12, 0, 'f', 2)
      .arg(k.achievedBytesPerSec() / 1e9, 0, 'f', 1)
      .arg(k.achievedOccupancy, 0, 'f', 1)
      .arg(k.theoreticalOccupancy, 0, 'f', 1)
      .arg(QString::fromStdString(k.occupancyLimiter.empty() ? "?" : k.occupancyLimiter))
      .arg(k.registers)
      .arg(k.spillBytes)
      .arg(k.totalSamples);
}

void ProfileView::fillTable() {
  m_table->clear();
  m_table->setHeaderLabels({tr("line"), tr("samples"), tr("share"), tr("stalls"),
                            tr("instructions"), tr("bank-conflict wavefronts")});
  const double total = double(std::max<int64_t>(m_profile.kernel.totalSamples, 1));
  for (const auto& l : m_profile.lines) {
    auto* it = new QTreeWidgetItem(
        m_table, {QString::number(l.line), QString::number(l.samples),
                  QString("%1%").arg(100.0 * double(l.samples) / total, 0, 'f', 1), topReasons(l),
                  QString::number(l.instructions), QString::number(l.bankConflictWavefronts())});
    it->setData(0, Qt::UserRole, l.line);
    it->setToolTip(0, heatToolTip(l.line));
  }
  for (int c = 0; c < m_table->columnCount(); ++c) m_table->resizeColumnToContents(c);
}

double ProfileView::intensity() const {
  const auto& k = m_profile.kernel;
  return k.bytes > 0 ? k.flop / k.bytes : 0;
}

void ProfileView::fillChart() {
  auto* chart = new QChart();
  chart->setTitle(tr("Roofline (%1)").arg(QString::fromStdString(m_profile.kernel.peaks.name)));
  const auto& k = m_profile.kernel;
  auto* x = new QLogValueAxis();
  x->setTitleText(tr("FLOP / byte"));
  x->setRange(1e-2, 1e4);
  x->setLabelFormat("%g");
  auto* y = new QLogValueAxis();
  y->setTitleText(tr("FLOP/s"));
  y->setRange(1e9, std::max(k.peaks.flops * 2, 1e10));
  y->setLabelFormat("%.0e");
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  if (k.peaks.flops > 0 && k.peaks.bytesPerSec > 0) {
    auto* roof = new QLineSeries();
    roof->setName(tr("memory / compute ceiling"));
    const double ridge = k.peaks.flops / k.peaks.bytesPerSec;
    roof->append(1e-2, std::max(1e-2 * k.peaks.bytesPerSec, 1e9));
    roof->append(ridge, k.peaks.flops);
    roof->append(1e4, k.peaks.flops);
    chart->addSeries(roof);
    roof->attachAxis(x);
    roof->attachAxis(y);
  }
  if (intensity() > 0 && k.achievedFlops() > 0) {
    auto* point = new QScatterSeries();
    point->setName(QString::fromStdString(k.kernel));
    point->append(std::clamp(intensity(), 1e-2, 1e4), std::max(k.achievedFlops(), 1e9));
    chart->addSeries(point);
    point->attachAxis(x);
    point->attachAxis(y);
  }
  QChart* old = m_chart->chart();
  m_chart->setChart(chart);
  delete old;
}

int ProfileView::chartSeriesCount() const {
  return int(m_chart->chart()->series().size());
}

const toolchain::LineProfile* ProfileView::lineOf(int line) const {
  for (const auto& l : m_profile.lines)
    if (l.line == line) return &l;
  return nullptr;
}

QString ProfileView::heatText(int line) const {
  const auto* l = lineOf(line);
  if (!l || l->samples == 0 || m_profile.kernel.totalSamples == 0) return {};
  return QString("%1%").arg(
      std::lround(100.0 * double(l->samples) / double(m_profile.kernel.totalSamples)));
}

QString ProfileView::heatToolTip(int line) const {
  const auto* l = lineOf(line);
  if (!l) return {};
  const double total = double(std::max<int64_t>(m_profile.kernel.totalSamples, 1));
  return tr("line %1: %2 of %3 stall samples (%4%): %5")
      .arg(line)
      .arg(l->samples)
      .arg(m_profile.kernel.totalSamples)
      .arg(100.0 * double(l->samples) / total, 0, 'f', 1)
      .arg(topReasons(*l));
}

int ProfileView::heatLevel(int line) const {
  const auto* l = lineOf(line);
  if (!l || l->samples == 0 || m_profile.kernel.totalSamples == 0) return -1;
  const double share = double(l->samples) / double(m_profile.kernel.totalSamples);
  return share >= 0.25 ? 3 : share >= 0.10 ? 2 : share >= 0.03 ? 1 : 0;
}

void ProfileView::paintGutter() {
  if (!m_editor) return;
  // Four markers, pale to deep red, in a symbol margin of their own (margin text is shared by
  // every text margin, and the register gutter has it).
  static const QColor shades[kHeatLevels] = {QColor(255, 235, 230), QColor(255, 190, 170),
                                             QColor(250, 120, 90), QColor(215, 40, 30)};
  int mask = 0;
  for (int i = 0; i < kHeatLevels; ++i) {
    m_editor->markerDefine(QsciScintilla::FullRectangle, kFirstHeatMarker + i);
    m_editor->setMarkerBackgroundColor(shades[i], kFirstHeatMarker + i);
    m_editor->setMarkerForegroundColor(shades[i], kFirstHeatMarker + i);
    m_editor->markerDeleteAll(kFirstHeatMarker + i);
    mask |= 1 << (kFirstHeatMarker + i);
  }
  // Scintilla has 5 margins (0-4) unless told otherwise, and a marker shown in no margin paints
  // its whole line instead: the heat margin must exist.
  if (m_editor->margins() <= m_margin) m_editor->setMargins(m_margin + 1);
  m_editor->setMarginType(m_margin, QsciScintilla::SymbolMargin);
  m_editor->setMarginMarkerMask(m_margin, mask);
  m_editor->setMarginWidth(m_margin, m_profile.lines.empty() ? 0 : 8);
  m_editor->setMarginSensitivity(m_margin, true);
  for (const auto& l : m_profile.lines)
    if (const int level = heatLevel(l.line); level >= 0)
      m_editor->markerAdd(l.line - 1, kFirstHeatMarker + level);
}

}  // namespace tirx::views
