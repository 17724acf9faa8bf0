// core/diff: the Myers line diff against an independent oracle (the O(N·M) LCS dynamic programme)
// on random inputs, unified hunks, the SASS line map on real nvdisasm output, and whole version
// diffs of tests/data/diff (the moved-cell count computed by hand in its README), of a version
// against itself, of renamed and broken versions, and of the H200 bundle against its script.
#include <QtTest>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "core/diff/line_diff.h"
#include "core/diff/version_diff.h"

using namespace tirx;
using namespace tirx::diff;

namespace {

std::string readData(const std::string& rel) {
  std::ifstream in(std::string(TIRX_SOURCE_DIR) + "/" + rel, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int lcsLength(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::vector<int>> t(a.size() + 1, std::vector<int>(b.size() + 1, 0));
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j)
      t[i][j] = a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
  return t[a.size()][b.size()];
}

/// The script is valid: every line of a and b once, in order, equal lines equal.
bool validScript(const std::vector<LineEdit>& e, const std::vector<std::string>& a,
                 const std::vector<std::string>& b) {
  int na = 0, nb = 0;
  for (const LineEdit& x : e) {
    if (x.kind != EditKind::Insert && x.a != ++na) return false;
    if (x.kind != EditKind::Delete && x.b != ++nb) return false;
    if (x.kind == EditKind::Equal && a[size_t(x.a - 1)] != b[size_t(x.b - 1)]) return false;
  }
  return na == int(a.size()) && nb == int(b.size());
}

/// Brute-force oracle of the shared pair: element (i, j) of a 32 × 32 float32 tile at element
/// offset `off(i, j)` in each version (the layouts' formulas, written out here), counted.
struct SharedOracle {
  int64_t moved = 0, bankMoved = 0;
};
template <class A, class B>
SharedOracle sharedOracle(A offA, B offB) {
  SharedOracle o;
  for (int64_t i = 0; i < 32; ++i)
    for (int64_t j = 0; j < 32; ++j) {
      const int64_t a = offA(i, j) * 4, b = offB(i, j) * 4;
      o.moved += a != b ? 1 : 0;
      o.bankMoved += (a / 4) % 32 != (b / 4) % 32 ? 1 : 0;
    }
  return o;
}

/// The worst bank conflict of one warp access where lane l touches element offset `off(l)` (4-byte
/// elements: one phase of 32 lanes; distinct words per bank).
template <class F>
int waysOf(F off) {
  std::map<int64_t, std::set<int64_t>> words;
  for (int64_t l = 0; l < 32; ++l) words[off(l) % 32].insert(off(l));
  size_t ways = 0;
  for (const auto& [bank, w] : words) ways = std::max(ways, w.size());
  return int(ways);
}

DiffOptions quick() {
  DiffOptions o;
  o.verify = false;
  return o;
}

}  // namespace

class TstDiff : public QObject {
  Q_OBJECT

 private slots:
  void splitLinesCases() {
    QCOMPARE(splitLines("").size(), size_t(0));
    QCOMPARE(splitLines("a\nb\n"), (std::vector<std::string>{"a", "b"}));
    QCOMPARE(splitLines("a\r\n\nb"), (std::vector<std::string>{"a", "", "b"}));
  }

  void myersIsMinimalOnRandomInputs() {
    std::mt19937 rng(7);
    for (int iter = 0; iter < 3000; ++iter) {
      const int alphabet = 1 + int(rng() % 4);
      std::vector<std::string> a(rng() % 14), b(rng() % 14);
      for (auto& s : a) s = std::string(1, char('a' + rng() % unsigned(alphabet)));
      for (auto& s : b) s = std::string(1, char('a' + rng() % unsigned(alphabet)));
      const std::vector<LineEdit> e = diffLines(a, b);
      QVERIFY2(validScript(e, a, b), qPrintable(QString("iteration %1").arg(iter)));
      const EditCounts c = countEdits(e);
      const int lcs = lcsLength(a, b);
      QCOMPARE(c.deleted, int(a.size()) - lcs);
      QCOMPARE(c.inserted, int(b.size()) - lcs);
    }
  }

