// The Diff dock's model, Qt-free and built on the worker: a version diff (core/diff) laid out as
// the rows of two aligned panes — the whole script, then the changed script lines of the CUDA,
// PTX and SASS sections — where row i of the left pane faces row i of the right one (a deleted
// line faces a blank, a changed run pairs its deleted and inserted lines), plus the summary lines
// of every section and the tables of resources, results and timings.
#pragma once

#include <string>
#include <vector>

#include "core/diff/version_diff.h"

namespace tirx::views {

struct DiffRow {
  enum class Kind { Header, Equal, Deleted, Inserted, Changed };
  Kind kind = Kind::Equal;
  std::string left, right;      ///< the text of each side ("" facing a blank)
  int leftNo = 0, rightNo = 0;  ///< 1-based line numbers in each version's text, 0 for none
};

/// A section's first row in the panes (the section picker jumps there).
struct DiffSection {
  std::string name;  ///< "script", "cuda", "ptx", "sass"
  int firstRow = 0;
};

/// One row of the Resources / Results / Timing table: a quantity, A, B, and the change.
struct DiffTableRow {
  std::string what, a, b, delta;
  bool changed = false;
};

struct DiffViewData {
  bool ok = false;
  std::string error;  ///< why there is no diff (an unreadable file, a malformed bundle)
  diff::DiffReport report;
  std::vector<DiffRow> rows;
  std::vector<DiffSection> sections;
  std::vector<std::string> summary;  ///< one line per section, as `tirx diff` heads them
  std::vector<DiffTableRow> table;
  /// The two panes' texts, one line per row, each with its line-number gutter.
  std::string leftText, rightText;
};

/// Lays `report` out for the dock (rows, sections, summary, table).
DiffViewData layOutDiff(diff::DiffReport report);

}  // namespace tirx::views
