// The IR register estimate, the per-line budgets (setmaxnreg / ptxas / 255) and the choice between
// measured and estimated facts. Overview of the estimate: the kernel body is flattened in program
// order (a loop is the range of its header and its descendants); every statement lists the register
// tiles it references; a tile's live range is [first, last] reference, widened to the whole range
// of a loop it is referenced in when it is also referenced outside that loop, until nothing grows.
#include "core/driver/register_estimate.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "core/ir/buffer_access.h"

namespace tirx::driver {

namespace {

using toolchain::LineRegisters;
using toolchain::RegisterFacts;
using toolchain::RegisterSource;

/// One statement of the flattened body.
struct Node {
  const ir::Stmt* stmt = nullptr;
  int end = -1;           ///< loops: index of the last descendant; others: -1
  std::set<int> buffers;  ///< register tiles referenced by the statement itself (not its body)
};

/// The register tiles (buffer ids) a statement references, its nested body excluded: the tensors
/// it names and those its expressions load (region starts included).
std::set<int> referencedTiles(const ir::Stmt& s) {
  std::set<int> out;
  auto add = [&out](const ir::TensorRef& r) {
    if (r.scope == ir::MemScope::Local && r.buffer >= 0) out.insert(r.buffer);
  };
  ir::forEachTensor(s, [&](const ir::TensorRef& r, int, bool, bool) { add(r); });
  ir::forEachExpr(s, [&](const ir::Expr& e) {
    if (e.tensor) add(*e.tensor);
  });
  return out;
}

void flatten(const std::vector<ir::Stmt>& body, std::vector<Node>& out) {
  for (const ir::Stmt& s : body) {
    const size_t at = out.size();
    out.push_back({&s, -1, referencedTiles(s)});
    flatten(s.body, out);
    flatten(s.orelse, out);
    if (s.kind == ir::StmtKind::For || s.kind == ir::StmtKind::While)
      out[at].end = int(out.size()) - 1;
  }
}

/// 32-bit registers one thread holds for a register tile.
int tileRegisters(const ir::Buffer& b) {
  const int64_t bits = b.storageElems * ir::dtypeBits(b.dtype);
  return int(std::min<int64_t>((bits + 31) / 32, 1 << 20));
}

void estimateKernel(const ir::Kernel& k, std::map<int, LineRegisters>& lines) {
  std::vector<Node> nodes;
  flatten(k.body, nodes);
  std::map<int, const ir::Buffer*> tiles;
  for (const ir::Buffer& b : k.buffers)
    if (b.scope == ir::MemScope::Local && b.paramIndex < 0) tiles[b.id] = &b;
  // Live ranges [first, last] per tile, widened over loops until stable.
  std::map<int, std::pair<int, int>> range;
  for (int i = 0; i < int(nodes.size()); ++i)
    for (int b : nodes[size_t(i)].buffers) {
      if (!tiles.count(b)) continue;
      auto [it, fresh] = range.try_emplace(b, i, i);
      if (!fresh) it->second.second = i;
    }
  for (bool grew = true; grew;) {
    grew = false;
    for (auto& [b, r] : range)
      for (int i = 0; i < int(nodes.size()); ++i) {
        const int end = nodes[size_t(i)].end;
        if (end < 0 || r.second < i || r.first > end) continue;  // no overlap with the loop
        if (r.first >= i && r.second <= end) continue;  // wholly inside: dies each iteration
        if (r.first > i || r.second < end) {
          r.first = std::min(r.first, i);
          r.second = std::max(r.second, end);
          grew = true;
        }
      }
  }
  for (int i = 0; i < int(nodes.size()); ++i) {
    const ir::Stmt& s = *nodes[size_t(i)].stmt;
    if (s.span.line <= 0) continue;
    int64_t total = kScalarRegisters;
    std::ostringstream detail;
    for (const auto& [b, r] : range)
      if (r.first <= i && i <= r.second) {
        const int regs = tileRegisters(*tiles.at(b));
        total += regs;
        detail << tiles.at(b)->name << " " << regs << " + ";
      }
    detail << kScalarRegisters << " (scalars)";
    const int figure = int(std::min<int64_t>(total, 1 << 30));
    LineRegisters& l = lines[s.span.line];
    if (l.line == 0 || figure > l.maxLive) {
      l.line = s.span.line;
      l.kernel = k.name;
      l.maxLive = figure;
      l.detail = detail.str();
    }
    if (s.kind == ir::StmtKind::Wgmma) l.wgmmas.push_back({k.name, -1, figure});
  }
}

/// The budget walk: `budget`/`why` in force for the statements of `body`.
void budgetWalk(const std::vector<ir::Stmt>& body, int budget, std::string why,
                std::map<int, std::pair<int, std::string>>& out) {
  for (const ir::Stmt& s : body) {
    if (s.kind == ir::StmtKind::Async && s.async && s.async->kind == ir::AsyncKind::SetMaxNReg) {
      budget = int(s.async->n);
      why = std::string("setmaxnreg.") + (s.async->increase ? "inc " : "dec ") +
            std::to_string(s.async->n) + " (line " + std::to_string(s.span.line) + ")";
    }
    if (s.span.line > 0) out[s.span.line] = {budget, why};
    budgetWalk(s.body, budget, why, out);
    budgetWalk(s.orelse, budget, why, out);
  }
}

}  // namespace

RegisterFacts estimateRegisterFacts(const ir::Program& program,
                                    const std::vector<toolchain::KernelResources>& resources,
                                    const std::string& why) {
  RegisterFacts f;
  f.source = RegisterSource::Estimate;
  f.status = "estimate from the IR (register tiles live at each line + " +
             std::to_string(kScalarRegisters) + " for scalars): " + why;
  std::map<int, LineRegisters> lines;
  for (const ir::Kernel& k : program.kernels) {
    estimateKernel(k, lines);
    toolchain::KernelRegisters t;
    t.kernel = k.name;
    for (const auto& r : resources)
      if (r.kernel == k.name) {
        t.allocated = r.registers;
        t.spillStoreBytes = r.spillStores;
        t.spillLoadBytes = r.spillLoads;
      }
    f.kernels.push_back(t);
  }
  for (auto& [line, l] : lines) f.lines.push_back(std::move(l));
  return f;
}

void applyRegisterBudgets(RegisterFacts& facts, const ir::Program& program) {
  std::map<std::string, std::pair<int, std::string>> base;  // kernel -> budget
  std::map<int, std::pair<int, std::string>> perLine;
  std::vector<std::pair<int, std::string>> kernelStarts;  // (def line, kernel)
  for (const ir::Kernel& k : program.kernels) {
    std::pair<int, std::string> b{kMaxThreadRegisters,
                                  "the sm_90 limit of 255 (no resource report)"};
    for (const auto& t : facts.kernels)
      if (t.kernel == k.name && t.allocated > 0)
        b = {t.allocated, "ptxas: " + std::to_string(t.allocated) + " registers allocated"};
    base[k.name] = b;
    budgetWalk(k.body, b.first, b.second, perLine);
    kernelStarts.push_back({k.span.line, k.name});
  }
  std::sort(kernelStarts.begin(), kernelStarts.end());
  for (LineRegisters& l : facts.lines) {
    if (auto it = perLine.find(l.line); it != perLine.end()) {
      std::tie(l.budget, l.budgetSource) = it->second;
      continue;
    }
    std::string kernel = l.kernel;
    if (!base.count(kernel))  // a line outside every statement: the kernel defined above it
      for (const auto& [line, name] : kernelStarts)
        if (line <= l.line) kernel = name;
    const auto b = base.find(kernel);
    std::tie(l.budget, l.budgetSource) =
        b != base.end()
            ? b->second
            : std::pair<int, std::string>{kMaxThreadRegisters, "the sm_90 limit of 255"};
  }
}

RegisterFacts registerFacts(const ir::Program& program, const toolchain::CompileProducts& products,
                            const std::string& scriptFile) {
  RegisterFacts f;
  std::string why;
  if (!products.sassLiveRanges.empty() && !products.sass.empty()) {
    f = toolchain::measuredRegisterFacts(products.sass, products.sassLiveRanges, scriptFile,
                                         products.resources);
    why = f.status;
  } else {
    why = products.sass.empty() ? "no SASS (" + products.sassStatus + ")"
                                : "no life ranges (" + products.sassLiveStatus + ")";
  }
  if (f.source != RegisterSource::Measured) {
    f = estimateRegisterFacts(program, products.resources, why);
    // The SASS ↔ script links hold without life ranges.
    if (products.sassStatus == "nvdisasm")
      f.instructions = toolchain::parseSassLineInfo(products.sass, scriptFile);
  }
  applyRegisterBudgets(f, program);
  return f;
}

}  // namespace tirx::driver