  void deletionsComeBeforeInsertions() {
    const auto e = diffLines({"x", "a", "y"}, {"x", "b", "y"});
    QCOMPARE(e.size(), size_t(4));
    QCOMPARE(e[1], (LineEdit{EditKind::Delete, 2, 0}));
    QCOMPARE(e[2], (LineEdit{EditKind::Insert, 0, 2}));
  }

  void largeInputsStayLinear() {
    // 20k lines with a few changes: the linear-space variant must not allocate D² or N·M.
    std::vector<std::string> a, b;
    for (int i = 0; i < 20000; ++i) a.push_back("line " + std::to_string(i));
    b = a;
    b[100] = "changed";
    b.erase(b.begin() + 5000);
    b.insert(b.begin() + 15000, "new");
    const auto e = diffLines(a, b);
    QVERIFY(validScript(e, a, b));
    const EditCounts c = countEdits(e);
    QCOMPARE(c.deleted, 2);
    QCOMPARE(c.inserted, 2);
  }

  void changedLinesFaceTheirEdits() {
    // A comment rewritten into two lines and a layout edited: the layout faces its edit, the
    // extra comment line faces nothing.
    const std::vector<std::string> del = {
        "# Element (w, l, j) lives in warp w, lane l, register j.",
        "reg_layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])"};
    const std::vector<std::string> ins = {
        "# Lane t holds the eight consecutive elements",
        "# element (w, 2h + r, j) lives in lane 16w + h",
        "reg_layout = TileLayout(S[(32, 2, 4) : (1 @ laneid, 4, 1)])"};
    const auto p = pairChangedLines(del, ins);
    QCOMPARE(p.back(), (std::pair<int, int>{1, 2}));
    int paired = 0, seenDel = 0, seenIns = 0;
    for (const auto& [d, n] : p) {
      paired += d >= 0 && n >= 0;
      seenDel += d >= 0;
      seenIns += n >= 0;
    }
    QCOMPARE(seenDel, 2);  // every line once
    QCOMPARE(seenIns, 3);
    QVERIFY(paired >= 1);
    // Nothing alike: nothing pairs.
    QCOMPARE(pairChangedLines({"alpha beta"}, {"gamma delta"}),
             (std::vector<std::pair<int, int>>{{0, -1}, {-1, 0}}));
    // Past 256 lines a side: by position.
    const std::vector<std::string> many(300, "x = 1");
    QCOMPARE(pairChangedLines(many, {"y"}).front(), (std::pair<int, int>{0, 0}));
  }

  // Two texts side by side: equal lines as they are, an edited line facing its edit, a new
  // line facing a blank (0), in order of both texts.
  void alignedRowsOfTwoTexts() {
    const std::vector<std::string> a = {"x = 1", "y = A[i] + 2", "z = 3"};
    const std::vector<std::string> b = {"x = 1", "# new", "y = A[i] + 4", "z = 3", "w = 5"};
    using L = AlignedLine;
    QCOMPARE(
        alignEdits(diffLines(a, b), a, b),
        (std::vector<L>{{1, 1, true}, {0, 2, false}, {2, 3, false}, {3, 4, true}, {0, 5, false}}));
    QCOMPARE(alignEdits(diffLines(a, {}), a, {}),
             (std::vector<L>{{1, 0, false}, {2, 0, false}, {3, 0, false}}));
    QVERIFY(alignEdits({}, {}, {}).empty());
  }

  void unifiedHunksMergeNearbyChanges() {
    std::vector<std::string> a, b;
    for (int i = 1; i <= 30; ++i) a.push_back(std::to_string(i));
    b = a;
    b[4] = "five";  // line 5
    b[8] = "nine";  // line 9: 3 equal lines apart, merged into the first hunk
    b[25] = "twenty-six";
    const auto hunks = unifiedHunks(diffLines(a, b), 3);
    QCOMPARE(hunks.size(), size_t(2));
    QCOMPARE(hunks[0].aStart, 2);
    QCOMPARE(hunks[0].aCount, 11);  // lines 2..12
    QCOMPARE(hunks[0].bCount, 11);
    QCOMPARE(hunks[1].aStart, 23);
  }

