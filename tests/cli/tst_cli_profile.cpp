// `tirx profile` (app/cli/cmd_profile.cpp) without a GPU: with no ncu it exits 3 with a clear
// message; with the fake ncu (tests/cli/fake_ncu.sh, named by TIRX_NCU) it runs the documented ncu
// command lines and replays the HAND-WRITTEN fixture pages of tests/data/profile/handwritten_fma,
// folded through the recorded SASS listing of fma.py (--sass), and writes REPORT.json and keeps
// REPORT.ncu-rep.
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

  void remoteAndSimulatorDevicesAreRefused() {
    // ncu profiles this machine's processes: an ssh:// GPU is profiled on its host, and the
    // simulator has no hardware counters.
    const Run r = runTirx({"profile", kFma, "--device", "ssh://box/cuda:0"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("ssh:// devices are not available here; expected cuda or cuda:N"),
             qPrintable(r.err));
    QVERIFY2(r.err.contains("run it on the GPU host"), qPrintable(r.err));
    const Run s = runTirx({"profile", kFma, "--device", "sim"});
    QCOMPARE(s.code, 2);
    QVERIFY2(s.err.contains("expected cuda or cuda:N, found 'sim'"), qPrintable(s.err));
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
