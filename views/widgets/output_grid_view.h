// The Results dock's Grid tab: the selected check's output tensor on the layout grid (a
// LayoutCanvas over the model output_grid.h builds on the interactive lane, never on the GUI
// thread), painted by value, |error| or relative error (the Show box), NaN magenta, ±inf orange,
// the cells outside the check's tolerance framed, the number as the label when the zoom allows,
// and a cell's output, reference, errors and tolerance on hover or click. Reads only the engine's
// report (Session::report()->engine, a verify::Report), so a simulator run, a GPU run through the
// runner child and an opened bundle all show the same way. A hidden tab builds nothing until shown.
#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "views/models/output_grid.h"

class QComboBox;
class QLabel;

namespace tirx::views {

class LayoutCanvas;
class Session;
struct VerifyProducts;

class OutputGridView : public QWidget {
  Q_OBJECT
 public:
  explicit OutputGridView(Session& session, QWidget* parent = nullptr);

  /// Show check `index` of the session's report (-1: nothing).
  void showCheck(int index);
  /// Select the cell of element `coord` of the shown check (after the grid arrives if it is still
  /// being built).
  void selectElement(const std::vector<int64_t>& coord);
  void setMode(OutputGridMode mode);
  OutputGridMode mode() const { return m_mode; }

  const OutputGrid& grid() const { return m_grid; }
  int check() const { return m_check; }
  LayoutCanvas* canvas() const { return m_canvas; }
  QString noteText() const;
  QString infoText() const;

 signals:
  /// A grid was delivered (tests wait for it).
  void gridReady();

 protected:
  void showEvent(QShowEvent*) override;

 private:
  void build();
  void deliver(std::shared_ptr<OutputGrid> grid, std::shared_ptr<const VerifyProducts> report,
               int check);
  void showCell(qint64 cell);
  const verify::Check* shownCheck() const;

  Session& m_session;
  OutputGrid m_grid;
  std::shared_ptr<const VerifyProducts> m_report;  ///< the report m_grid was built from
  int m_check = -1;
  int m_gridCheck = -1;  ///< the check m_grid shows
  OutputGridMode m_mode = OutputGridMode::Value;
  bool m_dirty = false;
  int64_t m_pendingFlat = -1;  ///< an element to select once the grid arrives
  QComboBox* m_modeBox = nullptr;
  QLabel *m_note = nullptr, *m_info = nullptr;
  LayoutCanvas* m_canvas = nullptr;
};

}  // namespace tirx::views
