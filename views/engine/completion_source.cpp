// Completion lists from builtinDocs() and ptxCompletions(); the caret context helpers.
#include "views/engine/completion_source.h"

#include <algorithm>
#include <cctype>

#include "core/ptx/ptx_table.h"
#include "core/sema/builtin_docs.h"

namespace tirx::views {

namespace {

bool identChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

void finish(CompletionList& list) {
  std::sort(list.items.begin(), list.items.end(),
            [](const CompletionItem& a, const CompletionItem& b) { return a.text < b.text; });
  list.items.erase(std::unique(list.items.begin(), list.items.end(),
                               [](const CompletionItem& a, const CompletionItem& b) {
                                 return a.text == b.text;
                               }),
                   list.items.end());
}

// The thread axes a layout names (`from tvm.backend.cuda.axis import laneid`).
constexpr const char* kAxes[] = {"laneid", "warpid", "tx", "wgid", "tid_in_wg", "wid_in_wg",
                                 "bx",     "by",     "bz", "cbx",  "cby",       "cbz"};

}  // namespace

CompletionList completeCode(std::string_view dotted, int minWord) {
  CompletionList out;
  const size_t lastDot = dotted.rfind('.');
  const std::string_view partial =
      lastDot == std::string_view::npos ? dotted : dotted.substr(lastDot + 1);
  out.replaceLength = static_cast<int>(partial.size());
  if (lastDot == std::string_view::npos) {
    if (static_cast<int>(partial.size()) < minWord) return out;
    for (const char* axis : kAxes)
      if (std::string_view(axis).substr(0, partial.size()) == partial)
        out.items.push_back(
            {axis, "thread axis",
             "import it with `from tvm.backend.cuda.axis import " + std::string(axis) + "`"});
    finish(out);
    return out;
  }
  const std::string_view head = dotted.substr(0, lastDot + 1);  // "T.cuda."
  for (const BuiltinDoc& d : builtinDocs()) {
    if (d.name.size() <= head.size() || d.name.compare(0, head.size(), head) != 0) continue;
    const size_t end = d.name.find('.', head.size());
    const std::string segment = d.name.substr(
        head.size(), end == std::string::npos ? std::string::npos : end - head.size());
    if (segment.compare(0, partial.size(), partial) != 0) continue;
    if (end == std::string::npos)
      out.items.push_back({segment, d.signature, d.doc});
    else
      out.items.push_back({segment, d.name.substr(0, end) + ".…", "namespace"});
  }
  // a name that is both a builtin and a namespace (T.ptx, T.ptx.cp…): keep the builtin's entry
  std::stable_sort(
      out.items.begin(), out.items.end(), [](const CompletionItem& a, const CompletionItem& b) {
        return a.text != b.text ? a.text < b.text : (a.doc != "namespace") > (b.doc != "namespace");
      });
  out.items.erase(std::unique(out.items.begin(), out.items.end(),
                              [](const CompletionItem& a, const CompletionItem& b) {
                                return a.text == b.text;
                              }),
                  out.items.end());
  return out;
}

CompletionList completePtx(std::string_view typed) {
  CompletionList out;
  for (const PtxTokenInfo& t : ptxCompletions(typed)) {
    out.replaceLength = static_cast<int>(typed.size()) - t.column;
    out.items.push_back({t.text, t.text, t.description});
  }
  finish(out);
  return out;
}

std::string callTipFor(std::string_view dotted) {
  const BuiltinDoc* d = findBuiltinDoc(dotted);
  return d ? d->signature + "\n" + d->doc : std::string();
}

std::string dottedBefore(std::string_view line, int caret) {
  int start = std::clamp(caret, 0, static_cast<int>(line.size()));
  while (start > 0 && (identChar(line[size_t(start - 1)]) || line[size_t(start - 1)] == '.'))
    --start;
  return std::string(
      line.substr(size_t(start), size_t(std::clamp(caret, 0, int(line.size())) - start)));
}

bool ptxStringBefore(std::string_view line, int caret, std::string* typed) {
  const std::string_view before = line.substr(0, size_t(std::clamp(caret, 0, int(line.size()))));
  for (const char quote : {'"', '\''}) {
    const std::string open = std::string("T.ptx[") + quote;
    const size_t at = before.rfind(open);
    if (at == std::string_view::npos) continue;
    const std::string_view inside = before.substr(at + open.size());
    if (inside.find(quote) != std::string_view::npos) continue;  // that string is closed
    *typed = std::string(inside);
    return true;
  }
  return false;
}

}  // namespace tirx::views
