// The Pipeline dock: the asynchronous timeline of the last simulated run (verify::KernelRun::
// timeline of each launch, recorded by the engine) — a kernel launch and CTA picker, the chart
// (PipelineView: one row per warp, waits and in-flight copies as bars, arrivals and phase flips as
// markers; a click selects the statement's script line) and a tab with the swizzled shared image of
// each recorded TMA load box (TmaImageView). Hidden, it defers its refresh until shown.
#pragma once

#include <QWidget>

#include "core/verify/verify.h"

class QComboBox;
class QPushButton;
class QLabel;
class QSpinBox;
class QTabWidget;

namespace tirx::views {

struct VerifyProducts;
class PipelineView;
class Session;
class TmaImageView;

class PipelinePanel : public QWidget {
  Q_OBJECT
 public:
  explicit PipelinePanel(Session& session, QWidget* parent = nullptr);

  PipelineView* view() const { return m_view; }
  TmaImageView* imageView() const { return m_image; }
  QComboBox* runPicker() const { return m_runs; }
  QComboBox* imagePicker() const { return m_images; }
  QSpinBox* ctaPicker() const { return m_cta; }
  /// The CTA that "Simulate CTA alone" runs, and the button.
  QSpinBox* aloneCtaPicker() const { return m_aloneCta; }
  QPushButton* aloneButton() const { return m_alone; }
  QTabWidget* tabs() const { return m_tabs; }
  /// "12 events in cta 0 · 88 ticks · 2 warps", or why there is nothing to show.
  QString summaryText() const;
  /// Show the tab whose title contains `text`, else the TMA image whose entry does (and its tab).
  bool pick(const QString& text);
  /// Refresh now if the report changed while the dock was hidden or behind another tab (the main
  /// window calls it when the dock becomes visible: a tab switch shows no widget anew).
  void refreshIfPending();
  /// Forget the shown timeline (a new document: Open, New, Examples).
  void reset() { refresh(); }

 protected:
  void showEvent(QShowEvent*) override;

 private:
  void refresh();
  void showRun(int pick);
  /// The kernel run behind entry `pick` of the launch picker, or null.
  const verify::KernelRun* runAt(const VerifyProducts* report, int pick) const;
  void showCta();
  void showImage(int index);
  void onItemClicked(int item);

  Session& m_session;
  QComboBox* m_runs = nullptr;
  QSpinBox* m_cta = nullptr;
  QSpinBox* m_aloneCta = nullptr;
  QPushButton* m_alone = nullptr;
  QLabel* m_summary = nullptr;
  QTabWidget* m_tabs = nullptr;
  PipelineView* m_view = nullptr;
  QComboBox* m_images = nullptr;
  QComboBox* m_colour = nullptr;
  TmaImageView* m_image = nullptr;
  QLabel* m_caption = nullptr;
  std::vector<int> m_ctas;
  bool m_dirty = false;
};

}  // namespace tirx::views