  void sassLineMapFromNvdisasm() {
    const std::string sass = readData("tests/data/diff/sass_excerpt.txt");
    QVERIFY(!sass.empty());
    const auto lines = splitLines(sass);
    const auto map = sassLineToScriptLine(sass, "/elsewhere/arith_silu.py");
    QCOMPARE(map.size(), lines.size() + 1);
    auto lineOf = [&](const std::string& needle) {
      for (size_t i = 0; i < lines.size(); ++i)
        if (lines[i].find(needle) != std::string::npos) return map[i + 1];
      return -1;
    };
    QCOMPARE(lineOf("LDC R1, c[0x0][0x28]"), 14);
    QCOMPARE(lineOf("S2R R2, SR_TID.X"), 14);
    QCOMPARE(lineOf("LDG.E.128"), 20);
    QCOMPARE(lineOf("HFMA2.MMA R3"), 11);
    QCOMPARE(lineOf("STG.E.128"), 22);
    QCOMPARE(lineOf("EXIT"), 14);
    QCOMPARE(lineOf(".L_x_22:"), 0);  // labels are no instructions
    for (int s : sassLineToScriptLine(sass, "other.py")) QCOMPARE(s, 0);  // another file's records
  }

  void activationPairMovedCellsAndCode() {
    auto a = loadVersion(std::string(TIRX_SOURCE_DIR) + "/tests/data/diff/activation_a.py");
    auto b = loadVersion(std::string(TIRX_SOURCE_DIR) + "/tests/data/diff/activation_b.py");
    QVERIFY(a && b);
    DiffOptions o;
    o.maxCells = 8;
    const DiffReport r = diffVersions(*a, *b, o);
    QVERIFY(r.a.compiled && r.b.compiled);
    QCOMPARE(r.layouts.size(), size_t(1));
    const LayoutDiff& l = r.layouts[0];
    QCOMPARE(l.status, LayoutDiff::Status::Compared);
    QCOMPARE(l.buffer, std::string("R"));
    QCOMPARE(l.cells, int64_t(256));
    QCOMPARE(l.moved, int64_t(252));  // by hand: tests/data/diff/README.md
    QCOMPARE(l.movedFlat.size(), size_t(252));
    QCOMPARE(l.movedFlat.front(), int64_t(4));  // (0, 0, j) stay; (0, 1, 0) is the first to move
    QCOMPARE(l.listed.size(), size_t(8));
    QCOMPARE(l.ownersA.size(), size_t(256));  // the grid's owners, every element
    QCOMPARE(l.ownersB[255].text(), std::string("w0 l31 r7"));
    QCOMPARE(l.ownersA[255].text(), std::string("w1 l31 r3"));
    QCOMPARE(l.listed[0].coord, (std::vector<int64_t>{0, 1, 0}));
    QCOMPARE(l.listed[0].before.text(), std::string("w0 l1 r0"));
    QCOMPARE(l.listed[0].after.text(), std::string("w0 l0 r4"));
    // (1, 31, 3): thread 63 register 3 → thread 16 + 15 = 31, register 4 + 3 = 7.
    bool found = false;
    for (int64_t f : l.movedFlat) found |= f == 255;
    QVERIFY(found);
    // The loads changed at the ld line (22 in A, 23 in B): B issues two ld.global.v4.b32.
    bool ldGroup = false;
    for (const CodeGroup& g : r.ptx.groups) {
      if (g.scriptA != 22 || g.scriptB != 23) continue;
      ldGroup = true;
      int lds = 0;
      for (const LineEdit& e : g.edits)
        if (e.kind != EditKind::Delete && e.b &&
            g.textB[size_t(e.b - 1)].find("ld.global.v4.b32") != std::string::npos)
          ++lds;
      QCOMPARE(lds, 2);
    }
    QVERIFY(ldGroup);
    QVERIFY(r.ptx.added > r.ptx.removed);  // eight evaluations instead of four
    QVERIFY(r.cuda.added > 0);
    QVERIFY(!r.sass.note.empty() || r.sass.available);
    QCOMPARE(r.resources.size(), size_t(1));
    QVERIFY(r.resources[0].inA && r.resources[0].inB && r.resources[0].a.registers > 0);
    // Both verified on the simulator and pass.
    QVERIFY(r.resultA.ran && r.resultA.passed && r.resultB.ran && r.resultB.passed);
    QCOMPARE(r.checks.size(), size_t(1));
    QVERIFY(!r.identical());
    const std::string text = diffToText(r);
    QVERIFY(text.find("activation.R: 252 of 256 cells changed owner") != std::string::npos);
    QVERIFY(text.find("(0, 1, 0): w0 l1 r0 -> w0 l0 r4") != std::string::npos);
    QVERIFY(text.find("… 244 more") != std::string::npos);
    const auto j = nlohmann::json::parse(diffToJson(r));
    QCOMPARE(j["layouts"][0]["moved"].get<int>(), 252);
    QCOMPARE(j["layouts"][0]["listed"][0]["after"]["reg"].get<int>(), 4);
    QCOMPARE(j["results"]["b"]["passed"].get<bool>(), true);
  }

