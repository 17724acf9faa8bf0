// `tirx run` / `tirx verify` / `tirx bench` option and input robustness through the real binary:
// a directory as FILE is an I/O error (it was read as an empty script); malformed or out-of-range
// --timeout, --budget and device indices are usage errors (they aborted on an uncaught std::sto*
// exception); scalar inputs are exact for their dtype (n=2147483648 ran as -2^31 and v=1e-10 as 0);
// generator values that do not fit the tensor's dtype are refused.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "tirx_process.h"

namespace {

const QString kParams = QStringLiteral(TIRX_SOURCE_DIR "/tests/data/sim/scalar_params.py");
const QString kSilu = QStringLiteral(TIRX_SOURCE_DIR "/tests/data/kernels/silu.py");

}  // namespace

class TestCliRun : public QObject {
  Q_OBJECT

 private slots:
  void directoryIsAnIoError() {
    QTemporaryDir dir;
    for (const char* cmd : {"check", "run", "verify", "compile", "bench"}) {
      QStringList args = {cmd, dir.path()};
      if (QString(cmd) == "compile")
        args << "--emit"
             << "cuda";
      const Run r = runTirx(args);
      QVERIFY2(r.code == 2, cmd);
      QVERIFY2(r.err.contains("it is a directory"), qPrintable(r.err));
    }
  }

  void malformedOptionsAreUsageErrors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("timeout abc") << QStringList{"run", kSilu, "--timeout", "abc"}
                                 << "--timeout: expected a number of seconds";
    QTest::newRow("timeout negative") << QStringList{"run", kSilu, "--timeout", "-1"}
                                      << "--timeout: expected a number of seconds";
    QTest::newRow("timeout 1e400")
        << QStringList{"run", kSilu, "--timeout", "1e400"} << "--timeout";
    QTest::newRow("timeout nan") << QStringList{"verify", kSilu, "--timeout", "nan"} << "--timeout";
    QTest::newRow("timeout trailing")
        << QStringList{"verify", kSilu, "--timeout", "5s"} << "found '5s'";
    QTest::newRow("budget abc") << QStringList{"run", kSilu, "--budget", "abc"}
                                << "--budget: expected an integer";
    QTest::newRow("budget zero") << QStringList{"verify", kSilu, "--budget", "0"}
                                 << "--budget: expected an integer";
    QTest::newRow("budget huge") << QStringList{"verify", kSilu, "--budget", "99999999999999999999"}
                                 << "--budget";
    QTest::newRow("device huge") << QStringList{"run", kSilu, "--device", "cuda:99999999999"}
                                 << "device index out of range";
    QTest::newRow("device 1024") << QStringList{"run", kSilu, "--device", "cuda:1024"}
                                 << "device index out of range";
    QTest::newRow("device empty") << QStringList{"run", kSilu, "--device", "cuda:"}
                                  << "expected sim, cuda or cuda:N";
    QTest::newRow("bench device") << QStringList{"bench", kSilu, "--device", "cuda:99999999999"}
                                  << "device index out of range";
    QTest::newRow("bench repeat") << QStringList{"bench", kSilu, "--repeat", "99999999999"}
                                  << "--repeat";
  }
  void malformedOptionsAreUsageErrors() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Run r = runTirx(args);
    QVERIFY2(r.code == 2, qPrintable(QString::number(r.code) + r.err));
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
  }

  void scalarInputsAreExact_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    QTest::newRow("int32 overflow") << "n=2147483648" << 2
                                    << "scalar parameter 'n' (int32) cannot hold 2147483648: the "
                                       "range is -2147483648 to 2147483647";
    QTest::newRow("int32 underflow") << "n=-2147483649" << 2 << "cannot hold -2147483649";
    QTest::newRow("int32 float") << "n=1.5" << 2
                                 << "scalar parameter 'n' (int32) needs an integer, found '1.5'";
    QTest::newRow("int32 junk") << "n=12abc" << 2 << "needs an integer, found '12abc'";
    QTest::newRow("int32 huge") << "n=99999999999999999999999" << 2 << "cannot hold";
    QTest::newRow("float32 overflow")
        << "v=1e39" << 2
        << "scalar parameter 'v' (float32) cannot hold 1e39: the value does not fit float32";
    QTest::newRow("float32 junk") << "v=abc" << 2 << "needs a number, found 'abc'";
    QTest::newRow("int32 max") << "n=2147483647" << 0 << "";
    QTest::newRow("int32 hex") << "n=0x40" << 0 << "";
  }
  void scalarInputsAreExact() {
    QFETCH(QString, input);
    QFETCH(int, code);
    QFETCH(QString, message);
    const Run r = runTirx({"run", kParams, "--input", input});
    QVERIFY2(r.code == code, qPrintable(QString::number(r.code) + r.err));
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
  }

  // v = 1e-10 reaches the kernel as 1e-10 (it was printed with %f and became 0).
  void smallFloatSurvives() {
    const Run r = runTirx({"run", kParams, "--input", "n=64", "--input", "v=1e-10", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8())
                              .object()["runs"]
                              .toArray()[0]
                              .toObject()["outputs"]
                              .toArray()[0]
                              .toObject();
    QCOMPARE(o["max"].toDouble(), double(1e-10f));
    QCOMPARE(o["min"].toDouble(), double(1e-10f));
    const Run m = runTirx({"run", kParams, "--input", "n=64", "--input", "v=-2.5e-7"});
    QVERIFY2(m.out.contains("A float32 min -2.5e-07 max -2.5e-07"), qPrintable(m.out));
  }

  // Generated tensor values must fit the dtype (no wrap-around, no silent infinity).
  void generatorValuesMustFit() {
    Run r = runTirx({"run", QStringLiteral(TIRX_SOURCE_DIR "/tests/data/kernels/to_float16.py"),
                     "--input", "A=full(1e39)"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(
                 "parameter 'A': generator 'full(1e39)': element 0 = 1e+39 does not fit float32"),
             qPrintable(r.err));
    r = runTirx({"run", kSilu, "--input", "A=randn(-1)"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("randn takes one non-negative integer seed"), qPrintable(r.err));
    r = runTirx({"run", kSilu, "--input", "A=zeros(3)"});
    QCOMPARE(r.code, 2);
  }

  void budgetAndTimeoutAreAccepted() {
    const Run r = runTirx({"verify", kSilu, "--budget", "1000000000", "--timeout", "600"});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    const Run s = runTirx({"run", kSilu, "--budget=1000000000", "--timeout=600"});
    QVERIFY2(s.code == 0, qPrintable(s.out + s.err));
  }
};

QTEST_APPLESS_MAIN(TestCliRun)
#include "tst_cli_run.moc"
