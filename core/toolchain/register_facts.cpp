// Parsers of the two nvdisasm listings (line records, live-register counts), their join by
// (function, address), the per-line and per-kernel aggregation, and the text table of
// `tirx compile --emit regs`.
//
// Listing shapes (CUDA 13 nvdisasm, sm_90a; tests/data/sass holds real ones). The count columns
// are those of the register files the function uses, named by a header row per function:
//   .section  .text.gemm_ws,"ax",@progbits          a function starts; line records reset
//   //## File "/path/gemm.py", line 87              the line record for what follows (-g)
//   //## File "/p/a.py", line 14 inlined at "/p/a.py", line 24   an inlined body's record (-gi)
//   /*0890*/  @P0 HGMMA.64x256x16.F32.BF16 R24, gdesc[UR20], R24 ;   an instruction
//   // | GPR   | PRED   | UGPR   | UPRED   |        the count columns of this function
//   ... ; // |  135  |        |   16   |    1    |   live counts, an empty cell meaning 0
#include "core/toolchain/register_facts.h"

#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <map>
#include <optional>
#include <sstream>
#include <string_view>

#include "core/toolchain/sass_instruction.h"

namespace tirx::toolchain {

namespace {

std::string baseName(const std::string& path) {
  const auto s = path.find_last_of('/');
  return s == std::string::npos ? path : path.substr(s + 1);
}

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && (s[a] == ' ' || s[a] == '\t')) ++a;
  while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t' || s[b - 1] == '\r')) --b;
  return s.substr(a, b - a);
}

/// `.section .text.NAME,...` → NAME ("" when the line is not a code section header).
std::string sectionFunction(const std::string& line) {
  const std::string t = trim(line);
  if (t.rfind(".section", 0) != 0) return {};
  const auto p = t.find(".text.");
  if (p == std::string::npos) return {};
  const auto start = p + 6;
  auto end = t.find_first_of(",\" \t", start);
  if (end == std::string::npos) end = t.size();
  return t.substr(start, end - start);
}

/// The instruction on `line` as the register facts keep it; false when the line is no instruction.
bool parseInstruction(const std::string& line, SassInstruction& out, std::string& rest) {
  std::optional<SassLine> l = lexSassLine(line);
  if (!l) return false;
  out.address = l->address;
  out.opcode = std::move(l->opcode);
  out.text = std::move(l->text);
  rest = std::move(l->rest);
  return true;
}

/// The cells of a trailing `// | a | b | ... |` column, trimmed; empty when there is none.
std::vector<std::string> trailingCells(const std::string& rest) {
  std::vector<std::string> cells;
  const auto slash = rest.find("//");
  if (slash == std::string::npos) return cells;
  const auto first = rest.find('|', slash);
  if (first == std::string::npos) return cells;
  std::string cell;
  for (size_t i = first + 1; i < rest.size() && cells.size() < 16; ++i) {
    if (rest[i] != '|') {
      cell += rest[i];
      continue;
    }
    cells.push_back(trim(cell));
    cell.clear();
  }
  return cells;
}

/// The column header `// | GPR | PRED | UGPR | UPRED |` (nvdisasm prints only the register files
/// the function uses: fma's has GPR and UGPR alone) as field numbers 0–3 per cell (-1: another).
bool parseCountHeader(const std::string& line, std::vector<int>& columns) {
  const std::vector<std::string> cells = trailingCells(line);
  std::vector<int> cols;
  bool any = false;
  for (const std::string& c : cells) {
    const int f = c == "GPR" ? 0 : c == "PRED" ? 1 : c == "UGPR" ? 2 : c == "UPRED" ? 3 : -1;
    any = any || f >= 0;
    cols.push_back(f);
  }
  if (!any) return false;
  columns = std::move(cols);
  return true;
}

/// Live counts from the cells of an instruction (an empty cell is 0); false without cells.
bool parseCounts(const std::string& rest, const std::vector<int>& columns, SassInstruction& ins) {
  const std::vector<std::string> cells = trailingCells(rest);
  if (cells.empty()) return false;
  int v[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < cells.size() && i < columns.size(); ++i) {
    const std::string& t = cells[i];
    if (columns[i] < 0 || t.empty()) continue;
    if (t.size() > 6 || t.find_first_not_of("0123456789") != std::string::npos) return false;
    v[columns[i]] = std::atoi(t.c_str());
  }
  ins.gpr = v[0];
  ins.pred = v[1];
  ins.ugpr = v[2];
  ins.upred = v[3];
  return true;
}

/// An nvdisasm line record: `//## File "F", line L` and, with -gi, ` inlined at "F2", line L2`
/// (one record per inlining level, outermost last).
struct LineRecord {
  std::string file;
  int line = 0;
  std::string siteFile;  ///< the call site of an inlined body ("" when not inlined)
  int siteLine = 0;
};

