// `tirx diff` end to end (the real binary): the activation pair of tests/data/diff reports the
// moved cells (252, counted by hand in its README), the changed PTX lines at the load's script
// line and both results, as text and as JSON; a version against itself exits 0; a bundle against
// its script; usage and I/O errors exit 2.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "tirx_process.h"

namespace {
QString data(const QString& rel) {
  return QStringLiteral(TIRX_SOURCE_DIR "/tests/data/") + rel;
}
}  // namespace

class TstCliDiff : public QObject {
  Q_OBJECT

 private slots:
  void textReportsMovedCellsPtxAndResults() {
    const Run r = runTirx({"diff", data("diff/activation_a.py"), data("diff/activation_b.py")});
    QCOMPARE(r.code, 1);  // the versions differ
    QVERIFY2(r.out.contains("== layouts: 1 register tile, 1 changed, 252 cells moved"),
             qPrintable(r.out));
    QVERIFY(r.out.contains("activation.R: 252 of 256 cells changed owner"));
    QVERIFY(r.out.contains("(0, 1, 0): w0 l1 r0 -> w0 l0 r4"));
    QVERIFY(r.out.contains("… 188 more"));  // 64 listed by default
    const qsizetype ptx = r.out.indexOf("== ptx: +");
    QVERIFY(ptx > 0);
    const qsizetype ld = r.out.indexOf("line 22 -> 23:", ptx);
    QVERIFY(ld > ptx);
    QVERIFY(r.out.indexOf("+\tld.global.v4.b32 {%f5, %f6, %f7, %f8}", ld) > ld);
    QVERIFY(r.out.contains("registers "));
    QVERIFY(r.out.contains("A: passed, 1/1 checks"));
    QVERIFY(r.out.contains("B: passed, 1/1 checks"));
    QVERIFY(r.out.endsWith("versions differ\n"));
  }

  void jsonCarriesTheSameValues() {
    const Run r = runTirx({"diff", data("diff/activation_a.py"), data("diff/activation_b.py"),
                           "--json", "--max-cells", "3"});
    QCOMPARE(r.code, 1);
    const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QVERIFY2(!j.isEmpty(), qPrintable(r.out.left(400)));
    QCOMPARE(j["identical"].toBool(), false);
    const QJsonObject l = j["layouts"].toArray().at(0).toObject();
    QCOMPARE(l["moved"].toInt(), 252);
    QCOMPARE(l["cells"].toInt(), 256);
    QCOMPARE(l["listed"].toArray().size(), 3);
    QCOMPARE(l["truncated"].toBool(), true);
    const QJsonObject first = l["listed"].toArray().at(0).toObject();
    QCOMPARE(first["before"].toObject()["lane"].toInt(), 1);
    QCOMPARE(first["after"].toObject()["reg"].toInt(), 4);
    QVERIFY(j["ptx"].toObject()["added"].toInt() > 0);
    bool ldGroup = false;
    for (const auto& g : j["ptx"].toObject()["groups"].toArray())
      ldGroup |= g.toObject()["script_a"].toInt() == 22 && g.toObject()["script_b"].toInt() == 23;
    QVERIFY(ldGroup);
    QCOMPARE(j["results"].toObject()["a"].toObject()["passed"].toBool(), true);
    QCOMPARE(j["results"].toObject()["b"].toObject()["source"].toString(),
             QString("verified on sim"));
    QCOMPARE(j["script"].toObject()["added"].toInt(), 11);
  }

  void identicalVersionsExitZero() {
    const Run r = runTirx(
        {"diff", data("diff/activation_a.py"), data("diff/activation_a.py"), "--no-verify"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("== script: identical"));
    QVERIFY(r.out.contains("0 of 256 cells changed owner"));
    QVERIFY(r.out.contains("versions are identical (timings aside)"));
  }

  void bundleAgainstItsScript() {
    const Run r = runTirx({"diff", data("bundles/activation_h200.tirxb"),
                           QStringLiteral(TIRX_SOURCE_DIR "/resources/examples/activation.py")});
    QVERIFY2(r.code == 0 || r.code == 1, qPrintable(r.err));
    QVERIFY(r.out.contains("(bundle, NVIDIA H200 (cuda:0))"));
    QVERIFY(r.out.contains("recorded on NVIDIA H200 (cuda:0)"));
    QVERIFY(r.out.contains("== ptx: identical"));
  }

  void invalidUtf8ScriptGivesValidJson() {
    // Regression: the JSON writer threw on a script's invalid UTF-8 (tirx aborted).
    QTemporaryDir dir;
    QFile bad(dir.filePath("bad.py"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("x = 1\n\xff\xfe\n");
    bad.close();
    const Run r =
        runTirx({"diff", bad.fileName(), data("diff/activation_a.py"), "--json", "--no-verify"});
    QCOMPARE(r.code, 1);
    const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QVERIFY2(!j.isEmpty(), qPrintable(r.out.left(300)));
    QCOMPARE(j["a"].toObject()["errors"].toArray().at(0).toObject()["code"].toString(),
             QString("E0007"));
    QCOMPARE(j["a"].toObject()["errors"].toArray().at(0).toObject()["line"].toInt(), 2);
  }

  void usageAndInputErrors() {
    QCOMPARE(runTirx({"diff", data("diff/activation_a.py")}).code, 2);
    QCOMPARE(runTirx({"diff", data("diff/activation_a.py"), data("diff/activation_b.py"),
                      "--device", "gpu"})
                 .code,
             2);
    QCOMPARE(runTirx({"diff", data("diff/activation_a.py"), data("diff/activation_b.py"),
                      "--max-cells", "-1"})
                 .code,
             2);
    const Run missing = runTirx({"diff", data("diff/activation_a.py"), "/nonexistent/b.py"});
    QCOMPARE(missing.code, 2);
    QVERIFY(missing.err.contains("cannot read '/nonexistent/b.py'"));
    QTemporaryDir dir;
    QFile bad(dir.filePath("bad.tirxb"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("{\"tirx\": 1, truncated");
    bad.close();
    const Run malformed = runTirx({"diff", bad.fileName(), data("diff/activation_a.py")});
    QCOMPARE(malformed.code, 2);
    QVERIFY(malformed.err.contains("bad.tirxb"));
  }
};

QTEST_GUILESS_MAIN(TstCliDiff)
#include "tst_cli_diff.moc"
