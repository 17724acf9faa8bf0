// What the engine publishes about generated assembly, line by line: the SASS line map from
// nvdisasm -g's `//## File` records (toolchain::sassLineMap, checked on the H200's
// disassembly of arith_affine_relu.py in tests/data/sass), and the instruction on a PTX or SASS
// line with its description (ptxLineFacts from the PTX table, toolchain::sassLineFacts from the
// SASS table) — the Assembly view's hovers, which parse nothing themselves. The `.loc` reader
// (ptxScriptLines) serves both the source map and ptxas messages, and an inlined body belongs to
// its call site in PTX and in SASS alike (docs/decisions.md, SRCMAP-1).
#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/codegen/codegen.h"
#include "core/ptx/ptx_loc.h"
#include "core/ptx/ptx_table.h"
#include "core/toolchain/register_facts.h"
#include "core/toolchain/toolchain.h"

using namespace tirx;

namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> out{""};  // 1-based
  std::istringstream in(text);
  std::string l;
  while (std::getline(in, l)) out.push_back(l);
  return out;
}

}  // namespace

class TestAsmLines : public QObject {
  Q_OBJECT
 private slots:
  void sassLineMapFromNvdisasmRecords() {
    const std::string sass = readFile(TIRX_SOURCE_DIR "/tests/data/sass/arith_affine_relu.sass");
    QVERIFY(!sass.empty());
    codegen::SourceMap map;
    map.sassToScript = toolchain::sassLineMap(sass, "arith_affine_relu.py");
    const auto lines = linesOf(sass);
    QCOMPARE(map.sassToScript.size(), lines.size());
    auto lineWith = [&](const std::string& needle) {
      for (size_t i = 1; i < lines.size(); ++i)
        if (lines[i].find(needle) != std::string::npos) return int(i);
      return 0;
    };
    // the script's lines (acceptance/arith_affine_relu.py): 15 ld.global.v4, 17 fma, 20 max, 21 st
    QCOMPARE(map.sassToScript[size_t(lineWith("LDG.E.128"))], 15);
    QCOMPARE(map.sassToScript[size_t(lineWith("FFMA R0"))], 17);
    QCOMPARE(map.sassToScript[size_t(lineWith("FMNMX R15"))], 20);
    QCOMPARE(map.sassToScript[size_t(lineWith("STG.E.128"))], 21);
    QCOMPARE(map.sassToScript[size_t(lineWith("S2R R9"))], 9);
    // records, headers and labels map to nothing
    QCOMPARE(map.sassToScript[size_t(lineWith("//## File"))], 0);
    QCOMPARE(map.sassToScript[size_t(lineWith(".section"))], 0);
    QCOMPARE(map.sassToScript[size_t(lineWith("affine_relu:"))], 0);
    const auto four = map.sassLinesOf(17);
    QCOMPARE(four.size(), size_t(5));  // HFMA2.MMA (the constant 2) and the four FFMAs
    for (int l : four) QVERIFY(lines[size_t(l)].find("FMA") != std::string::npos);
    // another script's records do not count; cuobjdump's SASS (no records) maps nothing
    map.sassToScript = toolchain::sassLineMap(sass, "other.py");
    for (int v : map.sassToScript) QCOMPARE(v, 0);
    map.sassToScript = toolchain::sassLineMap(
        "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n", "arith_affine_relu.py");
    QCOMPARE(map.sassToScript, (std::vector<int>{0, 0}));
  }

