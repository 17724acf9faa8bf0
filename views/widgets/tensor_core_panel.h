// The "Tensor cores" dock: pick a register operand of an mma.sync / ldmatrix / stmatrix tile op
// (drawn by FragmentView as the instruction sees it, mismatching cells outlined) or a shared tile
// (drawn by BankImageView as its byte/bank image), or a wgmma shared operand (its tile's image with
// the elements the chosen sub-operand's descriptor reads outlined; the engine's DescriptorFact),
// with the shared-memory counts the simulator recorded for every instruction that touches that tile
// (bank conflicts per op, after Compile & Verify on the simulator). Selecting a row of that table
// draws the row's statement on the tile for one warp (the warp box): the elements its instructions
// touch, and the conflicting ones framed red (core/sim/bank_map.h, computed on the worker).
// Observes the Session; a hidden dock refreshes when shown.
#pragma once

#include <QWidget>
#include <memory>

#include "views/engine/script_facts.h"
#include "views/engine/tensor_core_facts.h"

class QComboBox;
class QLabel;
class QSpinBox;
class QStackedWidget;
class QTableWidget;

namespace tirx::views {

class BankImageView;
class FragmentView;
class Session;

class TensorCorePanel : public QWidget {
  Q_OBJECT
 public:
  explicit TensorCorePanel(Session& session, QWidget* parent = nullptr);

  FragmentView* fragmentView() const { return m_fragment; }
  BankImageView* bankView() const { return m_bank; }
  QTableWidget* accessTable() const { return m_accesses; }
  QComboBox* picker() const { return m_pick; }
  /// The warp whose instructions the bank view draws (a tile) or whose fragment is shown.
  QSpinBox* warpBox() const { return m_warp; }
  /// The sub-operand choice of a wgmma descriptor item (instruction 0..n−1 of the statement).
  QSpinBox* subOperandBox() const { return m_sub; }
  QString summary() const;

  /// Select the first item whose text contains `text` (an operand "· a (", a tile name); false
  /// when none does.
  bool pick(const QString& text);
  /// With a tile shown: select the first row of the conflict table at script line `line` (what a
  /// click on it does); false when none is there.
  bool selectAccessLine(int line);
  /// Forget the pick and the tables (a new document: Open, New, Examples).
  void reset();

 protected:
  void showEvent(QShowEvent* e) override;

 private:
  void refresh();
  void showPicked();
  void showDescriptor(int index);
  void fillAccesses();
  void followLine(int line);
  QString tileSummary(const SharedTileImage& tile) const;
  /// Draw row `row` of the conflict table for the warp box's warp (−1 clears).
  void showAccessRow(int row);

  Session& m_session;
  std::shared_ptr<const ScriptFacts> m_facts;
  QComboBox* m_pick = nullptr;
  QSpinBox* m_warp = nullptr;
  QSpinBox* m_sub = nullptr;  ///< the descriptor's sub-operand (one wgmma instruction)
  QLabel* m_summary = nullptr;
  QStackedWidget* m_stack = nullptr;
  FragmentView* m_fragment = nullptr;
  BankImageView* m_bank = nullptr;
  QTableWidget* m_accesses = nullptr;
  std::vector<TileAccessRow> m_rows;  ///< per row of m_accesses (into the report's engine runs)
  bool m_fromTable = false;           ///< a table click selects its line: do not follow it
  bool m_dirty = false;
};

}  // namespace tirx::views
