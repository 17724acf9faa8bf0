// Register facts (core/toolchain/register_facts.h, core/driver/register_estimate.h): the parsers
// of nvdisasm's two listings on real H200 output (tests/data/sass: `nvdisasm -c -g` and
// `nvdisasm -c -plr -lrm count` of the cubins of gemm_wgmma_ws.py, fma.py and wgmma_rs_n256.py,
// CUDA 13.0), their join by address, the per-line aggregation, the IR estimate (checked against
// the measured figures it stands in for) and the budgets, and the compile pipeline's measured path
// through a fake nvdisasm that replays the recorded listings.
//
// The expected figures were read off the fixtures by hand (awk over the `/*ADDR*/` lines, joining
// the `//## File ..., line N` records of the -g listing to the first `| n |` cell of the count
// one): gemm line 87 holds 67 instructions, its four HGMMAs at 0890/0a10/0aa0/0b40 have
// 135/135/134/132 live GPRs and the line's peak is 135 (first reached at the LEA at 0710: equals
// keep the first); the kernel's peak is 145 at 0ea0 (line 97); 96 instructions come from the
// generated .cu helpers; the 9 NOPs of padding (21f0–2270) are in the -g listing only.
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "core/driver/compile.h"
#include "core/driver/register_estimate.h"
#include "core/sema/sema.h"
#include "core/toolchain/register_facts.h"

using namespace tirx;
using toolchain::RegisterSource;

namespace {

std::string readData(const QString& name) {
  QFile f(QStringLiteral(TIRX_SOURCE_DIR "/tests/data/sass/") + name);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(name));
  return f.readAll().toStdString();
}

toolchain::KernelResources resources(const std::string& kernel, int regs, int spillSt = 0,
                                     int spillLd = 0) {
  toolchain::KernelResources r;
  r.kernel = kernel;
  r.registers = regs;
  r.spillStores = spillSt;
  r.spillLoads = spillLd;
  return r;
}

toolchain::RegisterFacts gemmMeasured() {
  return toolchain::measuredRegisterFacts(readData("gemm.g.txt"), readData("gemm.count.txt"),
                                          "gemm_wgmma_ws.py", {resources("gemm_ws", 168)});
}

ir::Program program(const std::string& file) {
  FrontEndResult fe = checkScript(readData(QString::fromStdString(file)), file, {});
  if (!fe.ok()) qFatal("%s does not check", file.c_str());
  return fe.program;
}

/// A listing in nvdisasm's shapes with a spill pair and a second function (addresses restart).
const char* kSpillLines = R"(	.section	.text.k1,"ax",@progbits
	//## File "/x/t.py", line 5
        /*0000*/                   STL [R1], R4 ;
        /*0010*/                   LDL.64 R4, [R1+0x8] ;
	//## File "/x/t.py", line 6
        /*0020*/               @!P0 EXIT ;
	.section	.text.k2,"ax",@progbits
        /*0000*/                   MOV R2, 0x1 ;
	//## File "/x/other.cu", line 6
        /*0010*/                   EXIT ;
)";
const char* kSpillCounts = R"(	.section	.text.k1,"ax",@progbits
        /*0000*/                   STL [R1], R4 ;              // |   40  |        |    1   |         |
        /*0010*/                   LDL.64 R4, [R1+0x8] ;       // |   42  |   1    |        |         |
        /*0020*/               @!P0 EXIT ;                     // |    3  |   1    |        |         |
	.section	.text.k2,"ax",@progbits
        /*0000*/                   MOV R2, 0x1 ;               // |    7  |        |        |         |
        /*0010*/                   EXIT ;                      // |    1  |        |        |         |
)";

}  // namespace

class TestRegisterFacts : public QObject {
  Q_OBJECT

 private slots:
  void lineListingOfGemm() {
    const auto ins = toolchain::parseSassLineInfo(readData("gemm.g.txt"), "gemm_wgmma_ws.py");
    QCOMPARE(ins.size(), size_t(552));
    const auto hgmma =
        std::find_if(ins.begin(), ins.end(), [](const auto& i) { return i.address == 0x890; });
    QVERIFY(hgmma != ins.end());
    QCOMPARE(hgmma->opcode, std::string("HGMMA.64x256x16.F32.BF16"));
    QCOMPARE(hgmma->scriptLine, 87);
    QCOMPARE(hgmma->function, std::string("gemm_ws"));
    QCOMPARE(hgmma->sassLine, 230);  // the listing's own line of /*0890*/
    // A helper line of the generated CUDA is not a script line.
    QCOMPARE(ins[4].address, 0x40);
    QCOMPARE(ins[4].line, 3);
    QCOMPARE(ins[4].scriptLine, 0);
    QVERIFY(ins[4].file.find("tirx_kernel.cu") != std::string::npos);
    // A guard predicate is not the opcode.
    const auto bra =
        std::find_if(ins.begin(), ins.end(), [](const auto& i) { return i.address == 0xa0; });
    QCOMPARE(bra->opcode, std::string("BRA"));
    // Another script name selects no lines.
    for (const auto& i : toolchain::parseSassLineInfo(readData("gemm.g.txt"), "other.py"))
      QCOMPARE(i.scriptLine, 0);
  }