  // The PTX NVRTC made of activation.py on the H200 (tests/data/bundles/activation_h200.tirxb):
  // silu_affine (lines 14-15) is inlined four times at the ewise of line 24 (`.loc 1 14 3,
  // function_name ..., inlined_at 1 24 3`). The source map and a ptxas message naming a PTX line
  // of that body both say line 24; before one reader served both, the ptxas path said 14.
  void inlinedPtxBelongsToItsCallSite() {
    const auto bundle = nlohmann::json::parse(
        readFile(TIRX_SOURCE_DIR "/tests/data/bundles/activation_h200.tirxb"));
    const std::string ptx = bundle["products"]["ptx"].get<std::string>();
    const auto lines = linesOf(ptx);
    const std::vector<int> map = ptxScriptLines(ptx, "activation.py");
    QCOMPARE(map.size(), lines.size());
    int ex2 = 0, ld = 0, st = 0;
    for (size_t i = 1; i < lines.size(); ++i) {
      if (!ex2 && lines[i].find("ex2.approx") != std::string::npos) ex2 = int(i);
      if (!ld && lines[i].find("ld.global.v4.b32") != std::string::npos) ld = int(i);
      if (!st && lines[i].find("st.global.v4.b32") != std::string::npos) st = int(i);
    }
    QVERIFY(ex2 > 0 && ld > 0 && st > 0);
    QCOMPARE(map[size_t(ld)], 22);
    QCOMPARE(map[size_t(ex2)], 24);  // in silu_affine's body (its .loc says 14)
    QCOMPARE(map[size_t(st)], 25);
    for (size_t i = 1; i < lines.size(); ++i) {
      if (lines[i].find(".loc") != std::string::npos) QCOMPARE(map[i], 0);  // records map nothing
      QVERIFY2(map[i] != 14 && map[i] != 15, lines[i].c_str());
    }
    codegen::SourceMap source;
    source.attachPtx(ptx, "/elsewhere/activation.py");  // matched by base name
    QCOMPARE(source.ptxToScript, map);
    const std::string log = "ptxas /tmp/x.ptx, line " + std::to_string(ex2) +
                            "; warning : something about this instruction\n";
    const auto messages = toolchain::parseToolLog(log, "ptxas", ptx, "activation.py");
    QCOMPARE(messages.size(), size_t(1));
    QCOMPARE(messages[0].ptxLine, ex2);
    QCOMPARE(messages[0].scriptLine, 24);
    // Another script's records map nothing; malformed records are ignored, not fatal.
    for (int v : ptxScriptLines(ptx, "other.py")) QCOMPARE(v, 0);
    QCOMPARE(ptxScriptLines(".file 1 \"a.py\"\n.loc 1 99999999999999 0\nmov.u32 %r1, 0;\n"
                            ".loc 1\n.loc x y\n",
                            "a.py"),
             (std::vector<int>{0, 0, 0, 0, 0, 0}));
  }

  // nvdisasm -gi prints an inlined body's record with its call site; the instruction belongs to
  // the call site, as in PTX. A record without one (nvdisasm -g) keeps its own line.
  void inlinedSassBelongsToItsCallSite() {
    const std::string listing =
        "\t.section\t.text.activation,\"ax\",@progbits\n"
        "\t//## File \"/w/activation.py\", line 22\n"
        "        /*0070*/                   LDG.E.128 R4, desc[UR4][R2.64] ;\n"
        "\t//## File \"/w/activation.py\", line 14 inlined at \"/w/activation.py\", line 24\n"
        "        /*0080*/                   FFMA R0, R4, R5, R6 ;\n"
        "\t//## File \"/w/activation.py\", line 15\n"
        "        /*0090*/              {    FADD R1, R0, R0 ;\n"
        "\t//## File \"/usr/include/x.h\", line 5 inlined at \"/w/activation.py\", line 25\n"
        "        /*00a0*/                   MOV R2, R1 ;\n";
    const auto ins = toolchain::parseSassLineInfo(listing, "activation.py");
    QCOMPARE(ins.size(), size_t(4));
    QCOMPARE(ins[0].scriptLine, 22);
    QCOMPARE(ins[1].line, 14);
    QCOMPARE(ins[1].inlinedAt, 24);
    QCOMPARE(ins[1].scriptLine, 24);
    QCOMPARE(ins[2].scriptLine, 15);  // -g: no call site printed, the record's own line
    QCOMPARE(ins[2].opcode, std::string("FADD"));  // a dual-issue `{` is skipped
    QCOMPARE(ins[3].scriptLine, 25);               // a header's body inlined into the script
    QCOMPARE(toolchain::sassLineMap(listing, "activation.py"),
             (std::vector<int>{0, 0, 0, 22, 0, 24, 0, 15, 0, 25}));
  }

