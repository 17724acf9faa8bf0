// The text and JSON forms of a DiffReport (`tirx diff`, `tirx diff --json`; docs/cli.md). The text
// is sections headed `== name`, each saying first what changed in one line, then the details; the
// JSON carries the same values with the schema documented in docs/cli.md.
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/diff/version_diff.h"

namespace tirx::diff {

namespace {

using json = nlohmann::ordered_json;

std::string num(double v) {
  if (std::isnan(v)) return "nan";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string ms(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", v);
  return buf;
}

std::string coordText(const std::vector<int64_t>& c) {
  std::string t = "(";
  for (size_t i = 0; i < c.size(); ++i) t += (i ? ", " : "") + std::to_string(c[i]);
  return t + (c.size() == 1 ? ",)" : ")");
}

std::string plural(int64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string lineRef(int a, int b) {
  if (a == 0 && b == 0) return "generated (no script line)";
  if (a == b) return "line " + std::to_string(a);
  return "line " + (a ? std::to_string(a) : std::string("-")) + " -> " +
         (b ? std::to_string(b) : std::string("-"));
}

const char* statusName(LayoutDiff::Status s) {
  switch (s) {
    case LayoutDiff::Status::Compared:
      return "compared";
    case LayoutDiff::Status::OnlyA:
      return "only-a";
    case LayoutDiff::Status::OnlyB:
      return "only-b";
    case LayoutDiff::Status::ShapeChanged:
      return "shape-changed";
    case LayoutDiff::Status::NotTabulated:
      return "not-tabulated";
  }
  return "compared";
}

void sideText(std::ostream& out, const char* tag, const SideInfo& s) {
  out << tag << ": " << s.label << (s.kind == "buffer" ? " (editor buffer)" : "");
  if (!s.checked)
    out << " — has errors";
  else if (!s.compiled)
    out << " — not compiled" << (s.compileStatus.empty() ? "" : ": " + s.compileStatus);
  out << "\n";
  int shown = 0;
  for (const Diagnostic& d : s.errors) {
    if (shown++ == 5) {
      out << "  … " << s.errors.size() - 5 << " more\n";
      break;
    }
    out << "  " << d.span.line << ":" << d.span.col << ": error: " << d.message << " [" << d.code
        << "]\n";
  }
}

void scriptText(std::ostream& out, const DiffReport& r) {
  const EditCounts c = countEdits(r.scriptEdits);
  out << "== script: "
      << (c.deleted + c.inserted == 0
              ? "identical"
              : "+" + std::to_string(c.inserted) + " -" + std::to_string(c.deleted) + " lines")
      << "\n";
  for (const Hunk& h : unifiedHunks(r.scriptEdits)) {
    out << "@@ -" << h.aStart << "," << h.aCount << " +" << h.bStart << "," << h.bCount << " @@\n";
    for (const LineEdit& e : h.edits) {
      if (e.kind == EditKind::Equal)
        out << " " << r.scriptA[size_t(e.a - 1)] << "\n";
      else if (e.kind == EditKind::Delete)
        out << "-" << r.scriptA[size_t(e.a - 1)] << "\n";
      else
        out << "+" << r.scriptB[size_t(e.b - 1)] << "\n";
    }
  }
}

void layoutText(std::ostream& out, const DiffReport& r) {
  int64_t moved = 0, changed = 0;
  for (const LayoutDiff& l : r.layouts) {
    moved += l.moved;
    changed += l.status != LayoutDiff::Status::Compared || l.moved > 0 ? 1 : 0;
  }
  out << "== layouts: ";
  if (!r.a.checked || !r.b.checked) {
    out << "not compared (a version has errors)\n";
    return;
  }
  out << plural(int64_t(r.layouts.size()), "register tile", "register tiles") << ", " << changed
      << " changed, " << plural(moved, "cell", "cells") << " moved\n";
  for (const LayoutDiff& l : r.layouts) {
    out << "  " << l.kernel << "." << l.buffer << ": ";
    if (l.status != LayoutDiff::Status::Compared) {
      out << l.note << "\n";
      continue;
    }
    out << l.moved << " of " << l.cells << " cells changed owner\n";
    if (l.moved == 0) continue;
    out << "    A: " << l.layoutA << "\n    B: " << l.layoutB << "\n";
    for (const MovedCell& m : l.listed)
      out << "    " << coordText(m.coord) << ": " << m.before.text() << " -> " << m.after.text()
          << "\n";
    if (l.moved > int64_t(l.listed.size()))
      out << "    … " << l.moved - int64_t(l.listed.size()) << " more\n";
  }
}

std::string countsText(const BankCounts& c) {
  return std::to_string(c.maxWays) + "-way, " + std::to_string(c.wavefronts) + "/" +
         std::to_string(c.idealWavefronts) + " wavefronts";
}

void accessText(std::ostream& out, const SharedAccessDelta& d) {
  out << "    " << lineRef(d.lineA, d.lineB) << " " << (d.inB ? d.opB : d.opA);
  if (d.inA && d.inB && d.opA != d.opB) out << " (A: " << d.opA << ")";
  out << ": " << (d.inA ? countsText(d.a) : "-") << " -> " << (d.inB ? countsText(d.b) : "-");
  if (d.inA && d.inB && d.a.wavefronts != d.b.wavefronts)
    out << " (" << (d.b.wavefronts > d.a.wavefronts ? "+" : "") << d.b.wavefronts - d.a.wavefronts
        << ")";
  out << "\n";
}

void sharedText(std::ostream& out, const DiffReport& r) {
  int64_t moved = 0, bankMoved = 0, changed = 0;
  for (const SharedLayoutDiff& l : r.shared) {
    moved += l.moved;
    bankMoved += l.bankMoved;
    changed += l.changed() ? 1 : 0;
  }
  out << "== shared: ";
  if (!r.a.checked || !r.b.checked) {
    out << "not compared (a version has errors)\n";
    return;
  }
  if (r.shared.empty()) {
    out << "no shared tile in either version\n";
    return;
  }
  out << plural(int64_t(r.shared.size()), "shared tile", "shared tiles") << ", " << changed
      << " changed, " << plural(moved, "element", "elements") << " moved (" << bankMoved
      << " to another bank)\n";
  for (const SharedLayoutDiff& l : r.shared) {
    out << "  " << l.kernel << "." << l.buffer << ": ";
    if (l.status != LayoutDiff::Status::Compared) {
      out << l.note << "\n";
      continue;
    }
    out << l.moved << " of " << l.cells << " elements moved, " << l.bankMoved
        << " to another bank\n";
    if (l.moved > 0 || l.dtypeA != l.dtypeB)
      out << "    A: " << l.layoutA << " " << l.dtypeA << "\n    B: " << l.layoutB << " "
          << l.dtypeB << "\n";
    for (const MovedElement& m : l.listed)
      out << "    " << coordText(m.coord) << ": " << m.before.text() << " -> " << m.after.text()
          << "\n";
    if (l.moved > int64_t(l.listed.size()))
      out << "    … " << l.moved - int64_t(l.listed.size()) << " more\n";
    if (!l.accessesCounted) {
      out << "    " << l.accessNote << "\n";
      continue;
    }
    out << "    bank conflicts on the simulator, per PTX instruction (worst conflict, "
           "wavefronts/conflict-free; ptxas may merge scalar stores into fewer, wider ones):"
        << (l.accesses.empty() ? " no shared-memory statement ran\n" : "\n");
    for (const SharedAccessDelta& d : l.accesses) accessText(out, d);
  }
}

void codeText(std::ostream& out, const CodeDiff& c) {
  out << "== " << c.language << ": ";
  if (!c.available) {
    out << c.note << "\n";
    return;
  }
  if (c.added + c.removed == 0) {
    out << "identical\n";
    return;
  }
  out << "+" << c.added << " -" << c.removed << " lines in "
      << plural(c.changedScriptLines, "script line", "script lines") << "\n";
  for (const CodeGroup& g : c.groups) {
    out << "  " << lineRef(g.scriptA, g.scriptB) << ":\n";
    for (const LineEdit& e : g.edits) {
      if (e.kind == EditKind::Delete)
        out << "    -" << g.textA[size_t(e.a - 1)] << "\n";
      else if (e.kind == EditKind::Insert)
        out << "    +" << g.textB[size_t(e.b - 1)] << "\n";
    }
  }
  if (c.truncated) out << "  … further changed lines left out\n";
}

std::string delta(int a, int b) {
  std::string t = std::to_string(a) + " -> " + std::to_string(b);
  if (a != b) t += " (" + std::string(b > a ? "+" : "") + std::to_string(b - a) + ")";
  return t;
}

void resourceText(std::ostream& out, const DiffReport& r) {
  int changed = 0;
  for (const ResourceDelta& d : r.resources) changed += d.changed() ? 1 : 0;
  out << "== resources: "
      << (r.resources.empty() ? "no resource report"
          : changed           ? plural(changed, "kernel changed", "kernels changed")
                              : "identical")
      << "\n";
  for (const ResourceDelta& d : r.resources) {
    out << "  " << d.kernel << ": ";
    if (!d.inA || !d.inB) {
      out << "only in version " << (d.inA ? "A" : "B") << "\n";
      continue;
    }
    out << "registers " << delta(d.a.registers, d.b.registers) << ", spill stores "
        << delta(d.a.spillStores, d.b.spillStores) << ", spill loads "
        << delta(d.a.spillLoads, d.b.spillLoads) << ", shared "
        << delta(d.a.sharedBytes, d.b.sharedBytes) << " bytes, stack "
        << delta(d.a.stackBytes, d.b.stackBytes) << " bytes\n";
  }
}

void resultSideText(std::ostream& out, const char* tag, const ResultSide& s) {
  out << "  " << tag << ": ";
  if (!s.ran) {
    out << s.source << (s.firstProblem.empty() ? "" : ": " + s.firstProblem) << "\n";
    return;
  }
  out << (s.passed ? "passed" : "FAILED") << ", " << s.checks - s.failed << "/" << s.checks
      << " checks, max abs error " << num(s.maxAbs) << ", max rel error " << num(s.maxRel) << ", "
      << plural(s.faults, "fault", "faults") << " (" << s.source << ")\n";
  if (!s.firstProblem.empty()) out << "     " << s.firstProblem << "\n";
}

void resultText(std::ostream& out, const DiffReport& r) {
  const bool same = r.resultA.passed == r.resultB.passed && r.resultA.maxAbs == r.resultB.maxAbs &&
                    r.resultA.faults == r.resultB.faults;
  out << "== results: "
      << (!r.resultA.ran || !r.resultB.ran ? "not both verified"
          : same                           ? "same"
                                           : "changed")
      << "\n";
  resultSideText(out, "A", r.resultA);
  resultSideText(out, "B", r.resultB);
  for (const CheckDelta& c : r.checks) {
    out << "  " << (c.inA ? c.nameA : "-") << (c.inB && c.nameB != c.nameA ? " / " + c.nameB : "")
        << ": ";
    out << (c.inA ? (c.passA ? "pass" : "FAIL") : "-") << " -> "
        << (c.inB ? (c.passB ? "pass" : "FAIL") : "-") << ", max abs "
        << (c.inA ? num(c.maxAbsA) : "-") << " -> " << (c.inB ? num(c.maxAbsB) : "-") << "\n";
  }
}

void timingText(std::ostream& out, const DiffReport& r) {
  out << "== timing:\n";
  out << "  compile " << ms(r.timingA.compileMs) << " -> " << ms(r.timingB.compileMs) << "\n";
  if (r.resultA.ran || r.resultB.ran)
    out << "  kernel runs " << ms(r.timingA.runMs) << " (" << r.timingA.device << ") -> "
        << ms(r.timingB.runMs) << " (" << r.timingB.device << ")\n  verify "
        << ms(r.timingA.verifyMs) << " -> " << ms(r.timingB.verifyMs) << "\n";
}

json sideJson(const SideInfo& s) {
  json j = {{"path", s.path},
            {"label", s.label},
            {"kind", s.kind},
            {"checked", s.checked},
            {"compiled", s.compiled}};
  if (!s.recordedOn.empty()) j["recorded_on"] = s.recordedOn;
  if (!s.compileStatus.empty()) j["compile_status"] = s.compileStatus;
  json errs = json::array();
  for (const Diagnostic& d : s.errors)
    errs.push_back(
        {{"code", d.code}, {"line", d.span.line}, {"col", d.span.col}, {"message", d.message}});
  j["errors"] = errs;
  return j;
}

json ownerJson(const CellOwner& o) {
  return {{"thread", o.thread},
          {"warp", o.warp()},
          {"lane", o.lane()},
          {"reg", o.slot},
          {"replicas", o.replicas}};
}

json placeJson(const SharedPlace& p) {
  return {{"byte", p.byte}, {"bank", p.bank()}};
}

json countsJson(const BankCounts& c) {
  return {{"instructions", c.instructions},
          {"wavefronts", c.wavefronts},
          {"ideal_wavefronts", c.idealWavefronts},
          {"max_ways", c.maxWays}};
}

json sharedJson(const SharedLayoutDiff& l) {
  json cells = json::array();
  for (const MovedElement& m : l.listed)
    cells.push_back(
        {{"coord", m.coord}, {"before", placeJson(m.before)}, {"after", placeJson(m.after)}});
  json accesses = json::array();
  for (const SharedAccessDelta& d : l.accesses)
    accesses.push_back({{"line_a", d.lineA},
                        {"line_b", d.lineB},
                        {"op_a", d.opA},
                        {"op_b", d.opB},
                        {"a", d.inA ? countsJson(d.a) : json(nullptr)},
                        {"b", d.inB ? countsJson(d.b) : json(nullptr)},
                        {"changed", d.changed()}});
  json e = {{"kernel", l.kernel},
            {"buffer", l.buffer},
            {"status", statusName(l.status)},
            {"shape", l.shape},
            {"dtype_a", l.dtypeA},
            {"dtype_b", l.dtypeB},
            {"layout_a", l.layoutA},
            {"layout_b", l.layoutB},
            {"line_a", l.lineA},
            {"line_b", l.lineB},
            {"cells", l.cells},
            {"moved", l.moved},
            {"bank_moved", l.bankMoved},
            {"listed", cells},
            {"truncated", l.moved > int64_t(l.listed.size())},
            {"accesses_counted", l.accessesCounted},
            {"accesses", accesses}};
  if (!l.note.empty()) e["note"] = l.note;
  if (!l.accessNote.empty()) e["access_note"] = l.accessNote;
  if (!l.shapeB.empty()) e["shape_b"] = l.shapeB;
  return e;
}

json editsJson(const std::vector<LineEdit>& edits, const std::vector<std::string>& a,
               const std::vector<std::string>& b, bool changesOnly) {
  json out = json::array();
  for (const LineEdit& e : edits) {
    if (changesOnly && e.kind == EditKind::Equal) continue;
    const char* op = e.kind == EditKind::Equal ? " " : e.kind == EditKind::Delete ? "-" : "+";
    out.push_back({{"op", op},
                   {"a", e.a},
                   {"b", e.b},
                   {"text", e.kind == EditKind::Insert ? b[size_t(e.b - 1)] : a[size_t(e.a - 1)]}});
  }
  return out;
}

json codeJson(const CodeDiff& c) {
  json j = {{"available", c.available},
            {"added", c.added},
            {"removed", c.removed},
            {"changed_script_lines", c.changedScriptLines},
            {"truncated", c.truncated}};
  if (!c.note.empty()) j["note"] = c.note;
  json groups = json::array();
  for (const CodeGroup& g : c.groups) {
    json edits = json::array();
    for (const LineEdit& e : g.edits) {
      if (e.kind == EditKind::Equal) continue;
      const bool del = e.kind == EditKind::Delete;
      edits.push_back({{"op", del ? "-" : "+"},
                       {"line", del ? g.linesA[size_t(e.a - 1)] : g.linesB[size_t(e.b - 1)]},
                       {"text", del ? g.textA[size_t(e.a - 1)] : g.textB[size_t(e.b - 1)]}});
    }
    groups.push_back({{"script_a", g.scriptA}, {"script_b", g.scriptB}, {"edits", edits}});
  }
  j["groups"] = groups;
  return j;
}

json resultJson(const ResultSide& s) {
  return {{"ran", s.ran},
          {"passed", s.passed},
          {"source", s.source},
          {"checks", s.checks},
          {"failed", s.failed},
          {"faults", s.faults},
          {"errors", s.errors},
          {"max_abs", s.maxAbs},
          {"max_rel", s.maxRel},
          {"first_problem", s.firstProblem},
          {"unavailable", s.unavailable}};
}

json resourcesJson(const toolchain::KernelResources& k) {
  return {{"registers", k.registers},    {"spill_stores", k.spillStores},
          {"spill_loads", k.spillLoads}, {"shared_bytes", k.sharedBytes},
          {"stack_bytes", k.stackBytes}, {"barriers", k.barriers}};
}

}  // namespace

std::string diffToText(const DiffReport& r) {
  std::ostringstream out;
  sideText(out, "A", r.a);
  sideText(out, "B", r.b);
  scriptText(out, r);
  layoutText(out, r);
  sharedText(out, r);
  codeText(out, r.cuda);
  codeText(out, r.ptx);
  codeText(out, r.sass);
  resourceText(out, r);
  resultText(out, r);
  timingText(out, r);
  if (r.cancelled) out << "(cancelled: the sections after the last one shown are incomplete)\n";
  out << (r.identical() ? "versions are identical (timings aside)\n" : "versions differ\n");
  return out.str();
}

std::string diffToJson(const DiffReport& r, int indent) {
  json j;
  j["a"] = sideJson(r.a);
  j["b"] = sideJson(r.b);
  j["identical"] = r.identical();
  j["cancelled"] = r.cancelled;
  const EditCounts c = countEdits(r.scriptEdits);
  j["script"] = {{"added", c.inserted},
                 {"removed", c.deleted},
                 {"edits", editsJson(r.scriptEdits, r.scriptA, r.scriptB, true)}};
  json layouts = json::array();
  for (const LayoutDiff& l : r.layouts) {
    json cells = json::array();
    for (const MovedCell& m : l.listed)
      cells.push_back(
          {{"coord", m.coord}, {"before", ownerJson(m.before)}, {"after", ownerJson(m.after)}});
    json e = {{"kernel", l.kernel},
              {"buffer", l.buffer},
              {"status", statusName(l.status)},
              {"shape", l.shape},
              {"layout_a", l.layoutA},
              {"layout_b", l.layoutB},
              {"line_a", l.lineA},
              {"line_b", l.lineB},
              {"cells", l.cells},
              {"moved", l.moved},
              {"listed", cells},
              {"truncated", l.moved > int64_t(l.listed.size())}};
    if (!l.note.empty()) e["note"] = l.note;
    if (!l.shapeB.empty()) e["shape_b"] = l.shapeB;
    layouts.push_back(e);
  }
  j["layouts"] = layouts;
  json shared = json::array();
  for (const SharedLayoutDiff& l : r.shared) shared.push_back(sharedJson(l));
  j["shared"] = shared;
  j["cuda"] = codeJson(r.cuda);
  j["ptx"] = codeJson(r.ptx);
  j["sass"] = codeJson(r.sass);
  json res = json::array();
  for (const ResourceDelta& d : r.resources) {
    json e = {{"kernel", d.kernel}, {"changed", d.changed()}};
    e["a"] = d.inA ? resourcesJson(d.a) : json(nullptr);
    e["b"] = d.inB ? resourcesJson(d.b) : json(nullptr);
    res.push_back(e);
  }
  j["resources"] = res;
  json checks = json::array();
  for (const CheckDelta& d : r.checks)
    checks.push_back({{"name_a", d.nameA},
                      {"name_b", d.nameB},
                      {"in_a", d.inA},
                      {"in_b", d.inB},
                      {"pass_a", d.passA},
                      {"pass_b", d.passB},
                      {"max_abs_a", d.maxAbsA},
                      {"max_abs_b", d.maxAbsB},
                      {"max_rel_a", d.maxRelA},
                      {"max_rel_b", d.maxRelB},
                      {"mismatches_a", d.mismatchesA},
                      {"mismatches_b", d.mismatchesB}});
  j["results"] = {{"a", resultJson(r.resultA)}, {"b", resultJson(r.resultB)}, {"checks", checks}};
  j["timing"] = {{"a",
                  {{"compile_ms", r.timingA.compileMs},
                   {"run_ms", r.timingA.runMs},
                   {"verify_ms", r.timingA.verifyMs},
                   {"device", r.timingA.device}}},
                 {"b",
                  {{"compile_ms", r.timingB.compileMs},
                   {"run_ms", r.timingB.runMs},
                   {"verify_ms", r.timingB.verifyMs},
                   {"device", r.timingB.device}}}};
  // Scripts are bytes: invalid UTF-8 (a binary file given as a version) is replaced, never thrown.
  return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace tirx::diff