  void liveCountsOfGemm() {
    const auto live = toolchain::parseSassLiveCounts(readData("gemm.count.txt"));
    QCOMPARE(live.size(), size_t(543));
    QCOMPARE(live[0].gpr, 129);  // /*0000*/ LDC R1 — the accumulator is live from the entry
    QCOMPARE(live[0].pred, 0);   // an empty cell is 0
    const auto at = [&](int a) {
      return *std::find_if(live.begin(), live.end(), [&](const auto& i) { return i.address == a; });
    };
    QCOMPARE(at(0x890).gpr, 135);
    QCOMPARE(at(0x890).ugpr, 16);
    QCOMPARE(at(0x890).upred, 1);
    QCOMPARE(at(0xb40).gpr, 132);
    QCOMPARE(at(0xb40).pred, 2);
  }

  void countColumnsFollowTheHeader() {
    // fma uses no predicates: its header names GPR and UGPR only, so the second cell is UGPR.
    const auto live = toolchain::parseSassLiveCounts(readData("fma.count.txt"));
    const auto ffma =
        std::find_if(live.begin(), live.end(), [](const auto& i) { return i.address == 0xb0; });
    QVERIFY(ffma != live.end());
    QCOMPARE(ffma->opcode, std::string("FFMA"));
    QCOMPARE(ffma->gpr, 11);
    QCOMPARE(ffma->ugpr, 2);
    QCOMPARE(ffma->pred, 0);
  }

  void gemmLinesJoined() {
    const auto f = gemmMeasured();
    QCOMPARE(f.source, RegisterSource::Measured);
    QVERIFY2(f.status.find("543 of 552") != std::string::npos, f.status.c_str());
    const auto* l87 = f.findLine(87);
    QVERIFY(l87);
    QCOMPARE(l87->instructions, 67);
    QCOMPARE(l87->maxLive, 135);
    QCOMPARE(l87->peakAddress, 0x710);
    QCOMPARE(l87->kernel, std::string("gemm_ws"));
    QCOMPARE(l87->wgmmas.size(), size_t(4));
    const int addr[] = {0x890, 0xa10, 0xaa0, 0xb40}, live[] = {135, 135, 134, 132};
    for (int i = 0; i < 4; ++i) {
      QCOMPARE(l87->wgmmas[size_t(i)].address, addr[i]);
      QCOMPARE(l87->wgmmas[size_t(i)].live, live[i]);
    }
    QCOMPARE(l87->spillLoads + l87->spillStores, 0);
    QCOMPARE(f.findLine(97)->maxLive, 145);
    QCOMPARE(f.findLine(97)->peakAddress, 0xea0);
    QCOMPARE(f.findLine(96)->maxLive, 144);
    QCOMPARE(f.findLine(63)->maxLive, 2);        // the producer after setmaxnreg.dec 40
    QCOMPARE(f.findLine(71)->instructions, 27);  // the 9 NOPs of padding belong to no line
    QVERIFY(!f.findLine(88));                    // commit_group: no instruction of its own here
    QCOMPARE(f.kernels.size(), size_t(1));
    const auto& k = f.kernels[0];
    QCOMPARE(k.kernel, std::string("gemm_ws"));
    QCOMPARE(k.allocated, 168);
    QCOMPARE(k.maxLive, 145);
    QCOMPARE(k.peakAddress, 0xea0);
    QCOMPARE(k.instructions, 552);
    QCOMPARE(k.unattributed, 96);
    // Every line's peak is no more than the kernel's, and lines are ascending.
    for (size_t i = 0; i < f.lines.size(); ++i) {
      QVERIFY(f.lines[i].maxLive <= k.maxLive);
      if (i) QVERIFY(f.lines[i - 1].line < f.lines[i].line);
    }
  }

