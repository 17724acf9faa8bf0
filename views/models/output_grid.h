// The Results dock's Grid tab, Qt-free: one check's output tensor (core/verify's Check: shape,
// output and reference row-major, rtol/atol/equal_nan) laid out on a LayoutGridModel as the layout
// view folds a tile (the last axis as columns, the one before as rows, outer axes as labelled
// blocks), painted by value, |error| or relative error, with the elements outside the check's
// tolerance (compare.h's withinTolerance) marked. An output larger than the cell budget is
// sampled: each cell stands for a block of rows × columns and shows the block's worst element
// (NaN/inf first, then a mismatch, then the largest error), marked when any element of the block
// mismatches. Built on a worker (the studio's interactive lane), never on the GUI thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/verify/verify.h"
#include "views/models/layout_grid_model.h"

namespace tirx::views {

enum class OutputGridMode { Value, AbsError, RelError };

struct OutputGrid {
  bool ok = false;
  std::string note;  ///< what the grid shows, or why nothing ("the check compared no values")
  std::vector<int64_t> shape;        ///< the check's shape (1-D when it does not match the values)
  int64_t rowStep = 1, colStep = 1;  ///< elements per cell along the grid's rows / columns
  bool sampled = false;              ///< rowStep or colStep > 1
  bool blocksFolded = false;         ///< the outer axes were folded into the rows (too many blocks)
  /// The fold of the elements: flat = (block · foldRows + row) · foldCols + column.
  int64_t foldBlocks = 0, foldRows = 0, foldCols = 0;
  /// Per cell: the check's flat element it shows, and how many elements of its block mismatch.
  std::vector<int64_t> cellElement;
  std::vector<int64_t> cellMismatches;
  std::vector<int64_t> cellElements;  ///< elements in the cell's block (1 unless sampled)
  int64_t mismatches = 0;             ///< elements outside the tolerance, over the whole output
  LayoutGridModel grid;
};

/// Lays out check `c` in `mode` with at most `maxRows` × `maxCols` cells. A check without values
/// (over 2^20 elements, or a run without comparison) gives ok false with a note.
OutputGrid buildOutputGrid(const verify::Check& c, OutputGridMode mode, int64_t maxRows = 256,
                           int64_t maxCols = 512);

/// The cell showing element `flat` of the check (the sampled cell containing it), -1 if none.
int64_t outputGridCellOf(const OutputGrid& g, int64_t flat);

/// Hover text of cell `cell`: the element's coordinate, output, reference, errors and tolerance,
/// and for a sampled cell its block and how many of its elements mismatch.
std::string outputGridDetails(const OutputGrid& g, const verify::Check& c, int64_t cell);

}  // namespace tirx::views
