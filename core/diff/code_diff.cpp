// The generated-code sections of a version diff (CUDA C++, PTX, SASS), aligned by script line:
// each version's lines are bucketed by the script line that produced them (its own line map), the
// script diff pairs the script lines of the two versions, and the buckets of each pair are diffed
// (line_diff.h). Mapping directives and addresses are left out of the comparison so that a line
// inserted above does not make every `.loc` or SASS address differ, and PTX virtual registers are
// compared by order of first use so that a renumbering alone is no change. Also the SASS line map,
// read from nvdisasm's `-g` comments.
#include <algorithm>
#include <cctype>
#include <map>

#include "core/diff/diff_internal.h"

namespace tirx::diff {

namespace {

std::string baseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

}  // namespace

std::vector<int> sassLineToScriptLine(const std::string& sass, const std::string& scriptFile) {
  const std::vector<std::string> lines = splitLines(sass);
  std::vector<int> out(lines.size() + 1, 0);
  const std::string want = baseName(scriptFile);
  int current = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string_view l = trim(lines[i]);
    if (l.rfind("//## File \"", 0) == 0) {
      // //## File "/path/x.py", line 14[ inlined at "/path/x.py", line 20]
      const size_t q = l.find('"', 11);
      const size_t at = q == std::string_view::npos ? q : l.find(", line ", q);
      current = 0;
      if (at != std::string_view::npos && baseName(std::string(l.substr(11, q - 11))) == want) {
        int n = 0;
        for (size_t p = at + 7; p < l.size() && l[p] >= '0' && l[p] <= '9' && n < 100'000'000; ++p)
          n = n * 10 + (l[p] - '0');
        current = n;
      }
      continue;
    }
    if (l.rfind(".text.", 0) == 0 || l.rfind("//-----", 0) == 0) current = 0;  // a new function
    if (l.rfind("/*", 0) == 0) out[i + 1] = current;                           // an instruction
  }
  return out;
}

