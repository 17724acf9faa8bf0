// scriptSummary (core/script/summary.h): the first sentence of a script's header comment, as the
// studio's Examples menu shows it; every bundled example has one.
#include <QDir>
#include <QFile>
#include <QtTest>

#include "core/script/summary.h"

using namespace tirx;

class TstScriptSummary : public QObject {
  Q_OBJECT
 private slots:
  void rules() {
    QCOMPARE(scriptSummary("# One sentence. Another.\n# more\nimport x\n"),
             std::string("One sentence."));
    QCOMPARE(scriptSummary("#!/usr/bin/env python\n\n# Joined across\n# lines. Rest\n"),
             std::string("Joined across lines."));
    QCOMPARE(scriptSummary("# Keeps (a. b) together.\n"), std::string("Keeps (a. b) together."));
    QCOMPARE(scriptSummary("# Keeps 2.5 and e.g.x whole.\n"),
             std::string("Keeps 2.5 and e.g.x whole."));
    QCOMPARE(scriptSummary("# The three ways (spec):\n#   1. first\n"),
             std::string("The three ways (spec)"));
    QCOMPARE(scriptSummary("# No full stop at all\n\n# second paragraph.\n"),
             std::string("No full stop at all"));
    QCOMPARE(scriptSummary("#\n# After an empty comment line.\n"),
             std::string("After an empty comment line."));
    QCOMPARE(scriptSummary("import x  # not a header\n"), std::string());
    QCOMPARE(scriptSummary(""), std::string());
    // long: cut at a word, never inside an open parenthesis or a UTF-8 sequence
    QCOMPARE(scriptSummary(
                 "# Fused multiply-add: Out = 2 * A + 1 with fma.rn.f32, one rounding per result "
                 "(not a mul followed by an add).\n",
                 90),
             std::string(
                 "Fused multiply-add: Out = 2 * A + 1 with fma.rn.f32, one rounding per result…"));
    const std::string s =
        scriptSummary("# " + std::string(30, 'x') + " · " + std::string(30, 'y') + " end.\n", 40);
    QVERIFY(s.size() <= 40 + 3);
    QCOMPARE(s.substr(s.size() - 3), std::string("…"));
    QVERIFY(QString::fromUtf8(s.c_str()).toUtf8() == QByteArray(s.c_str()));  // valid UTF-8
  }

  void everyExampleHasOne() {
    QDir dir(QStringLiteral(TIRX_SOURCE_DIR) + "/resources/examples");
    const QStringList files = dir.entryList({"*.py"});
    QVERIFY(files.size() > 20);
    for (const QString& f : files) {
      QFile file(dir.filePath(f));
      QVERIFY(file.open(QIODevice::ReadOnly));
      const QByteArray text = file.readAll();
      const std::string line =
          scriptSummary(std::string_view(text.constData(), size_t(text.size())), 90);
      QVERIFY2(line.size() >= 20, qPrintable(f));
      QVERIFY2(line.size() <= 93, qPrintable(f));
    }
  }
};

QTEST_MAIN(TstScriptSummary)
#include "tst_script_summary.moc"
