// Min/max decimation of line series and block-maximum reduction of heat maps (see plot_series.h).
#include "views/engine/plot_series.h"

#include <algorithm>
#include <cmath>

namespace tirx::views {

PlotSeries downsampleMinMax(const std::vector<double>& values, int columns) {
  PlotSeries out;
  const int64_t n = static_cast<int64_t>(values.size());
  columns = std::max(1, columns);
  if (n <= columns) {
    for (int64_t i = 0; i < n; ++i)
      if (std::isfinite(values[i])) {
        out.x.push_back(static_cast<double>(i));
        out.y.push_back(values[i]);
      }
    return out;
  }
  out.x.reserve(2 * columns);
  out.y.reserve(2 * columns);
  for (int c = 0; c < columns; ++c) {
    const int64_t begin = n * c / columns, end = n * (c + 1) / columns;
    int64_t lo = -1, hi = -1;
    for (int64_t i = begin; i < end; ++i) {
      if (!std::isfinite(values[i])) continue;
      if (lo < 0 || values[i] < values[lo]) lo = i;
      if (hi < 0 || values[i] > values[hi]) hi = i;
    }
    if (lo < 0) continue;
    int64_t first = std::min(lo, hi), second = std::max(lo, hi);
    out.x.push_back(static_cast<double>(first));
    out.y.push_back(values[first]);
    if (second != first) {
      out.x.push_back(static_cast<double>(second));
      out.y.push_back(values[second]);
    }
  }
  return out;
}

void seriesRange(const std::vector<const PlotSeries*>& series, double* lo, double* hi) {
  *lo = INFINITY;
  *hi = -INFINITY;
  for (const PlotSeries* s : series)
    for (double y : s->y) {
      *lo = std::min(*lo, y);
      *hi = std::max(*hi, y);
    }
}

HeatGrid downsampleGrid(const std::vector<double>& values, int64_t srcRows, int64_t srcCols,
                        int maxRows, int maxCols) {
  HeatGrid g;
  if (srcRows <= 0 || srcCols <= 0 || static_cast<int64_t>(values.size()) < srcRows * srcCols)
    return g;
  g.srcRows = srcRows;
  g.srcCols = srcCols;
  g.rowStep = (srcRows + maxRows - 1) / std::max(1, maxRows);
  g.colStep = (srcCols + maxCols - 1) / std::max(1, maxCols);
  g.rows = static_cast<int>((srcRows + g.rowStep - 1) / g.rowStep);
  g.cols = static_cast<int>((srcCols + g.colStep - 1) / g.colStep);
  g.values.assign(static_cast<size_t>(g.rows) * g.cols, -INFINITY);
  for (int64_t r = 0; r < srcRows; ++r) {
    double* row = &g.values[static_cast<size_t>(r / g.rowStep) * g.cols];
    const double* src = &values[r * srcCols];
    for (int64_t c = 0; c < srcCols; ++c) {
      double v = src[c];
      if (std::isfinite(v) && v > row[c / g.colStep]) row[c / g.colStep] = v;
    }
  }
  for (double& v : g.values)
    if (!std::isfinite(v)) v = 0;
  return g;
}

}  // namespace tirx::views
