// The picture an editor hover shows over a tensor-core opcode string: the fragment tables of
// opcode_fragments.h rendered to an image (cells coloured by lane like the Tensor cores dock,
// labelled "T5" over "a2"), in a tooltip-like popup beside the opcode's one-line description.
#pragma once

#include <QFrame>
#include <QImage>

class QLabel;

#include "views/engine/opcode_fragments.h"

namespace tirx::views {

/// Render `tables` side by side (ldmatrix: the matrices in a row), `cell` pixels a cell.
QImage renderFragmentTables(const std::vector<FragmentTable>& tables, QSize cell = {30, 24});

/// A frameless popup (Qt::ToolTip window) holding the picture and a caption.
class OpcodeHoverPopup : public QFrame {
  Q_OBJECT
 public:
  explicit OpcodeHoverPopup(QWidget* parent = nullptr);
  /// Show `picture` under `caption` at global position `at`.
  void showPicture(const QPoint& at, const QImage& picture, const QString& caption);
  const QImage& picture() const { return m_picture; }
  QString caption() const;

 private:
  QImage m_picture;
  QLabel* m_caption = nullptr;
  QLabel* m_image = nullptr;
};

}  // namespace tirx::views
