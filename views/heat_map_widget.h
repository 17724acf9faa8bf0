// A heat map of a 2-D array (absolute error or output) painted from one cached QImage, with a
// colour bar. Qt Charts has no heat-map series, so this is a small painted widget.
#pragma once

#include <QImage>
#include <QWidget>
#include <vector>

namespace tirx::views {

class HeatMapWidget : public QWidget {
  Q_OBJECT
 public:
  explicit HeatMapWidget(QWidget* parent = nullptr);
  /// Show `values` (rows × cols, row-major); empty clears it with `emptyText`.
  void setData(const std::vector<double>& values, int rows, int cols, const QString& title);
  void clear(const QString& emptyText);
  bool hasData() const { return !m_image.isNull(); }

 signals:
  void cellClicked(qint64 flat);

 protected:
  void paintEvent(QPaintEvent*) override;
  void mousePressEvent(QMouseEvent*) override;

 private:
  QRectF plotRect() const;
  QImage m_image;
  QString m_title, m_emptyText;
  double m_min = 0, m_max = 0;
};

}  // namespace tirx::views
