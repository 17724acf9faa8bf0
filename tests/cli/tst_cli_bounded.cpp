// Legal scripts at sizes the machine cannot hold (issue 22), through the real binary under a 4 GiB
// address-space limit: `tirx check` accepts them; `tirx verify --device sim` refuses a kernel whose
// seeded arguments are past the simulator's limit (E0771 at the kernel's line and column, exit 1)
// and check code whose numpy array (a constructor or a broadcast) is past the harness's limit
// (E0814 / E0804 at the statement's line, exit 1) — never a bad_alloc, SIGABRT or OOM kill.
#include <sys/resource.h>

#include <QtTest>

#include "tirx_process.h"

namespace {

QString data(const char* name) {
  return QStringLiteral(TIRX_SOURCE_DIR "/tests/data/bounded/") + name;
}

#if defined(__SANITIZE_ADDRESS__)
#define TIRX_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TIRX_TEST_ASAN 1
#endif
#endif

/// Runs tirx with RLIMIT_AS = 4 GiB (a bad_alloc would abort with SIGABRT: code -1 here). Under
/// AddressSanitizer (scripts/sanitize.sh), which reserves terabytes of shadow memory and cannot
/// start under such a limit, the cap is ASan's own instead: an allocation over 4 GiB ends the
/// process with exit code 86, which no expectation below accepts.
Run tirxIn4GiB(const QStringList& args) {
  QProcess p;
#ifdef TIRX_TEST_ASAN
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  const QString asan = env.value("ASAN_OPTIONS");
  env.insert("ASAN_OPTIONS", asan + (asan.isEmpty() ? "" : ":") +
                                 "max_allocation_size=4294967296:allocator_may_return_null=0:"
                                 "exitcode=86");
  p.setProcessEnvironment(env);
#else
  p.setChildProcessModifier([] {
    rlimit lim{rlim_t(4) << 30, rlim_t(4) << 30};
    setrlimit(RLIMIT_AS, &lim);
  });
#endif
  p.start(QStringLiteral(TIRX_BIN), args);
  Run r;
  if (!p.waitForFinished(180000)) {
    p.kill();
    p.waitForFinished(5000);
    return r;
  }
  r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  r.out = QString::fromUtf8(p.readAllStandardOutput());
  r.err = QString::fromUtf8(p.readAllStandardError());
  return r;
}

}  // namespace

class TestCliBounded : public QObject {
  Q_OBJECT

 private slots:
  void checkAcceptsHugeTensors_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("65536 x 65536") << data("huge_tensor.py");
    QTest::newRow("1 << 40") << data("seeded_too_large.py");
  }
  void checkAcceptsHugeTensors() {
    QFETCH(QString, file);
    const Run r = tirxIn4GiB({"check", file});
    QCOMPARE(r.code, 0);
  }

  void seededArgumentsPastTheSimulatorsLimit() {
    const Run r = tirxIn4GiB({"verify", data("seeded_too_large.py"), "--device", "sim"});
    QVERIFY2(r.code == 1, qPrintable(QString("exit %1: %2 %3").arg(r.code).arg(r.out, r.err)));
    const QString all = r.out + r.err;
    // at the kernel's definition, with line and column
    QVERIFY2(all.contains(
                 QRegularExpression("seeded_too_large\\.py:1[12]:\\d+: error: kernel 'big' is too "
                                    "large for the simulator")),
             qPrintable(all));
    QVERIFY2(all.contains("[E0771]"), qPrintable(all));
    QVERIFY2(all.contains("the argument A (1099511627776,) alone"), qPrintable(all));
  }

  void smallKernelsBesideHugeOnesVerify() {
    // the harness calls only the small kernel: the 16 GiB tensors are never made
    const Run r = tirxIn4GiB({"verify", data("huge_tensor.py"), "--device", "sim"});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains("PASS  small"), qPrintable(r.out));
  }

  void harnessArrayPastTheLimit() {
    const Run r = tirxIn4GiB({"verify", data("harness_too_large.py"), "--device", "sim"});
    QVERIFY2(r.code == 1, qPrintable(QString("exit %1: %2 %3").arg(r.code).arg(r.out, r.err)));
    const QString all = r.out + r.err;
    QVERIFY2(
        all.contains(QRegularExpression("harness_too_large\\.py:21:\\d+: error: a float32 array of "
                                        "shape \\(1099511627776,?\\) needs 4096 GiB, more than the "
                                        "harness's limit of 4 GiB per array")),
        qPrintable(all));
    QVERIFY2(all.contains("[E0814]"), qPrintable(all));
  }

  void harnessBroadcastPastTheLimit() {
    const Run r = tirxIn4GiB({"verify", data("harness_broadcast_too_large.py"), "--device", "sim"});
    QVERIFY2(r.code == 1, qPrintable(QString("exit %1: %2 %3").arg(r.code).arg(r.out, r.err)));
    const QString all = r.out + r.err;
    QVERIFY2(all.contains(
                 QRegularExpression("harness_broadcast_too_large\\.py:23:\\d+: error: .*a float32 "
                                    "array of shape \\(262144, 262144\\) needs 256 GiB")),
             qPrintable(all));
  }
};

QTEST_GUILESS_MAIN(TestCliBounded)
#include "tst_cli_bounded.moc"
