// compute-sanitizer support: locating the tool, wrapping the runner child, and the report parser.
// The report (compute-sanitizer 2025.x, `--log-file`) is a sequence of blocks separated by empty
// `=========` lines; every line starts with `=========`. The parser reads block by block:
//   race       `Error|Warning: Race reported between Write access at FN+0x.. in FILE:LINE`
//              `    and Read access at FN+0x.. in FILE:LINE [N hazards]`
//   hazard     `ERROR|WARNING: Potential WAR hazard detected at __shared__ 0x.. in block (..) :`
//              `    Write Thread (..) at 0x.. in FILE:LINE` / `    Read Thread (..) at ..` (older
//              tools)
//   access     `Invalid __global__ write of size 4 bytes` | `Misaligned …` | `Uninitialized …` |
//              `Barrier error …`, then `at FN+0x.. in FILE:LINE`, `by thread (..) in block (..)`,
//              `Address/Access to 0x.. is …`, `and is N bytes after …`
//   api        `Program hit CUDA_ERROR_X (error N) due to "…" on CUDA API call to F.`
//   summary    `ERROR SUMMARY: N errors` | `RACECHECK SUMMARY: N hazards displayed (E errors, W
//   warnings)`
// Backtrace frames and anything unrecognised are skipped; a block whose first line is a finding
// but whose location is missing is reported at the fallback span.
#include "core/driver/sanitizer.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <regex>

namespace tirx::driver {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::string baseName(std::string_view p) {
  const auto s = p.find_last_of('/');
  return std::string(s == std::string_view::npos ? p : p.substr(s + 1));
}

/// A reported source location `FILE:LINE`.
struct Loc {
  std::string file;
  int line = 0;
  bool valid() const { return line > 0; }
  std::string text() const { return file + ":" + std::to_string(line); }
};

/// `… in FILE:LINE` at the end of a line (before an optional ` [N hazards]`).
Loc locationIn(const std::string& line) {
  static const std::regex re(R"( in (\S+):(\d{1,9})(?:\s|$))");
  std::smatch m;
  Loc l;
  if (std::regex_search(line, m, re)) {
    l.file = m[1];
    l.line = std::atoi(m[2].str().c_str());
  }
  return l;
}

std::string lowerFirst(std::string s) {
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z') s[0] = char(s[0] - 'A' + 'a');
  return s;
}

/// The span of script line `line`: its text without leading and trailing blanks.
SourceSpan lineSpan(std::string_view source, int line) {
  SourceSpan sp{line, 1, 1, 0};
  if (source.empty()) return sp;
  size_t start = 0;
  for (int l = 1; l < line; ++l) {
    const size_t nl = source.find('\n', start);
    if (nl == std::string_view::npos) return sp;
    start = nl + 1;
  }
  size_t end = source.find('\n', start);
  if (end == std::string_view::npos) end = source.size();
  size_t first = start;
  while (first < end && (source[first] == ' ' || source[first] == '\t')) ++first;
  size_t last = end;
  while (last > first &&
         (source[last - 1] == ' ' || source[last - 1] == '\t' || source[last - 1] == '\r'))
    --last;
  if (first == last) return sp;
  return {line, int(first - start) + 1, int(last - first), int(first)};
}

struct Parser {
  SanitizerTool tool;
  std::string script;  // base name
  std::string_view source;
  SourceSpan fallback;
  SanitizerReport rep;

  bool inScript(const Loc& l) const { return l.valid() && baseName(l.file) == script; }
  SourceSpan spanOf(const Loc& l) const {
    return inScript(l) ? lineSpan(source, l.line) : fallback;
  }
  /// "line 27" for a script line, "kernel.cu:40" otherwise.
  std::string where(const Loc& l) const {
    if (!l.valid()) return "an unknown location";
    return inScript(l) ? "line " + std::to_string(l.line) : l.text() + " (outside the script)";
  }
  std::string suffix() const {
    return " (compute-sanitizer " + std::string(sanitizerToolName(tool)) + ")";
  }

