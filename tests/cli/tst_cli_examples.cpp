// Every example script in resources/examples passes `tirx verify --device sim` through the real
// binary: exit code 0, at least one check, every check line "PASS", and the summary line with N/N
// checks, 0 faults, 0 errors. max3.py needs `--arch sm_100` (three-input max.f32). The file list
// comes from the directory, so a new example is covered automatically.
#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "tirx_process.h"

namespace {

Run tirx(const QStringList& args) {
  return runTirx(args);
}

QString examplesDir() {
  return QStringLiteral(TIRX_SOURCE_DIR "/resources/examples");
}

}  // namespace

class TestCliExamples : public QObject {
  Q_OBJECT

 private slots:
  void examplesArePresent() {
    const QStringList files = QDir(examplesDir()).entryList({"*.py"}, QDir::Files, QDir::Name);
    QCOMPARE(files.size(), 45);  // README.md lists 45 scripts
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
    if (file == "max3.py")
      args << "--arch"
           << "sm_100";
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

  void pingpongDeadlocksWithoutAnArrive() {
    // The ping-pong example verifies (examplePassesOnSim); without warpgroup 1's first bar.arrive
    // both warpgroups wait forever: the simulator names barrier 1, its arrivals, the waiting warps
    // and the other barrier's waiters, at the script line (E0734; issue 24).
    QFile f(examplesDir() + "/attention_pingpong.py");
    QVERIFY(f.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(f.readAll());
    const QString arrive = "    if wg == 1:\n        T.ptx.bar.arrive(1, 256)\n";
    QVERIFY(text.contains(arrive));
    text.remove(arrive);
    QTemporaryDir dir;
    QFile out(dir.filePath("pingpong_missing_arrive.py"));
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(text.toUtf8());
    out.close();
    const Run r = tirx({"verify", out.fileName(), "--device", "sim"});
    QVERIFY2(r.code != 0, qPrintable(r.out + r.err));
    const QString all = r.out + r.err;
    QVERIFY2(
        all.contains(QRegularExpression("pingpong_missing_arrive\\.py:24:9: error: deadlock at "
                                        "named barrier 1: 128 of 256 threads arrived and no "
                                        "thread can run; warps 0–3 wait here \\[E0734\\]")),
        qPrintable(all));
    QVERIFY2(
        all.contains("note: warps 4–7 wait here at named barrier 2 (128 of 256 threads arrived)"),
        qPrintable(all));
  }

  void registerViewWithoutThreadAxes() {
    // Decision VIEW-1: a thread-axis-less view of a register tile is the thread's own slots.
    const Run r = tirx(
        {"verify", QStringLiteral(TIRX_SOURCE_DIR "/tests/data/verify/register_view_per_thread.py"),
         "--device", "sim"});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains("verified: 1/1 checks passed, 0 faults, 0 errors on sim"),
             qPrintable(r.out));
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
