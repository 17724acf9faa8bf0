// The Diff dock: the editor's script (version B) against another version A — the file's saved
// state on disk, another script file, or a `.tirxb` bundle — at every level in one view: a summary
// line per section, two aligned panes (the whole script, then the changed script lines of the
// CUDA, PTX and SASS, row facing row, deletions red and insertions green), the register tiles'
// grid with the cells that changed owner highlighted, and a table of resources, results and
// timings. The comparison (core/diff: two compiles, two verifies on the simulator) runs as a
// batch job on the job runner's worker; the view only draws the value it gets back.
#pragma once

#include <QPointer>
#include <QWidget>
#include <memory>

#include "views/diff_rows.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace tirx::views {

class DiffGrid;
class Session;

class DiffView : public QWidget {
  Q_OBJECT
 public:
  explicit DiffView(Session& session, QWidget* parent = nullptr);

  /// A = the document's file as saved on disk, B = the editor's text. False (and the status says
  /// why) when the document has no file.
  bool compareWithSaved();
  /// A = `path` (a script or a .tirxb bundle), B = the editor's text.
  void compareWithFile(const QString& path);
  /// Verify both versions on the simulator (results and run timings); on by default.
  void setVerify(bool verify);
  bool isBusy() const { return m_busy; }

  /// The newest result (null before the first).
  std::shared_ptr<const DiffViewData> data() const { return m_data; }
  QString summaryText() const;
  QString statusText() const;
  QPlainTextEdit* leftPane() const { return m_left; }
  QPlainTextEdit* rightPane() const { return m_right; }
  DiffGrid* grid() const { return m_grid; }
  QTableWidget* table() const { return m_table; }
  QComboBox* tilePicker() const { return m_tiles; }
  /// Scroll both panes to a section ("script", "cuda", "ptx", "sass"); false when there is none.
  bool showSection(const QString& name);
  /// The row of the panes at the top of the view.
  int firstVisibleRow() const;

 signals:
  /// A comparison finished (or failed: see statusText()).
  void diffReady();

 private:
  void start(const QString& path, const QString& labelA);
  void present(DiffViewData d);
  void showTile(int index);
  void paintRows();
  void pickFile(bool bundle);

  Session& m_session;
  std::shared_ptr<const DiffViewData> m_data;
  bool m_busy = false;
  QPushButton* m_saved = nullptr;
  QCheckBox* m_verify = nullptr;
  QLabel* m_status = nullptr;
  QLabel* m_summary = nullptr;
  QComboBox* m_sections = nullptr;
  QPlainTextEdit* m_left = nullptr;
  QPlainTextEdit* m_right = nullptr;
  QComboBox* m_tiles = nullptr;
  QLabel* m_tileInfo = nullptr;
  DiffGrid* m_grid = nullptr;
  QTableWidget* m_table = nullptr;
};

}  // namespace tirx::views
