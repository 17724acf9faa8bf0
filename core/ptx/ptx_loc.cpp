// ptxScriptLines: two passes over the PTX text (the `.file` table, then the `.loc` records in
// force per line), rules in ptx_loc.h. Hand-written scanning, no regex: numbers are bounded, so a
// corrupted record gives 0, never an exception.
#include "core/ptx/ptx_loc.h"

#include <set>

namespace tirx {
namespace {

std::string_view baseName(std::string_view p) {
  const size_t s = p.find_last_of('/');
  return s == std::string_view::npos ? p : p.substr(s + 1);
}

std::string_view trimLeft(std::string_view s) {
  const size_t i = s.find_first_not_of(" \t");
  return i == std::string_view::npos ? std::string_view{} : s.substr(i);
}

/// A decimal number at the front of `s` (after blanks), consumed; -1 when there is none or it is
/// over 2^30.
int takeNumber(std::string_view& s) {
  s = trimLeft(s);
  long v = 0;
  size_t i = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i)
    if ((v = v * 10 + (s[i] - '0')) > (1L << 30)) return -1;
  if (i == 0) return -1;
  s.remove_prefix(i);
  return int(v);
}

/// `.file N "NAME"` → N when NAME is the script, else -1.
int scriptFileNumber(std::string_view line, std::string_view want, std::string_view wantBase) {
  line = trimLeft(line);
  if (line.rfind(".file", 0) != 0) return -1;
  line.remove_prefix(5);
  const int n = takeNumber(line);
  line = trimLeft(line);
  if (n < 0 || line.empty() || line.front() != '"') return -1;
  const size_t close = line.find('"', 1);
  if (close == std::string_view::npos) return -1;
  const std::string_view name = line.substr(1, close - 1);
  return want.empty() || name == want || baseName(name) == wantBase ? n : -1;
}

/// The script line a `.loc` record names (rules in ptx_loc.h); nullopt-like -1 when `line` is
/// not a `.loc` record.
int locScriptLine(std::string_view line, const std::set<int>& scriptFiles) {
  line = trimLeft(line);
  if (line.rfind(".loc", 0) != 0 || line.size() < 5 || (line[4] != ' ' && line[4] != '\t'))
    return -1;
  line.remove_prefix(4);
  const int file = takeNumber(line), at = takeNumber(line);
  if (file < 0 || at < 0) return 0;
  int scriptLine = scriptFiles.count(file) ? at : 0;
  if (const size_t p = line.find("inlined_at"); p != std::string_view::npos) {
    std::string_view rest = line.substr(p + 10);
    const int siteFile = takeNumber(rest), siteLine = takeNumber(rest);
    if (siteFile >= 0 && siteLine > 0 && scriptFiles.count(siteFile)) scriptLine = siteLine;
  }
  return scriptLine;
}

bool isCode(std::string_view line) {
  const std::string_view t = trimLeft(line);
  return !t.empty() && t.rfind("//", 0) != 0;
}

}  // namespace

std::vector<int> ptxScriptLines(std::string_view ptx, std::string_view scriptFile) {
  const std::string_view wantBase = baseName(scriptFile);
  std::vector<std::string_view> lines;
  for (size_t start = 0; start < ptx.size();) {
    size_t end = ptx.find('\n', start);
    if (end == std::string_view::npos) end = ptx.size();
    std::string_view l = ptx.substr(start, end - start);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    lines.push_back(l);
    start = end + 1;
  }
  std::set<int> scriptFiles;
  for (std::string_view l : lines)
    if (const int n = scriptFileNumber(l, scriptFile, wantBase); n >= 0) scriptFiles.insert(n);
  std::vector<int> out(1, 0);
  out.reserve(lines.size() + 1);
  int current = 0;
  for (std::string_view l : lines) {
    if (const int loc = locScriptLine(l, scriptFiles); loc >= 0) {
      current = loc;
      out.push_back(0);  // the record itself
      continue;
    }
    // A function ends at its closing brace in column 0; a new one starts without a record.
    if (l.rfind('}', 0) == 0 || l.find(".entry") != std::string_view::npos ||
        l.find(".func") != std::string_view::npos)
      current = 0;
    out.push_back(isCode(l) ? current : 0);
  }
  return out;
}

}  // namespace tirx