  void sharedPairMovedElementsAndBankConflicts() {
    auto a = loadVersion(std::string(TIRX_SOURCE_DIR) + "/tests/data/diff/shared_a.py");
    auto b = loadVersion(std::string(TIRX_SOURCE_DIR) + "/tests/data/diff/shared_b.py");
    QVERIFY(a && b);
    DiffOptions o;
    o.maxCells = 5;
    const DiffReport r = diffVersions(*a, *b, o);
    QVERIFY(r.a.compiled && r.b.compiled);
    QVERIFY(r.resultA.passed && r.resultB.passed);
    QCOMPARE(r.shared.size(), size_t(1));
    const SharedLayoutDiff& t = r.shared[0];
    QCOMPARE(t.status, LayoutDiff::Status::Compared);
    QCOMPARE(t.buffer, std::string("tile"));
    QCOMPARE(t.cells, int64_t(1024));
    // Row-major rows of 32 floats against rows padded to 36.
    const SharedOracle want = sharedOracle([](int64_t i, int64_t j) { return 32 * i + j; },
                                           [](int64_t i, int64_t j) { return 36 * i + j; });
    QCOMPARE(t.moved, want.moved);
    QCOMPARE(t.bankMoved, want.bankMoved);
    QVERIFY(t.bankMoved < t.moved);  // rows 8, 16, 24 move by a multiple of 128 bytes
    QCOMPARE(t.movedFlat.size(), size_t(want.moved));
    QCOMPARE(t.listed.size(), size_t(5));
    QCOMPARE(t.listed[0].coord, (std::vector<int64_t>{1, 0}));
    QCOMPARE(t.listed[0].before.text(), std::string("byte 128 bank 0"));
    QCOMPARE(t.listed[0].after.text(), std::string("byte 144 bank 4"));
    QCOMPARE(t.placesB.size(), size_t(1024));
    QCOMPARE(t.placesB[1023].byte, (36 * 31 + 31) * 4);
    QCOMPARE(t.layoutB, std::string("S[(32, 32) : (36, 1)]"));
    // The bank conflicts of the two statements on the tile: the element stores (line 20) and the
    // ld.shared.b32 tile op (line 23); instruction j has lane l at (l, j) in both.
    QVERIFY2(t.accessesCounted, t.accessNote.c_str());
    QCOMPARE(t.accesses.size(), size_t(2));
    const int waysA = waysOf([](int64_t l) { return 32 * l + 5; });
    const int waysB = waysOf([](int64_t l) { return 36 * l + 5; });
    QCOMPARE(waysA, 32);
    QCOMPARE(waysB, 4);
    for (const SharedAccessDelta& d : t.accesses) {
      QVERIFY(d.inA && d.inB);
      QCOMPARE(d.lineA, d.lineB);
      QCOMPARE(d.a.instructions, int64_t(32));
      QCOMPARE(d.a.maxWays, waysA);
      QCOMPARE(d.b.maxWays, waysB);
      QCOMPARE(d.a.wavefronts, int64_t(32 * waysA));
      QCOMPARE(d.b.wavefronts, int64_t(32 * waysB));
      QCOMPARE(d.a.idealWavefronts, int64_t(32));
      QVERIFY(d.changed());
    }
    QCOMPARE(t.accesses[0].lineA, 20);
    QCOMPARE(t.accesses[1].lineA, 23);
    QCOMPARE(t.accesses[1].opB, std::string("ld.shared.b32"));
    QVERIFY(!r.identical());
    const std::string text = diffToText(r);
    QVERIFY(text.find("stage.tile: " + std::to_string(want.moved) + " of 1024 elements moved") !=
            std::string::npos);
    QVERIFY(text.find("(1, 0): byte 128 bank 0 -> byte 144 bank 4") != std::string::npos);
    QVERIFY(text.find("ld.shared.b32: 32-way, 1024/32 wavefronts -> 4-way, 128/32 wavefronts") !=
            std::string::npos);
    const auto j = nlohmann::json::parse(diffToJson(r));
    QCOMPARE(j["shared"][0]["moved"].get<int64_t>(), want.moved);
    QCOMPARE(j["shared"][0]["bank_moved"].get<int64_t>(), want.bankMoved);
    QCOMPARE(j["shared"][0]["accesses"][1]["b"]["max_ways"].get<int>(), 4);
  }

