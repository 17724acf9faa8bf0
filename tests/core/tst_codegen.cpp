// Codegen tests: FileCheck-style files under tests/data/codegen/*.py (directives below, matched
// against the generated CUDA and NVRTC's PTX), the test kernels' PTX (the instructions the
// seeds promise), `.loc` records pointing at the right script lines, register slots against the
// brute-force ownership table, and ptxas refusals mapped to the script line.
//
// Directives (in `#` comments of a data file):
//   CHECK: S            S occurs in the CUDA at or after the previous match (next line onwards)
//   CHECK-NEXT: S       S occurs on the line right after the previous match
//   CHECK-NOT: S        S does not occur between the previous match and the next positive match
//                       (or the end)
//   CHECK-COUNT-N: S    S occurs on exactly N lines of the whole output
//   CHECK-PTX…          the same four, against the PTX
//   ARCH: sm_100        compile for that target (default sm_90)
#include <QtTest>
#include <fstream>
#include <sstream>

#include "core/codegen/codegen.h"
#include "core/driver/compile.h"
#include "core/ir/specialize.h"
#include "core/layout/tile_layout.h"
#include "core/sema/sema.h"

using namespace tirx;

namespace {

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> splitLines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string l;
  while (std::getline(in, l)) out.push_back(l);
  return out;
}

struct Directive {
  std::string kind;  // CHECK, CHECK-NEXT, CHECK-NOT, CHECK-COUNT
  int count = 0;
  bool ptx = false;
  std::string text;
  int line = 0;
};

std::vector<Directive> parseDirectives(const std::string& src, std::string& arch) {
  std::vector<Directive> out;
  int n = 0;
  for (const auto& l : splitLines(src)) {
    ++n;
    const auto hash = l.find("# ");
    if (hash != 0) continue;
    std::string body = l.substr(2);
    if (body.rfind("ARCH: ", 0) == 0) {
      arch = body.substr(6);
      continue;
    }
    if (body.rfind("CHECK", 0) != 0) continue;
    const auto colon = body.find(": ");
    if (colon == std::string::npos) continue;
    std::string tag = body.substr(0, colon);
    Directive d;
    d.text = body.substr(colon + 2);
    d.line = n;
    if (tag.rfind("CHECK-PTX", 0) == 0) {
      d.ptx = true;
      tag = "CHECK" + tag.substr(9);
    }
    if (tag.rfind("CHECK-COUNT-", 0) == 0) {
      d.kind = "CHECK-COUNT";
      d.count = std::stoi(tag.substr(12));
    } else {
      d.kind = tag;
    }
    out.push_back(d);
  }
  return out;
}

/// Run the directives of one stream (CUDA or PTX); returns "" or the first failure.
std::string runChecks(const std::vector<Directive>& ds, bool ptx,
                      const std::vector<std::string>& lines) {
  int pos = 0;  // next line to search
  int last = -1;
  std::vector<const Directive*> pendingNot;
  auto fail = [](const Directive& d, const std::string& why) {
    return "line " + std::to_string(d.line) + ": " + d.kind + (d.ptx ? " (PTX)" : "") + " '" +
           d.text + "': " + why;
  };
  for (const auto& d : ds) {
    if (d.ptx != ptx) continue;
    if (d.kind == "CHECK-NOT") {
      pendingNot.push_back(&d);
      continue;
    }
    if (d.kind == "CHECK-COUNT") {
      int c = 0;
      for (const auto& l : lines) c += l.find(d.text) != std::string::npos;
      if (c != d.count) return fail(d, "found " + std::to_string(c) + " lines");
      continue;
    }
    int found = -1;
    if (d.kind == "CHECK-NEXT") {
      if (last + 1 < int(lines.size()) && lines[size_t(last + 1)].find(d.text) != std::string::npos)
        found = last + 1;
      if (found < 0)
        return fail(
            d, "not on the next line; it is '" +
                   (last + 1 < int(lines.size()) ? lines[size_t(last + 1)] : std::string("<end>")) +
                   "'");
    } else {
      for (int i = pos; i < int(lines.size()); ++i)
        if (lines[size_t(i)].find(d.text) != std::string::npos) {
          found = i;
          break;
        }
      if (found < 0) return fail(d, "not found after line " + std::to_string(pos));
    }
    for (const Directive* n : pendingNot)
      for (int i = pos; i < found; ++i)
        if (lines[size_t(i)].find(n->text) != std::string::npos)
          return fail(*n, "found on output line " + std::to_string(i + 1));
    pendingNot.clear();
    last = found;
    pos = found + 1;
  }
  for (const Directive* n : pendingNot)
    for (int i = pos; i < int(lines.size()); ++i)
      if (lines[size_t(i)].find(n->text) != std::string::npos)
        return fail(*n, "found on output line " + std::to_string(i + 1));
  return {};
}

