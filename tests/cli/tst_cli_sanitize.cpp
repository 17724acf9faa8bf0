// `--sanitize` of `tirx run` / `tirx verify` without a GPU: a fake compute-sanitizer
// (tests/cli/fake_compute_sanitizer.sh, found through PATH as the real one is) writes a report
// recorded on the H200 (tests/data/sanitizer/) and execs the fake runner. Checks the wrapped
// command line, the findings at both lines of a race, the memcheck stop told apart from a fault,
// a clean run's summary, a truncated report, usage errors and the missing-tool environment error.
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "tirx_process.h"

namespace {

QString data(const QString& rel) {
  return QStringLiteral(TIRX_SOURCE_DIR "/tests/data/") + rel;
}

/// Fake runner in `mode` under the fake sanitizer replaying `log`; PATH starts with `binDir`.
QProcessEnvironment sanitizerEnv(const QTemporaryDir& binDir, const QString& log,
                                 const QString& mode = "identity") {
  QProcessEnvironment env = fakeRunnerEnv(mode);
  QFile::link(QStringLiteral(TIRX_SOURCE_DIR "/tests/cli/fake_compute_sanitizer.sh"),
              binDir.filePath("compute-sanitizer"));
  env.insert("PATH", binDir.path() + ":" + env.value("PATH"));
  env.insert("TIRX_FAKE_SANITIZER_LOG", log);
  env.insert("TIRX_FAKE_SANITIZER_ARGS", binDir.filePath("args"));
  return env;
}

QString readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

}  // namespace

class TestCliSanitize : public QObject {
  Q_OBJECT

 private slots:
  void raceAtBothLines() {
    QTemporaryDir bin;
    const Run r =
        runTirx({"run", data("sim/race.py"), "--device", "cuda", "--sanitize", "racecheck"}, 180000,
                sanitizerEnv(bin, data("sanitizer/racecheck_race.log")));
    QVERIFY2(r.code == 1, qPrintable(QString::number(r.code) + r.out + r.err));
    QVERIFY2(
        r.err.contains(
            "race.py:27:5: error: data race between the write at line 27 and the read at line 29 "
            "with no barrier between them, 1024 hazards (compute-sanitizer racecheck) [E0955]\n"),
        qPrintable(r.err));
    QVERIFY2(r.err.contains("race.py:29:9: note: the read that races with it"), qPrintable(r.err));
    QCOMPARE(r.err.count("[E0955]"), 1);  // the two passes' identical reports are merged
    QVERIFY2(r.out.contains("shared_affine on Fake GPU (cuda:0): ran"), qPrintable(r.out));
    QVERIFY2(r.out.contains("  compute-sanitizer racecheck: 2 errors, 0 warnings\n"),
             qPrintable(r.out));
    const QString args = readAll(bin.filePath("args"));
    // The request folder is driver::ScratchDir's: $TMPDIR/tirx_run_XXXXXX, /tmp without TMPDIR.
    const QString tmp = qEnvironmentVariableIsEmpty("TMPDIR") ? QStringLiteral("/tmp")
                                                              : qEnvironmentVariable("TMPDIR");
    QVERIFY2(args.startsWith("--tool racecheck --log-file " + tmp + "/tirx_run_") &&
                 args.contains(
                     "/sanitizer.log --print-limit 100 --show-backtrace device " TIRX_FAKE_RUNNER
                     " runner "),
             qPrintable(args));
    // --json carries the summary and the findings as faults.
    const Run j =
        runTirx({"run", data("sim/race.py"), "--device", "cuda", "--sanitize=racecheck", "--json"},
                180000, sanitizerEnv(bin, data("sanitizer/racecheck_race.log")));
    QVERIFY2(j.out.contains("\"summary\": \"compute-sanitizer racecheck: 2 errors, 0 warnings\"") &&
                 j.out.contains("\"kind\": \"race\"") && j.out.contains("\"clean\": false"),
             qPrintable(j.out));
  }

  void cleanRun() {
    QTemporaryDir bin;
    const Run r =
        runTirx({"run", data("sim/race.py"), "--device", "cuda", "--sanitize", "racecheck"}, 180000,
                sanitizerEnv(bin, data("sanitizer/racecheck_clean.log")));
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY(r.out.contains("  compute-sanitizer racecheck: no hazards\n"));
    QVERIFY(!r.err.contains("error"));
  }