  void add(Diagnostic d) {
    ++rep.findings;
    for (const auto& e : rep.diagnostics)
      if (e.code == d.code && e.span == d.span && e.message == d.message) return;
    rep.diagnostics.push_back(std::move(d));
  }

  void race(const std::vector<std::string>& b) {
    static const std::regex first(R"(^(Error|Warning): Race reported between (\w+) access at .*)");
    static const std::regex hazards(R"(\[(\d+) hazards?\])");
    std::smatch m;
    if (!std::regex_match(b[0], m, first)) return;
    const bool warning = m[1] == "Warning";
    const std::string kind1 = lowerFirst(m[2]);
    const Loc l1 = locationIn(b[0]);
    std::string kind2 = "other";
    Loc l2;
    std::string count;
    for (size_t i = 1; i < b.size(); ++i) {
      static const std::regex second(R"(^and (\w+) access at .*)");
      std::smatch s;
      if (std::regex_match(b[i], s, second)) {
        kind2 = lowerFirst(s[1]);
        l2 = locationIn(b[i]);
        if (std::regex_search(b[i], s, hazards)) count = s[1];
        break;
      }
    }
    emitRace(warning, kind1, l1, kind2, l2, count.empty() ? "" : count + " hazards");
  }

  /// Older racecheck: `ERROR: Potential WAR hazard detected at __shared__ 0x.. in block (..) :`.
  void hazard(const std::vector<std::string>& b) {
    static const std::regex first(
        R"(^(ERROR|WARNING): Potential (\w+) hazard detected at (\S+) \S+ in block (\([^)]*\)).*)");
    std::smatch m;
    if (!std::regex_match(b[0], m, first)) return;
    std::vector<std::pair<std::string, Loc>> acc;
    for (size_t i = 1; i < b.size() && acc.size() < 2; ++i) {
      static const std::regex access(R"(^(\w+) Thread (\([^)]*\)) at .*)");
      std::smatch s;
      if (std::regex_match(b[i], s, access))
        acc.emplace_back(lowerFirst(s[1]) + " by thread " + s[2].str(), locationIn(b[i]));
    }
    if (acc.empty()) acc.emplace_back("access", Loc{});
    if (acc.size() < 2) acc.emplace_back("other access", Loc{});
    emitRace(m[1] == "WARNING", acc[0].first, acc[0].second, acc[1].first, acc[1].second,
             m[2].str() + " hazard on " + m[3].str() + " in block " + m[4].str());
  }

  void emitRace(bool warning, const std::string& kind1, const Loc& l1, const std::string& kind2,
                const Loc& l2, const std::string& detail) {
    // Primary at the script line among the two (the first when both are), note at the other.
    const bool swap = !inScript(l1) && inScript(l2);
    const Loc& p = swap ? l2 : l1;
    const Loc& q = swap ? l1 : l2;
    const std::string& pk = swap ? kind2 : kind1;
    const std::string& qk = swap ? kind1 : kind2;
    Diagnostic d =
        warning ? makeWarning("W0955", spanOf(p), "") : makeError("E0955", spanOf(p), "");
    d.message = "data race between the " + pk + " at " + where(p) + " and the " + qk + " at " +
                where(q) + " with no barrier between them" +
                (detail.empty() ? std::string() : ", " + detail) + suffix();
    if (inScript(q))
      d.notes.push_back({lineSpan(source, q.line), "the " + qk + " that races with it"});
    add(std::move(d));
  }