  void swizzledSharedTileMovesByTheXor() {
    // Version B swizzles the 16-byte chunks of each 128-byte row (ComposeLayout(2, 3, 3, …):
    // chunk' = chunk ^ (row mod 8); the pattern needs a 1024-byte aligned tile).
    const std::string a = readData("tests/data/diff/shared_a.py");
    std::string b = a;
    auto replace = [&b](const std::string& from, const std::string& to) {
      b.replace(b.find(from), from.size(), to);
    };
    replace("TileLayout(S[(32, 32) : (32, 1)]), align=16",
            "ComposeLayout(2, 3, 3, TileLayout(S[32, 32])), align=1024");
    replace("S, TileLayout", "S, TileLayout, ComposeLayout");
    const DiffReport r =
        diffVersions(versionFromText(a, "a.py", "a"), versionFromText(b, "b.py", "b"));
    QVERIFY2(r.b.checked, r.b.errors.empty() ? "" : r.b.errors[0].message.c_str());
    QVERIFY(r.resultA.passed && r.resultB.passed);
    QCOMPARE(r.shared.size(), size_t(1));
    const SharedLayoutDiff& t = r.shared[0];
    QCOMPARE(t.status, LayoutDiff::Status::Compared);
    auto swizzled = [](int64_t i, int64_t j) {
      return 32 * i + 4 * ((j >> 2) ^ (i & 7)) + (j & 3);
    };
    const SharedOracle want =
        sharedOracle([](int64_t i, int64_t j) { return 32 * i + j; }, swizzled);
    QCOMPARE(t.moved, want.moved);
    QCOMPARE(t.bankMoved, want.bankMoved);
    QVERIFY(t.layoutB.find("ComposeLayout(2, 3, 3") != std::string::npos);
    // Column j of the 32 rows: 8 chunks, 4 rows each, so 4-way instead of 32-way.
    QVERIFY2(t.accessesCounted, t.accessNote.c_str());
    QCOMPARE(t.accesses.size(), size_t(2));
    for (int64_t j : {0, 5, 31}) QCOMPARE(waysOf([&](int64_t l) { return swizzled(l, j); }), 4);
    for (const SharedAccessDelta& d : t.accesses) {
      QCOMPARE(d.a.maxWays, 32);
      QCOMPARE(d.b.maxWays, waysOf([&](int64_t l) { return swizzled(l, 0); }));
      QCOMPARE(d.b.wavefronts, int64_t(32 * 4));
    }
    // Without a verify there are no bank counts, and the note says why.
    const DiffReport q =
        diffVersions(versionFromText(a, "a.py", "a"), versionFromText(b, "b.py", "b"), quick());
    QCOMPARE(q.shared.at(0).moved, want.moved);
    QVERIFY(!q.shared[0].accessesCounted);
    QVERIFY(q.shared[0].accessNote.find("not verified") != std::string::npos);
  }

  void versionAgainstItselfIsIdentical() {
    const std::string s = readData("tests/data/diff/activation_a.py");
    const DiffReport r =
        diffVersions(versionFromText(s, "x.py", "x"), versionFromText(s, "x.py", "x"));
    QVERIFY(r.identical());
    QCOMPARE(r.layouts.size(), size_t(1));
    QCOMPARE(r.layouts[0].moved, int64_t(0));
    QCOMPARE(r.ptx.added + r.ptx.removed, 0);
    QVERIFY(r.resultA.passed && r.resultB.passed);
    QCOMPARE(r.a.kind, std::string("buffer"));
  }