  void rsFormHgmmaLive() {
    const auto f = toolchain::measuredRegisterFacts(readData("wgmma_rs_n256.g.txt"),
                                                    readData("wgmma_rs_n256.count.txt"),
                                                    "wgmma_rs_n256.py", {});
    const auto* l = f.findLine(38);
    QVERIFY(l);
    QCOMPARE(l->wgmmas.size(), size_t(4));
    QCOMPARE(l->wgmmas[0].live, 148);
    QCOMPARE(l->wgmmas[3].live, 135);
    QCOMPARE(l->maxLive, 148);
  }

  void spillsAndFunctions() {
    const auto f = toolchain::measuredRegisterFacts(kSpillLines, kSpillCounts, "t.py",
                                                    {resources("k1", 40, 8, 8)});
    QCOMPARE(f.source, RegisterSource::Measured);
    const auto* l5 = f.findLine(5);
    QVERIFY(l5);
    QCOMPARE(l5->spillStores, 1);
    QCOMPARE(l5->spillLoads, 1);  // LDL.64 is a spill load
    QCOMPARE(l5->maxLive, 42);
    QCOMPARE(l5->peakOpcode, std::string("LDL.64"));
    QCOMPARE(f.findLine(6)->maxLive, 3);  // k2's line-6 record is other.cu, not the script
    QCOMPARE(f.findLine(6)->instructions, 1);
    QCOMPARE(f.kernels.size(), size_t(2));
    QCOMPARE(f.kernels[0].kernel, std::string("k1"));
    QCOMPARE(f.kernels[0].spillStoreBytes, 8);
    QCOMPARE(f.kernels[1].kernel, std::string("k2"));
    QCOMPARE(f.kernels[1].maxLive, 7);  // k2's /*0000*/ joined to k2's count, not k1's 40
    QCOMPARE(f.kernels[1].unattributed, 2);
  }

  void mismatchedAndMalformedListings() {
    // The same address with another opcode is left out of the join.
    std::string counts = kSpillCounts;
    counts.replace(counts.find("STL [R1]"), 3, "MOV");
    auto f = toolchain::measuredRegisterFacts(kSpillLines, counts, "t.py", {});
    QVERIFY(f.status.find("disagree") != std::string::npos);
    QCOMPARE(f.findLine(5)->instructions, 1);
    // Nothing joins: not measured, and saying why.
    f = toolchain::measuredRegisterFacts(kSpillLines, "garbage\n/*zz*/ X ;\n", "t.py", {});
    QCOMPARE(f.source, RegisterSource::None);
    QVERIFY(f.lines.empty());
    QVERIFY(!f.status.empty());
    // Broken lines: no crash, no instruction.
    const std::string broken =
        "/*0890*/ HGMMA R24\n/**/ X ;\n/*123456789*/ X ;\n//## File \"a.py\", line\n"
        "/*0010*/ ; // | 1 | 2 |\n/*0020*/ MOV R1 ; // | 99999999 | | | |\n";
    QVERIFY(toolchain::parseSassLineInfo(broken, "a.py").size() <= 2);
    // An address past int and a line record past int are refused / clamped, not overflowed.
    QVERIFY(toolchain::parseSassLineInfo("/*ffffffff*/ MOV R1 ;\n", "a.py").empty());
    const auto big = toolchain::parseSassLineInfo(
        "//## File \"a.py\", line 99999999999999999999\n/*0010*/ MOV R1 ;\n", "a.py");
    QCOMPARE(big.size(), size_t(1));
    QCOMPARE(big[0].scriptLine, 1 << 30);
    for (const auto& i : toolchain::parseSassLiveCounts(broken)) QVERIFY(i.gpr < 1000000);
    QVERIFY(toolchain::parseSassLiveCounts("").empty());
  }

  // The line map of a listing: one entry per listing line, the script line on instruction lines.
  void sassLineMapOfAListing() {
    const std::string listing =
        "\t.section\t.text.k,\"ax\",@progbits\n"
        "//## File \"/tmp/k.py\", line 7\n"
        "        /*0010*/                   HFMA2.MMA R3, -RZ, RZ, 0, 0 ;\n"
        "        /*0020*/                   S2R R0, SR_TID.X ;\n"
        "//## File \"/tmp/k.py\", line 9\n"
        "        /*0030*/                   @P0 BRA 0x40 ;\n"
        "\t.section\t.text.j,\"ax\",@progbits\n"
        "        /*0000*/                   EXIT ;";  // another function before any record
    QCOMPARE(toolchain::sassLineMap(listing, "k.py"),
             (std::vector<int>{0, 0, 0, 7, 7, 0, 9, 0, 0}));
    QCOMPARE(toolchain::sassLineMap(listing, "/elsewhere/k.py"),
             (std::vector<int>{0, 0, 0, 7, 7, 0, 9, 0, 0}));
    QCOMPARE(toolchain::sassLineMap(listing, "other.py"), std::vector<int>(9, 0));
    QCOMPARE(toolchain::sassLineMap("", "k.py"), (std::vector<int>{0}));
  }