  void access(const std::vector<std::string>& b) {
    const std::string& head = b[0];
    std::string code = "E0959";
    if (head.rfind("Invalid ", 0) == 0 || head.rfind("Misaligned ", 0) == 0) code = "E0956";
    if (head.rfind("Uninitialized ", 0) == 0) code = "E0957";
    if (head.rfind("Barrier error", 0) == 0) code = "E0958";
    Loc loc;
    std::string thread, detail;
    for (size_t i = 1; i < b.size(); ++i) {
      const std::string& l = b[i];
      if (l.rfind("at ", 0) == 0 && !loc.valid()) {
        loc = locationIn(l);
      } else if (l.rfind("by thread ", 0) == 0 && thread.empty()) {
        thread = l;
      } else if (l.rfind("Address ", 0) == 0 || l.rfind("Access to ", 0) == 0 ||
                 l.rfind("and is ", 0) == 0 || l.rfind("Shared ", 0) == 0 ||
                 l.rfind("Global ", 0) == 0) {
        detail += (detail.empty() ? "" : " ") + lowerFirst(l);
      }
    }
    std::string msg = lowerFirst(head);
    while (!msg.empty() && (msg.back() == '.' || msg.back() == ':')) msg.pop_back();
    if (!thread.empty()) msg += " " + thread;
    if (!inScript(loc)) msg += " at " + where(loc);
    if (!detail.empty()) msg += ": " + detail;
    while (!msg.empty() && msg.back() == '.') msg.pop_back();
    add(makeError(code, spanOf(loc), msg + suffix()));
  }

  void api(const std::string& line) {
    static const std::regex re(R"(^Program hit (\w+) \(error \d+\).* on CUDA API call to (\w+).*)");
    std::smatch m;
    ++rep.apiErrors;
    if (rep.firstApiError.empty())
      rep.firstApiError = std::regex_match(line, m, re) ? m[1].str() + " on " + m[2].str() : line;
  }

  void summaryLine(const std::string& line) {
    static const std::regex err(R"(^ERROR SUMMARY: (\d{1,9}) errors?.*)");
    static const std::regex race(
        R"(^RACECHECK SUMMARY: \d{1,9} hazards? displayed \((\d{1,9}) errors?, (\d{1,9}) warnings?\).*)");
    std::smatch m;
    if (std::regex_match(line, m, err)) {
      rep.summary = true;
      rep.errors = std::atoi(m[1].str().c_str());
    } else if (std::regex_match(line, m, race)) {
      rep.summary = true;
      rep.errors = std::atoi(m[1].str().c_str());
      rep.warnings = std::atoi(m[2].str().c_str());
    }
  }

  void block(const std::vector<std::string>& b) {
    if (b.empty()) return;
    const std::string& h = b[0];
    if (h.find("Race reported between") != std::string::npos) return race(b);
    if (h.find("hazard detected at") != std::string::npos) return hazard(b);
    if (h.rfind("Program hit ", 0) == 0) return api(h);
    if (h.rfind("Invalid ", 0) == 0 || h.rfind("Misaligned ", 0) == 0 ||
        h.rfind("Uninitialized ", 0) == 0 || h.rfind("Barrier error", 0) == 0 ||
        h.rfind("Leaked ", 0) == 0)
      return access(b);
  }
};

}  // namespace

std::string_view sanitizerToolName(SanitizerTool t) {
  switch (t) {
    case SanitizerTool::Memcheck:
      return "memcheck";
    case SanitizerTool::Racecheck:
      return "racecheck";
    case SanitizerTool::Initcheck:
      return "initcheck";
    case SanitizerTool::Synccheck:
      return "synccheck";
    case SanitizerTool::None:
      break;
  }
  return "";
}

bool parseSanitizerTool(std::string_view text, SanitizerTool& tool) {
  for (SanitizerTool t : {SanitizerTool::Memcheck, SanitizerTool::Racecheck,
                          SanitizerTool::Initcheck, SanitizerTool::Synccheck})
    if (text == sanitizerToolName(t)) {
      tool = t;
      return true;
    }
  return false;
}