namespace detail {

std::vector<std::pair<int, int>> scriptLinePairs(const std::vector<LineEdit>& edits,
                                                 const std::vector<std::string>& scriptA,
                                                 const std::vector<std::string>& scriptB) {
  std::vector<std::pair<int, int>> out;
  for (size_t i = 0; i < edits.size();) {
    if (edits[i].kind == EditKind::Equal) {
      out.emplace_back(edits[i].a, edits[i].b);
      ++i;
      continue;
    }
    std::vector<int> del, ins;
    std::vector<std::string> delText, insText;
    for (; i < edits.size() && edits[i].kind != EditKind::Equal; ++i) {
      if (edits[i].kind == EditKind::Delete) {
        del.push_back(edits[i].a);
        delText.push_back(scriptA[size_t(edits[i].a - 1)]);
      } else {
        ins.push_back(edits[i].b);
        insText.push_back(scriptB[size_t(edits[i].b - 1)]);
      }
    }
    for (const auto& [d, n] : pairChangedLines(delText, insText))
      out.emplace_back(d < 0 ? 0 : del[size_t(d)], n < 0 ? 0 : ins[size_t(n)]);
  }
  out.emplace_back(0, 0);  // the generated lines (declarations, prologue) after the script's
  return out;
}

namespace {

/// The comparison key of a generated line; empty for lines left out (directives, blank lines).
std::string keyOf(const std::string& language, const std::string& line) {
  std::string_view l = trim(line);
  if (l.empty()) return {};
  if (language == "cuda" && l.rfind("#line", 0) == 0) return {};
  if (language == "ptx" && (l.rfind(".loc", 0) == 0 || l.rfind(".file", 0) == 0)) return {};
  if (language == "sass") {
    if (l.rfind("//##", 0) == 0) return {};
    if (l.rfind("/*", 0) ==
        0) {  // "/*0040*/  FFMA R4, ..." — the address moves with every insertion
      const size_t end = l.find("*/");
      if (end != std::string_view::npos) l = trim(l.substr(end + 2));
    }
  }
  return std::string(l);
}

/// PTX virtual registers (`%f17`, `%rd5`) renamed by order of first use within the group
/// (`%f#0`, `%rd#0`), so that code which only shifted the numbering compares equal. Special
/// registers (`%tid.x`) and other languages are unchanged.
std::string renumber(const std::string& language, const std::string& key,
                     std::map<std::string, int>& names) {
  if (language != "ptx") return key;
  std::string out;
  out.reserve(key.size());
  for (size_t i = 0; i < key.size();) {
    size_t j = i + 1;
    if (key[i] == '%') {
      while (j < key.size() && key[j] >= 'a' && key[j] <= 'z') ++j;
      const size_t letters = j;
      while (j < key.size() && key[j] >= '0' && key[j] <= '9') ++j;
      const bool ident = j < key.size() && (key[j] == '_' || key[j] == '.' ||
                                            std::isalpha(static_cast<unsigned char>(key[j])));
      if (letters > i + 1 && j > letters && !ident) {
        const std::string name = key.substr(i, j - i);
        const std::string cls = key.substr(i, letters - i);
        const auto it = names.emplace(name, int(names.size())).first;
        out += cls + "#" + std::to_string(it->second);
        i = j;
        continue;
      }
      j = i + 1;
    }
    out += key[i];
    i = j;
  }
  return out;
}

/// Script line → the (1-based) generated lines it produced that take part in the comparison.
std::map<int, std::vector<int>> bucket(const std::string& language, const MappedText& t) {
  std::map<int, std::vector<int>> out;
  for (size_t i = 0; i < t.lines.size(); ++i) {
    if (keyOf(language, t.lines[i]).empty()) continue;
    const int s = i + 1 < t.scriptLine.size() ? t.scriptLine[i + 1] : 0;
    out[s].push_back(int(i) + 1);
  }
  return out;
}

}  // namespace

CodeDiff diffCode(const std::string& language, const MappedText& a, const MappedText& b,
                  const std::vector<std::pair<int, int>>& pairs, int maxLines) {
  CodeDiff d;
  d.language = language;
  d.available = true;
  const auto ba = bucket(language, a), bb = bucket(language, b);
  static const std::vector<int> kNone;
  auto linesOf = [](const std::map<int, std::vector<int>>& m, int s,
                    bool present) -> const std::vector<int>& {
    if (!present) return kNone;
    const auto it = m.find(s);
    return it == m.end() ? kNone : it->second;
  };
  int listed = 0;
  for (const auto& [sa, sb] : pairs) {
    const bool unmapped = sa == 0 && sb == 0;
    CodeGroup g;
    g.scriptA = sa;
    g.scriptB = sb;
    g.linesA = linesOf(ba, sa, sa > 0 || unmapped);
    g.linesB = linesOf(bb, sb, sb > 0 || unmapped);
    std::vector<std::string> ka, kb;
    std::map<std::string, int> namesA, namesB;
    for (int n : g.linesA)
      ka.push_back(renumber(language, keyOf(language, a.lines[size_t(n - 1)]), namesA));
    for (int n : g.linesB)
      kb.push_back(renumber(language, keyOf(language, b.lines[size_t(n - 1)]), namesB));
    g.edits = diffLines(ka, kb);
    const EditCounts c = countEdits(g.edits);
    if (c.deleted + c.inserted == 0) continue;
    d.removed += c.deleted;
    d.added += c.inserted;
    ++d.changedScriptLines;
    if (listed >= maxLines) {
      d.truncated = true;
      continue;
    }
    listed += c.deleted + c.inserted;
    for (int n : g.linesA) g.textA.push_back(a.lines[size_t(n - 1)]);
    for (int n : g.linesB) g.textB.push_back(b.lines[size_t(n - 1)]);
    d.groups.push_back(std::move(g));
  }
  return d;
}

}  // namespace detail

}  // namespace tirx::diff
