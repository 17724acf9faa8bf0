// The attention benchmark kernels (bench/kernels/attention_fwd_bf16_*.py, issue 24, decision ATT-1)
// through the real binary: at the benchmark shape (4 × 32 heads × 4096 tokens) `tirx check` is
// clean on sm_90; and the same file with BATCH, HEADS and SEQ made small (1 × 1 × 1024: eight query
// tiles and eight K/V blocks, so rings of two and three stages wrap and their split K and V empty
// barriers change parity several times, the causal kernel's CTAs stream one to eight blocks, and
// each warpgroup takes many ping-pong turns) plus torch check code against
// scaled_dot_product_attention verifies on the simulator. The small instance is the benchmark
// kernel itself, not a twin: only the three constant lines change.
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "tirx_process.h"

namespace {

QString benchKernel(const QString& name) {
  return QStringLiteral(TIRX_SOURCE_DIR "/bench/kernels/") + name;
}

QString readText(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(f.readAll());
}

/// The benchmark kernel's text, with `POLY = 0` (the d64 q192 kernel's share of exponentials on the
/// FMA pipe) set to `poly` when it is not 0; empty when that line is not there once.
QString kernelText(const QString& file, int poly) {
  QString text = readText(benchKernel(file));
  if (poly == 0) return text;
  const QString line = "\nPOLY = 0 ";
  if (text.count(line) != 1) return {};
  return text.replace(line, QString("\nPOLY = %1 ").arg(poly));
}

/// `text` written to `dir`/`name`; the path.
QString writeScript(const QTemporaryDir& dir, const QString& name, const QString& text) {
  QFile out(dir.filePath(name));
  if (!out.open(QIODevice::WriteOnly)) return {};
  out.write(text.toUtf8());
  return out.fileName();
}

/// The kernel file with its shape constants replaced (each must occur once) and, unless it has its
/// own, check code that runs the kernel on random bf16 Q, K, V and compares with torch SDPA.
QString smallInstance(QString text, const QString& fn, bool causal, QString& why) {
  const QStringList from{"BATCH = 4\n", "HEADS = 32\n", "SEQ = 4096\n"};
  const QStringList to{"BATCH = 1\n", "HEADS = 1\n", "SEQ = 1024\n"};
  for (int i = 0; i < from.size(); ++i) {
    if (text.count(from[i]) != 1) {
      why = "expected one line '" + from[i].trimmed() + "'";
      return {};
    }
    text.replace(from[i], to[i]);
  }
  // A kernel with check code of its own (sampled heads and rows, for `tirx tune` and the GPU) keeps
  // it, and every element of the small instance is compared with SDPA as well (its q, k, v, o).
  if (text.contains("import tvm_tirx"))
    return text + QStringLiteral(
                      "ref_all = torch.nn.functional.scaled_dot_product_attention(q, k, v, "
                      "is_causal=%1)\n"
                      "torch.testing.assert_close(o.reshape(BH, SEQ, D).float(), ref_all.float(), "
                      "rtol=2e-2, atol=2e-2)\n")
                      .arg(causal ? "True" : "False");
  text +=
      QStringLiteral(
          "\n\nimport torch\nimport tvm_tirx\n\n"
          "torch.manual_seed(0)\n"
          "q = torch.randn(BH, SEQ, D, dtype=torch.bfloat16, device=\"cuda\")\n"
          "k = torch.randn(BH, SEQ, D, dtype=torch.bfloat16, device=\"cuda\")\n"
          "v = torch.randn(BH, SEQ, D, dtype=torch.bfloat16, device=\"cuda\")\n"
          "o = torch.zeros(BH * SEQ, D, dtype=torch.bfloat16, device=\"cuda\")\n"
          "tvm_tirx.compile(%1, target=\"cuda\")(q.reshape(BH * SEQ, D), k.reshape(BH * SEQ, D), "
          "v.reshape(BH * SEQ, D), o)\n"
          "ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=%2)\n"
          "torch.testing.assert_close(o.reshape(BH, SEQ, D).float(), ref.float(), rtol=2e-2, "
          "atol=2e-2)\n")
          .arg(fn, causal ? "True" : "False");
  return text;
}

}  // namespace

class TestCliAttentionBench : public QObject {
  Q_OBJECT

