// Layout of a DiffReport into the Diff dock's rows: each run of edits between equal lines becomes
// one row per pair of core/diff's pairChangedLines (an edited line facing its edit, a new or
// removed line facing a blank).
#include "views/engine/diff_rows.h"

#include <cstdio>

namespace tirx::views {

namespace {

using diff::LineEdit;

/// Append the aligned rows of `edits` over the texts `a`/`b` (1-based positions), with the line
/// numbers `noA`/`noB` (position → shown number; empty: the positions themselves).
void appendEdits(const std::vector<LineEdit>& edits, const std::vector<std::string>& a,
                 const std::vector<std::string>& b, const std::vector<int>& noA,
                 const std::vector<int>& noB, bool changesOnly, std::vector<DiffRow>& rows) {
  auto numA = [&](int p) { return noA.empty() ? p : noA[size_t(p - 1)]; };
  auto numB = [&](int p) { return noB.empty() ? p : noB[size_t(p - 1)]; };
  for (const diff::AlignedLine& l : diff::alignEdits(edits, a, b)) {
    if (l.equal && changesOnly) continue;
    DiffRow r;
    r.kind = l.equal              ? DiffRow::Kind::Equal
             : l.a > 0 && l.b > 0 ? DiffRow::Kind::Changed
             : l.a > 0            ? DiffRow::Kind::Deleted
                                  : DiffRow::Kind::Inserted;
    if (l.a > 0) r.left = a[size_t(l.a - 1)], r.leftNo = numA(l.a);
    if (l.b > 0) r.right = b[size_t(l.b - 1)], r.rightNo = numB(l.b);
    rows.push_back(std::move(r));
  }
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

/// "+2.38e-07", "-0.4 ms"; empty when equal (as printed).
std::string signedDelta(double a, double b, const char* unit) {
  char buf[40];
  if (*unit)
    std::snprintf(buf, sizeof buf, "%+.1f%s", b - a, unit);
  else
    std::snprintf(buf, sizeof buf, "%+.3g", b - a);
  const std::string t = buf;
  return t == "+0" || t == "-0" || t == "+0.0 ms" || t == "-0.0 ms" ? "" : t;
}

std::string msText(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", v);
  return buf;
}

void intRow(std::vector<DiffTableRow>& t, const std::string& what, int a, int b) {
  t.push_back({what, std::to_string(a), std::to_string(b),
               a == b ? "" : (b > a ? "+" : "") + std::to_string(b - a), a != b});
}

std::string lineRef(int a, int b) {
  if (a == 0 && b == 0) return "generated (no script line)";
  if (a == b) return "script line " + std::to_string(a);
  return "script line " + (a ? std::to_string(a) : std::string("-")) + " → " +
         (b ? std::to_string(b) : std::string("-"));
}

void codeRows(const diff::CodeDiff& c, DiffViewData& d) {
  d.sections.push_back({c.language, int(d.rows.size())});
  std::string title = c.language == "cuda" ? "CUDA C++" : c.language == "ptx" ? "PTX" : "SASS";
  if (!c.available) {
    d.rows.push_back({DiffRow::Kind::Header, title + ": " + c.note, title + ": " + c.note});
    return;
  }
  const std::string head =
      title + ": +" + std::to_string(c.added) + " −" + std::to_string(c.removed) + " lines";
  d.rows.push_back({DiffRow::Kind::Header, head, head});
  for (const diff::CodeGroup& g : c.groups) {
    d.rows.push_back(
        {DiffRow::Kind::Header, lineRef(g.scriptA, g.scriptB), lineRef(g.scriptA, g.scriptB)});
    appendEdits(g.edits, g.textA, g.textB, g.linesA, g.linesB, false, d.rows);
  }
  if (c.truncated)
    d.rows.push_back(
        {DiffRow::Kind::Header, "… further changes left out", "… further changes left out"});
}

std::string summaryOfCode(const diff::CodeDiff& c) {
  const std::string name = c.language == "cuda" ? "CUDA" : c.language == "ptx" ? "PTX" : "SASS";
  if (!c.available) return name + ": " + c.note;
  if (c.added + c.removed == 0) return name + ": identical";
  return name + ": +" + std::to_string(c.added) + " −" + std::to_string(c.removed) + " lines in " +
         std::to_string(c.changedScriptLines) + " script lines";
}

std::string summaryOfShared(const diff::DiffReport& r) {
  if (!r.a.checked || !r.b.checked) return "shared tiles: not compared (a version has errors)";
  int64_t moved = 0, bankMoved = 0;
  int changed = 0;
  for (const diff::SharedLayoutDiff& l : r.shared) {
    moved += l.moved;
    bankMoved += l.bankMoved;
    changed += l.changed() ? 1 : 0;
  }
  if (r.shared.empty()) return "shared tiles: none in either version";
  return "shared tiles: " + std::to_string(r.shared.size()) + " shared tiles, " +
         std::to_string(changed) + " changed, " + std::to_string(moved) + " elements moved (" +
         std::to_string(bankMoved) + " to another bank)";
}

std::string countsText(const diff::BankCounts& c) {
  return std::to_string(c.maxWays) + "-way, " + std::to_string(c.wavefronts) + " wavefronts";
}

/// One row per shared-memory statement of each compared shared tile: worst conflict and
/// wavefronts in A and in B.
void bankRows(const diff::DiffReport& r, std::vector<DiffTableRow>& t) {
  for (const diff::SharedLayoutDiff& l : r.shared) {
    if (!l.accessesCounted) continue;
    for (const diff::SharedAccessDelta& x : l.accesses) {
      const int line = x.inB ? x.lineB : x.lineA;
      const std::string what =
          l.buffer + " line " + std::to_string(line) + " " + (x.inB ? x.opB : x.opA);
      std::string delta;
      if (x.inA && x.inB && x.a.wavefronts != x.b.wavefronts)
        delta = (x.b.wavefronts > x.a.wavefronts ? "+" : "") +
                std::to_string(x.b.wavefronts - x.a.wavefronts) + " wavefronts";
      t.push_back(
          {what, x.inA ? countsText(x.a) : "-", x.inB ? countsText(x.b) : "-", delta, x.changed()});
    }
  }
}

}  // namespace

DiffViewData layOutDiff(diff::DiffReport report) {
  DiffViewData d;
  d.ok = true;
  const diff::DiffReport& r = report;
  // Script: every line, aligned.
  d.sections.push_back({"script", 0});
  const diff::EditCounts sc = diff::countEdits(r.scriptEdits);
  d.rows.push_back({DiffRow::Kind::Header, "A: " + r.a.label, "B: " + r.b.label});
  appendEdits(r.scriptEdits, r.scriptA, r.scriptB, {}, {}, false, d.rows);
  codeRows(r.cuda, d);
  codeRows(r.ptx, d);
  codeRows(r.sass, d);

  d.summary.push_back(sc.deleted + sc.inserted == 0
                          ? "script: identical"
                          : "script: +" + std::to_string(sc.inserted) + " −" +
                                std::to_string(sc.deleted) + " lines");
  int64_t moved = 0;
  int changedTiles = 0;
  for (const diff::LayoutDiff& l : r.layouts) {
    moved += l.moved;
    changedTiles += l.status != diff::LayoutDiff::Status::Compared || l.moved > 0 ? 1 : 0;
  }
  d.summary.push_back(!r.a.checked || !r.b.checked
                          ? std::string("layouts: not compared (a version has errors)")
                          : "layouts: " + std::to_string(r.layouts.size()) + " register tiles, " +
                                std::to_string(changedTiles) + " changed, " +
                                std::to_string(moved) + " cells moved");
  d.summary.push_back(summaryOfShared(r));
  for (const diff::CodeDiff* c : {&r.cuda, &r.ptx, &r.sass}) d.summary.push_back(summaryOfCode(*c));
  auto resultText = [](const diff::ResultSide& s) {
    if (!s.ran) return s.source + (s.firstProblem.empty() ? "" : " (" + s.firstProblem + ")");
    return std::string(s.passed ? "passed" : "FAILED") + " " + std::to_string(s.checks - s.failed) +
           "/" + std::to_string(s.checks) + ", max abs " + num(s.maxAbs) + " (" + s.source + ")";
  };
  d.summary.push_back("results: A " + resultText(r.resultA) + " · B " + resultText(r.resultB));

  for (const diff::ResourceDelta& x : r.resources) {
    const std::string k = r.resources.size() > 1 ? x.kernel + ": " : "";
    if (!x.inA || !x.inB) {
      d.table.push_back({k + "kernel", x.inA ? "present" : "-", x.inB ? "present" : "-", "", true});
      continue;
    }
    intRow(d.table, k + "registers", x.a.registers, x.b.registers);
    intRow(d.table, k + "spill stores", x.a.spillStores, x.b.spillStores);
    intRow(d.table, k + "spill loads", x.a.spillLoads, x.b.spillLoads);
    intRow(d.table, k + "shared bytes", x.a.sharedBytes, x.b.sharedBytes);
    intRow(d.table, k + "stack bytes", x.a.stackBytes, x.b.stackBytes);
  }
  bankRows(r, d.table);
  d.table.push_back({"ran on", r.timingA.device.empty() ? "-" : r.timingA.device,
                     r.timingB.device.empty() ? "-" : r.timingB.device, "",
                     r.timingA.device != r.timingB.device});
  if (r.resultA.ran || r.resultB.ran) {
    auto pass = [](const diff::ResultSide& s) {
      return s.ran ? std::string(s.passed ? "pass" : "FAIL") : "-";
    };
    const bool both = r.resultA.ran && r.resultB.ran;
    d.table.push_back({"result", pass(r.resultA), pass(r.resultB),
                       both && r.resultA.passed != r.resultB.passed
                           ? (r.resultB.passed ? "now passes" : "now fails")
                           : "",
                       r.resultA.passed != r.resultB.passed});
    d.table.push_back({"max abs error", num(r.resultA.maxAbs), num(r.resultB.maxAbs),
                       both ? signedDelta(r.resultA.maxAbs, r.resultB.maxAbs, "") : "",
                       r.resultA.maxAbs != r.resultB.maxAbs});
    d.table.push_back({"max rel error", num(r.resultA.maxRel), num(r.resultB.maxRel),
                       both ? signedDelta(r.resultA.maxRel, r.resultB.maxRel, "") : "",
                       r.resultA.maxRel != r.resultB.maxRel});
    intRow(d.table, "faults", r.resultA.faults, r.resultB.faults);
    d.table.push_back({"kernel runs", msText(r.timingA.runMs), msText(r.timingB.runMs),
                       signedDelta(r.timingA.runMs, r.timingB.runMs, " ms"), false});
    d.table.push_back({"verify", msText(r.timingA.verifyMs), msText(r.timingB.verifyMs),
                       signedDelta(r.timingA.verifyMs, r.timingB.verifyMs, " ms"), false});
  }
  d.table.push_back({"compile", msText(r.timingA.compileMs), msText(r.timingB.compileMs),
                     signedDelta(r.timingA.compileMs, r.timingB.compileMs, " ms"), false});
  for (const DiffRow& row : d.rows) {
    for (const bool left : {true, false}) {
      std::string& out = left ? d.leftText : d.rightText;
      const int no = left ? row.leftNo : row.rightNo;
      const std::string& text = left ? row.left : row.right;
      if (row.kind == DiffRow::Kind::Header) {
        out += "── " + text + "\n";
        continue;
      }
      char gutter[16] = "      ";
      if (no > 0) std::snprintf(gutter, sizeof gutter, "%5d ", no);
      out += std::string(gutter) + text + "\n";
    }
  }
  d.report = std::move(report);
  return d;
}

}  // namespace tirx::views