  void estimateOfGemm() {
    const ir::Program p = program("gemm_wgmma_ws.py");
    auto f = driver::estimateRegisterFacts(p, {resources("gemm_ws", 168)}, "no nvdisasm");
    driver::applyRegisterBudgets(f, p);
    QCOMPARE(f.source, RegisterSource::Estimate);
    QVERIFY(f.status.find("no nvdisasm") != std::string::npos);
    // acc (64 × 256 f32 over a warpgroup: 128 registers) is live through the K loop (referenced
    // in it and after it), words (64 uint32) from the cvt to the store.
    const auto* l87 = f.findLine(87);
    QCOMPARE(l87->maxLive, 128 + driver::kScalarRegisters);
    QCOMPARE(l87->wgmmas.size(), size_t(1));
    QCOMPARE(f.findLine(83)->maxLive, 128 + driver::kScalarRegisters);  // the loop header too
    QCOMPARE(f.findLine(96)->maxLive, 128 + 64 + driver::kScalarRegisters);
    QCOMPARE(f.findLine(97)->maxLive, 64 + driver::kScalarRegisters);
    QCOMPARE(f.findLine(72)->maxLive, driver::kScalarRegisters);  // the producer holds no tile
    QVERIFY(f.findLine(96)->detail.find("acc 128") != std::string::npos);
    // Budgets: setmaxnreg in force, else ptxas' allocation.
    QCOMPARE(f.findLine(72)->budget, 40);
    QVERIFY(f.findLine(72)->budgetSource.find("setmaxnreg.dec 40 (line 63)") != std::string::npos);
    QCOMPARE(f.findLine(87)->budget, 232);
    QCOMPARE(f.findLine(61)->budget, 168);
    QVERIFY(f.findLine(61)->budgetSource.find("ptxas") != std::string::npos);
  }

  void estimateAgainstMeasured() {
    // The estimate at each wgmma line is within 5 % of the registers nvdisasm measured at the
    // line's first HGMMA (the oracle: the real register allocation on the H200's toolchain).
    struct Case {
      const char* script;
      const char* fixture;
      int line;
    } cases[] = {{"gemm_wgmma_ws.py", "gemm", 87}, {"wgmma_rs_n256.py", "wgmma_rs_n256", 38}};
    for (const auto& c : cases) {
      const auto measured = toolchain::measuredRegisterFacts(
          readData(QString(c.fixture) + ".g.txt"), readData(QString(c.fixture) + ".count.txt"),
          c.script, {});
      const auto est = driver::estimateRegisterFacts(program(c.script), {}, "test");
      const int m = measured.findLine(c.line)->wgmmas.at(0).live;
      const int e = est.findLine(c.line)->maxLive;
      QVERIFY2(std::abs(e - m) * 20 <= m, (std::string(c.script) + ": estimate " +
                                           std::to_string(e) + ", measured " + std::to_string(m))
                                              .c_str());
    }
  }

