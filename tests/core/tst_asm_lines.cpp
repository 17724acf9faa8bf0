// What the engine publishes about generated assembly, line by line: the SASS line map from
// nvdisasm -g's `//## File` records (toolchain::sassLineMap, checked on the H200's
// disassembly of arith_affine_relu.py in tests/data/sass), and the instruction on a PTX or SASS
// line with its description (ptxLineFacts from the PTX table, toolchain::sassLineFacts from the
// SASS table) — the Assembly view's hovers, which parse nothing themselves.
#include <QtTest>
#include <fstream>
#include <sstream>

#include "core/codegen/codegen.h"
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
