// The sections of a version diff, one function each (version_diff.cpp calls them in order).
// Private to core/diff.
#pragma once

#include <string>
#include <vector>

#include "core/codegen/codegen.h"
#include "core/diff/version_diff.h"
#include "core/ir/ir.h"

namespace tirx::diff::detail {

/// Every local buffer of every kernel present in both programs (by kernel and buffer name), and
/// those present in one only.
std::vector<LayoutDiff> diffLayouts(const ir::Program& a, const ir::Program& b, int maxCells);

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
