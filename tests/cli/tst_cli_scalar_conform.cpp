// End-to-end tests of `tirx scalar-conform` (app/cli/cmd_scalar_conform.cpp): runs the built
// binary on the simulator (the last line counts expressions and says no device ran), writes the
// generated kernels with --scripts, refuses a bad --count, --device or --replay file with exit 2,
// replays the H100's recorded answers with no disagreement, and reports a recorded device answer
// that the simulator does not give (exit 1).
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "tirx_process.h"

namespace {

Run tirx(const QStringList& args) {
  return runTirx(QStringList{"scalar-conform"} + args);
}

}  // namespace

class TestCliScalarConform : public QObject {
  Q_OBJECT

 private slots:
  void simulatorOnly() {
    QTemporaryDir dir;
    const Run r = tirx({"--count", "240", "--scripts", dir.path()});
    QCOMPARE(r.code, 0);
    const QStringList lines = r.out.trimmed().split('\n');
    QVERIFY2(lines.last().startsWith("scalar-conform: 0 disagreements over 240 expressions ("),
             qPrintable(r.out));
    QVERIFY(lines.last().endsWith("30720 evaluations, simulator only (no device)"));
    QVERIFY(QFile::exists(dir.filePath("scalar_0.py")));
    QFile f(dir.filePath("scalar_0.py"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString script = QString::fromUtf8(f.readAll());
    QVERIFY(script.contains("def scalar_0("));
    QVERIFY(script.contains("I_bfloat16: T.Tensor((128, 3), \"bfloat16\")"));
  }

  void usageErrors() {
    QCOMPARE(tirx({"--count", "0"}).code, 2);
    QCOMPARE(tirx({"--count", "x"}).code, 2);
    const Run d = tirx({"--device", "gpu7"});
    QCOMPARE(d.code, 2);
    QVERIFY(d.err.contains("unknown --device 'gpu7'"));
    QTemporaryDir dir;
    QFile bad(dir.filePath("bad.json"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(
        "{\"format\": \"tirx-scalar-conform-record\", \"generator\": 1, \"seed\": 22, "
        "\"expressions\": 12, "
        "\"perKernel\": 120, \"kernels\": []}");
    bad.close();
    const Run r = tirx({"--replay", bad.fileName()});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("does not list the 2 kernels"), qPrintable(r.err));
  }

  void replayOfTheH100RecordAgrees() {
    // The H100's answers to the 2400 default expressions (tests/data/scalar/README.md): the
    // simulator gives every one of them today, with nothing stale.
    const Run r = tirx({"--replay", TIRX_SOURCE_DIR "/tests/data/scalar/h100_record.json"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.trimmed().split('\n').last().startsWith(
                 "scalar-conform: 0 disagreements over 2400 expressions (2132 bit-exact, 268 "
                 "libdevice within bound) in 21 kernels, 307200 evaluations, simulator vs cuda:0 "
                 "(recorded)"),
             qPrintable(r.out));
    QVERIFY(!r.out.contains("stale"));
  }

  void replayFindsADeviceAnswerTheSimulatorDoesNotGive() {
    // Twelve expressions, one per dtype: the 8 integer ones in scalar_0, the 4 float ones (the
    // first float case of each dtype has a libdevice root) in scalar_1. The int8 case carries the
    // device's bits (128 zero bytes), which the simulator does not give: a disagreement. Every
    // other case has only a digest the simulator does not give: the device's values are not in
    // the file, so those are stale, counted apart, and fail the replay too.
    QTemporaryDir dir;
    QFile rec(dir.filePath("rec.json"));
    QVERIFY(rec.open(QIODevice::WriteOnly));
    const QString zeros = QString(QByteArray(128, '\0').toBase64());
    QString k0 = "{\"d\": \"0x1\", \"bits\": \"" + zeros + "\"}", k1;
    for (int i = 1; i < 8; ++i) k0 += ",{\"d\": \"0x1\"}";
    for (int i = 0; i < 4; ++i) k1 += QString(i ? "," : "") + "{\"d\": \"0x1\"}";
    rec.write(
        QString("{\"format\": \"tirx-scalar-conform-record\", \"generator\": 1, \"seed\": 22, "
                "\"expressions\": 12, \"perKernel\": 120, \"device\": \"made up\", \"kernels\": ["
                "{\"kernel\": \"scalar_0\", \"cases\": [%1]}, {\"kernel\": \"scalar_1\", "
                "\"cases\": [%2]}]}")
            .arg(k0, k1)
            .toUtf8());
    rec.close();
    const Run r = tirx({"--replay", rec.fileName()});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains("scalar-conform: 1 disagreements over 12 expressions"),
             qPrintable(r.out));
    QVERIFY(r.out.contains("made up (recorded), 11 stale (recorded by digest only"));
    QVERIFY(r.out.contains("disagreement: int8 "));
    QCOMPARE(r.out.count("\nstale: "), 8);  // the first eight are listed
  }
};

QTEST_GUILESS_MAIN(TestCliScalarConform)
#include "tst_cli_scalar_conform.moc"