driver::CompileProducts compileFile(const std::string& path, int sm = 90,
                                    const std::string& kernel = {}) {
  const std::string name = path.substr(path.find_last_of('/') + 1);
  driver::CompileOptions o;
  o.sm = sm;
  o.kernel = kernel;
  o.sass = false;
  auto r = driver::compileScript(readText(path), name, o);
  if (!r) qFatal("toolchain unavailable: %s", r.error().text().c_str());
  return *r;
}

int countLines(const std::string& text, const std::string& needle) {
  int c = 0;
  for (const auto& l : splitLines(text)) c += l.find(needle) != std::string::npos;
  return c;
}

/// The PTX line of the first instruction containing `needle`.
int ptxLineOf(const std::string& ptx, const std::string& needle) {
  int n = 0;
  for (const auto& l : splitLines(ptx)) {
    ++n;
    if (l.find(needle) != std::string::npos) return n;
  }
  return 0;
}

const std::string kKernels = std::string(TIRX_SOURCE_DIR) + "/tests/data/kernels/";

}  // namespace

class TestCodegen : public QObject {
  Q_OBJECT

 private slots:
  // Issue 13: the CUDA of a kernel with a symbolic row length does not change with the sizes: the
  // bound copy the GPU executor compiles (ir::bindSymbolicCall) emits the unbound kernel's text,
  // strides read from the size parameters.
  void symbolicStridesSurviveBinding() {
    const FrontEndResult fe = checkScript(
        readText(TIRX_SOURCE_DIR "/tests/data/guides/dynamic_rows.py"), "dynamic_rows.py");
    QVERIFY(fe.ok());
    const std::string unbound = codegen::generateCuda(fe.program).cuda;
    QVERIFY(unbound.find("A[((long long)row * (long long)n + (long long)j)]") != std::string::npos);
    for (const auto& [rows, cols] : std::vector<std::pair<int64_t, int64_t>>{{3, 5}, {2, 130}}) {
      const ir::Kernel& k = *fe.program.findKernel("row_normalize");
      std::vector<ir::KernelArg> args(2);
      for (auto& a : args) a.tensor.shape = {rows, cols};
      ir::Kernel bound;
      Diagnostic why;
      QVERIFY2(ir::bindSymbolicCall(k, args, bound, why), why.message.c_str());
      QCOMPARE(bound.buffers[0].shape, (std::vector<int64_t>{rows, cols}));
      ir::Program p = fe.program;
      for (auto& kk : p.kernels)
        if (kk.name == bound.name) kk = bound;
      QCOMPARE(QString::fromStdString(codegen::generateCuda(p).cuda),
               QString::fromStdString(unbound));
    }
  }

  // Issue 23: IR that sema accepted but the generator cannot lower is a tirx bug. It is reported
  // as E0999 "internal error: … please report", never under a code a user diagnostic carries.
  void cannotLowerIsAnInternalError() {
    const FrontEndResult fe = checkScript(readText(kKernels + "two_kernels.py"), "two_kernels.py");
    QVERIFY(fe.ok());
    const codegen::CodegenResult good = codegen::generateCuda(fe.program);
    QVERIFY(good.diagnostics.empty());
    ir::Program broken = fe.program;
    broken.functions.clear();  // the ewise now names a scalar function the program lacks
    const codegen::CodegenResult r = codegen::generateCuda(broken);
    QCOMPARE(r.diagnostics.size(), size_t(2));  // the ewise calls at lines 21 and 41
    for (const Diagnostic& d : r.diagnostics)
      QCOMPARE(QString::fromStdString(d.code), QString("E0999"));
    const Diagnostic& d = r.diagnostics.front();
    QCOMPARE(d.span.line, 21);  // the ewise call of `activation`
    QCOMPARE(QString::fromStdString(d.message),
             QString("internal error: cannot lower ewise: unknown scalar function (this is a tirx "
                     "bug, please report it with the script)"));
  }

