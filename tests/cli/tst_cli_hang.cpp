// The hang report of `tirx run` (app/cli/run_hang.h, core/sim/hang_report.cpp): the simulator's
// deadlock in tests/data/hang/expect_tx_too_large.py (expect_tx announces 8192 bytes, the TMA box
// delivers 4096) names the waiting warps, the mbarrier, its phase and parity, the arrivals, the
// transaction bytes and the script line, as text and as JSON; a named-barrier deadlock names each
// barrier's warps; and a GPU run that times out (the fake runner hangs) is replayed on the
// simulator, bounded, with the same report.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "tirx_process.h"

namespace {

const QString kHang = QStringLiteral(TIRX_SOURCE_DIR "/tests/data/hang/expect_tx_too_large.py");
const QString kWait = QStringLiteral(
    "expect_tx_too_large.py:24:5: warps 0-3 (128 threads) wait on mbarrier "
    "'full[0]' phase 0 (parity 0): 1 of 1 arrivals, transaction bytes expected "
    "8192, delivered 4096, outstanding 4096");

}  // namespace

class TestCliHang : public QObject {
  Q_OBJECT
 private slots:
  void simulatorDeadlockNamesWarpsBarrierPhaseAndLine() {
    const Run r = runTirx({"run", kHang});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains("  hang (deadlock) in cta 0:\n"), qPrintable(r.out));
    QVERIFY2(r.out.contains(kWait), qPrintable(r.out));
    QVERIFY(r.err.contains("[E0732]"));
  }

  void jsonCarriesTheReport() {
    const Run r = runTirx({"run", kHang, "--json"});
    QCOMPARE(r.code, 1);
    const QJsonObject run =
        QJsonDocument::fromJson(r.out.toUtf8()).object()["runs"].toArray()[0].toObject();
    const QJsonObject hang = run["hang"].toObject();
    QCOMPARE(hang["reason"].toString(), QString("deadlock"));
    const QJsonArray waits = hang["waits"].toArray();
    QCOMPARE(waits.size(), 1);
    const QJsonObject w = waits[0].toObject();
    QCOMPARE(w["kind"].toString(), QString("mbarrier"));
    QCOMPARE(w["barrier"].toString(), QString("full[0]"));
    QCOMPARE(w["warps"].toArray(), (QJsonArray{0, 1, 2, 3}));
    QCOMPARE(w["threads"].toInt(), 128);
    QCOMPARE(w["line"].toInt(), 24);
    QCOMPARE(w["col"].toInt(), 5);
    QCOMPARE(w["phase"].toInt(), 0);
    QCOMPARE(w["parity"].toInt(), 0);
    QCOMPARE(w["expected_arrivals"].toInt(), 1);
    QCOMPARE(w["arrived"].toInt(), 1);
    QCOMPARE(w["expected_tx_bytes"].toInt(), 8192);
    QCOMPARE(w["delivered_tx_bytes"].toInt(), 4096);
    QCOMPARE(w["outstanding_tx_bytes"].toInt(), 4096);
  }

  // Two warpgroups at two named barriers, each waiting for the other's arrivals.
  void namedBarrierDeadlockNamesEachBarrier() {
    const Run r =
        runTirx({"run", TIRX_SOURCE_DIR "/tests/data/sim_barrier/pingpong_missing_arrive.py"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains(":19:9: warps 0-3 (128 threads) wait on named barrier 1: 128 of 256 "
                            "arrivals"),
             qPrintable(r.out));
    QVERIFY(r.out.contains(":19:9: warps 4-7 (128 threads) wait on named barrier 2: 128 of 256"));
  }

  // `tirx verify` (and the studio's Results and Problems, which show a fault's notes) carry the
  // report as notes of the deadlock.
  void verifyShowsTheReportAsNotes() {
    const Run r = runTirx({"verify", kHang});
    QCOMPARE(r.code, 1);
    QVERIFY2((r.out + r.err)
                 .contains(":24:5: note: hang: warps 0-3 (128 threads) wait on mbarrier 'full[0]' "
                           "phase 0 (parity 0)"),
             qPrintable(r.err));
  }

  // A kernel that runs to the end has no report.
  void aFinishedRunHasNone() {
    const Run r = runTirx({"run", TIRX_SOURCE_DIR "/resources/examples/relu_grid.py", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject run =
        QJsonDocument::fromJson(r.out.toUtf8()).object()["runs"].toArray()[0].toObject();
    QVERIFY(!run.contains("hang"));
  }

  // The GPU run times out (the fake runner sleeps until killed): the launch is replayed on the
  // simulator and the same report printed, marked as a replay.
  void gpuTimeoutIsReplayedOnTheSimulator() {
    const Run r = runTirx({"run", kHang, "--device", "cuda", "--timeout", "0.5"}, 180000,
                          fakeRunnerEnv("hang"));
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("[E0951]"), qPrintable(r.err));
    QVERIFY2(r.out.contains("replayed on the simulator (1 of 1 CTAs"), qPrintable(r.out));
    QVERIFY2(r.out.contains(kWait), qPrintable(r.out));
    const Run j = runTirx({"run", kHang, "--device", "cuda", "--timeout", "0.5", "--json"}, 180000,
                          fakeRunnerEnv("hang"));
    const QJsonObject run =
        QJsonDocument::fromJson(j.out.toUtf8()).object()["runs"].toArray()[0].toObject();
    QVERIFY(run["hang_replay"].toString().startsWith("replayed on the simulator"));
    QCOMPARE(run["hang"].toObject()["waits"].toArray()[0].toObject()["line"].toInt(), 24);
  }
};

QTEST_GUILESS_MAIN(TestCliHang)
#include "tst_cli_hang.moc"
