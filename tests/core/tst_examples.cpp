// The bundled example kernels (resources/examples/*.py) must pass the front end: every file
// parses and checks without diagnostics on sm_100, and on sm_90 too except max3.py, whose
// three-input max.f32 needs sm_100 and must be rejected for sm_90 with a message naming sm_100.
#include <QDir>
#include <QFile>
#include <QtTest>

#include "core/sema/sema.h"

using namespace tirx;

class TstExamples : public QObject {
  Q_OBJECT
 private slots:
  void checks_data();
  void checks();
  void readmeListsEveryExample();
};

static QStringList exampleFiles() {
  QDir dir(QStringLiteral(TIRX_SOURCE_DIR "/resources/examples"));
  return dir.entryList({"*.py"}, QDir::Files, QDir::Name);
}

void TstExamples::checks_data() {
  QTest::addColumn<QString>("file");
  const QStringList files = exampleFiles();
  QCOMPARE(files.size(), 45);  // resources/examples/README.md lists 45
  for (const QString& f : files) QTest::newRow(qPrintable(f)) << f;
}

void TstExamples::checks() {
  QFETCH(QString, file);
  QFile f(QStringLiteral(TIRX_SOURCE_DIR "/resources/examples/") + file);
  QVERIFY(f.open(QIODevice::ReadOnly));
  const std::string src = f.readAll().toStdString();
  for (int sm : {100, 90}) {
    FrontEndResult r = checkScript(src, file.toStdString(), SemaOptions{sm});
    QVERIFY(!r.program.kernels.empty());
    if (file == "max3.py" && sm == 90) {
      QCOMPARE(r.diagnostics.size(), size_t(1));
      QVERIFY2(r.diagnostics[0].message.find("sm_90") != std::string::npos ||
                   r.diagnostics[0].message.find("sm_100") != std::string::npos,
               r.diagnostics[0].message.c_str());
      continue;
    }
    if ((file.contains("wgmma") || file.startsWith("attention_fwd")) &&
        sm == 100) {  // wgmma is sm_90a only: refused elsewhere
      QVERIFY(!r.diagnostics.empty());
      for (const Diagnostic& d : r.diagnostics) QCOMPARE(d.code, std::string("E0177"));
      continue;
    }
    std::string all;
    for (const Diagnostic& d : r.diagnostics)
      all += std::to_string(d.span.line) + ": " + d.message + " [" + d.code + "]\n";
    QVERIFY2(r.diagnostics.empty(), (std::string("sm_") + std::to_string(sm) + "\n" + all).c_str());
  }
}

void TstExamples::readmeListsEveryExample() {
  QFile f(QStringLiteral(TIRX_SOURCE_DIR "/resources/examples/README.md"));
  QVERIFY(f.open(QIODevice::ReadOnly));
  const QString readme = QString::fromUtf8(f.readAll());
  for (const QString& file : exampleFiles())
    QVERIFY2(readme.contains("`" + file + "`"), qPrintable(file));
}

QTEST_APPLESS_MAIN(TstExamples)
#include "tst_examples.moc"
