// Every example script in resources/examples passes `tirx verify --device sim` through the real
// binary: exit code 0, at least one check, every check line "PASS", and the summary line with N/N
// checks, 0 faults, 0 errors. max3.py needs `--arch sm_100` (three-input max.f32). The file list
// comes from the directory, so a new example is covered automatically.
#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

#include "tirx_process.h"

namespace {

Run tirx(const QStringList& args) { return runTirx(args); }

QString examplesDir() { return QStringLiteral(TIRX_SOURCE_DIR "/resources/examples"); }

}  // namespace

class TestCliExamples : public QObject {
  Q_OBJECT

 private slots:
  void examplesArePresent() {
    const QStringList files = QDir(examplesDir()).entryList({"*.py"}, QDir::Files, QDir::Name);
    QCOMPARE(files.size(), 37);  // README.md lists 37 scripts
    QVERIFY(files.contains("max3.py"));
    QVERIFY(files.contains("activation.py"));
  }

  void examplePassesOnSim_data() {
    QTest::addColumn<QString>("file");
    for (const QString& f : QDir(examplesDir()).entryList({"*.py"}, QDir::Files, QDir::Name))
      QTest::newRow(qPrintable(f)) << f;
  }
  void examplePassesOnSim() {
    QFETCH(QString, file);
    QStringList args{"verify", examplesDir() + "/" + file, "--device", "sim"};
    if (file == "max3.py") args << "--arch" << "sm_100";
    const Run r = tirx(args);
    QVERIFY2(r.code == 0, qPrintable(QString("exit %1\n").arg(r.code) + r.out + r.err));
    const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
    QVERIFY(!lines.isEmpty());
    int checks = 0;
    for (const QString& l : lines) {
      if (l.startsWith("verified:")) continue;
      QVERIFY2(l.startsWith("PASS  "), qPrintable("not a passing check: " + l + "\n" + r.out));
      ++checks;
    }
    QVERIFY(checks >= 1);
    QVERIFY(!r.out.contains("FAIL"));
    const QRegularExpression summary(
        QStringLiteral("^verified: %1/%1 checks passed, 0 faults, 0 errors on sim ").arg(checks),
        QRegularExpression::MultilineOption);
    QVERIFY2(summary.match(r.out).hasMatch(), qPrintable(r.out));
  }

  void max3NeedsSm100() {
    // Without --arch sm_100 the three-input max is rejected: the script does not verify.
    const Run r = tirx({"verify", examplesDir() + "/max3.py", "--device", "sim"});
    QVERIFY2(r.code == 1, qPrintable(QString("exit %1\n").arg(r.code) + r.out + r.err));
    QVERIFY(!r.out.contains("PASS"));
  }
};

QTEST_APPLESS_MAIN(TestCliExamples)
#include "tst_cli_examples.moc"
