// What the editor offers to complete, from the engine's own tables (Qt-free, unit-testable): in
// code, the next segment of a `T.` path from core/sema's builtinDocs() (each with its signature
// and description) and the thread-axis names; inside a `T.ptx["…"]` string, the next opcode token
// from core/ptx's ptxCompletions() (each with the table's description). Call tips are the
// builtin's signature. Nothing is completed inside comments or other strings: the editor asks
// only in those contexts (the lexer's style at the caret decides).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tirx::views {

struct CompletionItem {
  std::string text;    ///< what is inserted (replacing the partial word)
  std::string detail;  ///< signature ("T.exp2(x)") or PTX token; may be empty
  std::string doc;     ///< one line
};

struct CompletionList {
  int replaceLength = 0;              ///< bytes before the caret that the chosen item replaces
  std::vector<CompletionItem> items;  ///< sorted by text, unique
};

/// Completions for `dotted`, the identifier-and-dot run before the caret in code ("T.cuda.ti",
/// "T.", "lan"). A bare word shorter than `minWord` bytes gives nothing.
CompletionList completeCode(std::string_view dotted, int minWord = 2);
/// Completions inside a `T.ptx["…"]` string, `typed` being the opcode typed so far ("ld.glo").
CompletionList completePtx(std::string_view typed);
/// The call tip for a call of `dotted` ("T.alloc_shared"): signature, newline, description;
/// empty when it is not a builtin.
std::string callTipFor(std::string_view dotted);

/// The dotted run ending at byte `caret` of `line` (identifier characters and dots).
std::string dottedBefore(std::string_view line, int caret);
/// When byte `caret` of `line` is inside the string of `T.ptx["` (or `T.ptx['`), the text
/// typed after the quote; otherwise false.
bool ptxStringBefore(std::string_view line, int caret, std::string* typed);

}  // namespace tirx::views
