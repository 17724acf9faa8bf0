// The simulator's fault detection on small scripts (tests/data/sim): a shared-memory race naming
// both lines, an out-of-bounds store, reads of never-written registers and shared memory, and a
// barrier not reached by every thread (built by moving a barrier into a branch in the IR, since
// sema rejects that spelling statically). Also checks that a correct kernel runs fault-free.
#include <QtTest>
#include <fstream>
#include <sstream>

#include "core/sema/sema.h"
#include "core/sim/simulator.h"
#include "core/verify/array.h"

using namespace tirx;

namespace {

std::string readData(const std::string& name) {
  std::ifstream in(std::string(TIRX_SOURCE_DIR) + "/tests/data/sim/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// 1-based line of the first line containing `needle`.
int lineOf(const std::string& text, const std::string& needle) {
  std::istringstream in(text);
  std::string l;
  for (int n = 1; std::getline(in, l); ++n)
    if (l.find(needle) != std::string::npos) return n;
  return -1;
}

std::vector<ir::KernelArg> zeroArgs(const ir::Kernel& k) {
  std::vector<ir::KernelArg> args;
  for (const auto& p : k.params) {
    ir::KernelArg a;
    const auto& b = k.buffers[p.buffer];
    a.tensor.dtype = b.dtype;
    a.tensor.shape = b.shape;
    a.tensor.data.assign(a.tensor.numel() * ir::dtypeBytes(b.dtype), 0);
    args.push_back(a);
  }
  return args;
}

struct Run {
  ir::RunOutcome out;
  std::string text;
};

Run simulate(const std::string& file, ir::Program* mutated = nullptr) {
  Run r;
  r.text = readData(file);
  FrontEndResult fe = checkScript(r.text, file);
  if (!fe.ok()) qFatal("%s", formatGcc(fe.diagnostics, file).c_str());
  ir::Program& p = mutated ? *mutated : fe.program;
  if (mutated) *mutated = fe.program;
  sim::Simulator s;
  auto args = zeroArgs(p.kernels.at(0));
  auto res = s.run(p, p.kernels.at(0).name, args);
  if (!res.ok()) qFatal("%s", res.error().text().c_str());
  r.out = *res;
  return r;
}

}  // namespace

class TestSimFaults : public QObject {
  Q_OBJECT
 private slots:
  void race() {
    const Run r = simulate("race.py");
    const int st = lineOf(r.text, "st.shared.v4.b32"), rd = lineOf(r.text, "Out[tid, j] = S[");
    QVERIFY(st > 0 && rd > 0);
    QVERIFY(r.out.ran);  // a race does not stop the run
    bool sawStoreFirst = false, sawReadFirst = false;
    for (const auto& f : r.out.faults) {
      QCOMPARE(f.kind, std::string("race"));
      QCOMPARE(f.diag.code, std::string("E0701"));
      QCOMPARE(f.diag.notes.size(), size_t{1});
      const int a = f.diag.span.line, b = f.diag.notes[0].span.line;
      if (a == st && b == rd) sawStoreFirst = true;
      if (a == rd && b == st) sawReadFirst = true;
      QVERIFY2(f.diag.message.find("line " + std::to_string(st)) != std::string::npos,
               f.diag.message.c_str());
      QVERIFY2(f.diag.message.find("line " + std::to_string(rd)) != std::string::npos,
               f.diag.message.c_str());
    }
    QVERIFY(sawStoreFirst);  // thread t+1's store after thread t read its row
    QVERIFY(sawReadFirst);   // thread 63 reads row 0 after thread 0 stored it
  }

  void noRaceWithBarrier() {
    std::ifstream in(std::string(TIRX_SOURCE_DIR) + "/tests/data/kernels/two_kernels.py");
    std::stringstream ss;
    ss << in.rdbuf();
    FrontEndResult fe = checkScript(ss.str(), "two_kernels.py");
    QVERIFY(fe.ok());
    sim::Simulator s;
    for (const auto& k : fe.program.kernels) {
      auto args = zeroArgs(k);
      auto res = s.run(fe.program, k.name, args);
      QVERIFY(res.ok());
      QVERIFY(res->ran);
      QVERIFY2(res->faults.empty(), res->faults.empty() ? "" : res->faults[0].diag.message.c_str());
    }
  }

  void outOfBoundsStore() {
    const Run r = simulate("oob.py");
    QVERIFY(!r.out.ran);
    QCOMPARE(r.out.faults.size(), size_t{1});
    const auto& f = r.out.faults[0];
    QCOMPARE(f.kind, std::string("oob"));
    QCOMPARE(f.diag.code, std::string("E0710"));
    QCOMPARE(f.diag.span.line, lineOf(r.text, "Out[tid + 1, j]"));
    QVERIFY(f.diag.message.find("thread 63") != std::string::npos);
    QVERIFY(f.diag.message.find("index 64") != std::string::npos);
  }

  void uninitialisedRegister() {
    const Run r = simulate("uninit.py");
    QVERIFY(r.out.ran);
    QCOMPARE(r.out.faults.size(), size_t{1});
    QCOMPARE(r.out.faults[0].kind, std::string("uninit"));
    QCOMPARE(r.out.faults[0].diag.code, std::string("E0720"));
    QCOMPARE(r.out.faults[0].diag.span.line, lineOf(r.text, "T.cuda.tile.ewise"));
    QVERIFY(r.out.faults[0].diag.message.find("R[0]") != std::string::npos);
  }

  void uninitialisedShared() {
    const Run r = simulate("uninit_shared.py");
    QCOMPARE(r.out.faults.size(), size_t{1});
    QCOMPARE(r.out.faults[0].diag.code, std::string("E0721"));
    QCOMPARE(r.out.faults[0].diag.span.line, lineOf(r.text, "Out[tid] = S[tid]"));
  }

  void barrierNotReachedByAll() {
    // deadlock.py without its `if` is legal; move the barrier into a thread-dependent branch.
    const std::string text =
        "from tvm.script import tirx as T\n"
        "@T.function\n"
        "def k(A: T.Tensor((64,), \"float32\"), Out: T.Tensor((64,), \"float32\")):\n"
        "    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))\n"
        "    tid = T.cuda.thread_idx(\"x\")\n"
        "    if tid < 32:\n"
        "        Out[tid] = A[tid]\n"
        "    T.cuda.cta_sync()\n"
        "    Out[tid] = A[tid]\n";
    FrontEndResult fe = checkScript(text, "k.py");
    QVERIFY2(fe.ok(), formatGcc(fe.diagnostics, "k.py").c_str());
    auto& body = fe.program.kernels[0].body;
    int ifAt = -1, barAt = -1;
    for (size_t i = 0; i < body.size(); ++i) {
      if (body[i].kind == ir::StmtKind::If) ifAt = static_cast<int>(i);
      if (body[i].kind == ir::StmtKind::Barrier) barAt = static_cast<int>(i);
    }
    QVERIFY(ifAt >= 0 && barAt > ifAt);
    body[ifAt].body.push_back(body[barAt]);
    body.erase(body.begin() + barAt);
    sim::Simulator s;
    auto args = zeroArgs(fe.program.kernels[0]);
    auto res = s.run(fe.program, "k", args);
    QVERIFY(res.ok());
    QVERIFY(!res->ran);
    QCOMPARE(res->faults.size(), size_t{1});
    QCOMPARE(res->faults[0].kind, std::string("deadlock"));
    QCOMPARE(res->faults[0].diag.code, std::string("E0730"));
    QCOMPARE(res->faults[0].diag.span.line, 8);
    QVERIFY(res->faults[0].diag.message.find("32 of 64") != std::string::npos);
  }

  void argumentMismatch() {
    FrontEndResult fe = checkScript(readData("oob.py"), "oob.py");
    QVERIFY(fe.ok());
    sim::Simulator s;
    auto args = zeroArgs(fe.program.kernels[0]);
    args[0].tensor.shape = {32, 4};
    auto res = s.run(fe.program, "shift_down", args);
    QVERIFY(res.ok());
    QVERIFY(!res->ran);
    QCOMPARE(res->faults[0].diag.code, std::string("E0770"));
    QVERIFY(!s.run(fe.program, "nope", args).ok());
  }

  void provenance() {
    std::ifstream in(std::string(TIRX_SOURCE_DIR) + "/tests/data/kernels/affine_relu.py");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    FrontEndResult fe = checkScript(text, "a.py");
    QVERIFY(fe.ok());
    sim::Simulator s;
    auto args = zeroArgs(fe.program.kernels[0]);
    const auto res = s.run(fe.program, "affine_relu", args);
    QVERIFY(res.ok());
    // B[1, 3, 2] is stored by warp 1 lane 3 from register slot 2, last written by max.f32; the
    // outcome of the run carries who wrote it, the register tile by its buffer id.
    const auto& o = res->provenance.args[1][1 * 128 + 3 * 4 + 2];
    QCOMPARE(o.thread, 35);
    QCOMPARE(o.regSlot, 2);
    QCOMPARE(o.storeLine, lineOf(text, "T.ptx[\"st.global.v4.b32\"]"));
    QCOMPARE(o.regLine, lineOf(text, "T.ptx[\"max.f32\"]"));
    QCOMPARE(res->provenance.bufferNames.at(size_t(o.regBuffer)), std::string("registers"));
    QVERIFY(res->provenance.args[0].empty());  // A is never stored to: no owner table
  }
};

QTEST_APPLESS_MAIN(TestSimFaults)
#include "tst_sim_faults.moc"
