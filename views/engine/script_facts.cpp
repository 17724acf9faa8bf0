// analyzeScript: checkScript plus the opcode strings sema resolved (ir::Program::opcodeSites,
// formatted for the hovers) and an ownership summary per layout symbol. Runs on the worker thread.
#include "views/engine/script_facts.h"

#include <chrono>
#include <sstream>

#include "core/layout/tile_layout.h"
#include "core/ptx/ptx_table.h"

namespace tirx::views {
namespace {

/// The hover's summary, bounded at any size (core/layout's ownershipSummary: no table past
/// kMaxOwnershipEntries). A global or shared tensor is memory: its elements only, no owners.
LayoutSummary summarize(const TileLayout& layout, const std::vector<int64_t>& shape, bool memory) {
  LayoutSummary sum;
  sum.text = layout.toString();
  sum.shape = shape;
  if (memory) {
    sum.elements = layout.admits(shape) ? layout.size() : 0;
    return sum;
  }
  const OwnershipSummary o = ownershipSummary(layout, shape);
  sum.elements = o.elements;
  sum.threadsUsed = o.threadsUsed;
  sum.maxSlotsUsed = o.maxSlotsUsed;
  sum.slotsPerThread = o.slotsPerThread;
  sum.replicas = o.ownersPerElement;
  return sum;
}

std::string count(int64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

/// "64 threads × 4 registers per thread", or what a summary past the table cap can say.
std::string ownersText(const LayoutSummary& l) {
  if (l.maxSlotsUsed >= 0)
    return count(l.threadsUsed, "thread", "threads") + " × " +
           count(l.maxSlotsUsed, "register", "registers") + " per thread";
  std::string s = l.threadsUsed >= 0 ? count(l.threadsUsed, "thread", "threads") + " · " : "";
  return s + "too large to tabulate registers per thread (" +
         count(l.slotsPerThread, "slot", "slots") + " of storage)";
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

}  // namespace

std::string describeOpcode(const PtxInstruction& instr) {
  std::ostringstream os;
  os << instr.opcode << " — " << familyName(instr.family);
  if (instr.isMemory()) os << " (" << (instr.space.empty() ? "memory" : instr.space) << ")";
  int atom = 1;
  for (const auto& op : instr.operands) atom = std::max(atom, op.atom);
  os << " · atom " << atom;
  if (!instr.operands.empty() && !instr.operands.front().dtypes.empty())
    os << " · dtypes " << joined(instr.operands.front().dtypes);
  os << " · sm_" << instr.minSm << "+";
  if (!instr.description.empty()) os << "\n" << instr.description;
  return os.str();
}

namespace {

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

bool stopped(const CancelToken* cancel) {
  return cancel && cancel->cancelled();
}

/// Sema records fragment facts and descriptors for these families only (sema_collective.cpp,
/// sema_wgmma.cpp).
bool hasTensorCoreOps(const ir::Program& program) {
  for (const ir::OpcodeSite& s : program.opcodeSites)
    if (s.instr && (s.instr->family == PtxFamily::Mma || s.instr->family == PtxFamily::Ldmatrix ||
                    s.instr->family == PtxFamily::Stmatrix || s.instr->family == PtxFamily::Wgmma))
      return true;
  return false;
}

}  // namespace

ScriptFacts checkScriptFacts(std::string source, std::string fileName, int sm) {
  const auto start = std::chrono::steady_clock::now();
  ScriptFacts facts;
  SemaOptions options;
  options.sm = sm;
  auto fe = std::make_shared<FrontEndResult>(checkScript(source, fileName, options));
  facts.checkMillis = msSince(start);
  for (const ir::OpcodeSite& s : fe->program.opcodeSites) {  // sema's, in the order it met them
    OpcodeSite site;
    site.span = s.span;
    site.opcode = s.opcode;
    site.valid = s.valid;
    if (s.instr) {
      site.info = describeOpcode(*s.instr);
      site.fragments = opcodeFragmentTables(*s.instr);
    } else {
      site.info = s.opcode + " — " + s.info;
    }
    facts.opcodes.push_back(std::move(site));
  }
  facts.source = std::move(source);
  facts.fileName = std::move(fileName);
  facts.frontEnd = std::move(fe);
  facts.millis = msSince(start);
  return facts;
}

ScriptFacts detailScriptFacts(const ScriptFacts& checked, const CancelToken* cancel) {
  const auto start = std::chrono::steady_clock::now();
  ScriptFacts facts = checked;
  facts.detailed = false;
  facts.cancelled = true;  // until the last step is done
  if (!facts.frontEnd) return facts;
  const ir::Program& program = facts.frontEnd->program;
  // Hover summaries first (the editor shows them anywhere), one bounded summary per symbol.
  const auto& symbols = program.symbols;
  for (int i = 0; i < static_cast<int>(symbols.size()); ++i) {
    const ir::Symbol& sym = symbols[size_t(i)];
    if (sym.kind != ir::Symbol::Kind::Layout && sym.kind != ir::Symbol::Kind::Tensor &&
        sym.kind != ir::Symbol::Kind::View)
      continue;
    if (stopped(cancel)) return facts;
    std::vector<int64_t> shape = sym.shape;
    if (shape.empty() || !sym.layout.admits(shape)) shape = {sym.layout.size()};
    const bool memory = sym.kind != ir::Symbol::Kind::Layout && sym.scope != ir::MemScope::Local;
    LayoutSummary sum = summarize(sym.layout, shape, memory);
    sum.symbol = i;
    facts.layouts.push_back(std::move(sum));
  }
  for (const ir::LayoutLiteral& lit : program.layoutLiterals) {
    if (stopped(cancel)) return facts;
    std::vector<int64_t> shape;
    for (const auto& it : lit.layout.shard) shape.push_back(it.extent);
    if (shape.empty() || !lit.layout.admits(shape)) shape = {lit.layout.size()};
    LayoutSummary sum = summarize(lit.layout, shape, false);
    sum.span = lit.span;
    facts.literals.push_back(std::move(sum));
  }
  // The tensor-core facts: sema records them while it checks, so only a script with tensor-core
  // tile ops pays for a second, collecting pass (its diagnostics are stage 1's).
  if (stopped(cancel)) return facts;
  if (hasTensorCoreOps(program)) {
    SemaOptions options;
    options.sm = program.targetSm;
    CheckedScript withFacts = checkScriptWithFragments(facts.source, facts.fileName, options);
    facts.fragments = std::move(withFacts.fragments);
    facts.descriptors = std::move(withFacts.descriptors);
  }
  if (stopped(cancel)) return facts;
  facts.sharedTiles = sharedTileImages(program);
  facts.cancelled = false;
  facts.detailed = true;
  facts.detailMillis = msSince(start);
  return facts;
}

ScriptFacts analyzeScript(std::string source, std::string fileName, int sm) {
  return detailScriptFacts(checkScriptFacts(std::move(source), std::move(fileName), sm));
}

int symbolAt(const ir::Program& program, int offset, const std::string& word, int line) {
  const auto& syms = program.symbols;
  auto contains = [offset](const SourceSpan& s) {
    return s.valid() && offset >= s.offset && offset < s.offset + std::max(1, s.length);
  };
  for (int i = 0; i < static_cast<int>(syms.size()); ++i) {
    if (contains(syms[i].span)) return i;
    for (const auto& u : syms[i].uses)
      if (contains(u)) return i;
  }
  int best = -1;
  for (int i = 0; i < static_cast<int>(syms.size()); ++i) {
    if (syms[i].name != word) continue;
    if (best < 0) best = i;
    if (syms[i].span.line <= line &&
        (syms[best].span.line > line || syms[i].span.line >= syms[best].span.line))
      best = i;
  }
  return best;
}

int layoutLiteralAt(const std::vector<LayoutSummary>& literals, int offset) {
  int best = -1;
  for (int i = 0; i < static_cast<int>(literals.size()); ++i) {
    const SourceSpan& s = literals[size_t(i)].span;
    if (offset < s.offset || offset >= s.offset + s.length) continue;
    if (best < 0 || s.length < literals[size_t(best)].span.length) best = i;
  }
  return best;
}

std::string describeLayoutLiteral(const LayoutSummary& l) {
  std::ostringstream os;
  os << "layout " << l.text << "\n"
     << count(l.elements, "element", "elements") << " · " << ownersText(l);
  if (l.replicas > 1) os << " · " << l.replicas << " owners per element";
  os << "\nshape (";
  for (size_t i = 0; i < l.shape.size(); ++i) os << (i ? ", " : "") << l.shape[i];
  os << ")";
  return os.str();
}

int opcodeAt(const std::vector<OpcodeSite>& sites, int offset) {
  for (int i = 0; i < static_cast<int>(sites.size()); ++i) {
    const SourceSpan& s = sites[i].span;
    if (offset >= s.offset && offset <= s.offset + s.length) return i;
  }
  return -1;
}

std::string describeLayoutSymbol(const ir::Program& program, const std::vector<LayoutSummary>& ls,
                                 int index) {
  if (index < 0 || index >= static_cast<int>(program.symbols.size())) return {};
  const ir::Symbol& sym = program.symbols[index];
  for (const auto& s : ls) {
    if (s.symbol != index) continue;
    std::ostringstream os;
    os << sym.name << ": " << s.text << "\n";
    os << count(s.elements, "element", "elements") << " · ";
    if (sym.scope != ir::MemScope::Local)  // global and shared tensors are memory, not registers
      os << ir::memScopeName(sym.scope) << " memory, "
         << count(s.elements * ir::dtypeBytes(sym.dtype), "byte", "bytes");
    else
      os << ownersText(s);
    if (s.replicas > 1) os << " · " << s.replicas << " owners per element";
    if (!sym.shape.empty()) {
      os << "\nshape (";
      for (size_t i = 0; i < sym.shape.size(); ++i) os << (i ? ", " : "") << sym.shape[i];
      os << ")";
    }
    return os.str();
  }
  return {};
}

}  // namespace tirx::views