 private slots:
  void kernels_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("function");
    QTest::addColumn<bool>("causal");
    QTest::addColumn<int>("poly");
    QTest::newRow("d128") << "attention_fwd_bf16_d128.py"
                          << "attention_fwd_bf16_d128" << false << 0;
    QTest::newRow("d128 causal") << "attention_fwd_bf16_d128_causal.py"
                                 << "attention_fwd_bf16_d128_causal" << true << 0;
    QTest::newRow("d64") << "attention_fwd_bf16_d64.py"
                         << "attention_fwd_bf16_d64" << false << 0;
    QTest::newRow("d64 q192") << "attention_fwd_bf16_d64_q192.py"
                              << "attention_fwd_bf16_d64_q192" << false << 0;
    // The same file with 16 of each thread's 64 exponentials on the FMA pipe: the polynomial
    // branch of exp2_split, which POLY = 0 never compiles (decision STATIC-IF-1).
    QTest::newRow("d64 q192 POLY=16") << "attention_fwd_bf16_d64_q192.py"
                                      << "attention_fwd_bf16_d64_q192" << false << 16;
  }

  void checkCleanAtTheBenchmarkShape_data() { kernels_data(); }
  void checkCleanAtTheBenchmarkShape() {
    QFETCH(QString, file);
    QFETCH(int, poly);
    const QString text = kernelText(file, poly);
    QVERIFY2(!text.isEmpty(), qPrintable(file));
    QTemporaryDir dir;
    const Run r = runTirx({"check", writeScript(dir, file, text), "--arch", "sm_90"});
    QVERIFY2(r.code == 0, qPrintable(QString("exit %1\n").arg(r.code) + r.out + r.err));
    QVERIFY2(!r.out.contains("error") && !r.err.contains("error"), qPrintable(r.out + r.err));
  }

  void smallInstanceVerifiesOnSim_data() { kernels_data(); }
  void smallInstanceVerifiesOnSim() {
    QFETCH(QString, file);
    QFETCH(QString, function);
    QFETCH(bool, causal);
    QFETCH(int, poly);
    QString why;
    const QString text = smallInstance(kernelText(file, poly), function, causal, why);
    QVERIFY2(!text.isEmpty(), qPrintable(why));
    QTemporaryDir dir;
    const Run r = runTirx({"verify", writeScript(dir, "small_" + file, text), "--device", "sim"});
    QVERIFY2(r.code == 0, qPrintable(QString("exit %1\n").arg(r.code) + r.out + r.err));
    QVERIFY2(r.out.contains(QRegularExpression("^PASS  ", QRegularExpression::MultilineOption)),
             qPrintable(r.out));
    // The kernel's own sampled check (elementwise and by the mean) and the whole-output comparison.
    QVERIFY2(r.out.contains(
                 QRegularExpression("verified: 3/3 checks passed, 0 faults, 0 errors on sim")),
             qPrintable(r.out));
  }

  void wrongExponentialFailsTheMeanCheck() {
    // The q192 kernel at POLY = 16 with exp2's linear coefficient 5 % off (0.66 for 0.6951): every
    // element stays within the elementwise tolerance (the normalisation cancels most of the
    // error), and the kernel's float32 mean check is what fails.
    QString text = kernelText("attention_fwd_bf16_d64_q192.py", 16);
    QCOMPARE(text.count("C1 = 0.69511652\n"), 1);
    text.replace("C1 = 0.69511652\n", "C1 = 0.66\n");
    QString why;
    text = smallInstance(text, "attention_fwd_bf16_d64_q192", false, why);
    QVERIFY2(!text.isEmpty(), qPrintable(why));
    QTemporaryDir dir;
    const QString path = writeScript(dir, "wrong_c1.py", text);
    const Run r = runTirx({"verify", path, "--device", "sim"});
    QVERIFY2(r.code == 1, qPrintable(QString("exit %1\n").arg(r.code) + r.out + r.err));
    QVERIFY2(r.out.contains(QRegularExpression("^PASS .*0/5056 mismatches \\(assert_close",
                                               QRegularExpression::MultilineOption)),
             qPrintable(r.out));
    QVERIFY2(r.out.contains(QRegularExpression(
                 "^FAIL .*assertion failed: \\('?mean \\|O - SDPA\\| / mean \\|O\\|'?, 0\\.00[4-9]",
                 QRegularExpression::MultilineOption)),
             qPrintable(r.out));
    QVERIFY2(r.out.contains("NOT verified: 2/3 checks passed, 0 faults, 0 errors on sim"),
             qPrintable(r.out));
  }

  void timelineOfOneCtaAtTheBenchmarkShape() {
    // The Pipeline view at the benchmark shape (4096 CTAs, too many to simulate whole): the first
    // CTA alone streams all 32 K/V blocks through the two-stage ring; the producer waits on each
    // stage's split empty barriers and the last phase of emptyv[1] is the 16th.
    const Run r =
        runTirx({"verify", benchKernel("attention_fwd_bf16_d128.py"), "--timeline", "--cta", "0"});
    QVERIFY2(r.code == 0, qPrintable(QString("exit %1\n").arg(r.code) + r.out.left(3000) + r.err));
    QVERIFY2(r.out.contains("CTA 0 of 4096 alone on sim"), qPrintable(r.out.left(3000)));
    QVERIFY2(
        r.out.contains(QRegularExpression("timeline of attention_fwd_bf16_d128: \\d+ events\n")),
        qPrintable(r.out.left(3000)));
    QVERIFY2(r.out.contains("mbarrier.wait emptyk[1]"), qPrintable(r.out.left(3000)));
    QVERIFY2(r.out.contains("mbarrier.phase emptyv[1] (phase 15)"), qPrintable(r.out.right(3000)));
    QVERIFY(!r.out.contains(" cta 1 warp "));
  }

  // bench/attention_variants.py (the derived scripts tests/gpu/attention_ab.sh times on a GPU)
  // still applies to the kernels as they are: the three-stage d128 variant verifies at the small
  // shape with the kernel's own check code, and the GEMM-only ablations (the softmax removed) must
  // fail theirs — an ablation that passed would mean the check cannot see the softmax.
  void scheduleVariantsVerifyOnSim_data() {
    QTest::addColumn<QString>("variant");
    QTest::addColumn<bool>("passes");
    QTest::newRow("v_d128_s3") << "v_d128_s3" << true;
    QTest::newRow("v_d128_gemmonly") << "v_d128_gemmonly" << false;
    QTest::newRow("v_d64_gemmonly") << "v_d64_gemmonly" << false;
  }
  void scheduleVariantsVerifyOnSim() {
    QFETCH(QString, variant);
    QFETCH(bool, passes);
    QTemporaryDir dir;
    QProcess gen;
    gen.start("python3",
              {QStringLiteral(TIRX_SOURCE_DIR "/bench/attention_variants.py"), dir.path()});
    QVERIFY(gen.waitForFinished(60000));
    QVERIFY2(gen.exitCode() == 0, gen.readAllStandardError().constData());
    const QString small = dir.filePath("small_" + variant + ".py");
    QVERIFY(QFile::exists(small));
    const Run r = runTirx({"verify", small, "--device", "sim"});
    if (passes) {
      QVERIFY2(r.code == 0, qPrintable(QString("exit %1\n").arg(r.code) + r.out + r.err));
      QVERIFY2(r.out.contains("verified: 2/2 checks passed, 0 faults, 0 errors on sim"),
               qPrintable(r.out));
    } else {
      // Fails its check (exit 1), not by a fault or an error of the script.
      QVERIFY2(r.code == 1, qPrintable(QString("exit %1\n").arg(r.code) + r.out + r.err));
      QVERIFY2(r.out.contains(QRegularExpression("^FAIL ", QRegularExpression::MultilineOption)),
               qPrintable(r.out));
      QVERIFY2(r.out.contains("0 faults, 0 errors"), qPrintable(r.out));
    }
  }

  void wrongShapeLineIsNamed() {
    // The substitution refuses a file whose shape lines moved, instead of verifying the big shape.
    QString why;
    QVERIFY(smallInstance("SEQ = 4096\nBATCH = 4\n", "f", false, why).isEmpty());
    QCOMPARE(why, QString("expected one line 'HEADS = 32'"));
  }
};

QTEST_APPLESS_MAIN(TestCliAttentionBench)
#include "tst_cli_attention_bench.moc"