  void checkFiles_data() {
    QTest::addColumn<QString>("file");
    const QDir dir(QString(TIRX_SOURCE_DIR) + "/tests/data/codegen");
    const auto files = dir.entryList({"*.py"}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 5);
    for (const auto& f : files) QTest::newRow(f.toUtf8().constData()) << dir.filePath(f);
  }

  void checkFiles() {
    QFETCH(QString, file);
    const std::string path = file.toStdString();
    std::string arch = "sm_90";
    const auto ds = parseDirectives(readText(path), arch);
    QVERIFY2(!ds.empty(), "no CHECK directives");
    const auto p = compileFile(path, parseArch(arch));
    QVERIFY2(p.ok, formatGcc(p.diagnostics, path).c_str());
    std::string e = runChecks(ds, false, splitLines(p.cuda));
    QVERIFY2(e.empty(), (e + "\n--- CUDA ---\n" + p.cuda).c_str());
    e = runChecks(ds, true, splitLines(p.ptx));
    QVERIFY2(e.empty(), (e + "\n--- PTX ---\n" + p.ptx).c_str());
  }

  void checkerCanFail() {
    std::string arch;
    const auto ds =
        parseDirectives("# CHECK: a\n# CHECK-NEXT: c\n# CHECK-COUNT-2: x\n# CHECK-NOT: zz\n", arch);
    QCOMPARE(ds.size(), size_t(4));
    QVERIFY(runChecks(ds, false, {"a", "c", "x", "x"}).empty());
    QVERIFY(!runChecks(ds, false, {"a", "b", "c", "x", "x"}).empty());   // NEXT fails
    QVERIFY(!runChecks(ds, false, {"a", "c", "x"}).empty());             // COUNT fails
    QVERIFY(!runChecks(ds, false, {"a", "c", "x", "x", "zz"}).empty());  // NOT fails
  }

  void setmaxnregHonoured() {
    // ptxas allocates the setmaxnreg.inc budget (232) for a 256-thread kernel only when the
    // register count at entry is fixed (__launch_bounds__(256, 1)); with __launch_bounds__(256) it
    // reported C7508 "'setmaxnreg' ignored" and 10 registers (decision BAR-2).
    const auto p =
        compileFile(std::string(TIRX_SOURCE_DIR) + "/tests/data/codegen/named_barrier.py");
    QVERIFY2(p.ok, formatGcc(p.diagnostics, "named_barrier.py").c_str());
    for (const Diagnostic& d : p.diagnostics)
      QVERIFY2(d.message.find("setmaxnreg") == std::string::npos, d.message.c_str());
    QCOMPARE(p.resources.size(), size_t(1));
    QCOMPARE(p.resources[0].registers, 232);
  }

  void noPinBeforeTheFirstWgmma() {
    // Decision SCHED-1: accumulators are pinned after a wgmma.wait_group only once a wgmma (or
    // one in a loop around the wait) has written them; pinning acc at the wait that precedes its
    // first wgmma read an unset array, which NVRTC reported as W0910 on a correct kernel.
    const auto p =
        compileFile(std::string(TIRX_SOURCE_DIR) + "/tests/data/codegen/sched_plain_asm.py");
    QVERIFY2(p.ok, formatGcc(p.diagnostics, "sched_plain_asm.py").c_str());
    QVERIFY2(p.diagnostics.empty(), formatGcc(p.diagnostics, "sched_plain_asm.py").c_str());
  }

