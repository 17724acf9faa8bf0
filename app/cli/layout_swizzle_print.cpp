// The swizzled-layout view of `tirx layout` (layout_swizzle_print.h): chunk image from
// core/layout (chunkImage), hardware mode and constraints from swizzle_layout.h, and the
// wavefronts of each 8-row ldmatrix phase from the bank model of core/sim.
#include "app/cli/layout_swizzle_print.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "core/layout/bank_model.h"

namespace tirx::cli {

namespace {

constexpr int64_t kMaxImageRows = 1024;

struct Phase {
  int64_t row0 = 0, chunk = 0;
  int wavefronts = 0;
};

// Every full group of 8 consecutive rows of one logical chunk column: what one matrix of an
// ldmatrix reading that column costs.
std::vector<Phase> ldmatrixPhases(const ChunkImage& img) {
  std::vector<Phase> out;
  for (int64_t c = 0; c < img.chunksPerRow; ++c)
    for (int64_t r0 = 0; r0 + 8 <= img.rows; r0 += 8) {
      std::vector<int64_t> rows;
      for (int64_t r = r0; r < r0 + 8; ++r)
        if (img.at(r, c) >= 0) rows.push_back(img.at(r, c) * 16);
      if (rows.size() == 8) out.push_back({r0, c, matrixAccessWavefronts(rows).wavefronts});
    }
  return out;
}

std::string tupleText(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

std::string cellText(const ChunkImage& img, int64_t p) {
  if (p < 0) return "-";
  std::string where = img.physRowChunks > 0 ? std::to_string(p / img.physRowChunks) + "." +
                                                  std::to_string(p % img.physRowChunks)
                                            : std::to_string(p);
  return where + "/b" + std::to_string(ChunkImage::firstBank(p));
}

}  // namespace

int elementBytesOfDtype(const std::string& dtype) {
  static const std::map<std::string, int> bytes = {
      {"int8", 1},    {"uint8", 1},    {"float8_e4m3", 1}, {"float8_e5m2", 1}, {"e4m3", 1},
      {"e5m2", 1},    {"s8", 1},       {"u8", 1},          {"int16", 2},       {"uint16", 2},
      {"float16", 2}, {"bfloat16", 2}, {"f16", 2},         {"bf16", 2},        {"half", 2},
      {"int32", 4},   {"uint32", 4},   {"float32", 4},     {"tf32", 4},        {"f32", 4},
      {"int64", 8},   {"uint64", 8},   {"float64", 8},     {"f64", 8}};
  auto it = bytes.find(dtype);
  return it == bytes.end() ? 0 : it->second;
}

int printSwizzleImage(const ComposeLayout& layout, const std::vector<int64_t>& shape, int elemBytes,
                      const std::string& dtypeName, bool json, std::ostream& out,
                      std::ostream& err) {
  std::string why;
  const auto img = chunkImage(LayoutValue{layout}, shape, elemBytes, kMaxImageRows, &why);
  if (!img) {
    err << "tirx layout: cannot draw the swizzle image: " << why << "\n";
    return 2;
  }
  std::string modeWhy;
  const std::optional<SwizzleMode> mode = hardwareSwizzleMode(layout.swizzle, elemBytes, &modeWhy);
  const std::string widthWhy = checkSwizzleElementWidth(layout.swizzle, elemBytes, dtypeName);
  const int64_t pattern = swizzlePatternBytes(layout.swizzle, elemBytes);
  const std::vector<Phase> phases = ldmatrixPhases(*img);

  if (json) {
    nlohmann::json j;
    j["layout"] = layout.toString();
    j["kind"] = "compose";
    j["swizzle"] = {{"per_element", layout.swizzle.perElement},
                    {"swizzle_len", layout.swizzle.len},
                    {"atom_len", layout.swizzle.atom},
                    {"inner", layout.swizzle.inner}};
    j["element_bytes"] = elemBytes;
    j["shape"] = shape;
    j["element_count"] = layout.size();
    j["storage_elements"] = layout.storageSpan();
    j["mode"] = mode ? nlohmann::json(swizzleModeName(*mode)) : nlohmann::json(nullptr);
    j["mode_error"] = mode ? "" : (widthWhy.empty() ? modeWhy : widthWhy);
    j["pattern_bytes"] = pattern;
    j["chunks_per_row"] = img->chunksPerRow;
    j["physical_chunks_per_row"] = img->physRowChunks;
    nlohmann::json rows = nlohmann::json::array();
    for (int64_t r = 0; r < img->rows; ++r) {
      nlohmann::json chunks = nlohmann::json::array();
      for (int64_t c = 0; c < img->chunksPerRow; ++c) {
        const int64_t p = img->at(r, c);
        chunks.push_back({{"chunk", c},
                          {"physical", p},
                          {"first_bank", p < 0 ? nlohmann::json(nullptr)
                                               : nlohmann::json(ChunkImage::firstBank(p))}});
      }
      rows.push_back({{"row", r}, {"chunks", std::move(chunks)}});
    }
    j["rows"] = std::move(rows);
    nlohmann::json ph = nlohmann::json::array();
    for (const Phase& p : phases)
      ph.push_back(
          {{"rows", {p.row0, p.row0 + 7}}, {"chunk", p.chunk}, {"wavefronts", p.wavefronts}});
    j["ldmatrix_phases"] = std::move(ph);
    out << j.dump(1) << "\n";
    return 0;
  }

  out << "layout: " << layout.toString() << "\n";
  out << "shape: " << tupleText(shape) << ", " << layout.size() << " elements of " << elemBytes
      << " bytes, " << img->chunksPerRow << " chunks of 16 bytes per row\n";
  if (mode && *mode != SwizzleMode::None)
    out << "swizzle: " << swizzleModeName(*mode) << " = TMA CU_TENSOR_MAP_SWIZZLE_"
        << swizzleModeName(*mode) << " = wgmma descriptor mode " << swizzleModeDescriptor(*mode)
        << "; repeats every " << pattern << " bytes (align the buffer to " << pattern << ")\n";
  else if (mode)
    out << "swizzle: none (swizzle_len 0)\n";
  else
    out << "swizzle: no hardware mode: " << (widthWhy.empty() ? modeWhy : widthWhy) << "\n";
  out << "storage: " << layout.storageSpan() << " elements\n";
  if (!phases.empty()) {
    const auto worst = std::max_element(
        phases.begin(), phases.end(),
        [](const Phase& a, const Phase& b) { return a.wavefronts < b.wavefronts; });
    const int64_t clean = std::count_if(phases.begin(), phases.end(),
                                        [](const Phase& p) { return p.wavefronts == 1; });
    out << "ldmatrix phases (8 rows x 16 bytes of one chunk column): " << clean << " of "
        << phases.size() << " conflict-free";
    if (worst->wavefronts > 1)
      out << ", worst " << worst->wavefronts << " wavefronts (rows " << worst->row0 << "-"
          << worst->row0 + 7 << ", chunk " << worst->chunk << ")";
    out << "\n";
  }
  out << "\nlogical (row, chunk) -> physical " << (img->physRowChunks > 0 ? "row.chunk" : "chunk")
      << "/first bank\n";
  std::vector<std::string> cells(static_cast<size_t>(img->rows * img->chunksPerRow));
  size_t width = 0;
  for (int64_t i = 0; i < img->rows * img->chunksPerRow; ++i) {
    cells[i] = cellText(*img, img->physical[i]);
    width = std::max(width, cells[i].size());
  }
  const size_t label = std::to_string(img->rows - 1).size() + 2;
  std::string head(label + 2, ' ');
  for (int64_t c = 0; c < img->chunksPerRow; ++c) {
    std::string h = std::to_string(c);
    h.resize(width, ' ');
    head += (c ? " " : "") + h;
  }
  while (!head.empty() && head.back() == ' ') head.pop_back();
  out << head << "\n";
  for (int64_t r = 0; r < img->rows; ++r) {
    std::string line = "[" + std::to_string(r) + "]";
    line.resize(label + 2, ' ');
    for (int64_t c = 0; c < img->chunksPerRow; ++c) {
      std::string cell = cells[r * img->chunksPerRow + c];
      if (c + 1 < img->chunksPerRow) cell.resize(width, ' ');
      line += (c ? " " : "") + cell;
    }
    out << line << "\n";
  }
  return 0;
}

}  // namespace tirx::cli
