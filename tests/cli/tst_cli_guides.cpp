// The reader's suite (tests/data/guides): kernels written in the style of the public TIRx guides
// and tile-op pages, each with its numpy check code, run as written through the real binary:
// `tirx verify FILE --device sim` exits 0 with every check line PASS and the N/N summary. The
// list comes from the directory, so a new guide kernel is covered automatically; on the H200 the
// same files run with `--device both` (README "GPU checks").
#include <QDir>
#include <QRegularExpression>
#include <QTemporaryFile>
#include <QtTest>

#include "tirx_process.h"

namespace {

QString guidesDir() {
  return QStringLiteral(TIRX_SOURCE_DIR "/tests/data/guides");
}

QStringList guideFiles() {
  return QDir(guidesDir()).entryList({"*.py"}, QDir::Files, QDir::Name);
}

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
    QVERIFY2(text.contains("assert_allclose") || text.contains("assert_close") ||
                 text.contains("assert "),
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

  // Dynamic shapes (decision "Dynamic shapes"): the call binds the extents, or names why not.
  void dynamicExtentsDisagreeAtTheCall() {
    const QString file = QStringLiteral(TIRX_SOURCE_DIR "/tests/data/verify/dynamic_mismatch.py");
    const Run r = runTirx({"verify", file, "--device", "sim"});
    QCOMPARE(r.code, 1);
    QVERIFY2(
        r.out.contains("dynamic_mismatch.py:22:1: error: kernel 'vector_add' did not complete"),
        qPrintable(r.out));
    QVERIFY2(
        r.out.contains(
            "call of 'vector_add': argument 'b' has shape (100,), so its extent 'n' would be 100, "
            "but argument 'a' has shape (128,) ('n' = 128)"),
        qPrintable(r.out));
    QVERIFY(!r.out.contains("PASS"));
  }

  void runTakesSymbolicExtentsAsInputs() {
    const QString file = guidesDir() + "/dynamic_shapes.py";
    const Run r = runTirx({"run", file, "--device", "sim", "--input", "n=300", "--input", "a=ones",
                           "--input", "b=full(2)"});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains("vector_add on simulator: ran"), qPrintable(r.out));
    QVERIFY2(r.out.contains("c float32 min 3 max 3"), qPrintable(r.out));
    const Run missing = runTirx({"run", file, "--device", "sim"});
    QCOMPARE(missing.code, 2);
    QVERIFY2(
        missing.err.contains(
            "kernel 'vector_add' has the symbolic extent 'n': give its value with --input n=VALUE"),
        qPrintable(missing.err));
  }

  void codegenTakesTheSizeAsAParameter() {
    const Run r = runTirx({"compile", guidesDir() + "/dynamic_shapes.py", "--emit", "cuda"});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains("vector_add(float* __restrict__ a, float* __restrict__ b, float* "
                            "__restrict__ c, int n)"),
             qPrintable(r.out));
  }

  // A symbolic row length (issue 13): the row stride is a kernel parameter in the CUDA, the call
  // binds it (tirx run --input m=, n=), and an alignment that holds only for some row lengths is
  // checked at the call.
  void rowStrideIsAParameter() {
    const Run r = runTirx({"compile", guidesDir() + "/dynamic_rows.py", "--emit", "cuda"});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY2(
        r.out.contains("row_normalize(float* __restrict__ A, float* __restrict__ B, int m, int n)"),
        qPrintable(r.out));
    QVERIFY2(r.out.contains("A[((long long)row * (long long)n + (long long)j)]"),
             qPrintable(r.out));
    QVERIFY2(r.out.contains("\"l\"(A + ((long long)row * (long long)cols + (long long)c))"),
             qPrintable(r.out));
  }

  void runBindsTwoExtents() {
    const Run r =
        runTirx({"run", guidesDir() + "/dynamic_rows.py", "--kernel", "row_normalize", "--device",
                 "sim", "--input", "m=3", "--input", "n=7", "--input", "A=ones"});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains("B float32 min 0.1428571 max 0.1428571"), qPrintable(r.out));
  }

  void unalignedRowLengthRefusedAtTheCall() {
    const QString file =
        QStringLiteral(TIRX_SOURCE_DIR "/tests/data/verify/dynamic_rows_unaligned.py");
    const Run r = runTirx({"verify", file, "--device", "sim"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains(
                 "dynamic_rows_unaligned.py:27:1: error: kernel 'scale_rows' did not complete"),
             qPrintable(r.out));
    QVERIFY2(
        r.out.contains(
            "call of 'scale_rows': the extent 'cols' of 'A' is 30, but ld.global.v4.b32 at line 16 "
            "(16-byte atoms) needs a multiple of 4 to stay aligned [E0772]"),
        qPrintable(r.out));
    QVERIFY2(r.out.contains("PASS  scale_rows (line 24)"),
             qPrintable(r.out));  // the aligned call ran
  }

  void indexPastTheRowEndFaults() {
    const QString file = QStringLiteral(TIRX_SOURCE_DIR "/tests/data/verify/dynamic_rows_oob.py");
    const Run r = runTirx({"verify", file, "--device", "sim"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains(
                 "dynamic_rows_oob.py:18:5: error: index 4 of dimension 1 of 'A[r : r + 1, 4:8]' "
                 "is outside "
                 "its extent 4 (bound by this call) in cta 0 thread 0 (warp 0, lane 0) [E0710]"),
             qPrintable(r.out));
    QVERIFY(!r.out.contains("PASS"));
  }

  void verifyWithoutChecksNeedsSizes() {
    QTemporaryFile f(QDir::tempPath() + "/tirx_dyn_XXXXXX.py");
    QVERIFY(f.open());
    f.write(
        "from tvm.script import tirx as T\n"
        "n = T.dynamic(\"n\")\n"
        "@T.function\n"
        "def k(a: T.Tensor((n,), \"float32\")):\n"
        "    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 64), block=64))\n"
        "    i = T.cuda.block_idx(\"x\") * 64 + T.cuda.thread_idx(\"x\")\n"
        "    if i < n:\n"
        "        a[i] = T.float32(1)\n");
    f.close();
    const Run r = runTirx({"verify", f.fileName(), "--device", "sim"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains("[E0813]") && r.out.contains("kernel 'k' has symbolic extents"),
             qPrintable(r.out));
  }
};

QTEST_APPLESS_MAIN(TestCliGuides)
#include "tst_cli_guides.moc"