  void activationPtx() {
    const auto p = compileFile(kKernels + "two_kernels.py", 90, "activation");
    QVERIFY2(p.ok, formatGcc(p.diagnostics, "two_kernels.py").c_str());
    QCOMPARE(countLines(p.ptx, "ld.global.v4.b32"), 1);
    QCOMPARE(countLines(p.ptx, "st.global.v4.b32"), 1);
    QCOMPARE(countLines(p.ptx, "ex2.approx"), 4);  // expf of each of the four inlined calls
    QCOMPARE(countLines(p.ptx, "div.rn.f32"), 4);
    QCOMPARE(countLines(p.cuda, "= silu_affine(R["), 4);
    QCOMPARE(countLines(p.ptx, ".entry shared_affine"), 0);
  }

  void affineReluPtx() {
    const auto p = compileFile(kKernels + "affine_relu.py");
    QVERIFY2(p.ok, formatGcc(p.diagnostics, "affine_relu.py").c_str());
    QCOMPARE(countLines(p.ptx, "fma.rn.f32"), 4);
    QCOMPARE(countLines(p.ptx, "max.f32"), 4);
    QCOMPARE(countLines(p.ptx, "ld.global.v4.b32"), 1);
    QCOMPARE(countLines(p.ptx, "st.global.v4.b32"), 1);
    QVERIFY(!p.cubin.empty());
    QCOMPARE(p.resources.size(), size_t(1));
    QCOMPARE(p.resources[0].kernel, std::string("affine_relu"));
    QVERIFY(p.resources[0].registers > 0);
    QCOMPARE(p.resources[0].spillStores, 0);
  }

  void toFloat16Ptx() {
    const auto p = compileFile(kKernels + "to_float16.py");
    QVERIFY2(p.ok, formatGcc(p.diagnostics, "to_float16.py").c_str());
    QCOMPARE(countLines(p.ptx, "cvt.rn.f16.f32"), 4);
    QCOMPARE(countLines(p.ptx, "st.global.v4.b16"), 1);
  }

  void siluCompiles() {
    const auto p = compileFile(kKernels + "silu.py");
    QVERIFY2(p.ok, formatGcc(p.diagnostics, "silu.py").c_str());
    QCOMPARE(countLines(p.ptx, "ld.global.v4.b32"), 1);
    QCOMPARE(countLines(p.ptx, "st.global.v4.b32"), 1);
  }

  // The PTX an apply line became carries a .loc of that line; the ewise body is attributed to the
  // ewise call (inlined_at), and the source map says so both ways.
  void locPointsAtScript() {
    const std::string path = kKernels + "two_kernels.py";
    const auto p = compileFile(path, 90, "activation");
    QVERIFY(p.ok);
    const int ld = ptxLineOf(p.ptx, "ld.global.v4.b32");
    const int st = ptxLineOf(p.ptx, "st.global.v4.b32");
    const int ex = ptxLineOf(p.ptx, "ex2.approx");
    QVERIFY(ld > 0 && st > 0 && ex > 0);
    QCOMPARE(p.map.ptxToScript.at(size_t(ld)), 20);
    QCOMPARE(p.map.ptxToScript.at(size_t(ex)), 21);
    QCOMPARE(p.map.ptxToScript.at(size_t(st)), 22);
    const auto ptx20 = p.map.ptxLinesOf(20);
    QVERIFY(std::find(ptx20.begin(), ptx20.end(), ld) != ptx20.end());
    // CUDA side: line 20's statement is the one asm line.
    const auto cuda20 = p.map.cudaLinesOf(20);
    bool asmFound = false;
    const auto lines = splitLines(p.cuda);
    for (int l : cuda20)
      asmFound = asmFound || lines.at(size_t(l - 1)).find("ld.global.v4.b32") != std::string::npos;
    QVERIFY(asmFound);
    // The raw record: the .loc just above the ld names file 1, line 20.
    int locLine = 0;
    for (int l = ld - 1; l > 0; --l)
      if (splitLines(p.ptx)[size_t(l - 1)].find(".loc") != std::string::npos) {
        locLine = l;
        break;
      }
    QVERIFY(splitLines(p.ptx)[size_t(locLine - 1)].find(" 20 ") != std::string::npos);
  }

