// The one reader of PTX `.loc` line records: which script line each line of NVRTC's PTX came from.
// The source map (codegen::SourceMap::ptxToScript: the Assembly view, `tirx compile --emit map`,
// `tirx diff`'s alignment) and the toolchain's ptxas messages (a PTX line mapped back to the
// script) both call it, so they cannot disagree.
//
// Records: `.file N "NAME"` (anywhere in the text, NVRTC prints the table after the code) and
// `.loc F L C[, function_name LABEL, inlined_at F2 L2 C2]`. An instruction of an inlined body (a
// private scalar function's, ewise's) is attributed to its call site — the kernel statement that
// called it, `inlined_at`'s line — when that site is in the script; otherwise to the record's own
// line when its file is the script (docs/decisions.md, SRCMAP-1). nvdisasm's SASS line records
// follow the same rule (toolchain::parseSassLineInfo).
#pragma once

#include <string_view>
#include <vector>

namespace tirx {

/// The script line of every PTX line: index = 1-based PTX line ([0] unused, one entry per line of
/// `ptx`), value = the script line of the instruction on it, 0 for directives, comments, blank
/// lines, the `.loc` records themselves, code outside any record of the script, and code after a
/// function's closing brace. `scriptFile` is the #line name; a `.file` entry matches it by full
/// path or base name; an empty `scriptFile` matches every file. Never fails: a malformed record
/// is ignored.
std::vector<int> ptxScriptLines(std::string_view ptx, std::string_view scriptFile);

}  // namespace tirx
