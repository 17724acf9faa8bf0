// Plot data prepared on the worker, sized to the pixels (STYLE §5): a series of any length becomes
// at most two points per column (the column's minimum and maximum, in index order, so spikes
// survive; the Results view asks for one column per two pixels, so never more points than pixels),
// and a 2-D array becomes a heat-map grid of at most maxRows × maxCols cells, each the largest
// value of the block of elements it covers. Qt-free, so that it is unit-testable and runs on the
// job runner's worker.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tirx::views {

/// Points of a line series: x is the flat element index.
struct PlotSeries {
  std::vector<double> x, y;
  size_t size() const { return x.size(); }
};

/// Min/max per column: `values` split into `columns` equal index ranges; each range contributes its
/// minimum and its maximum (one point when they coincide), so the result has at most 2 × columns
/// points and exactly the input when it already has no more than `columns` values. Non-finite
/// values are skipped.
PlotSeries downsampleMinMax(const std::vector<double>& values, int columns);

/// The smallest and largest finite y of several series (lo > hi when none is finite).
void seriesRange(const std::vector<const PlotSeries*>& series, double* lo, double* hi);

/// A heat-map grid: cell (r, c) covers source rows [r·rowStep, …) and columns [c·colStep, …).
struct HeatGrid {
  int rows = 0, cols = 0;            ///< cells
  int64_t srcRows = 0, srcCols = 0;  ///< the array's rows and columns
  int64_t rowStep = 1, colStep = 1;  ///< source elements per cell along each axis
  std::vector<double> values;        ///< rows × cols, row-major (the block's largest value)
  bool empty() const { return values.empty(); }
};

/// Reduce a row-major `srcRows × srcCols` array to at most maxRows × maxCols cells (block maxima).
HeatGrid downsampleGrid(const std::vector<double>& values, int64_t srcRows, int64_t srcCols,
                        int maxRows, int maxCols);

}  // namespace tirx::views