  // Register slots are constants and agree with the ownership table for every thread.
  void slotsMatchOwnership() {
    FrontEndResult fe = checkScript(readText(kKernels + "two_kernels.py"), "two_kernels.py");
    QVERIFY(fe.ok());
    const ir::Kernel* k = fe.program.findKernel("activation");
    QVERIFY(k);
    const ir::TileApply* ld = nullptr;
    for (const auto& s : k->body)
      if (s.kind == ir::StmtKind::Apply && !ld) ld = s.apply.get();
    QVERIFY(ld);
    const ir::TensorRef& R = ld->operands[0].tensor;
    const codegen::SlotPlan plan = codegen::planRegisterSlots(R, int(ld->group.size()));
    QVERIFY(plan.allConstant());
    QCOMPARE(plan.slotOf.size(), size_t(4));
    const OwnershipTable table = ownership(R.layout, R.layoutShape);
    for (int64_t t = 0; t < 64; ++t) {
      const auto entries = table.entriesOf(t);
      QCOMPARE(entries.size(), size_t(4));
      for (int64_t a = 0; a < 4; ++a) {
        // Element (w, l, a) of thread t = 32 w + l sits in slot plan.slotOf[a].
        const int64_t flat = t * 4 + a;
        const auto owners = table.ownersOf(flat);
        QCOMPARE(owners.size(), size_t(1));
        QCOMPARE(owners[0].thread, t);
        QCOMPARE(owners[0].slot, *plan.slotOf[size_t(a)]);
      }
    }
    // The memory operand: 4 * tid elements, affine in (warp, lane).
    const std::vector<int64_t> tail = {0};
    auto off = codegen::affineOffset(ld->operands[1].tensor, 2, tail);
    QVERIFY(off.has_value());
    QCOMPARE(off->constant, int64_t(0));
    QCOMPARE(off->coef, (std::vector<int64_t>{128, 4}));
  }

  // A permuted register layout: slots follow the layout, not the logical order.
  void permutedSlots() {
    ir::TensorRef r;
    r.buffer = 0;
    r.scope = ir::MemScope::Local;
    r.shape = {32, 4};
    r.layoutShape = {32, 4};
    r.dimMap = {0, 1};
    r.lo = {nullptr, nullptr};
    r.layout.shard = {{32, 1, "laneid"}, {2, 1, "m"}, {2, 2, "m"}};  // (a0 a1) -> slot a1*2 + a0
    const auto plan = codegen::planRegisterSlots(r, 1);
    QVERIFY(plan.allConstant());
    std::vector<int64_t> got;
    for (const auto& s : plan.slotOf) got.push_back(*s);
    QCOMPARE(got, (std::vector<int64_t>{0, 2, 1, 3}));
  }

  // ptxas refuses a three-input max.f32 below sm_100; the message lands on the script line.
  void max3RefusedAtScriptLine() {
    const std::string path = std::string(TIRX_SOURCE_DIR) + "/tests/data/codegen/max3_sm100.py";
    SemaOptions so;
    so.sm = 100;
    FrontEndResult fe = checkScript(readText(path), "max3_sm100.py", so);
    QVERIFY(fe.ok());
    driver::CompileOptions o;
    o.sm = 90;  // the toolchain target, below what the instruction needs
    o.sass = false;
    auto r = driver::compileProgram(fe.program, "max3_sm100.py", o, readText(path));
    QVERIFY(r.ok());
    QVERIFY(!r->ok);
    bool found = false;
    int applyLine = 0;
    for (const auto& s : fe.program.kernels[0].body)
      if (s.kind == ir::StmtKind::Apply && s.apply->instr.opcode == "max.f32")
        applyLine = s.span.line;
    QVERIFY(applyLine > 0);
    for (const auto& d : r->diagnostics)
      if (d.code == "E0911" && d.message.find("max.f32") != std::string::npos) {
        found = true;
        QCOMPARE(d.span.line, applyLine);
      }
    QVERIFY2(found, formatGcc(r->diagnostics, "max3_sm100.py").c_str());
    o.sm = 100;
    auto ok = driver::compileProgram(fe.program, "max3_sm100.py", o);
    QVERIFY(ok.ok() && ok->ok && !ok->cubin.empty());
  }
};

QTEST_APPLESS_MAIN(TestCodegen)
#include "tst_codegen.moc"