std::string findComputeSanitizer(std::string_view pathEnv, std::string_view cudaHome,
                                 const std::vector<std::string>& fallbackDirs) {
  std::vector<std::string> dirs;
  size_t start = 0;
  while (start <= pathEnv.size()) {
    const size_t colon = pathEnv.find(':', start);
    const std::string_view d = pathEnv.substr(
        start, colon == std::string_view::npos ? std::string_view::npos : colon - start);
    if (!d.empty()) dirs.emplace_back(d);
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  if (!cudaHome.empty()) dirs.push_back(std::string(cudaHome) + "/bin");
  dirs.insert(dirs.end(), fallbackDirs.begin(), fallbackDirs.end());
  for (const auto& d : dirs) {
    const std::string cand = d + "/compute-sanitizer";
    if (::access(cand.c_str(), X_OK) == 0) return cand;
  }
  return {};
}

std::string findComputeSanitizer() {
  const char* path = std::getenv("PATH");
  const char* home = std::getenv("CUDA_HOME");
  return findComputeSanitizer(path ? path : "", home ? home : "", {"/usr/local/cuda/bin"});
}

int sanitizedTimeoutMs(SanitizerTool tool, int timeoutMs) {
  const long long factor = tool == SanitizerTool::Racecheck ? 20 : 10;
  const long long ms = (long long)timeoutMs * factor + 60000;
  return ms > 0x7fffffff ? 0x7fffffff : int(ms);
}

std::vector<std::string> sanitizerArgv(const std::string& sanitizer, SanitizerTool tool,
                                       const std::string& logFile, int printLimit,
                                       const std::vector<std::string>& program) {
  std::vector<std::string> v{
      sanitizer, "--tool",        std::string(sanitizerToolName(tool)), "--log-file",
      logFile,   "--print-limit", std::to_string(printLimit),           "--show-backtrace",
      "device"};
  v.insert(v.end(), program.begin(), program.end());
  return v;
}

std::string SanitizerReport::summaryText() const {
  const std::string name = "compute-sanitizer " + std::string(sanitizerToolName(tool));
  if (!header && !summary) return name + " wrote no report";
  if (!summary) return name + ": the report is truncated (no summary line)";
  auto plural = [](int n, const char* w) {
    return std::to_string(n) + " " + w + (n == 1 ? "" : "s");
  };
  if (tool == SanitizerTool::Racecheck)
    return errors == 0 && warnings == 0
               ? name + ": no hazards"
               : name + ": " + plural(errors, "error") + ", " + plural(warnings, "warning");
  if (errors == 0) return name + ": no errors";
  std::string t = name + ": " + plural(errors, "error");
  if (apiErrors > 0)
    t += " (" + plural(apiErrors, "CUDA API error") + " after the kernel was stopped)";
  return t;
}

SanitizerReport parseSanitizerReport(std::string_view text, SanitizerTool tool,
                                     std::string_view scriptFile, std::string_view source,
                                     SourceSpan fallback) {
  Parser p{tool, baseName(scriptFile), source, fallback, {}};
  p.rep.tool = tool;
  std::vector<std::string> blk;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(start, nl - start);
    start = nl + 1;
    if (line.rfind("=========", 0) != 0) continue;  // not the sanitizer's (application output)
    line.remove_prefix(line.find_first_not_of('=') == std::string_view::npos
                           ? line.size()
                           : line.find_first_not_of('='));
    const std::string_view t = trim(line);
    if (t == "COMPUTE-SANITIZER") {
      p.rep.header = true;
      continue;
    }
    if (t.empty()) {
      p.block(blk);
      blk.clear();
      continue;
    }
    if (t.rfind("ERROR SUMMARY:", 0) == 0 || t.rfind("RACECHECK SUMMARY:", 0) == 0) {
      p.block(blk);
      blk.clear();
      p.summaryLine(std::string(t));
      continue;
    }
    // A block is a few lines; backtraces are skipped anyway. Long lines are cut (std::regex
    // recurses per character).
    if (blk.size() < 64) blk.emplace_back(t.substr(0, 1024));
  }
  p.block(blk);
  return p.rep;
}

}  // namespace tirx::driver