  // memcheck stops the kernel at its first error; the launch failure that follows is the
  // sanitizer's doing, said so instead of a bare CUDA fault.
  // The recording was made when the store was line 10 of sim/oob.py; the script has changed since
  // (its store is line 12 now, and the old one no longer passes sema), so the report is moved with
  // it.
  void memcheckStopIsNotAFault() {
    QTemporaryDir bin, tmp;
    QString log = readAll(data("sanitizer/memcheck_oob.log"));
    QVERIFY(log.contains("in oob.py:10\n"));
    log.replace("in oob.py:10\n", "in oob.py:12\n");
    QFile f(tmp.filePath("memcheck_oob.log"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(log.toUtf8());
    f.close();
    const Run r = runTirx({"run", data("sim/oob.py"), "--device", "cuda", "--sanitize", "memcheck"},
                          180000, sanitizerEnv(bin, f.fileName(), "cudafault"));
    QCOMPARE(r.code, 1);
    QVERIFY2(
        r.err.contains(
            "oob.py:12:9: error: invalid __global__ write of size 4 bytes by thread (63,0,0) in "
            "block (0,0,0): access to 0x7f2070800800 is out of bounds"),
        qPrintable(r.err));
    QVERIFY2(r.err.contains("error: kernel 'shift_down' was stopped by compute-sanitizer memcheck "
                            "on cuda:0 after the "
                            "error it reported (the launch failed because of the sanitizer, at "
                            "run: cuCtxSynchronize: "
                            "CUDA_ERROR_ILLEGAL_ADDRESS"),
             qPrintable(r.err));
    QVERIFY2(r.out.contains("compute-sanitizer memcheck: 7 errors (6 CUDA API errors after the "
                            "kernel was stopped)"),
             qPrintable(r.out));
  }

  void truncatedReportIsAnError() {
    QTemporaryDir bin, tmp;
    QFile f(tmp.filePath("cut.log"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(
        "========= COMPUTE-SANITIZER\n========= Error: Race reported between Write access at k+0x1 "
        "in race.py:27\n");
    f.close();
    const Run r =
        runTirx({"run", data("sim/race.py"), "--device", "cuda", "--sanitize", "racecheck"}, 180000,
                sanitizerEnv(bin, f.fileName()));
    QCOMPARE(r.code, 1);
    QVERIFY2(
        r.err.contains(
            "race.py:16:5: error: compute-sanitizer racecheck: the report is truncated (no summary "
            "line) for kernel 'shared_affine' [E0959]"),
        qPrintable(r.err));
  }

  void verifyUnderTheSanitizer() {
    QTemporaryDir bin;
    const Run r =
        runTirx({"verify", data("sim/race.py"), "--device", "cuda", "--sanitize", "racecheck"},
                180000, sanitizerEnv(bin, data("sanitizer/racecheck_race.log")));
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains("race.py:27:5: error: data race between the write at line 27") &&
                 r.out.contains("compute-sanitizer racecheck: 2 errors, 0 warnings\n") &&
                 r.out.contains("NOT verified"),
             qPrintable(r.out));
  }

  void usageErrors() {
    Run r = runTirx({"run", data("sim/race.py"), "--sanitize", "racecheck"});
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains("--sanitize watches GPU runs: use it with --device cuda[:N]"));
    r = runTirx({"verify", data("sim/race.py"), "--device", "cuda", "--sanitize", "leakcheck"});
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains(
        "--sanitize: expected memcheck, racecheck, initcheck or synccheck, found 'leakcheck'"));
  }

  void missingToolIsAnEnvironmentError() {
    if (QFile::exists("/usr/local/cuda/bin/compute-sanitizer"))
      QSKIP(
          "this machine has /usr/local/cuda/bin/compute-sanitizer: the tool cannot be missing "
          "here");
    QProcessEnvironment env = fakeRunnerEnv("identity");
    env.insert("PATH", "/usr/bin:/bin");
    env.remove("CUDA_HOME");
    const Run r = runTirx(
        {"run", data("sim/race.py"), "--device", "cuda", "--sanitize", "memcheck"}, 180000, env);
    QCOMPARE(r.code, 3);
    QVERIFY2(r.err.contains("tirx run: compute-sanitizer: compute-sanitizer not found (looked in "
                            "PATH, $CUDA_HOME/bin "
                            "and /usr/local/cuda/bin)"),
             qPrintable(r.err));
    const Run v = runTirx(
        {"verify", data("sim/race.py"), "--device", "cuda", "--sanitize", "memcheck"}, 180000, env);
    QCOMPARE(v.code, 3);
    QVERIFY2(v.out.contains("compute-sanitizer not found"), qPrintable(v.out));
  }
};

QTEST_APPLESS_MAIN(TestCliSanitize)
#include "tst_cli_sanitize.moc"
