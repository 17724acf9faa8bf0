// The GPU runner's parent against a fake runner (tests/cli/fake_runner.cpp, via TIRX_RUNNER), so
// that CI without a GPU exercises it: a runner that crashes, exits, writes garbage, a partial or
// ill-typed response, bad outputs, a CUDA fault or an environment error is reported as E0950 /
// E0952 / exit 3 with a clear message and never an uncaught exception; a hung runner is killed by
// --timeout (E0951), by the runner timeout, by cancellation (E0953) and by Ctrl-C (exit 130). Also
// the upload contract: contents the script gave reach the "device", undefined elements come back
// undefined.
#include <signal.h>

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>
#include <cerrno>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/driver/cuda_executor.h"
#include "core/driver/host_io.h"
#include "core/sema/sema.h"
#include "tirx_process.h"

using namespace tirx;

namespace {

QString gpuData(const char* name) {
  return QStringLiteral(TIRX_SOURCE_DIR "/tests/data/gpu/") + name;
}

std::string readText(const QString& path) {
  std::ifstream in(path.toStdString());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool processGone(pid_t pid) {
  return pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH;
}

}  // namespace

class TestCliRunner : public QObject {
  Q_OBJECT

 private slots:
  void faultsAreReported_data() {
    QTest::addColumn<QString>("mode");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("expect");
    QTest::newRow("crash") << "crash" << 1 << "was killed by SIGABRT without a response [E0952]";
    QTest::newRow("segv") << "segv" << 1 << "was killed by SIGSEGV without a response [E0952]";
    QTest::newRow("exit") << "exit" << 1 << "exited with status 9 without a response [E0952]";
    QTest::newRow("garbage")
        << "garbage" << 1
        << "wrote a malformed response: the response is not JSON (truncated or garbage) [E0952]";
    QTest::newRow("partial")
        << "partial" << 1
        << "wrote a malformed response: the response is not JSON (truncated or garbage) [E0952]";
    QTest::newRow("wrongtypes")
        << "wrongtypes" << 1
        << "wrote a malformed response: 'ran' of the response must be true or false [E0952]";
    QTest::newRow("badoutput")
        << "badoutput" << 1
        << "returned a bad output 99: no such tensor argument, or returned twice [E0952]";
    QTest::newRow("shortoutput")
        << "shortoutput" << 1
        << "returned a bad output 0: 'out0.bin' is missing or not 256 bytes [E0952]";
    QTest::newRow("noisy") << "noisy" << 1
                           << "exited with status 1 without a response (runner output: ";
    QTest::newRow("cudafault")
        << "cudafault" << 1
        << "kernel 'zero_first_half' failed on cuda:0 at run: cuCtxSynchronize: "
           "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered [E0950]";
    QTest::newRow("env") << "env" << 3 << "tirx run: cuDeviceGet: no CUDA device 0 (found 0)";
  }
  void faultsAreReported() {
    QFETCH(QString, mode);
    QFETCH(int, code);
    QFETCH(QString, expect);
    const Run r = runTirx({"run", gpuData("partial_zeros.py"), "--device", "cuda"}, 180000,
                          fakeRunnerEnv(mode));
    QVERIFY2(r.code == code, qPrintable(QString::number(r.code) + "\n" + r.out + r.err));
    QVERIFY2(r.err.contains(expect), qPrintable(r.err));
    QVERIFY(!r.err.contains("terminate called"));
    if (code == 1) {
      QVERIFY2(r.err.contains("partial_zeros.py:9:5: error: "),
               qPrintable(r.err));  // at the kernel's def
      QVERIFY2(r.out.startsWith("zero_first_half on ") && r.out.contains(": did not complete"),
               qPrintable(r.out));
    }
    QVERIFY(r.err.size() < 4000);  // a noisy runner's output is cut, not dumped
  }

  void verifyReportsRunnerFaults() {
    const Run r = runTirx({"verify", gpuData("partial_zeros.py"), "--device", "cuda"}, 180000,
                          fakeRunnerEnv("garbage"));
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains("malformed response") && r.out.contains("[E0952]"), qPrintable(r.out));
    QVERIFY(r.out.contains("NOT verified"));
    const Run e = runTirx({"verify", gpuData("partial_zeros.py"), "--device", "both"}, 180000,
                          fakeRunnerEnv("env"));
    QCOMPARE(e.code, 3);
    QVERIFY2(e.out.contains("no CUDA device 0"), qPrintable(e.out));
  }