/// `"NAME", line N` at the front of `t` (after blanks), consumed; false when it is not there.
bool takeFileLine(std::string_view& t, std::string& file, int& line) {
  const size_t q0 = t.find_first_not_of(" \t");
  if (q0 == std::string_view::npos || t[q0] != '"') return false;
  const size_t q1 = t.find('"', q0 + 1);
  if (q1 == std::string_view::npos) return false;
  file = std::string(t.substr(q0 + 1, q1 - q0 - 1));
  const size_t l = t.find("line ", q1);
  if (l == std::string_view::npos) return false;
  size_t i = l + 5;
  long v = 0;
  for (; i < t.size() && t[i] >= '0' && t[i] <= '9' && v <= (1L << 30); ++i)
    v = v * 10 + (t[i] - '0');
  line = int(std::min(v, 1L << 30));
  t.remove_prefix(i);
  return true;
}

std::optional<LineRecord> parseLineRecord(const std::string& text) {
  static const std::string kFile = "//## File ";
  const size_t p = text.find(kFile);
  if (p == std::string::npos) return std::nullopt;
  std::string_view t(text);
  t.remove_prefix(p + kFile.size());
  LineRecord r;
  if (!takeFileLine(t, r.file, r.line)) return std::nullopt;
  if (const size_t in = t.find("inlined at "); in != std::string_view::npos) {
    t.remove_prefix(in + 11);
    if (!takeFileLine(t, r.siteFile, r.siteLine)) r.siteFile.clear(), r.siteLine = 0;
  }
  return r;
}

bool startsWithOpcode(const std::string& opcode, const char* base) {
  const std::string b = base;
  return opcode.compare(0, b.size(), b) == 0 &&
         (opcode.size() == b.size() || opcode[b.size()] == '.');
}

}  // namespace

std::string registerSourceName(RegisterSource s) {
  switch (s) {
    case RegisterSource::Measured:
      return "measured (nvdisasm)";
    case RegisterSource::Estimate:
      return "estimate";
    case RegisterSource::None:
      break;
  }
  return "none";
}

const LineRegisters* RegisterFacts::findLine(int line) const {
  auto it = std::lower_bound(lines.begin(), lines.end(), line,
                             [](const LineRegisters& l, int v) { return l.line < v; });
  return it != lines.end() && it->line == line ? &*it : nullptr;
}

std::vector<SassInstruction> parseSassLineInfo(const std::string& listing,
                                               const std::string& scriptFile) {
  std::vector<SassInstruction> out;
  const std::string want = baseName(scriptFile);
  auto isScript = [&](const std::string& f) {
    return !f.empty() && (f == scriptFile || baseName(f) == want);
  };
  std::istringstream in(listing);
  std::string line, function, rest;
  LineRecord record;
  int sassLine = 0;
  while (std::getline(in, line)) {
    ++sassLine;
    if (std::string f = sectionFunction(line); !f.empty()) {
      function = f;
      record = {};
      continue;
    }
    if (line.find("//##") != std::string::npos) {
      if (auto r = parseLineRecord(line)) record = *r;
      continue;
    }
    SassInstruction ins;
    if (!parseInstruction(line, ins, rest)) continue;
    ins.function = function;
    ins.sassLine = sassLine;
    ins.file = record.file;
    ins.line = record.line;
    ins.inlinedAt = isScript(record.siteFile) ? record.siteLine : 0;
    // An inlined body belongs to its call site in the script (the rule of core/ptx/ptx_loc.h).
    if (ins.inlinedAt > 0)
      ins.scriptLine = ins.inlinedAt;
    else if (record.line > 0 && isScript(record.file))
      ins.scriptLine = record.line;
    out.push_back(std::move(ins));
  }
  return out;
}

std::vector<int> sassLineMap(const std::string& listing, const std::string& scriptFile) {
  std::vector<int> out(1 + size_t(std::count(listing.begin(), listing.end(), '\n')) +
                           (listing.empty() || listing.back() == '\n' ? 0 : 1),
                       0);
  for (const SassInstruction& ins : parseSassLineInfo(listing, scriptFile))
    if (ins.scriptLine > 0 && size_t(ins.sassLine) < out.size())
      out[size_t(ins.sassLine)] = ins.scriptLine;
  return out;
}

std::vector<SassInstruction> parseSassLiveCounts(const std::string& listing) {
  std::vector<SassInstruction> out;
  std::istringstream in(listing);
  std::string line, function, rest;
  const std::vector<int> kAll = {0, 1, 2, 3};
  std::vector<int> columns = kAll;
  while (std::getline(in, line)) {
    if (std::string f = sectionFunction(line); !f.empty()) {
      function = f;
      columns = kAll;
      continue;
    }
    SassInstruction ins;
    if (!parseInstruction(line, ins, rest)) {
      parseCountHeader(line, columns);
      continue;
    }
    if (!parseCounts(rest, columns, ins)) continue;
    ins.function = function;
    out.push_back(std::move(ins));
  }
  return out;
}

