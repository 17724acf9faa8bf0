// analyzeScript: checkScript plus a walk over the AST for PTX opcode strings and an ownership
// summary per layout symbol. Runs on the worker thread.
#include "views/script_facts.h"

#include <chrono>
#include <sstream>

#include "core/layout/tile_layout.h"
#include "core/ptx/ptx_table.h"

namespace tirx::views {
namespace {

bool isPtxIndex(const ast::Expr& e) {
  if (e.kind != ast::ExprKind::Subscript || e.args.size() < 2 || !e.args[0] || !e.args[1])
    return false;
  const ast::Expr& obj = *e.args[0];
  return obj.kind == ast::ExprKind::Attribute && obj.text == "ptx" &&
         e.args[1]->kind == ast::ExprKind::Str;
}

void collectExpr(const ast::Expr* e, std::vector<OpcodeSite>& out) {
  if (!e) return;
  if (isPtxIndex(*e)) {
    const ast::Expr& str = *e->args[1];
    OpcodeSite site;
    site.opcode = str.text;
    site.span = str.span;
    if (site.span.length >= 2) {  // strip the quotes
      site.span.offset += 1;
      site.span.col += 1;
      site.span.length -= 2;
    }
    PtxParseError err;
    if (auto instr = parsePtxOpcode(site.opcode, &err)) {
      site.valid = true;
      site.info = describeOpcode(*instr);
      site.fragments = opcodeFragmentTables(*instr);
    } else {
      site.info = err.message;
    }
    out.push_back(std::move(site));
  }
  for (const auto& a : e->args) collectExpr(a.get(), out);
  for (const auto& k : e->keywords) collectExpr(k.value.get(), out);
}

void collectBlock(const ast::Block& block, std::vector<OpcodeSite>& out) {
  for (const auto& s : block) {
    if (!s) continue;
    for (const auto& t : s->targets) collectExpr(t.get(), out);
    collectExpr(s->value.get(), out);
    collectExpr(s->annotation.get(), out);
    for (const auto& d : s->decorators) collectExpr(d.get(), out);
    collectBlock(s->body, out);
    collectBlock(s->orelse, out);
  }
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

ScriptFacts analyzeScript(std::string source, std::string fileName, int sm) {
  auto start = std::chrono::steady_clock::now();
  ScriptFacts facts;
  SemaOptions options;
  options.sm = sm;
  CheckedScript checked = checkScriptWithFragments(source, std::move(fileName), options);
  facts.fragments = std::move(checked.fragments);
  facts.descriptors = std::move(checked.descriptors);
  auto fe = std::make_shared<FrontEndResult>(std::move(checked.frontEnd));
  collectBlock(fe->parse.module.body, facts.opcodes);
  const auto& symbols = fe->program.symbols;
  for (int i = 0; i < static_cast<int>(symbols.size()); ++i) {
    const ir::Symbol& sym = symbols[i];
    if (sym.kind != ir::Symbol::Kind::Layout && sym.kind != ir::Symbol::Kind::Tensor &&
        sym.kind != ir::Symbol::Kind::View)
      continue;
    LayoutSummary sum;
    sum.symbol = i;
    sum.text = sym.layout.toString();
    std::vector<int64_t> shape = sym.shape;
    if (shape.empty() || !sym.layout.admits(shape)) shape = {sym.layout.size()};
    OwnershipTable table = ownership(sym.layout, shape);
    sum.elements = table.elementCount;
    sum.threadsUsed = table.threadsUsed();
    sum.maxSlotsUsed = table.maxSlotsUsed;
    sum.slotsPerThread = table.slotsPerThread;
    sum.replicas = table.elementCount ? static_cast<int64_t>(table.ownerList.size()) /
                                            std::max<int64_t>(1, table.elementCount)
                                      : 1;
    facts.layouts.push_back(std::move(sum));
  }
  facts.sharedTiles = sharedTileImages(fe->program);
  facts.source = std::move(source);
  facts.frontEnd = std::move(fe);
  facts.millis =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return facts;
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
    os << s.elements << " elements · " << s.threadsUsed << " threads × " << s.maxSlotsUsed
       << " registers per thread";
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
