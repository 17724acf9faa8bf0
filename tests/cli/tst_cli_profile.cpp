// `tirx profile` (app/cli/cmd_profile.cpp) without a GPU: with no ncu it exits 3 with a clear
// message; with the fake ncu (tests/cli/fake_ncu.sh, named by TIRX_NCU) it runs the documented ncu
// command lines and replays the HAND-WRITTEN fixture pages of tests/data/profile/handwritten_fma,
// folded through the recorded SASS listing of fma.py (--sass), and writes REPORT.json and keeps
// REPORT.ncu-rep; over ssh (the fake ssh, tests/cli/fake_ssh.sh, running the "host's" tirx
// here) the host profiles the script and the summary and report come back.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "tirx_process.h"

namespace {

const QString kFma = QStringLiteral(TIRX_SOURCE_DIR "/tests/data/sass/fma.py");
const QString kListing = QStringLiteral(TIRX_SOURCE_DIR "/tests/data/sass/fma.g.txt");

QProcessEnvironment fakeNcu(const QString& argsFile = {}) {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("TIRX_NCU", QStringLiteral(TIRX_SOURCE_DIR "/tests/cli/fake_ncu.sh"));
  env.insert("TIRX_FAKE_NCU_DIR",
             QStringLiteral(TIRX_SOURCE_DIR "/tests/data/profile/handwritten_fma"));
  if (!argsFile.isEmpty()) env.insert("TIRX_FAKE_NCU_ARGS", argsFile);
  return env;
}

/// The fake ssh (tests/cli/fake_ssh.sh) running the "host's" tirx here, with the fake ncu.
QProcessEnvironment overSsh(const QString& argsFile = {}) {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("TIRX_SSH", QStringLiteral(TIRX_SOURCE_DIR "/tests/cli/fake_ssh.sh"));
  QString remote =
      "env TIRX_NCU=" TIRX_SOURCE_DIR "/tests/cli/fake_ncu.sh TIRX_FAKE_NCU_DIR=" TIRX_SOURCE_DIR
      "/tests/data/profile/handwritten_fma";
  if (!argsFile.isEmpty()) remote += " TIRX_FAKE_NCU_ARGS=" + argsFile;
  env.insert("TIRX_REMOTE_TIRX", remote + " " TIRX_BIN);
  return env;
}

}  // namespace

