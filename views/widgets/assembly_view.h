// The Assembly dock: CUDA C++, PTX and SASS tabs with highlighting, and the resource report.
// Selecting a script line highlights the lines it became (from the compile products' source
// map); clicking a generated line selects the script line it came from. Hovering a PTX or SASS
// line shows the instruction's description from the core's PTX table.
#pragma once

#include <QWidget>
#include <vector>

#include "views/engine/engine_products.h"
#include "views/models/editor_zoom.h"

class QLabel;
class QPlainTextEdit;
class QTabWidget;

namespace tirx::views {

class AsmHighlighter;
class Session;

class AssemblyView : public QWidget {
  Q_OBJECT
 public:
  enum Tab { CudaTab = 0, PtxTab = 1, SassTab = 2, ResourcesTab = 3 };
  explicit AssemblyView(Session& session, QWidget* parent = nullptr);

  QPlainTextEdit* text(Tab tab) const { return m_texts[tab]; }
  /// 1-based lines of `tab` highlighted for the selected script line.
  std::vector<int> highlightedLines(Tab tab) const;
  void showTab(Tab tab);
  /// The description shown when hovering line `line` (1-based) of `tab`.
  QString describeLine(Tab tab, int line) const;
  void setDark(bool dark);
  /// Zoom every pane in, out or back (Ctrl+= / Ctrl++, Ctrl+-, Ctrl+0 in a pane: editor_zoom.h).
  void applyZoom(ZoomKey key);
  /// The zoom step (0: the default 9 pt; each step is one point).
  int zoom() const { return m_zoom; }
  /// The panes' font size in points.
  int fontPointSize() const;
  /// True while the "out of date" banner is shown (the script changed after this compile).
  bool staleShown() const;

 protected:
  void showEvent(QShowEvent*) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void refresh();
  void highlightScriptLine(int line);
  /// The engine's map from a line of `tab` (index, 1-based) to its script line (0: none), or null.
  const std::vector<int>* toScriptOf(Tab tab) const;
  void onGeneratedLineClicked(Tab tab);

  Session& m_session;
  QTabWidget* m_tabs = nullptr;
  QPlainTextEdit* m_texts[4] = {};
  AsmHighlighter* m_highlighters[3] = {};
  QLabel* m_status = nullptr;
  QLabel* m_stale = nullptr;
  std::vector<int> m_highlighted[3];
  bool m_dirty = false;
  bool m_syncing = false;
  int m_zoom = 0;
};

}  // namespace tirx::views
