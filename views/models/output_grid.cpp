// buildOutputGrid: the fold (outer blocks × rows × columns), the sampling that keeps the cell
// count within the budget, the per-cell worst element, and the hover text.
#include "views/models/output_grid.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/layout/tile_layout.h"
#include "core/verify/compare.h"

namespace tirx::views {
namespace {

int64_t ceilDiv(int64_t a, int64_t b) {
  return b > 0 ? (a + b - 1) / b : 0;
}

std::string num(double v) {
  return valueText(CellValue{v});
}

std::string shapeText(const std::vector<int64_t>& s) {
  std::string t = "(";
  for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + (s.size() == 1 ? ",)" : ")");
}

std::string coordText(const std::vector<int64_t>& c) {
  std::string t = "(";
  for (size_t i = 0; i < c.size(); ++i) t += (i ? ", " : "") + std::to_string(c[i]);
  return t + ")";
}

/// The element's numbers: output, reference (when the check has one) and the two errors.
struct ElementNumbers {
  double out = 0, ref = 0, abs = 0, rel = 0;
  bool hasRef = false, mismatch = false;
};

ElementNumbers numbersOf(const verify::Check& c, int64_t flat) {
  ElementNumbers e;
  e.out = c.output[size_t(flat)];
  if (c.reference.empty()) return e;
  e.hasRef = true;
  e.ref = c.reference.size() == 1 ? c.reference[0] : c.reference[size_t(flat)];
  e.abs = std::fabs(e.out - e.ref);
  e.rel = e.ref != 0 ? e.abs / std::fabs(e.ref) : (e.abs == 0 ? 0 : INFINITY);
  e.mismatch = !verify::withinTolerance(e.out, e.ref, c.rtol, c.atol, c.equalNan);
  return e;
}

/// How bad an element looks, to pick the one a sampled cell shows: a non-finite output first,
/// then a mismatch, then the largest error (the largest |value| without a reference).
double badness(const ElementNumbers& e) {
  if (!std::isfinite(e.out)) return 3e308;
  const double size = e.hasRef ? (std::isnan(e.abs) ? 1e308 : std::min(e.abs, 1e307))
                               : std::min(std::fabs(e.out), 1e307);
  return (e.mismatch ? 1.5e308 : 0) + size;
}

double shown(const ElementNumbers& e, OutputGridMode mode) {
  switch (mode) {
    case OutputGridMode::AbsError:
      return e.abs;
    case OutputGridMode::RelError:
      return e.rel;
    case OutputGridMode::Value:
      break;
  }
  return e.out;
}

const char* modeName(OutputGridMode m) {
  switch (m) {
    case OutputGridMode::AbsError:
      return "|output − reference|";
    case OutputGridMode::RelError:
      return "relative error |output − reference| / |reference|";
    case OutputGridMode::Value:
      break;
  }
  return "output value";
}

}  // namespace

OutputGrid buildOutputGrid(const verify::Check& c, OutputGridMode mode, int64_t maxRows,
                           int64_t maxCols) {
  OutputGrid g;
  const int64_t n = static_cast<int64_t>(c.output.size());
  if (n == 0) {
    g.note = "the check kept no output values (a run without comparison, or over 2^20 elements)";
    return g;
  }
  if (!c.reference.empty() && c.reference.size() != 1 && int64_t(c.reference.size()) != n) {
    g.note = "the output and the reference have different sizes: nothing to lay out";
    return g;
  }
  if (c.reference.empty() && mode != OutputGridMode::Value) mode = OutputGridMode::Value;
  std::vector<int64_t> shape = c.shape;
  if (shape.empty() || product(shape) != n) shape = {n};
  g.shape = shape;
  maxRows = std::max<int64_t>(1, maxRows);
  maxCols = std::max<int64_t>(1, maxCols);

  // The fold: B outer blocks of R rows × C columns (rank 1 wraps like the layout view).
  const size_t rank = shape.size();
  int64_t B = 1, R = 0, C = 0;
  if (rank >= 2) {
    C = shape[rank - 1];
    R = shape[rank - 2];
    B = n / std::max<int64_t>(1, R * C);
  } else {
    C = LayoutGridModel::foldColumns(shape, n);
    R = n / C;
  }
  g.colStep = ceilDiv(C, maxCols);
  const int64_t cols = ceilDiv(C, g.colStep);
  // Rows: keep the blocks when each can have at least one row, else fold them into the rows.
  std::vector<int64_t> modelShape;
  int64_t rowsPerBlock = 0, blocks = B, rowsTotal = R;  // rowsTotal: rows of one block (unfolded)
  if (B <= maxRows) {
    g.rowStep = ceilDiv(R, std::max<int64_t>(1, maxRows / B));
    rowsPerBlock = ceilDiv(R, g.rowStep);
  } else {
    g.blocksFolded = true;
    blocks = 1;
    rowsTotal = B * R;
    g.rowStep = ceilDiv(rowsTotal, maxRows);
    rowsPerBlock = ceilDiv(rowsTotal, g.rowStep);
  }
  g.sampled = g.rowStep > 1 || g.colStep > 1;
  g.foldBlocks = blocks;
  g.foldRows = rowsTotal;
  g.foldCols = C;
  if (!g.sampled && !g.blocksFolded) {
    modelShape = shape;  // the model folds it exactly as the layout view does
  } else if (g.blocksFolded || rank < 3) {
    modelShape = {rowsPerBlock, cols};
  } else {
    modelShape.assign(shape.begin(), shape.end() - 2);
    modelShape.push_back(rowsPerBlock);
    modelShape.push_back(cols);
  }
  const int64_t cells = blocks * rowsPerBlock * cols;
  g.grid.setLayout(TileLayout::rowMajor(modelShape), modelShape, 4);
  g.grid.setMemory(true);
  if (g.grid.cellCount() != cells) {
    g.note = "internal: the grid's fold does not match the output's";
    return g;
  }
  if (rank < 2 && g.sampled)
    g.grid.setRulerScales(g.rowStep * C, g.colStep);
  else
    g.grid.setRulerScales(g.rowStep, g.colStep);

  std::vector<CellValue> values(static_cast<size_t>(cells));
  g.cellElement.assign(size_t(cells), -1);
  g.cellMismatches.assign(size_t(cells), 0);
  g.cellElements.assign(size_t(cells), 0);
  for (int64_t b = 0; b < blocks; ++b)
    for (int64_t r = 0; r < rowsPerBlock; ++r)
      for (int64_t col = 0; col < cols; ++col) {
        const int64_t cell = (b * rowsPerBlock + r) * cols + col;
        double worst = -1;
        int64_t pick = -1, bad = 0, count = 0;
        for (int64_t rr = r * g.rowStep; rr < std::min(rowsTotal, (r + 1) * g.rowStep); ++rr)
          for (int64_t cc = col * g.colStep; cc < std::min(C, (col + 1) * g.colStep); ++cc) {
            const int64_t flat = ((b * rowsTotal) + rr) * C + cc;
            const ElementNumbers e = numbersOf(c, flat);
            ++count;
            bad += e.mismatch;
            const double score = badness(e);
            if (score > worst) worst = score, pick = flat;
          }
        g.cellElement[size_t(cell)] = pick;
        g.cellMismatches[size_t(cell)] = bad;
        g.cellElements[size_t(cell)] = count;
        g.mismatches += bad;
        if (pick < 0) continue;
        const ElementNumbers e = numbersOf(c, pick);
        CellValue& v = values[size_t(cell)];
        v.value = shown(e, mode);
        v.nan = std::isnan(v.value);
        v.inf = std::isinf(v.value);
        v.hasReference = e.hasRef;
        v.reference = e.ref;
        v.absErr = e.abs;
        v.mismatch = bad > 0;
      }
  g.grid.setValues(std::move(values));
  g.ok = true;

  std::ostringstream note;
  note << c.name << ": " << shapeText(g.shape) << " " << modeName(mode);
  if (c.reference.empty())
    note << " (the check has no reference values)";
  else {
    char tol[96];
    std::snprintf(tol, sizeof tol, "rtol %g, atol %g%s", c.rtol, c.atol,
                  c.equalNan ? ", NaN equal to NaN" : "");
    note << " · " << g.mismatches << " of " << n << " elements outside the tolerance (" << tol
         << ")";
  }
  if (g.blocksFolded)
    note << " · the " << B << " outer blocks are folded into " << B * R << " rows";
  if (g.sampled)
    note << " · sampled to " << g.grid.rows() << " × " << cols << " cells: each cell is a block of "
         << g.rowStep << " rows × " << g.colStep
         << " columns showing its worst element, framed when any element mismatches";
  g.note = note.str();
  return g;
}

int64_t outputGridCellOf(const OutputGrid& g, int64_t flat) {
  const int64_t perBlock = g.foldRows * g.foldCols;
  if (!g.ok || flat < 0 || perBlock <= 0 || flat >= g.foldBlocks * perBlock) return -1;
  const int64_t b = flat / perBlock, row = flat % perBlock / g.foldCols, col = flat % g.foldCols;
  const int64_t rowsPerBlock = g.grid.rows() / std::max<int64_t>(1, g.foldBlocks);
  return (b * rowsPerBlock + row / g.rowStep) * g.grid.cols() + col / g.colStep;
}

std::string outputGridDetails(const OutputGrid& g, const verify::Check& c, int64_t cell) {
  if (!g.ok || cell < 0 || cell >= static_cast<int64_t>(g.cellElement.size())) return {};
  const int64_t flat = g.cellElement[size_t(cell)];
  if (flat < 0) return {};
  std::vector<int64_t> shape = c.shape;
  if (shape.empty() || product(shape) != static_cast<int64_t>(c.output.size()))
    shape = {static_cast<int64_t>(c.output.size())};
  const std::vector<int64_t> coord = unflatten(flat, shape);
  const ElementNumbers e = numbersOf(c, flat);
  std::ostringstream os;
  os << "element " << coordText(coord) << " (flat " << flat << ")\n";
  os << "output " << num(e.out);
  if (e.hasRef) {
    os << ", reference " << num(e.ref) << ", |error| " << num(e.abs) << ", relative error "
       << num(e.rel) << "\n";
    const double allowed = c.atol + c.rtol * std::fabs(e.ref);
    os << (e.mismatch ? "outside" : "within")
       << " the tolerance (atol + rtol·|reference| = " << num(allowed) << ")";
  }
  if (g.sampled) {
    os << "\nthis cell stands for " << g.cellElements[size_t(cell)] << " elements (" << g.rowStep
       << " rows × " << g.colStep << " columns): " << g.cellMismatches[size_t(cell)]
       << " outside the tolerance; the worst is shown";
  }
  return os.str();
}

}  // namespace tirx::views
