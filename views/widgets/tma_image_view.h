// The shared image of one TMA load box (ir::TmaBoxImage, recorded by the simulator): the box as it
// sits in shared memory after the swizzle, one cell per 16-byte chunk (per element when a row is
// not whole chunks), each labelled and coloured by the global chunk (or row) it came from. With a
// swizzle the source chunk of shared chunk c in row r is c XOR (row bits), which shows as shifted
// colour runs; without one the colours run straight down.
#pragma once

#include <QWidget>

#include "core/ir/async_timeline.h"

namespace tirx::views {

class TmaImageView : public QWidget {
  Q_OBJECT
 public:
  enum class ColourBy { SourceChunk, SourceRow };
  explicit TmaImageView(QWidget* parent = nullptr);

  /// Show `image` (copied); null clears. `names` resolves its buffer and tensor names.
  void setImage(const ir::TmaBoxImage* image, const ir::AsyncTimeline* names = nullptr);
  bool hasImage() const { return m_has; }
  void setColourBy(ColourBy c);
  ColourBy colourBy() const { return m_colourBy; }

  /// Cells per row: 16-byte chunks, or elements when a row is not a whole number of chunks.
  int64_t cellsPerRow() const;
  int64_t elementsPerCell() const;
  /// The global (row, col) of the first element in cell (row, cell): (-1, -1) for fill or none.
  std::pair<int32_t, int32_t> cellSource(int64_t row, int64_t cell) const;
  /// The text drawn in a cell: the global chunk (or column) it holds, "·" for fill.
  QString cellText(int64_t row, int64_t cell) const;
  QColor cellColor(int64_t row, int64_t cell) const;
  QRectF cellRect(int64_t row, int64_t cell) const;
  /// One line under the title: "As ← A at (0, 0): 32 × 64 float16 elements, 128-byte swizzle".
  QString caption() const { return m_caption; }

  QSize sizeHint() const override { return {560, 460}; }

 protected:
  void paintEvent(QPaintEvent*) override;
  bool event(QEvent* e) override;

 private:
  void relayout() const;
  ir::TmaBoxImage m_image;
  bool m_has = false;
  QString m_caption;
  ColourBy m_colourBy = ColourBy::SourceChunk;
  mutable double m_cellW = 0, m_cellH = 0;
  static constexpr double kLeft = 34, kTop = 22;
};

}  // namespace tirx::views
