// What the checker accepts under `T.`, published for editors: every builtin name with its call
// signature and a one-line description (completion lists, call tips, hovers). The names are the
// checker's own list (`knownBuiltinNames`, also its "did you mean" candidates); a unit test keeps
// the two in step, so a builtin added to sema without a description fails CI.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tirx {

struct BuiltinDoc {
  std::string name;       ///< dotted path as written in a script: "T.cuda.tile.apply"
  std::string signature;  ///< "T.cuda.tile.apply(instruction, dst, *srcs, scope=, pred=, ...)"
  std::string doc;        ///< one line, lower-case start, no trailing period
};

/// Every builtin sema knows, sorted by name. Never empty.
const std::vector<BuiltinDoc>& builtinDocs();
/// The entry named `name` ("T.exp"), or null.
const BuiltinDoc* findBuiltinDoc(std::string_view name);
/// The dotted builtin names sema accepts (its "did you mean" list), unsorted.
const std::vector<std::string>& knownBuiltinNames();

}  // namespace tirx
