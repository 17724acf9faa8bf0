// The reader's suite (tests/data/guides): kernels written in the style of the public TIRx guides
// and tile-op pages, each with its numpy check code, run as written through the real binary:
// `tirx verify FILE --device sim` exits 0 with every check line PASS and the N/N summary. The
// list comes from the directory, so a new guide kernel is covered automatically; on the H200 the
// same files run with `--device both` (README "GPU checks").
#include <QDir>
#include <QRegularExpression>
#include <QtTest>

#include "tirx_process.h"

namespace {

QString guidesDir() { return QStringLiteral(TIRX_SOURCE_DIR "/tests/data/guides"); }

QStringList guideFiles() { return QDir(guidesDir()).entryList({"*.py"}, QDir::Files, QDir::Name); }

}  // namespace

class TestCliGuides : public QObject {
  Q_OBJECT

 private slots:
  void everyGuideKernelHasChecks_data() {
    QTest::addColumn<QString>("file");
    for (const QString& f : guideFiles()) QTest::newRow(qPrintable(f)) << f;
  }
  void everyGuideKernelHasChecks() {
    // A guide kernel without numpy check code would only be compared device against simulator.
    QFETCH(QString, file);
    QFile f(guidesDir() + "/" + file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    QVERIFY2(text.contains("assert_allclose") || text.contains("assert_close") || text.contains("assert "),
             qPrintable(file + " has no check code"));
  }

  void guidePassesOnSim_data() {
    QTest::addColumn<QString>("file");
    for (const QString& f : guideFiles()) QTest::newRow(qPrintable(f)) << f;
  }
  void guidePassesOnSim() {
    QFETCH(QString, file);
    const Run r = runTirx({"verify", guidesDir() + "/" + file, "--device", "sim"});
    QVERIFY2(r.code == 0, qPrintable(QString("exit %1\n").arg(r.code) + r.out + r.err));
    int checks = 0;
    for (const QString& l : r.out.split('\n', Qt::SkipEmptyParts)) {
      if (l.startsWith("verified:")) continue;
      QVERIFY2(l.startsWith("PASS  "), qPrintable("not a passing check: " + l + "\n" + r.out));
      ++checks;
    }
    QVERIFY(checks >= 1);
    const QRegularExpression summary(
        QStringLiteral("^verified: %1/%1 checks passed, 0 faults, 0 errors on sim ").arg(checks),
        QRegularExpression::MultilineOption);
    QVERIFY2(summary.match(r.out).hasMatch(), qPrintable(r.out));
  }
};

QTEST_APPLESS_MAIN(TestCliGuides)
#include "tst_cli_guides.moc"
