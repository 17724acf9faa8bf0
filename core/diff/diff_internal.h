// The sections of a version diff, one function each (version_diff.cpp calls them in order).
// Private to core/diff.
#pragma once

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "core/codegen/codegen.h"
#include "core/diff/version_diff.h"
#include "core/ir/ir.h"
#include "core/verify/verify.h"

namespace tirx::diff::detail {

/// The buffer of `scope` named `name` in kernel `k`, null when there is none.
const ir::Buffer* findBuffer(const ir::Kernel& k, ir::MemScope scope, const std::string& name);
/// A shape as Python writes a tuple: "(32, 32)", "(8,)".
std::string shapeText(const std::vector<int64_t>& s);

/// Pairs the buffers of `scope` of two programs by kernel and buffer name: `inA(ka, ba, kb, bb)`
/// for each of A's (kb null where B has no such kernel, bb null where B's has no such buffer),
/// then `onlyB(kb, bb, ka)` for each of B's that A lacks (ka null where A has no such kernel).
template <class InA, class OnlyB>
void pairBuffers(const ir::Program& a, const ir::Program& b, ir::MemScope scope, InA inA,
                 OnlyB onlyB) {
  for (const ir::Kernel& ka : a.kernels) {
    const ir::Kernel* kb = b.findKernel(ka.name);
    for (const ir::Buffer& ba : ka.buffers)
      if (ba.scope == scope) inA(ka, ba, kb, kb ? findBuffer(*kb, scope, ba.name) : nullptr);
  }
  for (const ir::Kernel& kb : b.kernels) {
    const ir::Kernel* ka = a.findKernel(kb.name);
    for (const ir::Buffer& bb : kb.buffers)
      if (bb.scope == scope && !(ka && findBuffer(*ka, scope, bb.name))) onlyB(kb, bb, ka);
  }
}

/// Every local buffer of every kernel present in both programs (by kernel and buffer name), and
/// those present in one only.
std::vector<LayoutDiff> diffLayouts(const ir::Program& a, const ir::Program& b, int maxCells);

/// Every shared buffer of every kernel present in both programs (by kernel and buffer name): the
/// byte offset of every element under each layout (core/layout's CompiledLayout), compared; and
/// those present in one only.
std::vector<SharedLayoutDiff> diffSharedLayouts(const ir::Program& a, const ir::Program& b,
                                                int maxCells);

/// One verify's simulator shared-memory counts by (kernel, shared buffer, script line, op).
using SharedCounts = std::map<std::tuple<std::string, std::string, int, std::string>, BankCounts>;
SharedCounts sharedCountsOf(const verify::Report& report, const ir::Program& program);

/// Fills each compared tile's accesses from the two sides' counts (null: that side has none, and
/// `whyNot` says why), pairing A's statements with B's through the script-line pairs.
void attachSharedAccesses(std::vector<SharedLayoutDiff>& tiles, const SharedCounts* a,
                          const SharedCounts* b, const std::vector<std::pair<int, int>>& linePairs,
                          const std::string& whyNot);

/// One version's generated text with the script line of each of its lines ([0] unused).
struct MappedText {
  std::vector<std::string> lines;
  std::vector<int> scriptLine;
};

/// Pairs of script lines (a, b) that the code diff compares: the script diff's equal lines, the
/// deleted and inserted lines of each change as pairChangedLines faces them, the rest alone (0 on
/// the other side), in version B's order, and last (0, 0) for generated lines no script line
/// produced.
std::vector<std::pair<int, int>> scriptLinePairs(const std::vector<LineEdit>& scriptEdits,
                                                 const std::vector<std::string>& scriptA,
                                                 const std::vector<std::string>& scriptB);

/// The generated lines of each script-line pair, compared after dropping mapping directives
/// (`#line`, `.loc`, `//##`) and blank lines and, for SASS, the `/*0040*/` address column.
CodeDiff diffCode(const std::string& language, const MappedText& a, const MappedText& b,
                  const std::vector<std::pair<int, int>>& pairs, int maxLines);

}  // namespace tirx::diff::detail
