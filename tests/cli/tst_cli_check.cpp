// `tirx check` end to end through the real binary: exit codes (0 clean or warnings only, 1 errors,
// 2 usage/unreadable), the gcc format with notes, --json, and --arch gating of three-input max.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include "tirx_process.h"

namespace {

Run tirx(const QStringList& args) {
  return runTirx(args);
}

QString diag(const char* name) {
  return QStringLiteral(TIRX_SOURCE_DIR "/tests/data/diagnostics/") + name;
}
QString kernel(const char* name) {
  return QStringLiteral(TIRX_SOURCE_DIR "/tests/data/kernels/") + name;
}

}  // namespace

class TestCliCheck : public QObject {
  Q_OBJECT

 private slots:
  void cleanScriptExitsZero() {
    const Run r = tirx({"check", kernel("two_kernels.py")});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
  }

  void errorsPrintGccStyleAndExitOne() {
    const QString path = diag("arch_three_input_max.py");
    const Run r = tirx({"check", path});
    QCOMPARE(r.code, 1);
    const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 2);
    QVERIFY2(lines[0].startsWith(path +
                                 ":15:5: error: max.f32 with 4 operands is not available on sm_90"),
             qPrintable(lines[0]));
    QVERIFY(lines[0].endsWith("[E0177]"));
    QCOMPARE(lines[1],
             path + ":15:23: note: three-input max.f32 needs sm_100; this check targets sm_90");
  }

  // Issue 8: scripts whose kernels are invisible (no kernel, a misspelt decorator, a missing
  // import, a kernel built in a Python function) no longer "check nothing" with exit 0.
  void invisibleKernelsExitOne_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::newRow("no kernel") << "no_kernel.py"
                               << ":1:1: error: no TIRx kernel in this file";
    QTest::newRow("@t.function") << "decorator_misspelt_module.py"
                                 << ":5:2: error: name 't' is not defined";
    QTest::newRow("@foo") << "decorator_undefined_name.py"
                          << ":5:2: error: name 'foo' is not defined";
    QTest::newRow("@T.prim_fun") << "decorator_misspelt_builtin.py"
                                 << ":5:2: error: unknown TIRx name 'T.prim_fun'";
    QTest::newRow("T undefined") << "import_missing_t.py"
                                 << ":5:2: error: name 'T' is not defined";
    QTest::newRow("builder")
        << "kernel_in_builder_function.py"
        << ":16:10: error: 'make_scale' builds the kernel 'scale' inside a Python function";
  }
  void invisibleKernelsExitOne() {
    QFETCH(QString, file);
    QFETCH(QString, expected);
    for (const char* cmd : {"check", "verify"}) {
      const Run r = tirx({cmd, diag(file.toUtf8().constData())});
      QCOMPARE(r.code, 1);
      QVERIFY2(
          r.out.contains(diag(file.toUtf8().constData()) + expected) || r.out.contains(expected),
          qPrintable(r.out + r.err));
    }
  }

  void archSm100AcceptsThreeInputMax() {
    const Run r = tirx({"check", diag("arch_three_input_max.py"), "--arch", "sm_100"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
    QCOMPARE(tirx({"check", "--arch=sm_100a", diag("arch_three_input_max.py")}).code, 0);
  }

  void warningsAloneExitZero() {
    const Run r = tirx({"check", diag("warning_unused_allocation.py")});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains(": warning: allocation 'X' is never used [W0100]"), qPrintable(r.out));
  }

  void jsonOutput() {
    const QString path = diag("dtype_f16_carrier.py");
    const Run r = tirx({"check", path, "--json"});
    QCOMPARE(r.code, 1);
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &pe);
    QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(r.out));
    const QJsonObject o = doc.object();
    QCOMPARE(o["file"].toString(), path);
    QCOMPARE(o["arch"].toString(), QString("sm_90"));
    QCOMPARE(o["ok"].toBool(), false);
    const QJsonArray ds = o["diagnostics"].toArray();
    QCOMPARE(ds.size(), 1);
    const QJsonObject d = ds[0].toObject();
    QCOMPARE(d["severity"].toString(), QString("error"));
    QCOMPARE(d["code"].toString(), QString("E0168"));
    QCOMPARE(d["line"].toInt(), 15);
    QCOMPARE(d["col"].toInt(), 48);
    QCOMPARE(d["length"].toInt(), QString("H.view(2, 32, 4, 1)").size());
    QVERIFY(d["message"].toString().contains("needs a uint16 carrier, found float16"));
    const QJsonArray notes = d["notes"].toArray();
    QCOMPARE(notes.size(), 1);
    QVERIFY(notes[0].toObject()["message"].toString().contains(".view(\"uint16\")"));
    QCOMPARE(notes[0].toObject()["line"].toInt(), 15);
  }

  void jsonCleanScript() {
    const Run r = tirx({"check", "--json", kernel("to_float16.py")});
    QCOMPARE(r.code, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(o["ok"].toBool(), true);
    QCOMPARE(o["diagnostics"].toArray().size(), 0);
  }

  void usageErrorsExitTwo() {
    QCOMPARE(tirx({"check"}).code, 2);
    QCOMPARE(tirx({"check", "/nonexistent/file.py"}).code, 2);
    QCOMPARE(tirx({"check", diag("arch_three_input_max.py"), "--arch", "banana"}).code, 2);
    QCOMPARE(tirx({"check", diag("arch_three_input_max.py"), "--frobnicate"}).code, 2);
    QCOMPARE(tirx({"check", "a.py", "b.py"}).code, 2);
  }

  void syntaxErrorExitsOne() {
    const Run r = tirx({"check", diag("syntax_missing_paren.py")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains("[E0001]"), qPrintable(r.out));
  }
};

QTEST_APPLESS_MAIN(TestCliCheck)
#include "tst_cli_check.moc"