  void renamedTileIsOnlyInOneVersion() {
    const std::string a = readData("tests/data/diff/activation_a.py");
    const std::string b = std::regex_replace(a, std::regex("\\bR\\b"), "Q");
    const DiffReport r =
        diffVersions(versionFromText(a, "a.py", "a"), versionFromText(b, "b.py", "b"), quick());
    QCOMPARE(r.layouts.size(), size_t(2));
    QCOMPARE(r.layouts[0].status, LayoutDiff::Status::OnlyA);
    QCOMPARE(r.layouts[1].status, LayoutDiff::Status::OnlyB);
    QCOMPARE(r.layouts[1].buffer, std::string("Q"));
    QVERIFY(!r.identical());
    QCOMPARE(r.resultA.source, std::string("not verified"));
  }

  void brokenVersionStillGetsItsScriptDiff() {
    const std::string a = readData("tests/data/diff/activation_a.py");
    std::string b = a;
    b.replace(b.find("T.ptx[\"ld.global.v4.b32"), 23, "T.ptx[\"ld.global.v9.b32");
    const DiffReport r =
        diffVersions(versionFromText(a, "a.py", "a"), versionFromText(b, "b.py", "b"), quick());
    QVERIFY(r.a.compiled);
    QVERIFY(!r.b.checked && !r.b.errors.empty());
    QVERIFY(r.b.errors[0].span.line > 0 && !r.b.errors[0].code.empty());
    QVERIFY(r.layouts.empty());
    QCOMPARE(r.ptx.available, false);
    QCOMPARE(countEdits(r.scriptEdits).deleted, 1);
    QVERIFY(diffToText(r).find("version B did not compile") != std::string::npos);
  }

  void bundleAgainstItsScript() {
    auto b =
        loadVersion(std::string(TIRX_SOURCE_DIR) + "/tests/data/bundles/activation_h200.tirxb");
    QVERIFY2(b, b ? "" : b.error().text().c_str());
    QVERIFY(b->bundle.has_value());
    auto f = loadVersion(std::string(TIRX_SOURCE_DIR) + "/resources/examples/activation.py");
    QVERIFY(f);
    const DiffReport r = diffVersions(*b, *f);
    QCOMPARE(r.a.kind, std::string("bundle"));
    QCOMPARE(countEdits(r.scriptEdits).deleted + countEdits(r.scriptEdits).inserted, 0);
    QCOMPARE(r.layouts.at(0).moved, int64_t(0));
    QCOMPARE(r.ptx.added + r.ptx.removed, 0);
    QCOMPARE(r.cuda.added + r.cuda.removed, 0);  // the header's file names differ, nothing else
    QVERIFY(r.resultA.source.find("recorded on NVIDIA H200") != std::string::npos);
    QVERIFY(r.resultA.maxAbs > 0 && r.resultA.maxAbs < 1e-6);  // the GPU's expf
    QCOMPARE(r.resultB.source, std::string("verified on sim"));
  }

  void recordedSassOfTwoBundlesAligned() {
    // The bundle against a copy whose recorded SASS has one instruction changed: the change is
    // reported at the script line its //## record names.
    const std::string text = readData("tests/data/bundles/activation_h200.tirxb");
    auto j = nlohmann::json::parse(text);
    std::string sass = j["products"]["sass"];
    const size_t at = sass.find("STG.E.128");
    QVERIFY(at != std::string::npos);
    sass.replace(at, 9, "STG.E.64 ");
    j["products"]["sass"] = sass;
    const std::string path = QDir::temp().filePath("tst_diff_sass_b.tirxb").toStdString();
    std::ofstream(path) << j.dump();
    auto a =
        loadVersion(std::string(TIRX_SOURCE_DIR) + "/tests/data/bundles/activation_h200.tirxb");
    auto b = loadVersion(path);
    QVERIFY(a && b);
    const DiffReport r = diffVersions(*a, *b, quick());
    QVERIFY(r.sass.available);
    QCOMPARE(r.sass.added, 1);
    QCOMPARE(r.sass.removed, 1);
    QCOMPARE(r.sass.groups.size(), size_t(1));
    QCOMPARE(r.sass.groups[0].scriptA, 25);  // the st.global.v4.b32 line of activation.py
    std::remove(path.c_str());
  }

