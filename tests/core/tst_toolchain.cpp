// Toolchain tests (no GPU needed): NVRTC → PTX → nvJitLink → cubin with the resource report, the
// compile cache (a hit is returned without recompiling and fast), NVRTC errors located through
// #line, ptxas refusals mapped to the script line through .loc, the resource-log parser, and a
// clean "no disassembler" status where none is installed.
#include <QtTest>
#include <chrono>
#include <fstream>
#include <sstream>

#include "core/driver/compile.h"
#include "core/sema/sema.h"
#include "core/toolchain/toolchain.h"

using namespace tirx;

namespace {

const char* kGood = R"(#line 3 "t.py"
extern "C" __global__ void __launch_bounds__(32) add1(float* a) {
#line 4 "t.py"
  a[threadIdx.x] += 1.0f;
#line 3 "t.py"
}
)";

}  // namespace

class TestToolchain : public QObject {
  Q_OBJECT

 private slots:
  void wgmmaNotesFromPtxas() {
    // Recorded from an H200 build of spec/tc-verify (h200_verify_and_perf.log): ptxas reports the
    // injected warpgroup.arrive (with a PTX line) and the serialised pipeline (with a function) as
    // info lines; both become warnings, the first mapped through the PTX's .loc records.
    const std::string log =
        "ptxas info    : 0 bytes gmem\n"
        "ptxas info    : (C7519) warpgroup.arrive is injected in around line 5 by compiler to "
        "allow use of registers in GMMA in function 'k'\n"
        "ptxas info    : (C7520) Potential Performance Loss: wgmma.mma_async instructions are "
        "serialized due to program dependence on compiler-inserted WG.AR in divergent path in the "
        "function 'k'\n"
        "ptxas info    : Used 90 registers, used 1 barriers\n";
    const std::string ptx = "//\n.file 1 \"w.py\"\n.entry k {\n.loc 1 31 5\nmov.b32 %r1, 0;\n}\n";
    const auto msgs = toolchain::parseToolLog(log, "ptxas", ptx, "w.py");
    QCOMPARE(msgs.size(), size_t(2));
    QVERIFY(!msgs[0].error && !msgs[1].error);
    QCOMPARE(msgs[0].ptxLine, 5);
    QCOMPARE(msgs[0].scriptLine, 31);
    QCOMPARE(msgs[0].function, std::string("k"));
    QVERIFY(msgs[0].text.rfind("(C7519) warpgroup.arrive is injected", 0) == 0);
    QCOMPARE(msgs[1].ptxLine, 0);
    QCOMPARE(msgs[1].scriptLine, 0);
    QCOMPARE(msgs[1].function, std::string("k"));
    QVERIFY(
        msgs[1].text.find(
            "(C7520) Potential Performance Loss: wgmma.mma_async instructions are serialized") ==
        0);
    // Other info lines (resources) are not messages.
    QCOMPARE(
        toolchain::parseToolLog("ptxas info    : (C7000) something else\n", "ptxas", "", "").size(),
        size_t(0));
  }

  void wgmmaNotesAtTheScriptLine() {
    // A note that names only the function lands on the kernel's first wgmma statement and becomes
    // a warning there (W0911): a serialised kernel never passes silently.
    std::ifstream in(std::string(TIRX_SOURCE_DIR) + "/resources/examples/wgmma_m64n64k16.py");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string src = ss.str();
    FrontEndResult fe = checkScript(src, "wgmma_m64n64k16.py");
    QVERIFY(fe.ok());
    int wgmmaLine = 0, n = 0;
    std::istringstream lines(src);
    for (std::string l; std::getline(lines, l);) {
      ++n;
      if (!wgmmaLine && l.find("T.ptx[\"wgmma.mma_async") != std::string::npos) wgmmaLine = n;
    }
    QVERIFY(wgmmaLine > 0);
    std::vector<toolchain::ToolMessage> msgs = toolchain::parseToolLog(
        "ptxas info    : (C7520) Potential Performance Loss: wgmma.mma_async instructions are "
        "serialized due to program "
        "dependence on compiler-inserted WG.AR in divergent path in the function "
        "'wgmma_m64n64k16'\n"
        "ptxas info    : (C7520) Potential Performance Loss: wgmma.mma_async instructions are "
        "serialized due to program "
        "dependence on compiler-inserted WG.AR in divergent path in the function 'other_kernel'\n",
        "ptxas", "", "");
    QCOMPARE(msgs.size(), size_t(2));
    driver::placeWgmmaNotes(msgs, fe.program);
    QCOMPARE(msgs[0].scriptLine, wgmmaLine);
    QCOMPARE(msgs[1].scriptLine, 0);  // no such kernel: left without a line
    const Diagnostics d = driver::toolDiagnostics(msgs, src);
    QCOMPARE(d.size(), size_t(2));
    QCOMPARE(d[0].code, std::string("W0911"));
    QCOMPARE(d[0].severity, Severity::Warning);
    QCOMPARE(d[0].span.line, wgmmaLine);
    QVERIFY(d[0].message.find("(C7520) Potential Performance Loss") != std::string::npos);
  }