class TestCliProfile : public QObject {
  Q_OBJECT
 private slots:
  void noNcuIsAnEnvironmentError() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("TIRX_NCU", "/nonexistent/ncu");
    const Run r = runTirx({"profile", kFma}, 180000, env);
    QCOMPARE(r.code, 3);
    QVERIFY2(r.err.contains("Nsight Compute's ncu was not found"), qPrintable(r.err));
  }

  void simulatorDevicesAreRefused() {
    // The simulator has no hardware counters, here or on a host.
    const Run s = runTirx({"profile", kFma, "--device", "sim"});
    QCOMPARE(s.code, 2);
    QVERIFY2(s.err.contains("expected cuda or cuda:N, found 'sim'"), qPrintable(s.err));
    const Run r = runTirx({"profile", kFma, "--device", "ssh://box/sim"}, 180000, overSsh());
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("the simulator has no hardware counters"), qPrintable(r.err));
  }

  // An ssh:// GPU is profiled by the host's tirx (`tirx profile --stdio` through the fake ssh,
  // which runs it here): the script and the --sass listing travel in the request, the summary
  // and the .ncu-rep come back, the host's device index reaches ncu's command line.
  void profilesOnAnSshHost() {
    QTemporaryDir dir;
    const QString rep = dir.filePath("fma");
    const QString argsFile = dir.filePath("args");
    const Run r = runTirx(
        {"profile", kFma, "--device", "ssh://gpu-box/cuda:1", "--sass", kListing, "-o", rep},
        180000, overSsh(argsFile));
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("kernel fma_affine on NVIDIA H100 80GB HBM3: 2.1 us"),
             qPrintable(r.out + r.err));
    QVERIFY(r.out.contains("stall samples 17 (0 outside the script's lines)"));
    QVERIFY2(r.out.contains("    12        5  29.4%"), qPrintable(r.out));
    QVERIFY2(r.out.contains("profiled on ssh://gpu-box/cuda:1; saved " + rep + ".json"),
             qPrintable(r.out));
    QFile args(argsFile);
    QVERIFY(args.open(QIODevice::ReadOnly));
    const QString a = QString::fromUtf8(args.readAll());
    QVERIFY2(a.contains("/fma.py --device cuda:1 --kernel fma_affine"), qPrintable(a));
    QVERIFY2(!a.contains(kFma), qPrintable(a));  // the host profiled its own copy
    QFile json(rep + ".json");
    QVERIFY(json.open(QIODevice::ReadOnly));
    const QJsonObject j = QJsonDocument::fromJson(json.readAll()).object();
    QCOMPARE(j["kernel"].toObject()["total_samples"].toInt(), 17);
    QCOMPARE(j["lines"].toArray().size(), 4);
    QFile ncuRep(rep + ".ncu-rep");
    QVERIFY(ncuRep.open(QIODevice::ReadOnly));
    QVERIFY(ncuRep.readAll().startsWith("NCU-REP fake report of "));
    // --json prints the same summary.
    const Run js = runTirx({"profile", kFma, "--device", "ssh://gpu-box/cuda:0", "--sass", kListing,
                            "-o", dir.filePath("j"), "--json"},
                           180000, overSsh());
    QCOMPARE(js.code, 0);
    QCOMPARE(
        QJsonDocument::fromJson(js.out.toUtf8()).object()["kernel"].toObject()["name"].toString(),
        QString("fma_affine"));
  }

  void sshFailuresAreEnvironmentErrors() {
    QTemporaryDir dir;
    const Run down =
        runTirx({"profile", kFma, "--device", "ssh://unreachable/cuda:0", "-o", dir.filePath("a")},
                180000, overSsh());
    QCOMPARE(down.code, 3);
    QVERIFY2(down.err.contains("ssh to ssh://unreachable/cuda:0 failed:\nssh: connect to host "
                               "unreachable port 22: Connection refused"),
             qPrintable(down.err));
    // A host whose tirx does not speak the request (here: `true`, which answers nothing).
    QProcessEnvironment old = overSsh();
    old.insert("TIRX_REMOTE_TIRX", "true");
    const Run mute =
        runTirx({"profile", kFma, "--device", "ssh://gpu-box/cuda:0", "-o", dir.filePath("b")},
                180000, old);
    QCOMPARE(mute.code, 3);
    QVERIFY2(
        mute.err.contains("the tirx on ssh://gpu-box/cuda:0 did not answer the profile request"),
        qPrintable(mute.err));
    QVERIFY(!QFile::exists(dir.filePath("b.json")));
  }

  // The host's diagnostics come back naming the script as the user does, with the host's exit
  // status.
  void hostErrorsComeBack() {
    QTemporaryDir dir;
    const QString broken = dir.filePath("broken.py");
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(
        "from tvm.script import tirx as T\n\n@T.prim_func\ndef k(A: T.Tensor((4,), "
        "\"float32\")):\n    T.launch(nope=1)\n");
    f.close();
    const Run r =
        runTirx({"profile", broken, "--device", "ssh://gpu-box/cuda:0"}, 180000, overSsh());
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("tirx profile: the script does not compile"), qPrintable(r.err));
    QVERIFY2(r.err.contains("broken.py:"), qPrintable(r.err));
    QVERIFY2(!r.err.contains("tirx-profile-"), qPrintable(r.err));  // no host temporary path
    QVERIFY2(r.err.contains("(on ssh://gpu-box/cuda:0)"), qPrintable(r.err));
  }

  void foldsTheFakeNcuPages() {
    QTemporaryDir dir;
    const QString rep = dir.filePath("fma");
    const QString argsFile = dir.filePath("args");
    const Run r =
        runTirx({"profile", kFma, "--sass", kListing, "-o", rep}, 180000, fakeNcu(argsFile));
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("kernel fma_affine on NVIDIA H100 80GB HBM3: 2.1 us"),
             qPrintable(r.out));
    QVERIFY(r.out.contains("stall samples 17 (0 outside the script's lines)"));
    QVERIFY2(r.out.contains("    12        5  29.4%"), qPrintable(r.out));
    QVERIFY(r.out.contains("long_sb 100%"));
    QVERIFY(QFile::exists(rep + ".ncu-rep"));
    QFile args(argsFile);
    QVERIFY(args.open(QIODevice::ReadOnly));
    const QString a = QString::fromUtf8(args.readAll());
    QVERIFY2(a.contains("--target-processes all --set full --import-source yes --launch-count 1 "
                        "--clock-control none -f"),
             qPrintable(a));
    QVERIFY2(a.contains(" run " + kFma + " --device cuda:0 --kernel fma_affine"), qPrintable(a));
    QFile json(rep + ".json");
    QVERIFY(json.open(QIODevice::ReadOnly));
    const QJsonObject j = QJsonDocument::fromJson(json.readAll()).object();
    QCOMPARE(j["kernel"].toObject()["total_samples"].toInt(), 17);
    QCOMPARE(j["lines"].toArray().size(), 4);
  }

  // The clocks ncu runs the launch at (decision PROF-3): tirx's default `none` (a benchmark's
  // clocks), ncu's own `base` on request, anything else refused before ncu is looked for.
  void clockControl() {
    QTemporaryDir dir;
    const QString argsFile = dir.filePath("args");
    const Run r = runTirx(
        {"profile", kFma, "--sass", kListing, "-o", dir.filePath("b"), "--clock-control", "base"},
        180000, fakeNcu(argsFile));
    QCOMPARE(r.code, 0);
    QFile args(argsFile);
    QVERIFY(args.open(QIODevice::ReadOnly));
    QVERIFY(QString::fromUtf8(args.readAll()).contains("--launch-count 1 --clock-control base -f"));
    const Run bad = runTirx({"profile", kFma, "--clock-control", "boost"});
    QCOMPARE(bad.code, 2);
    QVERIFY2(bad.err.contains("--clock-control takes none or base, not 'boost'"),
             qPrintable(bad.err));
  }

  void jsonOutput() {
    QTemporaryDir dir;
    const Run r = runTirx({"profile", kFma, "--sass", kListing, "-o", dir.filePath("p"), "--json"},
                          180000, fakeNcu());
    QCOMPARE(r.code, 0);
    const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(j["kernel"].toObject()["name"].toString(), QString("fma_affine"));
    QCOMPARE(j["lines"].toArray()[0].toObject()["line"].toInt(), 8);
    QVERIFY(j["lines"].toArray()[0].toObject().contains("bank_conflict_wavefronts"));
  }
};

QTEST_GUILESS_MAIN(TestCliProfile)
#include "tst_cli_profile.moc"