RegisterFacts measuredRegisterFacts(const std::string& lineListing, const std::string& countListing,
                                    const std::string& scriptFile,
                                    const std::vector<KernelResources>& resources) {
  RegisterFacts f;
  f.instructions = parseSassLineInfo(lineListing, scriptFile);
  std::map<std::pair<std::string, int>, const SassInstruction*> counts;
  const std::vector<SassInstruction> live = parseSassLiveCounts(countListing);
  for (const auto& c : live) counts.emplace(std::make_pair(c.function, c.address), &c);
  int joined = 0, mismatched = 0;
  std::map<std::string, KernelRegisters> kernels;
  std::map<int, LineRegisters> lines;
  for (SassInstruction& ins : f.instructions) {
    auto it = counts.find({ins.function, ins.address});
    if (it != counts.end()) {
      // The same address must hold the same instruction in both listings.
      if (it->second->opcode != ins.opcode) {
        ++mismatched;
      } else {
        ins.gpr = it->second->gpr;
        ins.pred = it->second->pred;
        ins.ugpr = it->second->ugpr;
        ins.upred = it->second->upred;
        ++joined;
      }
    }
    KernelRegisters& k = kernels[ins.function];
    k.kernel = ins.function;
    ++k.instructions;
    // Not in the life-range listing (the NOP padding after a function's end): no line owns it.
    if (ins.gpr < 0) continue;
    if (ins.gpr > k.maxLive) k.maxLive = ins.gpr, k.peakAddress = ins.address;
    if (ins.scriptLine <= 0) {
      ++k.unattributed;
      continue;
    }
    LineRegisters& l = lines[ins.scriptLine];
    l.line = ins.scriptLine;
    ++l.instructions;
    if (l.peakAddress < 0 || ins.gpr > l.maxLive) {
      l.maxLive = ins.gpr;
      l.peakAddress = ins.address;
      l.peakOpcode = ins.opcode;
      l.kernel = ins.function;
    }
    if (startsWithOpcode(ins.opcode, "HGMMA"))
      l.wgmmas.push_back({ins.function, ins.address, ins.gpr});
    if (startsWithOpcode(ins.opcode, "LDL")) ++l.spillLoads;
    if (startsWithOpcode(ins.opcode, "STL")) ++l.spillStores;
  }
  for (const auto& r : resources) {
    KernelRegisters& k = kernels[r.kernel];
    k.kernel = r.kernel;
    k.allocated = r.registers;
    k.spillStoreBytes = r.spillStores;
    k.spillLoadBytes = r.spillLoads;
  }
  for (auto& [name, k] : kernels) f.kernels.push_back(k);
  for (auto& [line, l] : lines) f.lines.push_back(std::move(l));
  std::ostringstream s;
  if (f.instructions.empty()) {
    s << "no instructions in the nvdisasm line listing";
  } else if (joined == 0) {
    s << "nvdisasm life ranges name none of the " << f.instructions.size()
      << " instructions of the line listing";
  } else {
    f.source = RegisterSource::Measured;
    s << "measured: nvdisasm -gi and -plr joined at " << joined << " of " << f.instructions.size()
      << " instructions";
    if (mismatched) s << " (" << mismatched << " addresses disagree on the opcode, left out)";
  }
  f.status = s.str();
  return f;
}

std::string formatRegisterFacts(const RegisterFacts& f) {
  std::ostringstream s;
  const bool est = f.source == RegisterSource::Estimate;
  const std::string mark = est ? "~" : "";
  s << "registers per script line: " << registerSourceName(f.source) << " — " << f.status << "\n";
  if (est)
    s << "(estimate: register tiles live at the line + a constant for scalars; not measured)\n";
  for (const auto& k : f.kernels) {
    s << "kernel " << k.kernel << ": " << (k.allocated ? std::to_string(k.allocated) : "?")
      << " registers allocated (ptxas), spill stores " << k.spillStoreBytes << " B, spill loads "
      << k.spillLoadBytes << " B";
    if (f.source == RegisterSource::Measured && k.peakAddress >= 0)
      s << ", peak " << k.maxLive << " live at /*" << std::hex << std::setw(4) << std::setfill('0')
        << k.peakAddress << std::dec << std::setfill(' ') << "*/, " << k.instructions
        << " instructions (" << k.unattributed << " outside the script's line records)";
    s << "\n";
  }
  s << std::right << std::setw(6) << "line" << std::setw(8) << "live" << std::setw(8) << "budget"
    << std::setw(7) << "instr" << std::setw(8) << "spills"
    << "  peak / wgmma (live)\n";
  for (const auto& l : f.lines) {
    s << std::setw(6) << l.line << std::setw(8) << (mark + std::to_string(l.maxLive))
      << std::setw(8) << l.budget << std::setw(7)
      << (est ? std::string("-") : std::to_string(l.instructions)) << std::setw(8)
      << (est ? std::string("-") : std::to_string(l.spillLoads + l.spillStores)) << "  ";
    if (l.peakAddress >= 0) {
      std::ostringstream a;
      a << std::hex << std::setw(4) << std::setfill('0') << l.peakAddress;
      s << "/*" << a.str() << "*/ " << l.peakOpcode;
    } else if (!l.detail.empty()) {
      s << l.detail;
    }
    if (!l.wgmmas.empty()) {
      s << " | wgmma";
      for (const auto& w : l.wgmmas) s << " " << mark << w.live;
    }
    s << "\n";
  }
  return s.str();
}

}  // namespace tirx::toolchain
