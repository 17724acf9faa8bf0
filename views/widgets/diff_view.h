// The Diff dock: two versions of a script at every level in one view. Version A is the file's
// saved state on disk, another script file, or a `.tirxb` bundle; version B is the editor's text,
// or another file or bundle typed into the B field (two files, two bundles). It shows a summary
// line per section, two aligned panes (the whole script, then the changed script lines of the
// CUDA, PTX and SASS, row facing row, deletions red and insertions green), the tiles' grid — a
// register tile's cells that changed owner, a shared tile's elements that changed byte offset —
// and a table of resources, bank conflicts, results, the device each side ran on, and timings.
// The comparison (core/diff: two compiles, two verifies on the main window's device and target)
// runs as a batch job on the job runner's worker; the view only draws the value it gets back.
#pragma once

#include <QPointer>
#include <QWidget>
#include <memory>

#include "views/engine/diff_rows.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
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
  /// Forget the comparison shown (a new document: Open, New, Examples); one still running for
  /// the old document is dropped on arrival.
  void reset();
  /// A = `path` (a script or a .tirxb bundle), B = the editor's text.
  void compareWithFile(const QString& path);
  /// A = `pathA`, B = `pathB` (scripts or bundles); an empty `pathB` is the editor's text.
  void compareFiles(const QString& pathA, const QString& pathB);
  /// Verify both versions (results and run timings) on the session's device; on by default.
  void setVerify(bool verify);
  bool isBusy() const { return m_busy; }

  /// What the newest comparison asked for: the versions, and where both were verified (the
  /// session's device — "sim", "cuda:N", an ssh:// device — and target, as the main window's
  /// pickers set them).
  struct Request {
    QString pathA, pathB;  ///< pathB empty: the editor's text
    QString device;
    int sm = 0;
    bool verify = false;
  };
  const Request& lastRequest() const { return m_request; }
  /// The A and B path fields and the Compare button (A and B typed in, then Compare).
  QLineEdit* pathAField() const { return m_pathA; }
  QLineEdit* pathBField() const { return m_pathB; }
  QPushButton* compareButton() const { return m_compare; }

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

 protected:
  void changeEvent(QEvent* e) override;

 private:
  void start(const QString& path, const QString& labelA, const QString& pathB);
  void present(DiffViewData d);
  void showTile(int index);
  void showSharedTile(const diff::SharedLayoutDiff& tile);
  void paintRows();
  void pickFile(bool bundle);

  Session& m_session;
  std::shared_ptr<const DiffViewData> m_data;
  bool m_busy = false;
  quint64 m_document = 0;  ///< counts reset(): a comparison started before one is dropped
  Request m_request;
  QPushButton* m_saved = nullptr;
  QLineEdit* m_pathA = nullptr;
  QLineEdit* m_pathB = nullptr;
  QPushButton* m_compare = nullptr;
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