  void timeoutKillsAHungRunner() {
    const Run r =
        runTirx({"run", gpuData("partial_zeros.py"), "--device", "cuda", "--timeout", "0.5"},
                180000, fakeRunnerEnv("hang"));
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(
                 "kernel 'zero_first_half' was stopped on cuda:0: the run took longer than its "
                 "time limit of 0.5 s (raise it with --timeout); the runner was killed [E0951]"),
             qPrintable(r.err));
    const Run v =
        runTirx({"verify", gpuData("partial_zeros.py"), "--device", "cuda", "--timeout", "0.5"},
                180000, fakeRunnerEnv("hang"));
    QCOMPARE(v.code, 1);
    QVERIFY2(v.out.contains("[E0951]"), qPrintable(v.out));
  }

  // The regression of issue 8: a kernel that writes half of an output the script filled (np.full)
  // must see the script's values in the other half. The fake "half" runner stores zeros into the
  // first half, as the kernel does; before the fix the parent sent poison instead of the 3.0s.
  void contentsReachTheDevice() {
    const Run r = runTirx({"verify", gpuData("partial_zeros.py"), "--device", "cuda"}, 180000,
                          fakeRunnerEnv("half"));
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY(r.out.contains("PASS  zero_first_half"));
    // The same check can fail: a runner that leaves the output as uploaded.
    const Run n = runTirx({"verify", gpuData("partial_zeros.py"), "--device", "cuda"}, 180000,
                          fakeRunnerEnv("identity"));
    QCOMPARE(n.code, 1);
    QVERIFY2(n.out.contains("FAIL  zero_first_half") && n.out.contains("32/64 mismatches"),
             qPrintable(n.out));
  }

  // `--device both` through the real parent: a "GPU" that writes nothing leaves the np.empty output
  // undefined there while the simulator defines half of it — a one-sided mismatch, explained.
  void bothExplainsOneSidedElements() {
    const Run r = runTirx({"verify", gpuData("empty_unwritten_checked.py"), "--device", "both"},
                          180000, fakeRunnerEnv("identity"));
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains("FAIL  first_half.B: cuda vs simulator: max abs 0, max rel 0, 32/32 "
                            "mismatches (device-compare"),
             qPrintable(r.out));
    QVERIFY2(r.out.contains("      32/32 elements differ, 32 elements defined on the simulator "
                            "only (not written on cuda, or "
                            "computed from undefined memory); 32 elements defined by neither "
                            "device (not compared)\n"),
             qPrintable(r.out));
    QVERIFY(r.out.contains("<- cta 0, warp 0, lane 7, stored at line 11"));
  }

  // `tirx run`: outputs nobody gave are undefined (two runs, the unwritten elements counted);
  // `--input B=zeros` uploads zeros and needs one run.
  void runReportsUndefinedElements() {
    Run r = runTirx({"run", gpuData("partial_zeros.py"), "--device", "cuda", "--json"}, 180000,
                    fakeRunnerEnv("half"));
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QJsonObject out = QJsonDocument::fromJson(r.out.toUtf8())
                          .object()["runs"]
                          .toArray()[0]
                          .toObject()["outputs"]
                          .toArray()[0]
                          .toObject();
    QCOMPARE(out["name"].toString(), QString("B"));
    QCOMPARE(out["undefined"].toInt(), 32);
    QCOMPARE(out["min"].toDouble(), 0.0);
    r = runTirx(
        {"run", gpuData("partial_zeros.py"), "--device", "cuda", "--input", "B=full(2)", "--json"},
        180000, fakeRunnerEnv("half"));
    QVERIFY2(r.code == 0, qPrintable(r.err));
    out = QJsonDocument::fromJson(r.out.toUtf8())
              .object()["runs"]
              .toArray()[0]
              .toObject()["outputs"]
              .toArray()[0]
              .toObject();
    QCOMPARE(out["undefined"].toInt(), 0);
    QCOMPARE(out["max"].toDouble(), 2.0);
    const Run t = runTirx({"run", gpuData("partial_zeros.py"), "--device", "cuda"}, 180000,
                          fakeRunnerEnv("half"));
    QVERIFY2(t.out.contains("32 elements not written"), qPrintable(t.out));
  }

  // In process: the runner timeout, the job's time limit and cancellation kill the child.
  void executorKillsOnTimeoutAndCancel() {
    FrontEndResult fe = checkScript(readText(gpuData("partial_zeros.py")));
    QVERIFY(fe.ok());
    QTemporaryDir dir;
    const QString pidFile = dir.filePath("pid");
    qputenv("TIRX_FAKE_RUNNER_MODE", "hang");
    qputenv("TIRX_FAKE_RUNNER_PIDFILE", pidFile.toUtf8());
    driver::CudaExecutorOptions o;
    o.runnerPath = TIRX_FAKE_RUNNER;
    // Long enough for the fake runner to start and write its pid under ASan on a loaded 2-core
    // machine (300 ms was not: the runner was killed before it wrote the file).
    o.timeoutMs = 3000;
    auto args = driver::makeArguments(fe.program.kernels[0], {});
    QVERIFY(args.ok());
    {
      driver::CudaExecutor exec(o);
      std::vector<ir::KernelArg> a = *args;
      auto r = exec.run(fe.program, "zero_first_half", a);
      QVERIFY2(r.ok(), r.ok() ? "" : r.error().text().c_str());
      QVERIFY(!r->ran);
      QCOMPARE(r->faults.at(0).diag.code, std::string("E0951"));
      QCOMPARE(r->faults[0].diag.message,
               std::string("kernel 'zero_first_half' did not finish within 3 s on cuda:0; the "
                           "runner was killed"));
      QVERIFY(processGone(waitForPid(pidFile, 1000)));
    }
    QFile::remove(pidFile);
    {
      o.timeoutMs = 600000;
      driver::CudaExecutor exec(o);
      const auto token = std::make_shared<CancelToken>();
      WorkBudget budget({}, token);
      exec.setBudget(&budget);
      std::thread canceller([&] {
        waitForPid(pidFile);
        token->cancel();
      });
      std::vector<ir::KernelArg> a = *args;
      auto r = exec.run(fe.program, "zero_first_half", a);
      canceller.join();
      QVERIFY(r.ok() && !r->ran);
      QCOMPARE(r->faults.at(0).kind, std::string("cancelled"));
      QCOMPARE(r->faults[0].diag.code, std::string("E0953"));
      QCOMPARE(r->faults[0].diag.message,
               std::string("kernel 'zero_first_half' was stopped on cuda:0: the run was cancelled; "
                           "the runner was killed"));
      QVERIFY(processGone(waitForPid(pidFile, 1000)));
      // An exhausted budget does not start another runner.
      auto again = exec.run(fe.program, "zero_first_half", a);
      QVERIFY(again.ok() && !again->ran);
      QCOMPARE(
          again->faults.at(0).diag.message,
          std::string("kernel 'zero_first_half' was not started on cuda:0: the run was cancelled"));
    }
    qunsetenv("TIRX_FAKE_RUNNER_MODE");
    qunsetenv("TIRX_FAKE_RUNNER_PIDFILE");
  }

  // Ctrl-C in `tirx verify` cancels: the runner child is killed, the report is printed, exit 130.
  void interruptCancelsVerify() {
    QTemporaryDir dir;
    const QString pidFile = dir.filePath("pid");
    QProcessEnvironment env = fakeRunnerEnv("hang");
    env.insert("TIRX_FAKE_RUNNER_PIDFILE", pidFile);
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(TIRX_BIN), {"verify", gpuData("partial_zeros.py"), "--device", "cuda"});
    QVERIFY(p.waitForStarted());
    const pid_t child = waitForPid(pidFile);
    QVERIFY(child > 0);
    ::kill(pid_t(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 130);
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(out.contains("the run was cancelled; the runner was killed [E0953]"),
             qPrintable(out + err));
    QVERIFY(out.contains("NOT verified"));
    QVERIFY(err.contains("tirx: interrupted, stopping"));
    QVERIFY(processGone(child));
  }
};

QTEST_APPLESS_MAIN(TestCliRunner)
#include "tst_cli_runner.moc"
