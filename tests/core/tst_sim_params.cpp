// Scalar kernel parameters reach the simulated kernel: an int32 bound and a float32 value bound
// directly through sim::Simulator (tests/data/sim/scalar_params.py), a Python int/float passed to
// a compiled kernel from harness check code, and the seeded run of a script without check code
// (scalars = 1 in the parameter's dtype). Before the fix the simulator left every scalar at 0.
#include <QtTest>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/sema/sema.h"
#include "core/sim/simulator.h"
#include "core/verify/verify.h"

using namespace tirx;

namespace {

std::string readData(const std::string& name) {
  std::ifstream in(std::string(TIRX_SOURCE_DIR) + "/tests/data/sim/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

uint64_t f32Bits(float f) {
  uint32_t u = 0;
  std::memcpy(&u, &f, 4);
  return u;
}

/// Runs guarded_fill(A, n, v) on a zeroed A; returns A.
std::vector<float> fill(const ir::Program& p, ir::KernelArg n, ir::KernelArg v) {
  const ir::Kernel& k = p.kernels.at(0);
  std::vector<ir::KernelArg> args(3);
  args[0].tensor.dtype = ir::DType::Float32;
  args[0].tensor.shape = {64};
  args[0].tensor.data.assign(64 * 4, 0);
  args[1] = n;
  args[2] = v;
  sim::Simulator s;
  auto res = s.run(p, k.name, args);
  if (!res.ok()) qFatal("%s", res.error().text().c_str());
  if (!res->ran || !res->faults.empty()) qFatal("the kernel faulted");
  std::vector<float> out(64);
  std::memcpy(out.data(), args[0].tensor.data.data(), 64 * 4);
  return out;
}

ir::KernelArg scalar(ir::DType t, uint64_t bits) {
  ir::KernelArg a;
  a.isTensor = false;
  a.scalarType = t;
  a.scalarBits = bits;
  return a;
}

}  // namespace

class TestSimParams : public QObject {
  Q_OBJECT
 private slots:
  void signatureHasTypedScalars() {
    FrontEndResult fe = checkScript(readData("scalar_params.py"), "scalar_params.py");
    QVERIFY(fe.ok());
    const auto& ps = fe.program.kernels.at(0).params;
    QCOMPARE(ps.size(), size_t{3});
    QVERIFY(!ps[1].isTensor);
    QCOMPARE(ps[1].dtype, ir::DType::Int32);
    QVERIFY(!ps[2].isTensor);
    QCOMPARE(ps[2].dtype, ir::DType::Float32);
  }

  void simulatorBindsScalars() {
    FrontEndResult fe = checkScript(readData("scalar_params.py"), "scalar_params.py");
    QVERIFY(fe.ok());
    const ir::Program& p = fe.program;
    // n = 5, v = 2.5: exactly threads 0..4 store 2.5
    std::vector<float> a =
        fill(p, scalar(ir::DType::Int32, 5), scalar(ir::DType::Float32, f32Bits(2.5f)));
    for (int i = 0; i < 64; ++i) QCOMPARE(a[i], i < 5 ? 2.5f : 0.0f);
    // n = 64, v = -0.75
    a = fill(p, scalar(ir::DType::Int32, 64), scalar(ir::DType::Float32, f32Bits(-0.75f)));
    for (int i = 0; i < 64; ++i) QCOMPARE(a[i], -0.75f);
    // negative int32 given as its 32-bit pattern: nothing stored
    a = fill(p, scalar(ir::DType::Int32, 0xffffffffu), scalar(ir::DType::Float32, f32Bits(1.0f)));
    for (int i = 0; i < 64; ++i) QCOMPARE(a[i], 0.0f);
    // an argument of another scalar dtype converts to the parameter's dtype (int64 7 -> int32, f64
    // -> f32)
    double d = 0.5;
    uint64_t db = 0;
    std::memcpy(&db, &d, 8);
    a = fill(p, scalar(ir::DType::Int64, 7), scalar(ir::DType::Float64, db));
    for (int i = 0; i < 64; ++i) QCOMPARE(a[i], i < 7 ? 0.5f : 0.0f);
  }

  void harnessPassesPythonScalars() {
    const std::string src = readData("scalar_params.py") +
                            "\nimport numpy as np\nimport tvm\n"
                            "f = tvm.tirx.compile(guarded_fill, target='cuda')\n"
                            "a = np.zeros(64, dtype='float32')\n"
                            "f(a, 3, 1.5)\n"
                            "ref = np.zeros(64, dtype='float32')\n"
                            "ref[:3] = 1.5\n"
                            "np.testing.assert_array_equal(a, ref)\n"
                            "b = np.zeros(64, dtype='float32')\n"
                            "f(b, 40, -2)\n"
                            "assert b[39] == -2.0\n"
                            "assert b[40] == 0.0\n";
    verify::VerifyOptions o;
    o.fileName = "scalar_params.py";
    verify::Report r = verify::verifyScript(src, o);
    QVERIFY2(r.errors.empty(), r.errors.empty() ? "" : r.errors[0].message.c_str());
    QCOMPARE(r.checks.size(), size_t{3});
    for (const auto& c : r.checks) QVERIFY2(c.pass, c.name.c_str());
    QVERIFY(r.passed());
  }

  void seededRunCompletes() {
    // Without check code every scalar is 1 in its dtype; the seeded run completes fault-free.
    verify::VerifyOptions o;
    verify::Report r = verify::verifyScript(readData("scalar_params.py"), o);
    QVERIFY(r.errors.empty());
    QCOMPARE(r.checks.size(), size_t{1});
    QCOMPARE(r.checks[0].kind, std::string("run"));
    QVERIFY(r.checks[0].pass);
  }
};

QTEST_APPLESS_MAIN(TestSimParams)
#include "tst_sim_params.moc"
