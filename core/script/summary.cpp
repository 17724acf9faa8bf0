// scriptSummary: leading comment block -> first sentence.
#include "core/script/summary.h"

namespace tirx {

std::string scriptSummary(std::string_view source, size_t maxChars) {
  std::string joined;
  bool started = false;
  size_t pos = 0;
  while (pos < source.size()) {
    size_t end = source.find('\n', pos);
    if (end == std::string_view::npos) end = source.size();
    std::string_view line = source.substr(pos, end - pos);
    pos = end + 1;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
      line.remove_suffix(1);
    size_t lead = line.find_first_not_of(" \t");
    if (lead == std::string_view::npos) {
      if (started) break;  // a blank line ends the header
      continue;
    }
    line.remove_prefix(lead);
    if (!started && line.substr(0, 2) == "#!") continue;
    if (line.empty() || line[0] != '#') break;
    line.remove_prefix(1);
    while (!line.empty() && line[0] == ' ') line.remove_prefix(1);
    if (line.empty()) {
      if (started) break;  // an empty comment line ends the first paragraph
      continue;
    }
    started = true;
    if (!joined.empty()) joined += ' ';
    joined += line;
    joined += '\n';  // marks the line end for the ':' rule; removed below
  }
  // the first sentence
  std::string out;
  int depth = 0;
  for (size_t i = 0; i < joined.size(); ++i) {
    const char c = joined[i];
    if (c == '\n') {
      if (!out.empty() && out.back() == ':' && depth == 0) {
        out.pop_back();
        break;
      }
      continue;
    }
    if (c == '(') ++depth;
    if (c == ')' && depth > 0) --depth;
    out += c;
    const bool atEnd = i + 1 >= joined.size() || joined[i + 1] == ' ' || joined[i + 1] == '\n';
    if (c == '.' && depth == 0 && atEnd) break;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  if (out.size() > maxChars) {
    size_t cut = out.rfind(' ', maxChars - 3);
    if (cut == std::string::npos || cut == 0) cut = maxChars - 3;
    // never cut inside a UTF-8 sequence
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
    // never leave a parenthesis open: cut before the last unmatched '('
    size_t open = std::string::npos;
    int level = 0;
    for (size_t i = 0; i < cut; ++i) {
      if (out[i] == '(' && level++ == 0) open = i;
      if (out[i] == ')' && level > 0) --level;
    }
    if (level > 0 && open != std::string::npos && open > 0) cut = open;
    out = out.substr(0, cut);
    while (!out.empty() && (out.back() == ' ' || out.back() == ',' || out.back() == ';'))
      out.pop_back();
    out += "…";
  }
  return out;
}

}  // namespace tirx