  void estimateWithoutLoopCarry() {
    // A tile referenced only inside a loop body dies each iteration: not live on the lines before.
    const std::string src = R"(from tvm.script import tirx as T


@T.function
def k(A: T.Tensor((4, 1), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
    a = T.alloc_local((4, 1), "float32", layout="default")
    b = T.alloc_local((8, 1), "float32", layout="default")
    T.cuda.tile.apply(T.ptx["ld.global.f32"], a, A)
    for i in range(4):
        T.cuda.tile.apply(T.ptx["mov.b32"], b[0:4, :], a)
        T.cuda.tile.apply(T.ptx["st.global.f32"], A, b[0:4, :])
    T.cuda.tile.apply(T.ptx["st.global.f32"], A, a)
)";
    FrontEndResult fe = checkScript(src, "k.py", {});
    QVERIFY2(fe.ok(), fe.diagnostics.empty() ? "" : fe.diagnostics[0].message.c_str());
    auto f = driver::estimateRegisterFacts(fe.program, {}, "test");
    driver::applyRegisterBudgets(f, fe.program);
    const int s = driver::kScalarRegisters;
    QCOMPARE(f.findLine(9)->maxLive, 4 + s);       // a only
    QCOMPARE(f.findLine(10)->maxLive, 4 + s);      // the loop header: a crosses it, b does not
    QCOMPARE(f.findLine(11)->maxLive, 4 + 8 + s);  // a and b
    QCOMPARE(f.findLine(13)->maxLive, 4 + s);      // b is dead after the loop
    QCOMPARE(f.findLine(13)->budget, driver::kMaxThreadRegisters);  // no resource report
  }

  void registerFactsChoosesMeasured() {
    const ir::Program p = program("gemm_wgmma_ws.py");
    toolchain::CompileProducts t;
    t.sass = readData("gemm.g.txt");
    t.sassStatus = "nvdisasm";
    t.sassLiveRanges = readData("gemm.count.txt");
    t.resources = {resources("gemm_ws", 168)};
    auto f = driver::registerFacts(p, t, "gemm_wgmma_ws.py");
    QCOMPARE(f.source, RegisterSource::Measured);
    QCOMPARE(f.findLine(87)->budget, 232);
    QCOMPARE(f.findLine(71)->budget, 40);
    QCOMPARE(f.findLine(43)->budget, 168);  // the def line: the kernel's allocation
    // Without the life ranges: the estimate, saying why, and the SASS lines still linked.
    t.sassLiveRanges.clear();
    t.sassLiveStatus = "nvdisasm -plr failed: boom";
    f = driver::registerFacts(p, t, "gemm_wgmma_ws.py");
    QCOMPARE(f.source, RegisterSource::Estimate);
    QVERIFY(f.status.find("boom") != std::string::npos);
    QCOMPARE(f.instructions.size(), size_t(552));
    QCOMPARE(f.findLine(87)->maxLive, 128 + driver::kScalarRegisters);
  }

  void formatMarksEstimates() {
    const ir::Program p = program("gemm_wgmma_ws.py");
    auto est = driver::estimateRegisterFacts(p, {resources("gemm_ws", 168)}, "no nvdisasm");
    driver::applyRegisterBudgets(est, p);
    const std::string e = toolchain::formatRegisterFacts(est);
    QVERIFY(e.find("estimate") != std::string::npos);
    QVERIFY(e.find("    87    ~136     232") != std::string::npos);
    auto m = gemmMeasured();
    driver::applyRegisterBudgets(m, p);
    const std::string t = toolchain::formatRegisterFacts(m);
    QVERIFY(t.find("measured (nvdisasm)") != std::string::npos);
    QVERIFY(t.find('~') == std::string::npos);
    QVERIFY2(
        t.find("    87     135     232     67       0  /*0710*/ LEA | wgmma 135 135 134 132") !=
            std::string::npos,
        t.c_str());
    QVERIFY(t.find("wgmma 135 135 134 132") != std::string::npos);
    QVERIFY(t.find("peak 145 live at /*0ea0*/") != std::string::npos);
  }

  void pipelineWithFakeNvdisasm() {
    // The compile pipeline runs nvdisasm twice (-g, then -plr -lrm count) and joins: a fake
    // nvdisasm replays the recorded fma listings (the real cubin's addresses are the recorded
    // ones: same script, same toolkit major).
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString data = QStringLiteral(TIRX_SOURCE_DIR "/tests/data/sass/");
    QFile fake(dir.filePath("nvdisasm"));
    QVERIFY(fake.open(QIODevice::WriteOnly));
    fake.write(("#!/bin/sh\ncase \"$*\" in\n  *-plr*) cat '" + data +
                "fma.count.txt' ;;\n"
                "  *-g*) cat '" +
                data + "fma.g.txt' ;;\n  *) exit 3 ;;\nesac\n")
                   .toUtf8());
    fake.close();
    fake.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    const QByteArray oldPath = qgetenv("PATH");
    qputenv("PATH", dir.path().toUtf8() + ":" + oldPath);
    driver::CompileOptions o;
    o.useCache = false;
    auto r = driver::compileScript(readData("fma.py"), "fma.py", o);
    qputenv("PATH", oldPath);
    QVERIFY(r);
    QVERIFY(r->ok);
    QCOMPARE(r->sassStatus, std::string("nvdisasm"));
    QCOMPARE(r->registers.source, RegisterSource::Measured);
    QCOMPARE(r->registers.findLine(12)->maxLive, 11);
    QCOMPARE(r->registers.findLine(11)->instructions, 7);
    QCOMPARE(r->registers.kernels.at(0).allocated, r->resources.at(0).registers);
  }
};

QTEST_GUILESS_MAIN(TestRegisterFacts)
#include "tst_register_facts.moc"
