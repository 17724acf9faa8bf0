// `tirx layout SPEC [--shape 2,32,4] [--dtype T] [--json]`: evaluates a layout spec written in the
// script's surface syntax and prints who owns every logical element (warp, lane, register slot;
// every owner when the layout has replicas), the registers per thread and the threads used; for
// a ComposeLayout, its swizzle image (layout_swizzle_print.h). The text
// form groups elements by row; `--json` gives the same data (schema in docs/cli.md). Exit codes:
// 0 ok, 1 a diagnostic in SPEC (gcc-style, file name `<layout>`), 2 usage (bad option, bad
// --shape, a shape the layout does not admit, too many elements).
#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "app/cli/cli.h"
#include "app/cli/layout_swizzle_print.h"
#include "core/layout/layout_parse.h"
#include "core/layout/tile_layout.h"

namespace tirx::cli {

namespace {

constexpr int64_t kMaxTabulated = int64_t{1} << 22;  // 4M elements
constexpr int64_t kCellsPerLine = 8;

const char* kLayoutUsage =
    "usage: tirx layout SPEC [--shape D0,D1,...] [--dtype T] [--json]\n"
    "  SPEC    a layout, e.g. 'S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]' or 'TileLayout(S[8, 4])',\n"
    "          or a swizzle 'ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))'\n"
    "  --shape the logical shape (default: the shard extents); its element count must match\n"
    "  --dtype element type of a ComposeLayout (default: 16-byte chunks of 2^per_element)\n"
    "  --json  print the ownership table (or the swizzle image) as JSON\n";

bool parseShape(const std::string& text, std::vector<int64_t>& shape) {
  std::stringstream ss(text);
  std::string item;
  int64_t total = 1;
  while (std::getline(ss, item, ',')) {
    if (item.empty() || item.size() > 12 ||
        !std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return false;
    int64_t extent = 0;
    std::string why;
    if (!parseInteger(item, 1, 999'999'999'999, extent, why)) return false;  // at most 12 digits
    shape.push_back(extent);
    if (shape.back() <= 0 || __builtin_mul_overflow(total, shape.back(), &total)) return false;
  }
  return !shape.empty() && text.back() != ',';
}

std::string tupleText(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

std::string ownerText(const Owner& o, bool threads) {
  std::string s;
  if (threads) s = "w" + std::to_string(o.thread / 32) + " l" + std::to_string(o.thread % 32) + " ";
  return s + "r" + std::to_string(o.slot);
}

std::string cellText(const OwnershipTable& t, int64_t flat, bool threads) {
  const auto owners = t.ownersOf(flat);
  if (owners.size() == 1) return ownerText(owners[0], threads);
  std::string s = "{";
  for (size_t i = 0; i < owners.size(); ++i) s += (i ? ", " : "") + ownerText(owners[i], threads);
  return s + "}";
}

// Label of a line holding elements [first, first+count) of the innermost dimension.
std::string rowLabel(const std::vector<int64_t>& prefix, int64_t first, int64_t count,
                     int64_t last) {
  std::string s = "[";
  for (int64_t p : prefix) s += std::to_string(p) + ", ";
  if (first == 0 && count == last)
    s += ":";
  else
    s += std::to_string(first) + ":" + std::to_string(first + count);
  return s + "]";
}

void printText(const TileLayout& layout, const OwnershipTable& t, std::ostream& out) {
  const bool threads = layout.hasThreadAxes();
  const int64_t owners = t.ownersPerElement;
  out << "layout: " << layout.toString() << "\n";
  out << "shape: " << tupleText(t.shape) << ", " << t.elementCount << " elements\n";
  if (threads) {
    out << "threads used: " << t.threadsUsed() << " of " << t.threadCount;
    if (!t.threads.empty())
      out << " (warps " << t.threads.front() / 32 << "-" << t.threads.back() / 32 << ")";
    out << "\n";
  } else {
    out << "threads used: no thread axes, every thread holds the whole tile\n";
  }
  out << "registers per thread: " << t.slotsPerThread;
  if (t.maxSlotsUsed != t.slotsPerThread) out << " (" << t.maxSlotsUsed << " used)";
  out << "\n";
  out << "owners per element: " << owners << "\n";
  if (const std::string w = checkThreadExtents(layout); !w.empty()) out << "warning: " << w << "\n";
  out << "\n";

  // Rows: every dimension but the last is a row prefix; the last is cut into lines of 8 cells.
  const std::vector<int64_t>& shape = t.shape;
  const int64_t last = shape.empty() ? 1 : shape.back();
  std::vector<std::string> cells(static_cast<size_t>(t.elementCount));
  size_t width = 0;
  for (int64_t f = 0; f < t.elementCount; ++f) {
    cells[f] = cellText(t, f, threads);
    width = std::max(width, cells[f].size());
  }
  std::vector<int64_t> prefixShape(shape.begin(), shape.empty() ? shape.end() : shape.end() - 1);
  std::vector<std::pair<std::string, int64_t>> lines;  // label, first flat index of the line
  size_t labelWidth = 0;
  for (int64_t row = 0; row * last < t.elementCount; ++row) {
    const std::vector<int64_t> prefix = unflatten(row, prefixShape);
    for (int64_t first = 0; first < last; first += kCellsPerLine) {
      lines.emplace_back(rowLabel(prefix, first, std::min(kCellsPerLine, last - first), last),
                         row * last + first);
      labelWidth = std::max(labelWidth, lines.back().first.size());
    }
  }
  for (auto& [label, flat] : lines) {
    const int64_t count = std::min(kCellsPerLine, last - flat % last);
    std::string line = label;
    line.resize(labelWidth + 2, ' ');
    for (int64_t k = 0; k < count; ++k) {
      std::string c = cells[flat + k];
      if (k + 1 < count) c.resize(width, ' ');
      line += (k ? " | " : "") + c;
    }
    out << line << "\n";
  }
}

nlohmann::json itersJson(const std::vector<Iter>& iters) {
  nlohmann::json a = nlohmann::json::array();
  for (const Iter& it : iters)
    a.push_back({{"extent", it.extent}, {"stride", it.stride}, {"axis", it.axis}});
  return a;
}

nlohmann::json ownerJson(const Owner& o) {
  return {{"thread", o.thread}, {"warp", o.thread / 32}, {"lane", o.thread % 32}, {"slot", o.slot}};
}

void printJson(const TileLayout& layout, const OwnershipTable& t, std::ostream& out) {
  nlohmann::json j;
  j["layout"] = layout.toString();
  j["shard"] = itersJson(layout.shard);
  j["replica"] = itersJson(layout.replica);
  j["offset"] = nlohmann::json::object();
  for (const auto& [axis, v] : layout.offset) j["offset"][axis] = v;
  j["shape"] = t.shape;
  j["element_count"] = t.elementCount;
  j["has_thread_axes"] = layout.hasThreadAxes();
  j["threads_used"] = t.threadsUsed();
  j["thread_count"] = t.threadCount;
  j["registers_per_thread"] = t.slotsPerThread;
  j["max_slots_used"] = t.maxSlotsUsed;
  j["owners_per_element"] = t.ownersPerElement;
  j["warnings"] = nlohmann::json::array();
  if (const std::string w = checkThreadExtents(layout); !w.empty()) j["warnings"].push_back(w);
  nlohmann::json elems = nlohmann::json::array();
  for (int64_t f = 0; f < t.elementCount; ++f) {
    nlohmann::json owners = nlohmann::json::array();
    for (const Owner& o : t.ownersOf(f)) owners.push_back(ownerJson(o));
    elems.push_back({{"index", unflatten(f, t.shape)}, {"owners", std::move(owners)}});
  }
  j["elements"] = std::move(elems);
  nlohmann::json threads = nlohmann::json::array();
  for (int64_t th : t.threads) {
    nlohmann::json slots = nlohmann::json::array();
    for (const auto& e : t.entriesOf(th))
      slots.push_back({{"slot", e.slot}, {"index", unflatten(e.flat, t.shape)}});
    threads.push_back(
        {{"thread", th}, {"warp", th / 32}, {"lane", th % 32}, {"slots", std::move(slots)}});
  }
  j["threads"] = std::move(threads);
  out << j.dump(1) << "\n";
}

}  // namespace

int cmdLayout(const Args& args, std::ostream& out, std::ostream& err) {
  const Options o = parseOptions(args, {"--shape", "--dtype"}, {"--json", "--help", "-h"});
  if (o.has("--help") || o.has("-h")) {
    out << kLayoutUsage;
    return 0;
  }
  if (!o.error.empty() || o.positional.size() != 1) {
    err << "tirx layout: " << (o.error.empty() ? "expected exactly one SPEC" : o.error) << "\n"
        << kLayoutUsage;
    return 2;
  }
  Diagnostics diags;
  const std::optional<LayoutValue> value = parseLayoutValueText(o.positional[0], diags);
  if (!value) {
    sortAndUnique(diags);
    err << formatGcc(diags, "<layout>");
    return 1;
  }
  const TileLayout* layout = &tileOf(*value);
  std::vector<int64_t> shape;
  if (!o.get("--shape").empty() || !o.getAll("--shape").empty()) {
    if (!parseShape(o.get("--shape"), shape)) {
      err << "tirx layout: --shape expects positive integers separated by commas, found '"
          << o.get("--shape") << "'\n";
      return 2;
    }
  } else {
    for (const Iter& it : layout->shard) shape.push_back(it.extent);
  }
  if (!layout->admits(shape)) {
    err << "tirx layout: shape " << tupleText(shape) << " has " << product(shape)
        << " elements, the layout has " << layout->size() << "\n";
    return 2;
  }
  if (layout->size() > kMaxTabulated) {
    err << "tirx layout: the layout has " << layout->size() << " elements, more than the "
        << kMaxTabulated << " this command tabulates\n";
    return 2;
  }
  if (const auto* compose = std::get_if<ComposeLayout>(&*value)) {
    // A swizzle: its (row, 16-byte chunk) image instead of an ownership table.
    const std::string dtype = o.get("--dtype");
    const int perElement = compose->swizzle.perElement;
    int bytes = perElement <= 4 ? 16 >> perElement : 1;
    if (!dtype.empty() && (bytes = elementBytesOfDtype(dtype)) == 0) {
      err << "tirx layout: unknown --dtype '" << dtype << "'\n";
      return 2;
    }
    return printSwizzleImage(*compose, shape, bytes,
                             dtype.empty() ? std::to_string(bytes * 8) + "-bit elements" : dtype,
                             o.has("--json"), out, err);
  }
  if (!o.get("--dtype").empty()) {
    err << "tirx layout: --dtype applies to a ComposeLayout (swizzle) only\n";
    return 2;
  }
  const OwnershipTable table = ownership(*layout, shape);
  if (o.has("--json"))
    printJson(*layout, table, out);
  else
    printText(*layout, table, out);
  return 0;
}

}  // namespace tirx::cli
