// A script's one-line summary: the first sentence of its leading comment block (the header every
// bundled example opens with). The studio's Examples menu and `tirx` listings show it; keeping the
// rule here means no view parses a script's text for it.
#pragma once

#include <string>
#include <string_view>

namespace tirx {

/// The first sentence of the comment lines at the top of `source` (after blank lines and a
/// `#!` line): the lines' text after "# " joined with spaces, cut after the first '.' followed by
/// a space or the end that is not inside parentheses, or at a ':' that ends a comment line.
/// Longer than `maxChars` bytes: cut at a word boundary with "…". Empty when the script does not
/// open with a comment.
std::string scriptSummary(std::string_view source, size_t maxChars = 160);

}  // namespace tirx
