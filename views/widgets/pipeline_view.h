// The Pipeline dock's chart: simulated time left to right, one row per warp (its waits as bars,
// arrivals and phase flips as markers) and one per warp that issued copies (issue → landing bars,
// stacked where they overlap). Hover shows the event's description; a click selects the item and
// emits itemClicked (the panel selects its script line). Paints a PipelineChart as it is.
#pragma once

#include <QWidget>

#include "views/models/pipeline_chart.h"

namespace tirx::views {

class PipelineView : public QWidget {
  Q_OBJECT
 public:
  explicit PipelineView(QWidget* parent = nullptr);

  void setChart(PipelineChart chart);
  const PipelineChart& chart() const { return m_chart; }
  /// Widget rectangle of item `i` (a marker's is its hit box), empty when out of range.
  QRectF itemRect(int i) const;
  /// The item under `pos` (markers before bars), -1 when none.
  int itemAt(QPointF pos) const;
  int selected() const { return m_selected; }
  void setSelected(int item);
  /// Fill colour of an item category (the legend uses the same).
  static QColor categoryColor(PipelineItem::Category c);

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 signals:
  void itemClicked(int item);

 protected:
  void paintEvent(QPaintEvent*) override;
  void mousePressEvent(QMouseEvent* e) override;
  bool event(QEvent* e) override;

 private:
  static constexpr int kLeft = 118, kTop = 22, kSyncRow = 30, kTrack = 16, kRight = 12;
  double xOf(int64_t t) const;
  int rowTop(int row) const;
  int rowHeight(int row) const;
  int contentHeight() const;

  PipelineChart m_chart;
  std::vector<int> m_rowTops;
  int m_selected = -1;
};

}  // namespace tirx::views
