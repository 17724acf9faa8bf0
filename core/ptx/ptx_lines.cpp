// ptxLineFacts: the instruction on one line of generated PTX, looked up in the table (the
// Assembly view's hover; the view itself parses nothing).
#include <cctype>

#include "core/ptx/ptx_table.h"

namespace tirx {

std::optional<PtxLineFacts> ptxLineFacts(std::string_view line) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos) return std::nullopt;
  std::string_view t = line.substr(i);
  if (t.front() == '@') {  // guard predicate: @%p1 or @!%p1
    const size_t sp = t.find_first_of(" \t");
    if (sp == std::string_view::npos) return std::nullopt;
    t = t.substr(sp);
    i = t.find_first_not_of(" \t");
    if (i == std::string_view::npos) return std::nullopt;
    t = t.substr(i);
  }
  // An instruction starts with a lower-case family name; directives start with '.', labels end
  // with ':', braces and comments are punctuation.
  if (t.front() < 'a' || t.front() > 'z') return std::nullopt;
  size_t end = 0;
  while (end < t.size() && (std::isalnum(static_cast<unsigned char>(t[end])) || t[end] == '.' ||
                            t[end] == '_' || t[end] == ':'))
    ++end;
  const std::string_view op = t.substr(0, end);
  if (op.empty() || op.back() == ':' || (end < t.size() && t[end] == ':')) return std::nullopt;
  PtxLineFacts f;
  f.opcode = std::string(op);
  f.instr = parsePtxOpcode(op);
  const std::string_view fam = op.substr(0, op.find('.'));
  for (const auto& info : ptxFamilies())
    if (info.name == fam) f.family = &info;
  return f;
}

}  // namespace tirx
