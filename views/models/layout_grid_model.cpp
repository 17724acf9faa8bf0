// LayoutGridModel: ownership tabulation, colours, labels and bank statistics. The colour of an
// owner is an HSV value computed once per cell: the hue steps by the golden angle per warp so
// neighbouring warps differ, the value darkens with the lane so the lanes of one warp read as a
// gradient.
#include "views/models/layout_grid_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

#include "core/layout/bank_model.h"

namespace tirx::views {
namespace {

uint32_t hsv(double h, double s, double v) {
  h = std::fmod(h, 360.0);
  if (h < 0) h += 360;
  double c = v * s, x = c * (1 - std::fabs(std::fmod(h / 60.0, 2) - 1)), m = v - c;
  double r = 0, g = 0, b = 0;
  int sector = static_cast<int>(h / 60) % 6;
  switch (sector) {
    case 0:
      r = c, g = x;
      break;
    case 1:
      r = x, g = c;
      break;
    case 2:
      g = c, b = x;
      break;
    case 3:
      g = x, b = c;
      break;
    case 4:
      r = x, b = c;
      break;
    default:
      r = c, b = x;
      break;
  }
  auto u = [m](double t) { return static_cast<uint32_t>(std::lround((t + m) * 255)); };
  return 0xff000000u | (u(r) << 16) | (u(g) << 8) | u(b);
}

uint32_t greyed(uint32_t c) {
  uint32_t r = (c >> 16) & 0xff, g = (c >> 8) & 0xff, b = c & 0xff;
  uint32_t y = (r * 30 + g * 59 + b * 11) / 100;
  y = 200 + y / 5;  // light grey, keeps a hint of the original brightness
  y = std::min<uint32_t>(y, 250);
  return 0xff000000u | (y << 16) | (y << 8) | y;
}

}  // namespace

std::string valueText(const CellValue& v) {
  if (v.uninit) return "uninit";
  if (std::isnan(v.value)) return "nan";
  if (std::isinf(v.value)) return v.value > 0 ? "inf" : "-inf";
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v.value);
  return b;
}

int64_t LayoutGridModel::foldColumns(const std::vector<int64_t>& shape, int64_t total) {
  if (shape.empty() || total <= 0) return 0;
  // rank >= 2: the last axis is the columns, everything else stacks into rows (so one thread's
  // registers along the last axis never split across rows, and (2, 32, 4) is 64 × 4)
  if (shape.size() >= 2) return std::max<int64_t>(1, shape.back());
  // rank 1: wrap into a grid about 1.6 times wider than tall; divisors come in pairs (d, total/d),
  // so walking d up to √total sees every one (a 2^40-element tile takes 2^20 steps, not 2^40)
  const double target = std::sqrt(static_cast<double>(total) * 1.6);
  int64_t best = 1;
  auto consider = [&](int64_t c) {
    if (std::fabs(double(c) - target) < std::fabs(double(best) - target)) best = c;
  };
  for (int64_t d = 1; d <= total / d; ++d)
    if (total % d == 0) {
      consider(d);
      consider(total / d);
    }
  return best;
}

std::pair<int64_t, int64_t> LayoutGridModel::windowSize(int64_t fullRows, int64_t fullCols) {
  // about square (1024 × 1024 at the cap), but as wide as the grid when it has few rows
  const int64_t cap = kMaxOwnershipEntries;
  const int64_t side = static_cast<int64_t>(std::sqrt(static_cast<double>(cap)));
  const int64_t cols = std::clamp<int64_t>(std::max(side, cap / std::max<int64_t>(1, fullRows)), 1,
                                           std::max<int64_t>(1, fullCols));
  const int64_t rows = std::clamp<int64_t>(cap / cols, 1, std::max<int64_t>(1, fullRows));
  return {rows, cols};
}

uint32_t LayoutGridModel::ownerColour(int64_t thread) {
  int64_t warp = thread / 32, lane = thread % 32;
  double hue = 210.0 + 137.508 * static_cast<double>(warp);
  double value = 0.97 - 0.40 * static_cast<double>(lane) / 31.0;
  return hsv(hue, 0.55, value);
}

uint32_t LayoutGridModel::bankColour(int bank) {
  return hsv(360.0 * bank / 32.0, 0.45, bank % 2 ? 0.80 : 0.95);
}

void LayoutGridModel::clear() {
  m_layout = TileLayout{};
  m_compiled = CompiledLayout{};
  m_table = OwnershipTable{};
  m_rows = m_cols = m_blockRows = 0;
  m_fullRows = m_fullCols = m_fullBlockRows = 0;
  m_bounded = false;
  m_colours.clear();
  m_values.clear();  // values belong to one table
  m_valueScale = 0;
  m_mismatchCells = 0;
  m_rowRulerScale = m_colRulerScale = 1;
  if (m_colouring == LayoutColouring::Values) m_colouring = LayoutColouring::Owners;
  m_memOffset.clear();
  m_focusThread = -1;
  m_atom = 0;
}

