// The simulator on inputs that used to crash it, compute garbage or stop it for the wrong reason
// (tests/data/sim): nested scalar-function calls, more than 16 ewise arguments, loads and stores of
// rank > 8 / 12, integers beyond int32 and at the int64 extremes, the work budget (work units,
// wall time and cancellation replace the per-thread "runaway loop" limit) and the memory limit
// (no std::bad_alloc for a huge tensor). Each case failed before its fix.
#include <QtTest>
#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/sema/sema.h"
#include "core/sim/simulator.h"

using namespace tirx;

namespace {

std::string readData(const std::string& name) {
  std::ifstream in(std::string(TIRX_SOURCE_DIR) + "/tests/data/sim/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int lineOf(const std::string& text, const std::string& needle) {
  std::istringstream in(text);
  std::string l;
  for (int n = 1; std::getline(in, l); ++n)
    if (l.find(needle) != std::string::npos) return n;
  return -1;
}

FrontEndResult front(const std::string& text, const std::string& name) {
  FrontEndResult fe = checkScript(text, name);
  if (!fe.ok()) qFatal("%s", formatGcc(fe.diagnostics, name).c_str());
  return fe;
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

template <typename T>
T elem(const ir::KernelArg& a, int64_t i) {
  T v;
  std::memcpy(&v, a.tensor.data.data() + i * sizeof(T), sizeof(T));
  return v;
}

template <typename T>
void setElem(ir::KernelArg& a, int64_t i, T v) {
  std::memcpy(a.tensor.data.data() + i * sizeof(T), &v, sizeof(T));
}

std::string faultText(const ir::RunOutcome& o) {
  std::string s;
  for (const auto& f : o.faults) s += f.diag.code + " " + f.diag.message + "\n";
  return s;
}

}  // namespace

class TestSimRobust : public QObject {
  Q_OBJECT
 private slots:
  void nestedScalarCall() {
    FrontEndResult fe = front(readData("nested_call.py"), "nested_call.py");
    auto args = zeroArgs(fe.program.kernels[0]);
    for (int i = 0; i < 256; ++i)
      setElem<float>(args[0], i, -2.0f + 0.25f * static_cast<float>(i % 17));
    sim::Simulator s;
    auto res = s.run(fe.program, "k", args);
    QVERIFY(res.ok());
    QVERIFY2(res->ran && res->faults.empty(), faultText(*res).c_str());
    for (int i = 0; i < 256; ++i) {
      const float x = elem<float>(args[0], i), y = x + 1.0f;
      QCOMPARE(elem<float>(args[1], i), y * 2.0f + y);  // outer(x) = inner(x + 1) + (x + 1)
    }
  }

  void manyArgumentsAndHighRank() {
    FrontEndResult fe = front(readData("many_args.py"), "many_args.py");
    auto args = zeroArgs(fe.program.kernels[0]);
    for (int i = 0; i < 32; ++i) setElem<float>(args[0], i, static_cast<float>(i));
    for (int i = 0; i < 4; ++i) setElem<float>(args[2], i, 10.0f + static_cast<float>(i));
    sim::Simulator s;
    auto res = s.run(fe.program, "k", args);
    QVERIFY(res.ok());
    QVERIFY2(res->ran && res->faults.empty(), faultText(*res).c_str());
    // weighted(a0, 1, 2, ..., 17) = a0 + 16 * 100 + 17 * 1000: arguments 17 and 18 arrive.
    for (int i = 0; i < 32; ++i)
      QCOMPARE(elem<float>(args[1], i), static_cast<float>(i) + 1600.0f + 17000.0f);
    // D13[..., 3] = D9[..., 2]: the ninth index of the load and the thirteenth of the store count.
    for (int i = 0; i < 4; ++i) QCOMPARE(elem<float>(args[3], i), i == 3 ? 12.0f : 0.0f);
  }

  void integersBeyondInt32() {
    const std::string text = readData("int_limits.py");
    FrontEndResult fe = front(text, "int_limits.py");
    auto args = zeroArgs(fe.program.kernels[0]);
    sim::Simulator s;
    auto res = s.run(fe.program, "k", args);
    QVERIFY(res.ok());
    QVERIFY(!res->ran);  // A[big] is out of bounds: a fault, not a store to element 0
    QCOMPARE(res->faults.size(), size_t{1});
    QCOMPARE(res->faults[0].diag.code, std::string("E0710"));
    QCOMPARE(res->faults[0].diag.span.line, lineOf(text, "A[big] = "));
    QVERIFY2(res->faults[0].diag.message.find("index 4294967296") != std::string::npos,
             res->faults[0].diag.message.c_str());
    QCOMPARE(elem<float>(args[0], 0), 1.0f);
    QCOMPARE(elem<int64_t>(args[1], 0), int64_t{3});  // range(2, 2^32 + 2) ran until the break
    QCOMPARE(elem<int64_t>(args[1], 1), int64_t{2});  // 2147483640, 2147483645, then it ends
    const int64_t lo = std::numeric_limits<int64_t>::min();
    QCOMPARE(elem<int64_t>(args[1], 2), lo);  // INT64_MIN // -1 wraps (div.s64), no SIGFPE
    QCOMPARE(elem<int64_t>(args[1], 3), int64_t{0});
    QCOMPARE(elem<int64_t>(args[1], 4), lo);  // -INT64_MIN and |INT64_MIN| wrap (neg.s64, abs.s64)
    QCOMPARE(elem<int64_t>(args[1], 5), lo);
  }

  void longFiniteLoopRuns() {
    // 52 M loop statements: past the old per-thread limit of 50 M ("runaway loop").
    FrontEndResult fe = front(readData("budget_loop.py"), "budget_loop.py");
    auto args = zeroArgs(*fe.program.findKernel("finite"));
    sim::Simulator s;
    auto res = s.run(fe.program, "finite", args);
    QVERIFY(res.ok());
    QVERIFY2(res->ran && res->faults.empty(), faultText(*res).c_str());
    QCOMPARE(elem<int32_t>(args[0], 0), 7);
  }

  void budgetStopsAtTheLine() {
    const std::string text = readData("budget_loop.py");
    FrontEndResult fe = front(text, "budget_loop.py");
    BudgetLimits limits;
    limits.maxWork = 100'000;
    WorkBudget budget(limits);
    sim::SimOptions o;
    o.budget = &budget;
    sim::Simulator s(o);
    auto args = zeroArgs(*fe.program.findKernel("endless"));
    auto res = s.run(fe.program, "endless", args);
    QVERIFY(res.ok());
    QVERIFY(!res->ran);
    QCOMPARE(res->faults.size(), size_t{1});
    const auto& f = res->faults[0];
    QCOMPARE(f.kind, std::string("budget"));
    QCOMPARE(f.diag.code, std::string("E0740"));
    QVERIFY(budget.stop() == BudgetStop::Work);
    QVERIFY2(f.diag.message.find(budget.message()) == 0, f.diag.message.c_str());
    QVERIFY(f.diag.message.find("100000 work units") != std::string::npos);
    const int l = f.diag.span.line;
    QVERIFY2(l == lineOf(text, "while x >= 0") || l == lineOf(text, "x = (x + 1) % 5"),
             f.diag.message.c_str());
    // The same budget is spent: a second launch stops at once.
    auto again = s.run(fe.program, "finite", args);
    QVERIFY(again.ok());
    QVERIFY(!again->ran);
    QCOMPARE(again->faults.at(0).diag.code, std::string("E0740"));
  }

  void budgetProjectedFromTheFirstCtas() {
    // 1,000 CTAs of about 6,000 units each. With 100,000 units the run stops after the first CTA,
    // with the projection, at the launch; with 3,000,000 (the rest needs about twice what is left:
    // within the margin of 4) it runs on and stops at the budget's end inside a CTA; with
    // 7,000,000 it completes.
    const std::string text = readData("budget_loop.py");
    FrontEndResult fe = front(text, "budget_loop.py");
    auto run = [&](WorkBudget& budget) {
      sim::SimOptions o;
      o.budget = &budget;
      sim::Simulator s(o);
      auto args = zeroArgs(*fe.program.findKernel("many_ctas"));
      auto res = s.run(fe.program, "many_ctas", args);
      return std::make_pair(std::move(*res), elem<int32_t>(args[0], 999));
    };
    BudgetLimits small;
    small.maxWork = 100'000;
    WorkBudget b1(small);
    auto [r1, last1] = run(b1);
    QVERIFY(!r1.ran);
    QCOMPARE(r1.faults.size(), size_t{1});
    QCOMPARE(r1.faults[0].diag.code, std::string("E0740"));
    const std::string& m = r1.faults[0].diag.message;
    QVERIFY2(m.find("the launch of 'many_ctas' has 1000 CTAs and the 1 run so far took ") == 0,
             m.c_str());
    QVERIFY2(
        m.find("more than the budget of 100000 allows; stopped after CTA 0") != std::string::npos,
        m.c_str());
    QCOMPARE(r1.faults[0].diag.span.line, lineOf(text, "grid=1000"));
    QVERIFY(b1.used() < 10'000);  // stopped early: not the whole budget
    QCOMPARE(last1, 0);

    BudgetLimits mid;
    mid.maxWork = 3'000'000;
    WorkBudget b2(mid);
    auto [r2, last2] = run(b2);
    QVERIFY(!r2.ran);
    QCOMPARE(r2.faults.at(0).diag.code, std::string("E0740"));
    QVERIFY(b2.stop() == BudgetStop::Work);
    QVERIFY2(
        r2.faults[0].diag.message.find("the run used its whole budget of 3000000 work units") == 0,
        r2.faults[0].diag.message.c_str());
    QVERIFY(last2 == 0);  // CTA 999 never ran

    BudgetLimits big;
    big.maxWork = 7'000'000;
    WorkBudget b3(big);
    auto [r3, last3] = run(b3);
    QVERIFY2(r3.ran && r3.faults.empty(), faultText(r3).c_str());
    QCOMPARE(last3, 499500);
  }

  void timeLimitAndCancellation() {
    FrontEndResult fe = front(readData("budget_loop.py"), "budget_loop.py");
    auto args = zeroArgs(*fe.program.findKernel("endless"));
    {  // wall time
      BudgetLimits limits;
      limits.maxSeconds = 0.05;
      WorkBudget budget(limits);
      sim::SimOptions o;
      o.budget = &budget;
      auto res = sim::Simulator(o).run(fe.program, "endless", args);
      QVERIFY(res.ok() && !res->ran);
      QVERIFY(budget.stop() == BudgetStop::Time);
      QVERIFY2(res->faults.at(0).diag.message.find("time limit") != std::string::npos,
               res->faults.at(0).diag.message.c_str());
    }
    {  // cancelled from another thread while the endless loop runs (a hang fails by ctest timeout)
      auto token = std::make_shared<CancelToken>();
      WorkBudget budget({}, token);
      sim::SimOptions o;
      o.budget = &budget;
      std::thread canceller([token] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        token->cancel();
      });
      auto res = sim::Simulator(o).run(fe.program, "endless", args);
      canceller.join();
      QVERIFY(res.ok() && !res->ran);
      QVERIFY(budget.stop() == BudgetStop::Cancelled);
      QCOMPARE(res->faults.at(0).diag.message.rfind("the run was cancelled", 0), size_t{0});
    }
  }

  void memoryLimit() {
    // A global tensor of 2^40 float32 (4 TiB): the launch is refused before any allocation (it
    // threw std::bad_alloc); a smaller limit refuses a kernel that fits the default.
    const std::string text =
        "from tvm.script import tirx as T\n"
        "@T.function\n"
        "def k(A: T.Tensor((1 << 40,), \"float32\")):\n"
        "    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))\n"
        "    A[0] = T.float32(1)\n";
    FrontEndResult fe = front(text, "huge.py");
    std::vector<ir::KernelArg> args(1);
    args[0].tensor.dtype = ir::DType::Float32;
    args[0].tensor.shape = {int64_t{1} << 40};  // no data: the simulator would have to allocate
    auto res = sim::Simulator().run(fe.program, "k", args);
    QVERIFY(res.ok());
    QVERIFY(!res->ran);
    QCOMPARE(res->faults.size(), size_t{1});
    QCOMPARE(res->faults[0].diag.code, std::string("E0771"));
    QCOMPARE(res->faults[0].diag.span.line, 4);
    QVERIFY2(
        res->faults[0].diag.message.find("more than its limit of 4096 MiB") != std::string::npos,
        res->faults[0].diag.message.c_str());
    QVERIFY(args[0].tensor.data.empty());

    FrontEndResult small = front(readData("nested_call.py"), "nested_call.py");
    auto sargs = zeroArgs(small.program.kernels[0]);
    sim::SimOptions o;
    o.maxMemoryBytes = 1024;  // the two 1 KiB tensors alone exceed it
    auto r2 = sim::Simulator(o).run(small.program, "k", sargs);
    QVERIFY(r2.ok() && !r2->ran);
    QCOMPARE(r2->faults.at(0).diag.code, std::string("E0771"));
    // At the smallest limit the launch fits, provenance (24 bytes per output element) does not:
    // it is left out, never wrong, and the run itself goes on.
    int64_t lo = 1024, hi = int64_t{1} << 30;
    while (hi - lo > 1) {
      o.maxMemoryBytes = (lo + hi) / 2;
      auto r = sim::Simulator(o).run(small.program, "k", sargs);
      (r.ok() && r->ran ? hi : lo) = o.maxMemoryBytes;
    }
    o.maxMemoryBytes = hi;
    sim::Simulator s3(o);
    auto r3 = s3.run(small.program, "k", sargs);
    QVERIFY(r3.ok());
    QVERIFY2(r3->ran && r3->faults.empty(), faultText(*r3).c_str());
    QVERIFY(r3->provenance.args.at(1).empty());
    o.maxMemoryBytes = hi + 256 * int64_t(sizeof(sim::ElementOwner));
    sim::Simulator s4(o);
    const auto r4 = s4.run(small.program, "k", sargs);
    QVERIFY(r4.ok());
    QCOMPARE(r4->provenance.args.at(1).size(), size_t{256});
  }
};

QTEST_APPLESS_MAIN(TestSimRobust)
#include "tst_sim_robust.moc"
