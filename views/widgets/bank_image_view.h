// The byte/bank image of a shared tile: the logical tile (rows × elements) with every element
// coloured by the shared-memory bank its bytes land in after the tile's layout and swizzle, so the
// XOR pattern of a swizzle is visible as shifted colour runs. The physical placement is core/
// layout's ChunkImage (what `tirx layout` prints); when elements are too small to read, the view
// draws 16-byte chunks instead, labelled with the physical chunk and its four banks. With a bank
// map (core/sim/bank_map.h: one statement's instructions of one warp, as the simulator counted
// them) the elements those instructions touch are outlined and the others dimmed, and every element
// whose bank serves another word in the same phase of its instruction gets a red frame with the
// conflict degree; its hover names the bank, the wavefront and the conflicting elements.
#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "core/sim/bank_map.h"
#include "views/engine/script_facts.h"

namespace tirx::views {

class BankImageView : public QWidget {
  Q_OBJECT
 public:
  explicit BankImageView(QWidget* parent = nullptr);

  /// Show shared tile `index` of `facts->sharedTiles` (kept alive here); −1 or null clears.
  void setTile(std::shared_ptr<const ScriptFacts> facts, int index);
  const SharedTileImage* tile() const;

  /// Outline the elements a wgmma descriptor reads (row-major flat indices into the tile's logical
  /// rows × cols, e.g. DescriptorSubOperand::elements) and dim the others; empty clears. Indices
  /// outside the tile are ignored.
  void setHighlight(const std::vector<int64_t>& flatElements);
  /// Elements currently highlighted (inside the tile).
  int64_t highlightedCount() const { return m_highlightCount; }
  bool isHighlighted(int64_t row, int64_t col) const;

  /// Draw `map` (cells of the shown tile's buffer; null clears) for the statement described by
  /// `what` ("store S", used in the hovers). Replaces a descriptor highlight.
  void setBankMap(std::shared_ptr<const sim::WarpBankMap> map, const QString& what = {});
  const sim::WarpBankMap* bankMap() const { return m_map.get(); }
  /// The map's cell for element (row, col): the worst of the instructions that touch it; null
  /// when none does.
  const sim::BankCell* bankCell(int64_t row, int64_t col) const;
  /// A touched element whose bank serves another word in its instruction's phase (red frame).
  bool isConflicting(int64_t row, int64_t col) const;
  int64_t conflictingCount() const { return m_conflicting; }
  /// The hover text of element (row, col).
  QString cellText(int64_t row, int64_t col) const;
  /// The frame colour of conflicting elements.
  static QColor conflictColor() { return QColor(220, 30, 30); }
  /// Width of the conflict frame inside an element's rectangle, in pixels.
  static constexpr int kConflictFrame = 2;

  /// The colour of bank 0..31 (−1: grey, a chunk that is not one contiguous 16-byte chunk).
  static QColor bankColor(int bank);
  /// Widget rectangle of element (row, col).
  QRectF elementRect(int64_t row, int64_t col) const;
  /// True when each element is drawn with its bank number; false when 16-byte chunks are drawn.
  bool elementMode() const {
    relayout();
    return m_cellW >= kElementCell;
  }

  QSize sizeHint() const override { return {640, 560}; }

 protected:
  void paintEvent(QPaintEvent*) override;
  void resizeEvent(QResizeEvent*) override;
  bool event(QEvent* e) override;

 private:
  static constexpr double kElementCell = 16;
  /// Cell sizes from the current widget size (cheap; called before every use of them).
  void relayout() const;

  std::shared_ptr<const ScriptFacts> m_facts;
  int m_index = -1;
  mutable double m_cellW = 0, m_cellH = 0;
  std::vector<char> m_highlight;  ///< rows·cols flags, empty: none
  std::shared_ptr<const sim::WarpBankMap> m_map;
  QString m_mapWhat;
  std::vector<int32_t> m_cellOf;  ///< rows·cols: index into m_map->cells, −1 untouched
  int64_t m_conflicting = 0;
  int64_t m_highlightCount = 0;
  double m_left = 34, m_top = 20;
};

}  // namespace tirx::views