void LayoutGridModel::setLayout(const TileLayout& layout, std::vector<int64_t> shape,
                                int elementBytes, int64_t row0, int64_t col0) {
  clear();
  m_layout = layout;
  m_compiled = CompiledLayout(layout);
  m_elementBytes = std::max(1, elementBytes);
  if (shape.empty() || !layout.admits(shape)) shape = {layout.size()};
  const int64_t n = layout.admits(shape) ? layout.size() : 0;
  m_fullCols = foldColumns(shape, n);
  m_fullRows = m_fullCols > 0 ? n / m_fullCols : 0;
  m_fullBlockRows = shape.size() >= 3 ? std::max<int64_t>(1, shape[shape.size() - 2]) : m_fullRows;
  // The whole tile when its table fits the cap (nothing is allocated when it does not) ...
  m_table = ownership(layout, shape);
  if (!m_table.tooLarge) {
    m_rows = m_table.elementCount > 0 ? m_fullRows : 0;
    m_cols = m_table.elementCount > 0 ? m_fullCols : 0;
    m_blockRows = m_fullBlockRows;
  } else {
    // ... else one window of it: whole blocks of rows when they fit, starting at a block
    m_bounded = true;
    auto [rows, cols] = windowSize(m_fullRows, m_fullCols);
    const int64_t perCell = std::max<int64_t>(1, m_table.ownersPerElement);
    rows = std::max<int64_t>(
        1, std::min(rows, kMaxOwnershipEntries / perCell / std::max<int64_t>(1, cols)));
    if (m_fullBlockRows <= rows) {
      rows = rows / m_fullBlockRows * m_fullBlockRows;
      row0 = std::max<int64_t>(0, row0) / m_fullBlockRows * m_fullBlockRows;
    }
    m_table = ownershipWindow(layout, shape, TableWindow{m_fullCols, row0, col0, rows, cols});
    m_rows = m_table.window.rows;
    m_cols = m_table.window.cols;
    m_blockRows = m_fullBlockRows <= m_rows && m_table.window.row0 % m_fullBlockRows == 0
                      ? m_fullBlockRows
                      : m_rows;
  }
  // the `m` component of each shown cell's base coordinate (compiled: no map per element)
  std::vector<int64_t> axes(size_t(m_compiled.axisCount()), 0);
  m_memOffset.resize(size_t(m_table.elementCount));
  for (int64_t c = 0; c < m_table.elementCount; ++c) {
    m_compiled.applyAxes(m_table.elementOf(c), axes);
    m_memOffset[size_t(c)] = axes[axis::m];
  }
  rebuildColours();
}

int64_t LayoutGridModel::cellOf(int64_t element) const {
  if (element < 0 || element >= elementCount() || m_fullCols <= 0) return -1;
  if (!m_table.windowed) return element < cellCount() ? element : -1;
  const TableWindow& w = m_table.window;
  const int64_t r = element / m_fullCols - w.row0, c = element % m_fullCols - w.col0;
  if (r < 0 || r >= w.rows || c < 0 || c >= w.cols) return -1;
  return r * w.cols + c;
}

std::pair<int64_t, int64_t> LayoutGridModel::windowFor(int64_t element) const {
  if (cellOf(element) >= 0 || m_fullCols <= 0) return {row0(), col0()};
  const int64_t r = element / m_fullCols, c = element % m_fullCols;
  return {std::max<int64_t>(0, r - m_rows / 2), std::max<int64_t>(0, c - m_cols / 2)};
}

std::string LayoutGridModel::boundedText() const {
  if (!m_bounded) return {};
  std::ostringstream os;
  os << "too large to tabulate: (";
  const auto& sh = m_table.shape;
  for (size_t i = 0; i < sh.size(); ++i) os << (i ? ", " : "") << sh[i];
  os << ") is " << elementCount() << " elements";
  if (m_table.ownersPerElement > 1) os << " × " << m_table.ownersPerElement << " owners";
  os << ", more than the " << kMaxOwnershipEntries
     << " owner entries a table holds; showing the region rows " << row0() << "–"
     << row0() + m_rows - 1 << " × columns " << col0() << "–" << col0() + m_cols - 1 << " of "
     << m_fullRows << " × " << m_fullCols;
  return os.str();
}

void LayoutGridModel::setColouring(LayoutColouring c) {
  if (c == m_colouring) return;
  m_colouring = c;
  rebuildColours();
}

