// The one device parser and executor factory (core/driver/device.h): every device text the CLI and
// the studio accept parses to the DeviceSpec it names and prints back the same; every malformed
// text, and every sanitizer/device combination that cannot work, is a Status whose message says
// what was expected and what was found; makeExecutor gives the simulator or the GPU executor the
// spec asks for (its name says which device it runs), and a local GPU without a driver is an
// environment Status rather than an executor that fails later.
#include <QtTest>

#include "core/driver/device.h"

using namespace tirx;
using namespace tirx::driver;

class TstDeviceSpec : public QObject {
  Q_OBJECT

 private slots:
  void devicesRoundTrip_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("canonical");
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("index");
    QTest::newRow("sim") << "sim"
                         << "sim" << int(DeviceKind::Sim) << 0;
    QTest::newRow("cuda") << "cuda"
                          << "cuda:0" << int(DeviceKind::Cuda) << 0;
    QTest::newRow("cuda:3") << "cuda:3"
                            << "cuda:3" << int(DeviceKind::Cuda) << 3;
    QTest::newRow("cuda:1023") << "cuda:1023"
                               << "cuda:1023" << int(DeviceKind::Cuda) << 1023;
    QTest::newRow("both") << "both"
                          << "both" << int(DeviceKind::Sim) << 0;
    QTest::newRow("ssh gpu") << "ssh://me@gpu.lan:2222/cuda:1"
                             << "ssh://me@gpu.lan:2222/cuda:1" << int(DeviceKind::Remote) << 1;
    QTest::newRow("ssh cuda") << "ssh://box/cuda"
                              << "ssh://box/cuda:0" << int(DeviceKind::Remote) << 0;
    QTest::newRow("ssh sim") << "ssh://box/sim"
                             << "ssh://box/sim" << int(DeviceKind::Remote) << 0;
  }
  void devicesRoundTrip() {
    QFETCH(QString, text);
    QFETCH(QString, canonical);
    QFETCH(int, kind);
    QFETCH(int, index);
    const auto d = parseDevice(text.toStdString());
    QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str());
    QCOMPARE(int(d->kind), kind);
    QCOMPARE(d->index, index);
    QCOMPARE(QString::fromStdString(d->text()), canonical);
    QCOMPARE(d->remote.has_value(), d->kind == DeviceKind::Remote);
    const auto again = parseDevice(d->text());
    QVERIFY(again.ok() && *again == *d);
  }

  void whatEachSpecMeans() {
    QVERIFY(parseDevice("sim")->isSim() && !parseDevice("sim")->usesRunner());
    QVERIFY(parseDevice("both")->both && !parseDevice("both")->isSim() &&
            parseDevice("both")->usesRunner());
    QVERIFY(parseDevice("ssh://box/sim")->remote->sim &&
            parseDevice("ssh://box/sim")->usesRunner());
    QCOMPARE(DeviceSpec::cuda(2).text(), std::string("cuda:2"));
    QCOMPARE(DeviceSpec::simulator().text(), std::string("sim"));
  }

  void malformedDevicesSayWhy_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << ""
                           << "expected sim, cuda or cuda:N, both (verify) or ssh://";
    QTest::newRow("cuda:") << "cuda:"
                           << "expected sim, cuda or cuda:N, both (verify) or ssh://";
    QTest::newRow("gpu") << "gpu"
                         << "found 'gpu'";
    QTest::newRow("cuda:1024")
        << "cuda:1024"
        << "device index out of range in 'cuda:1024' (expected cuda:0 to cuda:1023)";
    QTest::newRow("cuda:huge") << "cuda:99999999999"
                               << "device index out of range";
    QTest::newRow("cuda:-1") << "cuda:-1"
                             << "found 'cuda:-1'";
    QTest::newRow("cuda: 1") << "cuda: 1"
                             << "found 'cuda: 1'";
    QTest::newRow("SIM") << "SIM"
                         << "found 'SIM'";
    QTest::newRow("ssh no path") << "ssh://box"
                                 << "expected ssh://[user@]host[:port]/cuda[:N]";
    QTest::newRow("ssh bad port") << "ssh://box:0/sim"
                                  << "bad port '0' (expected 1 to 65535)";
    QTest::newRow("ssh port sign") << "ssh://box:+22/sim"
                                   << "bad port '+22'";
    QTest::newRow("ssh option host") << "ssh://-oProxyCommand=x/sim"
                                     << "bad host name";
    QTest::newRow("ssh bad user") << "ssh://-me@box/sim"
                                  << "bad user name";
    QTest::newRow("ssh index") << "ssh://box/cuda:1024"
                               << "device index out of range";
    QTest::newRow("ssh gpu") << "ssh://box/gpu"
                             << "found 'ssh://box/gpu'";
  }
  void malformedDevicesSayWhy() {
    QFETCH(QString, text);
    QFETCH(QString, message);
    const auto d = parseDevice(text.toStdString());
    QVERIFY(!d.ok());
    QCOMPARE(d.error().api, std::string("device"));
    QVERIFY2(QString::fromStdString(d.error().message).contains(message),
             d.error().message.c_str());
  }

  void theSanitizerWatchesLocalGpus() {
    auto d = parseDevice("cuda:1", "racecheck");
    QVERIFY(d.ok());
    QCOMPARE(d->sanitize, SanitizerTool::Racecheck);
    QVERIFY(parseDevice("both", "memcheck").ok());
    QCOMPARE(parseDevice("cuda").value().sanitize, SanitizerTool::None);
    const std::pair<const char*, const char*> refused[] = {
        {"sim", "--sanitize watches GPU runs: use it with --device cuda[:N] (or both for verify)"},
        {"ssh://box/cuda", "--sanitize is not available for ssh:// devices (run tirx on the host)"},
    };
    for (const auto& [device, message] : refused) {
      const auto r = parseDevice(device, "memcheck");
      QVERIFY(!r.ok());
      QCOMPARE(r.error().api, std::string("sanitizer"));
      QCOMPARE(r.error().message, std::string(message));
    }
    const auto unknown = parseDevice("cuda", "leakcheck");
    QVERIFY(!unknown.ok());
    QCOMPARE(
        unknown.error().message,
        std::string(
            "--sanitize: expected memcheck, racecheck, initcheck or synccheck, found 'leakcheck'"));
    QVERIFY(!parseDevice("cuda", "").ok());  // `--sanitize=` names no tool
    QVERIFY(!parseDevice("bogus", "memcheck").ok());
    QCOMPARE(parseDevice("bogus", "memcheck").error().api,
             std::string("device"));  // the device first
  }

  void theSimulatorSpecMakesTheSimulator() {
    auto e = makeExecutor(DeviceSpec::simulator());
    QVERIFY(e.ok() && *e);
    QCOMPARE((*e)->name(), std::string("simulator"));
    QVERIFY(!lastSanitizerReport(**e) && !lastLaunchTimings(**e));
  }

  void aGpuSpecMakesTheRunnerExecutor() {
    // With $TIRX_RUNNER set, the GPU path is available on any machine (the runner is not started).
    qputenv("TIRX_RUNNER", "/nonexistent/tirx");
    auto e = makeExecutor(DeviceSpec::cuda(2));
    QVERIFY(e.ok());
    QCOMPARE((*e)->name(), std::string("cuda:2"));
    QVERIFY(lastLaunchTimings(**e));
    auto r = makeExecutor(*parseDevice("ssh://me@box:2222/sim"));
    QVERIFY(r.ok());
    QCOMPARE((*r)->name(), std::string("ssh://me@box:2222/sim"));
    qunsetenv("TIRX_RUNNER");
    if (gpuPathAvailable()) return;  // a machine with a driver: the next check needs none
    const auto none = makeExecutor(DeviceSpec::cuda(0));
    QVERIFY(!none.ok());
    QCOMPARE(none.error().message, std::string("no CUDA driver found (libcuda.so.1)"));
    QVERIFY(makeExecutor(*parseDevice("ssh://box/cuda")).ok());  // reached only when it runs
  }
};

QTEST_MAIN(TstDeviceSpec)
#include "tst_device_spec.moc"
