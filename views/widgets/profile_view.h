// The Profile dock: a saved `tirx profile` summary (REPORT.json, core/toolchain/ncu_profile.h)
// opened without a GPU — one row per script line (stall samples and their share, the top stall
// reasons, instructions, bank-conflict wavefronts), the kernel's occupancy with its limiter and
// registers, and a roofline chart (QtCharts) with the kernel's point under the memory and compute
// ceilings of the GPU. It also paints the stall share of each line into the
// editor (the heat gutter: markers in a margin of their own), with the line's reasons as tooltip.
#pragma once

#include <QString>
#include <QWidget>

#include "core/toolchain/ncu_profile.h"

class QLabel;
class QPushButton;
class QTreeWidget;
class QsciScintilla;
class QChartView;

namespace tirx::views {

class ProfileView : public QWidget {
  Q_OBJECT
 public:
  /// `editor` (may be null) receives the heat gutter in margin `margin`.
  explicit ProfileView(QsciScintilla* editor = nullptr, int margin = 5, QWidget* parent = nullptr);

  /// Reads REPORT.json; false with `why` when it is unreadable or not a tirx profile.
  bool openFile(const QString& path, QString& why);
  void setProfile(const toolchain::Profile& p);
  const toolchain::Profile& profile() const { return m_profile; }

  QTreeWidget* table() const { return m_table; }
  QString summaryText() const;
  /// The share on 1-based `line` ("29%", empty without samples) and the heat gutter's tooltip
  /// ("line 12: 5 of 17 stall samples (29.4%): long_sb 100%").
  QString heatText(int line) const;
  QString heatToolTip(int line) const;
  /// The heat gutter's level on 1-based `line`: 0..3 by the share of samples (< 3 %, < 10 %,
  /// < 25 %, more), -1 without samples; drawn as marker kFirstHeatMarker + level.
  int heatLevel(int line) const;
  static constexpr int kFirstHeatMarker = 20;
  static constexpr int kHeatLevels = 4;
  /// The roofline point: arithmetic intensity (FLOP/byte) and achieved FLOP/s; the ridge point.
  double intensity() const;
  int chartSeriesCount() const;
  /// Select the table row of 1-based `line` (false when the line has no row); a click in the
  /// heat margin does this and shows heatToolTip at the pointer, a click on a row moves the
  /// editor's caret to its line.
  bool selectLine(int line);
  /// Compare with a second REPORT.json (B; this dock's profile is A): the table turns into
  /// per-line deltas (share A, share B, the change in points, samples, instructions, bank
  /// conflicts and top stall A -> B, core/diff/profile_diff.h) and the summary names B's duration
  /// and samples. False with `why` when B is not a profile. clearComparison returns to A alone.
  bool compareWith(const QString& path, QString& why);
  void clearComparison();
  bool comparing() const { return m_comparing; }

 private:
  void fillTable();
  void fillDeltaTable(const toolchain::Profile& b);
  static bool readProfile(const QString& path, toolchain::Profile& p, QString& why);
  void fillChart();
  void paintGutter();
  const toolchain::LineProfile* lineOf(int line) const;

  toolchain::Profile m_profile;
  QsciScintilla* m_editor = nullptr;
  int m_margin = 5;
  QLabel* m_summary = nullptr;
  QTreeWidget* m_table = nullptr;
  QChartView* m_chart = nullptr;
  QPushButton* m_compare = nullptr;
  QPushButton* m_clear = nullptr;
  bool m_comparing = false;
};

}  // namespace tirx::views