void LayoutGridModel::setFocusThread(int64_t thread) {
  if (thread == m_focusThread) return;
  m_focusThread = thread;
  rebuildColours();
}

uint32_t LayoutGridModel::valueColour(double v, double scale) {
  const double t = scale > 0 ? std::clamp(v / scale, -1.0, 1.0) : 0.0;
  // White at 0, toward (60, 90, 220) below and (215, 50, 40) above.
  const double a = std::fabs(t);
  const int r = static_cast<int>(std::lround(255 + a * ((t < 0 ? 60 : 215) - 255)));
  const int g = static_cast<int>(std::lround(255 + a * ((t < 0 ? 90 : 50) - 255)));
  const int b = static_cast<int>(std::lround(255 + a * ((t < 0 ? 220 : 40) - 255)));
  return 0xff000000u | (uint32_t(r) << 16) | (uint32_t(g) << 8) | uint32_t(b);
}

void LayoutGridModel::setValues(std::vector<CellValue> values) {
  m_values = std::move(values);
  if (static_cast<int64_t>(m_values.size()) != m_table.elementCount) m_values.clear();
  m_valueScale = 0;
  m_mismatchCells = 0;
  for (const auto& v : m_values) {
    if (!v.uninit && std::isfinite(v.value))
      m_valueScale = std::max(m_valueScale, std::fabs(v.value));
    m_mismatchCells += v.mismatch;
  }
  m_colouring = m_values.empty() ? LayoutColouring::Owners : LayoutColouring::Values;
  rebuildColours();
}

void LayoutGridModel::rebuildColours() {
  const int64_t n = m_table.elementCount;
  m_colours.assign(n, 0xffffffffu);
  if (m_colouring == LayoutColouring::Values && static_cast<int64_t>(m_values.size()) == n) {
    for (int64_t f = 0; f < n; ++f) {
      const CellValue& v = m_values[size_t(f)];
      m_colours[size_t(f)] = v.uninit ? kUninitColour
                             : v.nan  ? kNanColour
                             : v.inf  ? kInfColour
                                      : valueColour(v.value, m_valueScale);
    }
    return;
  }
  for (int64_t f = 0; f < n; ++f) {
    auto owners = m_table.ownersOf(f);
    uint32_t c = m_colouring == LayoutColouring::Banks || m_memory
                     ? bankColour(bankOf(f))
                     : (owners.empty() ? 0xffe0e0e0u : ownerColour(owners.front().thread));
    if (m_focusThread >= 0) {
      bool mine = std::any_of(owners.begin(), owners.end(),
                              [this](const Owner& o) { return o.thread == m_focusThread; });
      if (!mine) c = greyed(c);
    }
    m_colours[f] = c;
  }
}

std::string LayoutGridModel::blockLabel(int64_t block) const {
  const auto& sh = m_table.shape;
  if (sh.size() < 3) return {};
  std::vector<int64_t> outer(sh.begin(), sh.end() - 2);
  // the block of the whole grid: a window starts at block row0 / block rows
  const int64_t absolute = row0() / std::max<int64_t>(1, m_fullBlockRows) + block;
  std::vector<int64_t> c = unflatten(absolute, outer);
  std::string s = "[";
  for (size_t i = 0; i < c.size(); ++i) s += (i ? ", " : "") + std::to_string(c[i]);
  return s + ", :, :]";
}

int64_t LayoutGridModel::rowRulerValue(int64_t row) const {
  const int64_t r = row0() + row;
  if (m_table.shape.size() >= 2)
    return (m_fullBlockRows > 0 ? r % m_fullBlockRows : r) * m_rowRulerScale;
  return (r * m_fullCols + col0()) * m_rowRulerScale;
}

std::string LayoutGridModel::axesText() const {
  const auto& sh = m_table.shape;
  const size_t n = sh.size();
  auto axis = [&](size_t i) {
    return "axis " + std::to_string(i) + " (" + std::to_string(sh[i]) + ")";
  };
  if (n == 0) return {};
  if (n == 1) return "flat index, " + std::to_string(m_cols) + " per row (1-D, wrapped)";
  std::string s = "rows: " + axis(n - 2) + " · columns: " + axis(n - 1);
  if (n >= 3) {
    s += " · blocks: ";
    for (size_t i = 0; i + 2 < n; ++i) s += (i ? ", " : "") + axis(i);
  }
  return s;
}

int64_t LayoutGridModel::byteOffset(int64_t flat) const {
  if (flat < 0 || flat >= static_cast<int64_t>(m_memOffset.size())) return 0;
  return m_memOffset[flat] * m_elementBytes;
}

