// `tirx verify` end to end through the real binary: the four acceptance scripts pass on the
// simulator with their own tolerances; correct kernels checked against wrong references fail with
// the worst elements and their owners; faults, harness errors, --json and exit codes (0 pass,
// 1 fail/fault/error, 2 usage, 3 cuda requested without a driver).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include "../shared_corpus.h"
#include "tirx_process.h"

namespace {

Run tirx(const QStringList& args) {
  return runTirx(args);
}

QString data(const char* name) {
  return QStringLiteral(TIRX_SOURCE_DIR "/tests/data/verify/") + name;
}
QString simData(const char* name) {
  return QStringLiteral(TIRX_SOURCE_DIR "/tests/data/sim/") + name;
}
QString acceptance(const QString& name) {
  return sharedCorpus("acceptance/" + name);
}
QString kernel(const char* name) {
  return QStringLiteral(TIRX_SOURCE_DIR "/tests/data/kernels/") + name;
}

}  // namespace

class TestCliVerify : public QObject {
  Q_OBJECT

 private slots:
  void acceptancePasses_data() {
    TIRX_NEED_SHARED("acceptance");
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("checks");
    QTest::addColumn<QString>("firstLine");
    QTest::newRow("affine_relu") << "arith_affine_relu.py" << 1
                                 << "PASS  affine_relu (line 30): max abs 0, max rel 0, 0/256 "
                                    "mismatches (assert_close, rtol 1.3e-06, atol 1e-05)";
    QTest::newRow("silu") << "arith_silu.py" << 1 << "PASS  affine_relu (line 31):";
    QTest::newRow("to_float16") << "arith_to_float16.py" << 1
                                << "PASS  to_float16 (line 31): max abs 0, max rel 0, 0/256 "
                                   "mismatches (assert_close, rtol 0.001, atol 1e-05)";
    QTest::newRow("ewise_doc_page") << "ewise_doc_page.py" << 2 << "PASS  activation (line 59):";
  }
  void acceptancePasses() {
    QFETCH(QString, file);
    QFETCH(int, checks);
    QFETCH(QString, firstLine);
    const Run r = tirx({"verify", acceptance(file), "--device", "sim"});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.startsWith(firstLine), qPrintable(r.out));
    QCOMPARE(r.out.count(QStringLiteral("\nPASS  ")) + 1, checks);
    QVERIFY(!r.out.contains("FAIL"));
    QVERIFY(r.out.contains(
        QStringLiteral("verified: %1/%1 checks passed, 0 faults, 0 errors on sim").arg(checks)));
  }

  // The project's own kernels (tests/data/kernels: the same kernels with random check data) pass
  // in any clone, with or without ../shared.
  void projectKernelsPass_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("checks");
    QTest::newRow("affine_relu") << "affine_relu.py" << 1;
    QTest::newRow("silu") << "silu.py" << 1;
    QTest::newRow("to_float16") << "to_float16.py" << 1;
    QTest::newRow("two_kernels") << "two_kernels.py" << 2;
  }
  void projectKernelsPass() {
    QFETCH(QString, file);
    QFETCH(int, checks);
    const Run r = tirx({"verify", kernel(file.toUtf8().constData()), "--device", "sim"});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY(r.out.contains(
        QStringLiteral("verified: %1/%1 checks passed, 0 faults, 0 errors on sim").arg(checks)));
  }

  void wrongReferenceFails() {
    Run r = tirx({"verify", data("wrong_reference_torch.py")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.startsWith(
                 "FAIL  affine_relu (line 30): max abs 0.01, max rel 0.267, 144/256 mismatches"),
             qPrintable(r.out));
    // the worst element, its owner (warp/lane/register) and the lines that produced it
    QVERIFY2(r.out.contains(
                 "at [0, 28, 0]: got 0.0275, expected 0.0375 (abs 0.01, rel 0.267) <- cta 0, warp "
                 "0, lane 28, register registers[0] (last written at line 20), stored at line 21"),
             qPrintable(r.out));
    QVERIFY(r.out.contains("NOT verified: 0/1 checks passed"));

    r = tirx({"verify", data("wrong_reference_numpy.py")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains("PASS  activation (line 58)"), qPrintable(r.out));
    QVERIFY2(r.out.contains(
                 "FAIL  shared_affine (line 58): max abs 7.78, max rel 21.3, 256/256 mismatches"),
             qPrintable(r.out));
    QVERIFY(
        r.out.contains("at [63, 0]: got -3, expected 4.78 (abs 7.78, rel 1.63) <- cta 0, warp 1, "
                       "lane 31, stored at line 44"));

    r = tirx({"verify", data("wrong_reference_half.py")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains("FAIL  to_float16 (line 30)"), qPrintable(r.out));
    QVERIFY(r.out.contains("register converted[3] (last written at line 18), stored at line 22"));
  }

  // f-strings and str.format() in check code print what CPython prints (before, an f-string was
  // a plain string and the braces stayed in the log and in assert messages). The expected lines
  // are CPython 3.11's output for the same check code.
  void fstringsFormatTheLogAndMessages() {
    const Run r = tirx({"verify", data("fstring_report.py"), "--device", "sim"});
    QCOMPARE(r.code, 1);  // the last assert fails on purpose
    const QStringList lines = r.out.split('\n');
    QVERIFY2(lines.size() >= 7, qPrintable(r.out));
    QCOMPARE(lines[0], QStringLiteral("PASS  neg_abs (line 36): max abs 0, max rel 0, 0/256 "
                                      "mismatches (assert_allclose, rtol 0, atol 0)"));
    QCOMPARE(lines[1], QStringLiteral("PASS  neg_abs (line 37): assertion holds"));
    QCOMPARE(lines[2], QStringLiteral("FAIL  neg_abs (line 38): assertion failed: expected a large "
                                      "error, found 0.0e+00 (x[0] = -4.0)"));
    QCOMPARE(lines[3], QStringLiteral("max abs error 0.000e+00 over 256,000 values"));
    QCOMPARE(lines[4], QStringLiteral("left    |   right|  mid   |"));
    QCOMPARE(lines[5], QStringLiteral("   ratio: 25.0%  x[5]=-3.8431  {braces}"));
    QVERIFY(lines[6].startsWith("NOT verified: 2/3 checks passed, 0 faults, 0 errors on sim"));
  }

  // Issue 8: `ref[1, 5] += 0.5` (and slices, and `ref *= 3` seen through an alias) change the
  // reference in place, so a kernel that no longer matches it must FAIL.
  void inPlaceReferenceEditsFail() {
    const Run r = tirx({"verify", data("inplace_reference.py")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains("FAIL  double (line 25): max abs 0.5, max rel 0.0189, 1/32 mismatches"),
             qPrintable(r.out));
    QVERIFY2(r.out.contains("at [1, 5]: got 26, expected 26.5"), qPrintable(r.out));
    QVERIFY2(r.out.contains("FAIL  double (line 29): max abs 1, max rel 0.2, 2/32 mismatches"),
             qPrintable(r.out));
    QVERIFY2(r.out.contains("FAIL  double (line 34): max abs 124, max rel 0.667, 31/32 mismatches"),
             qPrintable(r.out));
    QVERIFY2(r.out.contains("PASS  double (line 39)"), qPrintable(r.out));
    QVERIFY2(r.out.contains("NOT verified: 1/4 checks passed"), qPrintable(r.out));
  }

  // Issue 8 (found by the verify fuzz target): a diagnostic quoting invalid UTF-8 from the
  // script aborted `tirx verify --json` with an uncaught JSON exception.
  void jsonWithInvalidUtf8() {
    const Run r = tirx({"verify", data("invalid_utf8_message.py"), "--json"});
    QCOMPARE(r.code, 1);
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &pe);
    QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(r.out + r.err));
    const QJsonArray errors = doc.object()["errors"].toArray();
    QCOMPARE(errors.size(), 1);
    QVERIFY2(errors[0].toObject()["message"].toString().contains(
                 QString::fromUtf8("invalid literal for int() with base 10: '1\xEF\xBF\xBD'")),
             qPrintable(errors[0].toObject()["message"].toString()));
  }

  void faultsFail() {
    const Run r = tirx({"verify", simData("race.py")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains("race.py:27:5: error: shared-memory race on 'S'"), qPrintable(r.out));
    QVERIFY(r.out.contains("race.py:29:9: note: read here by cta 0 thread 0"));
    QVERIFY(r.out.contains("[E0701]"));
    const Run o = tirx({"verify", simData("oob.py")});
    QCOMPARE(o.code, 1);
    QVERIFY(
        o.out.contains("oob.py:12:9: error: index 64 is out of bounds for dimension 0 of 'Out'"));
  }

  void noCheckCodeRunsSeeded() {
    const Run r = tirx({"verify", data("no_checks.py")});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.startsWith("PASS  scale: seeded run on sim: ran without faults"),
             qPrintable(r.out));
  }

  void harnessErrors() {
    const Run r = tirx({"verify", data("unsupported.py")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains(
                 "unsupported.py:12:8: error: module 'scipy' is not supported by the harness"),
             qPrintable(r.out));
    QVERIFY(r.out.contains("[E0801]"));
  }

  void jsonReport() {
    const Run r = tirx({"verify", kernel("two_kernels.py"), "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(o["passed"].toBool(), true);
    QCOMPARE(o["device"].toString(), QString("sim"));
    const QJsonArray checks = o["checks"].toArray();
    QCOMPARE(checks.size(), 2);
    const QJsonObject c = checks[1].toObject();
    QCOMPARE(c["name"].toString(), QString("shared_affine (line 59)"));
    QCOMPARE(c["kind"].toString(), QString("assert_allclose"));
    QCOMPARE(c["rtol"].toDouble(), 2e-5);
    QCOMPARE(c["shape"].toArray().size(), 2);
    QCOMPARE(c["output"].toArray().size(), 256);
    QCOMPARE(c["reference"].toArray().size(), 256);
    QCOMPARE(o["runs"].toArray().size(), 2);
    QCOMPARE(o["faults"].toArray().size(), 0);
  }

  void timeline() {
    // --timeline: the text lists the events, --json carries them per run; without it, nothing.
    const QString ring = QStringLiteral(TIRX_SOURCE_DIR "/resources/examples/mbarrier_ring.py");
    const Run text = tirx({"verify", ring, "--timeline"});
    QCOMPARE(text.code, 0);
    QVERIFY2(text.out.contains("timeline of mbarrier_ring: 52 events\n"), qPrintable(text.out));
    QVERIFY2(
        text.out.contains(
            "  t=21..23 cta 0 warp 0 line 35 mbarrier.wait full[0] parity 0 (phase 0), 32 lanes\n"),
        qPrintable(text.out));
    const Run json = tirx({"verify", ring, "--timeline", "--json"});
    QCOMPARE(json.code, 0);
    const QJsonObject run =
        QJsonDocument::fromJson(json.out.toUtf8()).object()["runs"].toArray()[0].toObject();
    const QJsonObject tl = run["timeline"].toObject();
    QCOMPARE(tl["truncated"].toBool(), false);
    QCOMPARE(tl["copy_ticks"].toInt(), 64);
    const QJsonArray events = tl["events"].toArray();
    QCOMPARE(events.size(), 52);
    QCOMPARE(events[0].toObject()["kind"].toString(), QString("mbarrier.init"));
    QCOMPARE(events[0].toObject()["barrier"].toString(), QString("full[0]"));
    const Run plain = tirx({"verify", ring, "--json"});
    QVERIFY(!QJsonDocument::fromJson(plain.out.toUtf8())
                 .object()["runs"]
                 .toArray()[0]
                 .toObject()
                 .contains("timeline"));
    QVERIFY(!tirx({"verify", ring}).out.contains("timeline of"));
  }

  void timelineOfOneCta() {
    // --cta N: CTA N of the launch alone, on seeded inputs, the check code not run; its timeline
    // has that CTA's events only. A CTA outside the launch is a launch fault at the launch line.
    const QString ws = QStringLiteral(TIRX_SOURCE_DIR "/resources/examples/gemm_wgmma_ws.py");
    const Run one = tirx({"verify", ws, "--timeline", "--cta", "2"});
    QCOMPARE(one.code, 0);
    QVERIFY2(one.out.contains("PASS  gemm_ws: CTA 2 of 3 alone on sim (seeded inputs; the check "
                              "code not run): ran without faults"),
             qPrintable(one.out));
    const QStringList events = one.out.split('\n').filter(QRegularExpression("^  t=\\d"));
    QVERIFY2(events.size() > 100, qPrintable(one.out.left(2000)));
    for (const QString& e : events) QVERIFY2(e.contains(" cta 2 warp "), qPrintable(e));
    QVERIFY(!one.out.contains("assert_close"));
    const Run outside = tirx({"verify", ws, "--timeline", "--cta", "3"});
    QCOMPARE(outside.code, 1);
    QVERIFY2(
        outside.out.contains("gemm_wgmma_ws.py:44:27: error: CTA 3 was asked for alone, but the "
                             "launch of 'gemm_ws' has 3 CTAs (0 .. 2) [E0770]"),
        qPrintable(outside.out));
    QCOMPARE(tirx({"verify", ws, "--cta", "1", "--device", "cuda"}).code, 2);
    QCOMPARE(tirx({"verify", ws, "--cta", "-1"}).code, 2);
  }

  void exitCodes() {
    QCOMPARE(tirx({"verify"}).code, 2);
    QCOMPARE(tirx({"verify", data("does_not_exist.py")}).code, 2);
    QCOMPARE(tirx({"verify", kernel("silu.py"), "--device", "tpu"}).code, 2);
    // This build's CLI has no CUDA executor unless core/driver provides one and a driver loads.
    const Run c = tirx({"verify", kernel("silu.py"), "--device", "cuda"});
    if (c.code == 0)
      QSKIP("a CUDA device is available here; the no-driver exit code is not testable");
    QCOMPARE(c.code, 3);
    QVERIFY2(c.out.contains("the cuda device is not available"), qPrintable(c.out));
  }
};

QTEST_APPLESS_MAIN(TestCliVerify)
#include "tst_cli_verify.moc"