  void compilesToPtxAndCubin() {
    toolchain::clearCompileCache();
    toolchain::CompileOptions o;
    o.sass = false;
    auto r = toolchain::compile(kGood, o);
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().text().c_str());
    QVERIFY2(r->ok, r->nvrtcLog.c_str());
    QVERIFY(r->ptx.find(".visible .entry add1") != std::string::npos);
    QVERIFY(r->ptx.find(".target sm_90") != std::string::npos);
    QVERIFY(!r->cubin.empty());
    QCOMPARE(r->resources.size(), size_t(1));
    QCOMPARE(r->resources[0].kernel, std::string("add1"));
    QVERIFY(r->resources[0].registers > 0);
    QCOMPARE(r->resources[0].stackBytes, 0);
    QVERIFY(!r->cacheHit);
    QVERIFY(toolchain::toolkitVersion().find("NVRTC 13.") == 0);
  }

  void cacheHit() {
    toolchain::clearCompileCache();
    toolchain::CompileOptions o;
    o.sass = false;
    auto a = toolchain::compile(kGood, o);
    QVERIFY(a.ok() && a->ok && !a->cacheHit);
    QCOMPARE(toolchain::compileCacheSize(), size_t(1));
    const auto t0 = std::chrono::steady_clock::now();
    auto b = toolchain::compile(kGood, o);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    QVERIFY(b.ok() && b->cacheHit);
    QCOMPARE(b->ptx, a->ptx);
    QCOMPARE(b->cubin, a->cubin);
    QVERIFY2(ms < 5.0, std::to_string(ms).c_str());  // budget 1 ms; slack for a loaded machine
    // A different target is a different entry.
    o.sm = 100;
    auto c = toolchain::compile(kGood, o);
    QVERIFY(c.ok() && !c->cacheHit);
    QVERIFY(c->ptx.find(".target sm_100") != std::string::npos);
    QCOMPARE(toolchain::compileCacheSize(), size_t(2));
  }

  void nvrtcErrorAtScriptLine() {
    toolchain::CompileOptions o;
    const std::string src =
        "#line 9 \"bad.py\"\nextern \"C\" __global__ void k() { undefined_thing(); }\n";
    auto r = toolchain::compile(src, o);
    QVERIFY(r.ok());
    QVERIFY(!r->ok);
    QVERIFY(!r->messages.empty());
    QCOMPARE(r->messages[0].tool, std::string("nvrtc"));
    QCOMPARE(r->messages[0].scriptLine, 9);
    QCOMPARE(r->messages[0].file, std::string("bad.py"));
    QVERIFY(r->messages[0].text.find("undefined_thing") != std::string::npos);
  }

  void ptxasRefusalMappedThroughLoc() {
    const std::string src =
        "#line 20 \"m.py\"\n"
        "extern \"C\" __global__ void m(float* a) {\n"
        "#line 21 \"m.py\"\n"
        "  float x = a[0];\n"
        "#line 22 \"m.py\"\n"
        "  asm volatile(\"max.f32 %0, %1, %2, %3;\" : \"=f\"(x) : \"f\"(x), \"f\"(a[1]), "
        "\"f\"(0.0f));\n"
        "#line 23 \"m.py\"\n"
        "  a[0] = x;\n"
        "#line 20 \"m.py\"\n"
        "}\n";
    toolchain::CompileOptions o;
    o.sass = false;
    auto r = toolchain::compile(src, o);
    QVERIFY(r.ok());
    QVERIFY(!r->ok);
    bool found = false;
    for (const auto& m : r->messages)
      if (m.tool == "ptxas" && m.error && m.text.find("max.f32") != std::string::npos) {
        found = true;
        QVERIFY(m.ptxLine > 0);
        QCOMPARE(m.scriptLine, 22);
      }
    QVERIFY2(found, r->linkLog.c_str());
    o.sm = 100;
    auto ok = toolchain::compile(src, o);
    QVERIFY(ok.ok() && ok->ok && !ok->cubin.empty());
  }

  void parsesResourceLog() {
    const std::string log =
        "ptxas info    : 0 bytes gmem\n"
        "ptxas info    : Compiling entry function 'k1' for 'sm_90'\n"
        "ptxas info    : Function properties for k1\n"
        "    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
        "ptxas info    : Used 40 registers, used 1 barriers, 1024 bytes smem, 352 bytes cmem[0]\n"
        "ptxas info    : Compiling entry function 'k2' for 'sm_90'\n"
        "ptxas info    : Function properties for k2\n"
        "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 8 registers, used 0 barriers, 352 bytes cmem[0]\n";
    const auto r = toolchain::parseResourceLog(log);
    QCOMPARE(r.size(), size_t(2));
    QCOMPARE(r[0].kernel, std::string("k1"));
    QCOMPARE(r[0].registers, 40);
    QCOMPARE(r[0].stackBytes, 16);
    QCOMPARE(r[0].spillStores, 8);
    QCOMPARE(r[0].spillLoads, 4);
    QCOMPARE(r[0].sharedBytes, 1024);
    QCOMPARE(r[0].barriers, 1);
    QCOMPARE(r[0].constantBytes, 352);
    QCOMPARE(r[1].registers, 8);
    QCOMPARE(r[1].sharedBytes, 0);
  }

  // The one-line form bundles record and the studio shows, read back when a bundle is opened;
  // an older bundle's line (no constant/barrier fields) reads with those unknown and omitted.
  void resourceLineRoundTrip() {
    toolchain::KernelResources k;
    k.kernel = "gemm_ws";
    k.registers = 168;
    k.sharedBytes = 66560;
    k.stackBytes = 16;
    k.spillStores = 8;
    k.spillLoads = 4;
    k.constantBytes = 352;
    k.barriers = 1;
    const std::string line = toolchain::resourceLine(k);
    QCOMPARE(line,
             std::string("gemm_ws: 168 registers, 66560 bytes shared, 16 bytes stack, 8 spill "
                         "stores, 4 spill loads, 352 bytes constant, 1 barriers"));
    const auto back = toolchain::parseResourceLine(line);
    QVERIFY(back);
    QCOMPARE(back->kernel, k.kernel);
    QCOMPARE(back->registers, 168);
    QCOMPARE(back->sharedBytes, 66560);
    QCOMPARE(back->spillLoads, 4);
    QCOMPARE(back->barriers, 1);
    const std::string old =
        "activation: 24 registers, 0 bytes shared, 0 bytes stack, 0 spill stores, 0 spill loads";
    const auto o = toolchain::parseResourceLine(old);
    QVERIFY(o);
    QCOMPARE(o->registers, 24);
    QCOMPARE(o->barriers, -1);
    QCOMPARE(toolchain::resourceLine(*o), old);
    for (const char* bad : {"", "k", ": 3 registers", "k: registers", "k: 3 bananas",
                            "k: 0 bytes shared", "k: 3x registers"})
      QVERIFY2(!toolchain::parseResourceLine(bad), bad);
  }
  void sassStatusWithoutDisassembler() {
    toolchain::CompileOptions o;
    o.useCache = false;
    auto r = toolchain::compile(kGood, o);
    QVERIFY(r.ok() && r->ok);
    if (toolchain::findDisassembler().empty()) {
      QVERIFY(r->sass.empty());
      QVERIFY(r->sassStatus.find("no disassembler found") == 0);
    } else {
      QVERIFY(r->sass.find("add1") != std::string::npos);
    }
  }
};

QTEST_APPLESS_MAIN(TestToolchain)
#include "tst_toolchain.moc"
