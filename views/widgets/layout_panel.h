// The Layout dock: pick a tile, view or layout constant of the script (from program.symbols) or
// type a layout; shows the grid coloured by owner, a per-thread inverse view, the bank view with
// conflict counts, the atoms of a chosen tile op, and, for the hovered or clicked cell, its owners
// and the script lines that touch the symbol. Ownership tables are built on the job runner, bounded
// by one cap on every path (a picked symbol, a typed layout, an edit that grows a tile): a tile
// past it shows one region of its grid, says so above the grid, and a region field moves it.
#pragma once

#include <QPointer>
#include <QStringList>
#include <QWidget>
#include <optional>

#include "views/models/layout_grid_model.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace tirx::views {

class LayoutCanvas;
class Session;

class LayoutPanel : public QWidget {
  Q_OBJECT
 public:
  explicit LayoutPanel(Session& session, QWidget* parent = nullptr);

  LayoutCanvas* canvas() const { return m_canvas; }
  const LayoutGridModel& model() const { return m_model; }
  /// The owner/lines text shown for the selected or hovered cell.
  QString infoText() const;
  /// The line under the grid: shape and owners, or memory facts; in the bank view, the kernel's
  /// bank conflicts as the simulator counted them.
  QString statsText() const;
  /// The atom-outline choices: "no atom outline", then the tile ops on the shown symbol.
  QStringList tileOpTexts() const;
  /// Show symbol `name` (first match) or the typed layout `text`.
  bool showSymbol(const QString& name);
  /// Show buffer `buffer` of `kernel` (ir::Symbol::buffer): the shown symbol when it is a tensor
  /// or view of that buffer, else the buffer's tensor. False when the script has no such buffer.
  bool showBuffer(const QString& kernel, int buffer);
  /// The program.symbols index of the shown symbol, -1 for a typed layout or none.
  int shownSymbol() const { return m_symbolIndex; }
  void showLayoutText(const QString& text);
  /// A bounded tile (past the table cap): show the region of its grid starting at `row`, `col`.
  void showRegion(qint64 row, qint64 col);
  /// The "too large to tabulate; showing the region …" line, empty when the whole tile is shown.
  QString boundedText() const;
  /// Colouring mode: 0 owners, 1 one thread (inverse view), 2 shared-memory banks.
  void setMode(int mode);
  void setFocusThread(int thread);
  /// Select cell `flat` and show its details (what a click does).
  void selectCell(qint64 flat);
  /// Forget the shown tile, typed layout and line links (a new document: Open, New, Examples).
  void reset();

 signals:
  /// The grid model was replaced (a new table arrived from the worker).
  void modelReady();

 protected:
  void showEvent(QShowEvent*) override;

 private:
  void refreshSymbols();
  void onSymbolChosen(int index);
  /// What the shown table was made from, kept to tabulate another region of it.
  struct TableRequest {
    TileLayout layout;
    std::vector<int64_t> shape;
    int elementBytes = 4;
    bool memory = false;
    bool typed = false;
  };
  void requestTable(TableRequest request, qint64 row0 = 0, qint64 col0 = 0);
  void onTableReady(LayoutGridModel model, bool typed);
  QString bankText() const;
  void refreshTileOps();
  void onTileOpChosen(int index);
  void updateInfo(qint64 flat);
  void updateStats();
  QString linesTouching() const;
  /// A memory cell: the threads and registers of each ld/st tile op on its element (the engine's).
  QString memoryTouches(qint64 flat) const;
  void exportImage(bool svg);

  Session& m_session;
  LayoutGridModel m_model;
  LayoutCanvas* m_canvas = nullptr;
  QComboBox* m_symbols = nullptr;
  QLineEdit* m_typed = nullptr;
  QComboBox* m_mode = nullptr;
  QSpinBox* m_thread = nullptr;
  QComboBox* m_tileOps = nullptr;
  QLabel* m_stats = nullptr;
  QLabel* m_bounded = nullptr;    ///< "too large to tabulate; showing the region …"
  QLineEdit* m_region = nullptr;  ///< "row, column" of a bounded tile's region
  TableRequest m_request;
  QLabel* m_info = nullptr;
  int m_symbolIndex = -1;  ///< index into program.symbols of the shown symbol, -1 for typed text
  std::string m_symbolName;
  std::vector<int64_t> m_opAtoms;  ///< atom per entry of m_tileOps (index 0: none)
  bool m_dirty = false;            ///< facts changed while hidden
  qint64 m_pendingSelect = -1;     ///< element to select once the next table arrives
};

}  // namespace tirx::views