  void sassLineFacts() {
    auto f = toolchain::sassLineFacts(
        "        /*0070*/                   LDG.E.128 R4, desc[UR4][R4.64] ;");
    QVERIFY(f);
    QCOMPARE(f->mnemonic, std::string("LDG"));
    QCOMPARE(f->modifiers, std::string(".E.128"));
    QVERIFY(f->guard.empty());
    QCOMPARE(f->description, std::string("load from global memory"));
    f = toolchain::sassLineFacts("        /*00a0*/              @!P0 BRA `(.L_x_5) ;");
    QVERIFY(f);
    QCOMPARE(f->guard, std::string("@!P0"));
    QCOMPARE(f->mnemonic, std::string("BRA"));
    QCOMPARE(f->description, std::string("branch"));
    f = toolchain::sassLineFacts(
        "        /*0080*/                   HFMA2.MMA R10, -RZ, RZ, 2, 0 ;");
    QVERIFY(f && f->mnemonic == "HFMA2" && f->modifiers == ".MMA");
    f = toolchain::sassLineFacts(
        "        /*0090*/                   QQQX R1, R2 ;");  // not in the table
    QVERIFY(f && f->mnemonic == "QQQX" && f->description.empty());
    QVERIFY(!toolchain::sassLineFacts("\t//## File \"/x/arith_affine_relu.py\", line 9"));
    QVERIFY(!toolchain::sassLineFacts(".L_x_0:"));
    QVERIFY(!toolchain::sassLineFacts("        .global         affine_relu"));
    QVERIFY(!toolchain::sassLineFacts(""));
    QVERIFY(!toolchain::sassLineFacts("   /*0000*/   "));
  }

  void ptxLineFacts() {
    auto f = tirx::ptxLineFacts("\t@%p1 ld.global.v4.b32 \t{%r1, %r2, %r3, %r4}, [%rd4];");
    QVERIFY(f);
    QCOMPARE(f->opcode, std::string("ld.global.v4.b32"));
    QVERIFY(f->instr);
    QCOMPARE(f->instr->vector, 4);
    QVERIFY(f->family && f->family->name == "ld");
    f = tirx::ptxLineFacts(
        "    cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
        "[%r1], [%rd2, {%r3, %r4}], [%r5];");
    QVERIFY(f);
    QCOMPARE(
        f->opcode,
        std::string(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"));
    QVERIFY(f->instr);
    f = tirx::ptxLineFacts("\tsetp.ne.s32 \t%p1, %r1, 0;");  // an instruction outside the table
    QVERIFY(f);
    QCOMPARE(f->opcode, std::string("setp.ne.s32"));
    QVERIFY(!f->instr);
    QVERIFY(!f->family);
    f = tirx::ptxLineFacts("\tmov.u32 \t%r1, %tid.x;");
    QVERIFY(f && f->family && f->family->name == "mov");
    QVERIFY(!tirx::ptxLineFacts("\t.reg .b32 \t%r<5>;"));
    QVERIFY(!tirx::ptxLineFacts("$L__BB0_2:"));
    QVERIFY(!tirx::ptxLineFacts("done:"));
    QVERIFY(!tirx::ptxLineFacts("\t// begin inline asm"));
    QVERIFY(!tirx::ptxLineFacts("{"));
    QVERIFY(!tirx::ptxLineFacts("   "));
    QVERIFY(!tirx::ptxLineFacts("@%p1"));
  }
};

QTEST_APPLESS_MAIN(TestAsmLines)
#include "tst_asm_lines.moc"