  void unrelatedExamplesKeepTheInvariants() {
    // Pairs of unrelated examples (different kernels, tiles, shared memory, mma.sync): every
    // section stays consistent — each group's edits cover its lines once, the counts add up, moved
    // cells are within the tile, a kernel of one version only is reported as such.
    const char* names[] = {"activation", "shared_affine", "mma_single_warp", "warp_reduce_rows"};
    std::vector<Version> vs;
    for (const char* n : names) {
      auto v = loadVersion(std::string(TIRX_SOURCE_DIR) + "/resources/examples/" + n + ".py");
      QVERIFY(v);
      vs.push_back(*v);
    }
    for (size_t i = 0; i + 1 < vs.size(); ++i) {
      const DiffReport r = diffVersions(vs[i], vs[i + 1], quick());
      QVERIFY(!r.identical());
      QVERIFY(r.a.compiled && r.b.compiled);
      for (const CodeDiff* c : {&r.cuda, &r.ptx}) {
        int added = 0, removed = 0;
        for (const CodeGroup& g : c->groups) {
          std::vector<std::string> a(g.textA.size()), b(g.textB.size());
          for (size_t k = 0; k < a.size(); ++k) a[k] = std::to_string(k);
          for (size_t k = 0; k < b.size(); ++k) b[k] = std::to_string(k);
          int na = 0, nb = 0;
          for (const LineEdit& e : g.edits) {
            if (e.kind != EditKind::Insert) QCOMPARE(e.a, ++na);
            if (e.kind != EditKind::Delete) QCOMPARE(e.b, ++nb);
          }
          QCOMPARE(na, int(g.textA.size()));
          QCOMPARE(nb, int(g.textB.size()));
          added += countEdits(g.edits).inserted;
          removed += countEdits(g.edits).deleted;
        }
        QCOMPARE(added, c->added);
        QCOMPARE(removed, c->removed);
        QVERIFY(c->added + c->removed > 0);
      }
      for (const LayoutDiff& l : r.layouts) {
        QVERIFY(l.moved <= l.cells);
        for (int64_t f : l.movedFlat) QVERIFY(f >= 0 && f < l.cells);
        if (l.status == LayoutDiff::Status::OnlyA || l.status == LayoutDiff::Status::OnlyB)
          QVERIFY(!l.note.empty());
      }
      QVERIFY(!diffToText(r).empty());
      QVERIFY(nlohmann::json::parse(diffToJson(r)).is_object());
    }
  }

  void garbageVersionsAreErrorsNotCrashes() {
    const std::string garbage("\x00\xff(((\n\tdef f(:\n  \xc3\x28 ]]]", 24);
    const DiffReport r = diffVersions(versionFromText(garbage, "g.py", "g"),
                                      versionFromText("", "e.py", "e"), quick());
    QVERIFY(!r.a.checked);
    QVERIFY(r.layouts.empty());
    QCOMPARE(r.ptx.available, false);
    QCOMPARE(countEdits(r.scriptEdits).deleted, int(r.scriptA.size()));
    QVERIFY(!r.identical());
    QVERIFY(
        nlohmann::json::parse(diffToJson(r)).is_object());  // invalid UTF-8 replaced, not thrown
  }

  void unreadableAndMalformedInputs() {
    QVERIFY(!loadVersion("/nonexistent/x.py"));
    QVERIFY(!loadVersion(TIRX_SOURCE_DIR));  // a directory
    const std::string path = QDir::temp().filePath("tst_diff_bad.tirxb").toStdString();
    std::ofstream(path) << "{\"format\": \"not a bundle\"";
    auto r = loadVersion(path);
    QVERIFY(!r);
    QCOMPARE(r.error().api, std::string("bundle"));
    std::remove(path.c_str());
  }
};

QTEST_GUILESS_MAIN(TstDiff)
#include "tst_diff.moc"
