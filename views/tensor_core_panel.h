// The "Tensor cores" dock: pick a register operand of an mma.sync / ldmatrix / stmatrix tile op
// (drawn by FragmentView as the instruction sees it, mismatching cells outlined) or a shared tile
// (drawn by BankImageView as its byte/bank image), or a wgmma shared operand (its tile's image with
// the elements the chosen sub-operand's descriptor reads outlined; the engine's DescriptorFact), with the shared-memory counts the simulator
// recorded for every instruction that touches that tile (bank conflicts per op, after Compile &
// Verify on the simulator). Observes the Session; a hidden dock refreshes when shown.
#pragma once

#include <QWidget>
#include <memory>

#include "views/script_facts.h"

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
  /// The sub-operand choice of a wgmma descriptor item (instruction 0..n−1 of the statement).
  QSpinBox* subOperandBox() const { return m_sub; }
  QString summary() const;

  /// Select the first item whose text contains `text` (an operand "· a (", a tile name); false
  /// when none does.
  bool pick(const QString& text);

 protected:
  void showEvent(QShowEvent* e) override;

 private:
  void refresh();
  void showPicked();
  void showDescriptor(int index);
  void fillAccesses();
  void followLine(int line);

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
  bool m_dirty = false;
};

}  // namespace tirx::views