std::string LayoutGridModel::cellLabel(int64_t flat) const {
  if (flat < 0 || flat >= m_table.elementCount) return {};
  if (m_colouring == LayoutColouring::Banks) return "b" + std::to_string(bankOf(flat));
  if (m_colouring == LayoutColouring::Values && size_t(flat) < m_values.size())
    return valueText(m_values[size_t(flat)]);
  if (m_memory) return "+" + std::to_string(byteOffset(flat)) + " B";
  auto owners = m_table.ownersOf(flat);
  if (owners.empty()) return "-";
  const Owner& o = owners.front();
  std::string s = "w" + std::to_string(o.thread / 32) + " l" + std::to_string(o.thread % 32) +
                  " r" + std::to_string(o.slot);
  if (owners.size() > 1) s += " +" + std::to_string(owners.size() - 1);
  return s;
}

std::string LayoutGridModel::coordText(int64_t flat) const {
  std::vector<int64_t> c = unflatten(elementOf(flat), m_table.shape);
  std::string s = "(";
  for (size_t i = 0; i < c.size(); ++i) s += (i ? ", " : "") + std::to_string(c[i]);
  return s + ")";
}

std::string LayoutGridModel::cellDetails(int64_t flat) const {
  if (flat < 0 || flat >= m_table.elementCount) return {};
  std::ostringstream os;
  os << "element " << coordText(flat) << " (flat " << elementOf(flat) << ")\n";
  if (m_colouring == LayoutColouring::Values && size_t(flat) < m_values.size()) {
    const CellValue& v = m_values[size_t(flat)];
    os << "value " << valueText(v)
       << (v.uninit ? " (never written)"
           : v.nan  ? " (NaN)"
           : v.inf  ? " (infinite)"
                    : "");
    if (v.hasReference)
      os << ", reference " << valueText(CellValue{v.reference})
         << (v.uninit ? "" : ", error " + valueText(CellValue{v.absErr}));
    os << "\n";
    if (v.thread >= 0)
      os << "read from thread " << v.thread << " (w" << v.thread / 32 << " l" << v.thread % 32
         << "), register slot " << v.slot << "\n";
    if (v.byte >= 0) os << "read from byte " << v.byte << "\n";
  }
  if (m_memory) {
    os << "byte offset " << byteOffset(flat) << ", word " << byteOffset(flat) / 4 << ", bank "
       << bankOf(flat);
    return os.str();
  }
  for (const Owner& o : m_table.ownersOf(flat))
    os << "w" << o.thread / 32 << " l" << o.thread % 32 << " r" << o.slot << "  — thread "
       << o.thread << ", register slot " << o.slot << "\n";
  os << "m = " << m_memOffset[flat] << ", bank " << bankOf(flat);
  return os.str();
}

std::vector<int64_t> LayoutGridModel::cellsOfThread(int64_t thread) const {
  std::vector<int64_t> cells;
  for (const auto& e : m_table.entriesOf(thread)) cells.push_back(e.flat);
  return cells;
}

std::string LayoutGridModel::threadDetails(int64_t thread) const {
  std::ostringstream os;
  os << "thread " << thread << " (w" << thread / 32 << " l" << thread % 32 << "): ";
  auto entries = m_table.entriesOf(thread);
  if (entries.empty()) return os.str() + "owns no element";
  int shown = 0;
  for (const auto& e : entries) {
    if (shown++ == 64) {
      os << " …";
      break;
    }
    os << "r" << e.slot << "→" << coordText(e.flat) << " ";
  }
  return os.str();
}

int LayoutGridModel::bankOf(int64_t flat) const {
  if (flat < 0 || flat >= static_cast<int64_t>(m_memOffset.size())) return 0;
  return bankOfByte(m_memOffset[flat] * m_elementBytes);
}

// Each group of 32 consecutive elements is one warp instruction of elementBytes per lane, costed
// by the engine's bank model (core/layout/bank_model.h): its phases (32, 16 or 8 lanes by width)
// are the simulator's, so an 8- or 16-byte element is not charged conflicts across phases.
BankStats LayoutGridModel::bankStats() const {
  BankStats stats;
  const int64_t n = m_table.elementCount;
  std::optional<int64_t> lanes[32];
  for (int64_t g = 0; g < n; g += 32) {
    for (int64_t l = 0; l < 32; ++l)
      lanes[l] =
          g + l < n ? std::optional<int64_t>(m_memOffset[g + l] * m_elementBytes) : std::nullopt;
    const BankReport r = sharedAccessWavefronts(lanes, m_elementBytes);
    ++stats.accesses;
    if (r.conflictWavefronts() > 0) ++stats.conflicted;
    stats.extraWavefronts += r.conflictWavefronts();
    stats.maxDegree = std::max(stats.maxDegree, r.maxWays);
  }
  return stats;
}

}  // namespace tirx::views
