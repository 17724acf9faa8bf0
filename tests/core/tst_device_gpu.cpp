// GPU tests: device enumeration and the runner-based CUDA executor on the acceptance kernels,
// compared with the simulator. Skipped visibly (QSKIP) where no CUDA driver is found; without a
// driver the executor must say so as a Status, never crash.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/device/cuda_driver.h"
#include "core/driver/cuda_executor.h"
#include "core/driver/host_io.h"
#include "core/sema/sema.h"
#include "core/sim/simulator.h"

using namespace tirx;

namespace {
std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

class TestDeviceGpu : public QObject {
  Q_OBJECT

 private slots:
  void noDriverIsAStatus() {
    if (device::driverLibraryPresent()) QSKIP("a CUDA driver is present on this machine");
    auto d = device::driver();
    QVERIFY(!d.ok());
    QCOMPARE(d.error().api, std::string("dlopen"));
    QVERIFY(d.error().message.find("no CUDA driver") == 0);
    FrontEndResult fe = checkScript(readText(std::string(TIRX_SHARED_DIR) + "/acceptance/arith_affine_relu.py"));
    QVERIFY(fe.ok());
    auto args = driver::makeArguments(fe.program.kernels[0], {});
    QVERIFY(args.ok());
    driver::CudaExecutor exec;
    auto r = exec.run(fe.program, "affine_relu", *args);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().api, std::string("dlopen"));
  }

  void enumerate() {
    auto d = device::driver();
    if (!d) QSKIP(("no CUDA driver: " + d.error().text()).c_str());
    auto devs = device::enumerateDevices();
    QVERIFY(devs.ok());
    QVERIFY(!devs->empty());
    QVERIFY(!devs->front().name.empty());
    QVERIFY(devs->front().smCount > 0);
    QVERIFY(devs->front().ccMajor >= 7);
  }

  void acceptanceMatchesSimulator_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"arith_affine_relu.py", "arith_silu.py", "arith_to_float16.py", "ewise_doc_page.py"})
      QTest::newRow(f) << QString(TIRX_SHARED_DIR) + "/acceptance/" + f;
  }

  void acceptanceMatchesSimulator() {
    if (!device::driver()) QSKIP("no CUDA driver");
    QFETCH(QString, file);
    FrontEndResult fe = checkScript(readText(file.toStdString()));
    QVERIFY(fe.ok());
    driver::CudaExecutorOptions o;
    o.runnerPath = TIRX_BIN;
    driver::CudaExecutor gpu(o);
    sim::Simulator simulator;
    for (const auto& k : fe.program.kernels) {
      auto a = driver::makeArguments(k, {});
      QVERIFY(a.ok());
      std::vector<ir::KernelArg> ga = *a, sa = *a;
      auto g = gpu.run(fe.program, k.name, ga);
      QVERIFY2(g.ok(), g.ok() ? "" : g.error().text().c_str());
      QVERIFY2(g->ran && g->faults.empty(), g->faults.empty() ? "" : g->faults[0].diag.message.c_str());
      auto s = simulator.run(fe.program, k.name, sa);
      QVERIFY(s.ok() && s->ran);
      for (size_t i = 0; i < ga.size(); ++i) {
        if (!ga[i].isTensor) continue;
        for (int64_t e = 0; e < ga[i].tensor.numel(); ++e) {
          const double x = driver::tensorValue(ga[i].tensor, e), y = driver::tensorValue(sa[i].tensor, e);
          QVERIFY2(std::abs(x - y) <= 2e-5 + 2e-5 * std::abs(y),
                   (k.name + " arg " + std::to_string(i) + " element " + std::to_string(e)).c_str());
        }
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestDeviceGpu)
#include "tst_device_gpu.moc"
