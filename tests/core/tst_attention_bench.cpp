// bench_gpu_attention without a GPU (bench/attention_bench.h, decision ATT-2): its command line
// (the issue's shape by default, every option, every refusal named), the attention FLOP count
// against hand-computed figures, the input hash (exact bf16 values in [-2, 2), all 256 of them in
// use, and the same numbers as scripts/torch_sdpa.py's twin of it), the output check's tolerance
// at its edges and with NaN, and the helper's timing replies.
#include <QProcess>
#include <QtTest>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <vector>

#include "bench/attention_bench.h"
#include "core/ir/half.h"

using namespace tirx;
using bench::AttentionArgs;

namespace {

std::optional<AttentionArgs> parse(const QStringList& args, std::string& err) {
  std::vector<std::string> v{"bench_gpu_attention"};
  for (const QString& a : args) v.push_back(a.toStdString());
  return bench::parseAttentionArgs(v, err);
}

}  // namespace

class TstAttentionBench : public QObject {
  Q_OBJECT
 private slots:
  void defaultsAreTheIssueShape() {
    std::string err;
    auto a = parse({}, err);
    QVERIFY(a);
    QVERIFY(a->kernel.empty());  // main() fills in bench/kernels/attention_fwd_bf16_d128.py
    QCOMPARE(a->batch, int64_t(4));
    QCOMPARE(a->heads, int64_t(32));
    QCOMPARE(a->seq, int64_t(4096));
    QVERIFY(!a->causal);
    QVERIFY(!a->noTorch);
    QVERIFY(!a->unchecked);  // a mismatch stops the timing unless an ablation says so
    QCOMPARE(a->rounds, 10);
    QCOMPARE(a->iters, 10);
    QCOMPARE(a->python, std::string("python3"));
  }

  void everyOption() {
    std::string err;
    auto a =
        parse({"k.py", "--batch", "2", "--heads", "16", "--seq", "1000", "--causal", "--rounds",
               "3", "--iters", "7", "--python", "/opt/py/bin/python", "--no-torch", "--unchecked"},
              err);
    QVERIFY2(a, err.c_str());
    QCOMPARE(a->kernel, std::string("k.py"));
    QCOMPARE(a->batch, int64_t(2));
    QCOMPARE(a->heads, int64_t(16));
    QCOMPARE(a->seq, int64_t(1000));
    QVERIFY(a->causal);
    QCOMPARE(a->rounds, 3);
    QCOMPARE(a->iters, 7);
    QCOMPARE(a->python, std::string("/opt/py/bin/python"));
    QVERIFY(a->noTorch);
    QVERIFY(a->unchecked);
  }

  void refusals_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing value") << QStringList{"--seq"} << "--seq needs a value";
    QTest::newRow("not a number") << QStringList{"--batch", "four"}
                                  << "--batch four: expected an integer in [1, 65536]";
    QTest::newRow("trailing text")
        << QStringList{"--heads", "32x"} << "--heads 32x: expected an integer in [1, 65536]";
    QTest::newRow("zero") << QStringList{"--seq", "0"}
                          << "--seq 0: expected an integer in [1, 1048576]";
    QTest::newRow("negative") << QStringList{"--rounds", "-1"}
                              << "--rounds -1: expected an integer in [1, 1000]";
    QTest::newRow("too many iters")
        << QStringList{"--iters", "1001"} << "--iters 1001: expected an integer in [1, 1000]";
    QTest::newRow("unknown option") << QStringList{"--casual"} << "unknown option --casual";
    QTest::newRow("two kernels") << QStringList{"a.py", "b.py"}
                                 << "more than one kernel file: a.py and b.py";
    QTest::newRow("python without value") << QStringList{"--python"} << "--python needs a value";
  }
  void refusals() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    std::string err;
    QVERIFY(!parse(args, err));
    QCOMPARE(QString::fromStdString(err), message);
  }

  void flopCount() {
    // The issue's shape: 4·4·32·4096²·128 = 1,099,511,627,776 flops; causal half of it.
    QCOMPARE(bench::attentionFlops(4, 32, 4096, 128, false), 1099511627776.0);
    QCOMPARE(bench::attentionFlops(4, 32, 4096, 128, true), 549755813888.0);
    QCOMPARE(bench::attentionFlops(4, 32, 4096, 64, false), 549755813888.0);
    QCOMPARE(bench::attentionFlops(1, 1, 3, 5, false), 180.0);  // 4·9·5
    // At 1.8 ms a call the non-causal d128 figure is 610.8 TFLOP/s.
    QCOMPARE(std::round(bench::attentionFlops(4, 32, 4096, 128, false) / 1.8e-3 / 1e11) / 10,
             610.8);
  }

  void inputsAreExactBf16InRange() {
    std::set<float> seen;
    for (int t = 0; t < 3; ++t)
      for (uint64_t i = 0; i < 4096; ++i) {
        const float v = bench::inputValue(t, i);
        QVERIFY(v >= -2.0f && v < 2.0f);
        QCOMPARE(v * 64, std::round(v * 64));  // k / 64
        const uint16_t b = ir::floatToBf16Bits(v);
        const uint32_t w = uint32_t(b) << 16;
        float back;
        std::memcpy(&back, &w, 4);
        QCOMPARE(back, v);  // bf16 holds it exactly: the host and torch upload the same numbers
        seen.insert(v);
      }
    QCOMPARE(int(seen.size()), 256);
    // Q, K and V differ (a copy-paste of one tensor's hash would make S = Q Qᵀ symmetric).
    int same = 0;
    for (uint64_t i = 0; i < 1000; ++i) same += bench::inputValue(0, i) == bench::inputValue(1, i);
    QVERIFY(same < 20);
  }

  void inputsKnownValues() {
    // Computed by hand with Python integers (scripts/torch_sdpa.py --values 0 0 1 2 67108863).
    QCOMPARE(bench::inputValue(0, 0), -1.3125f);
    QCOMPARE(bench::inputValue(0, 1), 1.640625f);
    QCOMPARE(bench::inputValue(0, 2), 0.078125f);
    QCOMPARE(bench::inputValue(1, 0), -1.625f);
    QCOMPARE(bench::inputValue(2, 0), -1.28125f);
    QCOMPARE(bench::inputValue(0, 67108863), 0.125f);  // the last element at 4 × 32 × 4096 × 128
    QCOMPARE(bench::inputValue(2, 12345678), 0.9375f);
  }

  void inputsMatchTheTorchHelper() {
    // The helper's hash is one function for Python ints and torch tensors; --values runs it
    // without torch. Indices up to the largest the benchmark uses.
    QProcess p;
    QStringList args{QStringLiteral(TIRX_SOURCE_DIR "/scripts/torch_sdpa.py"), "--values", "1"};
    std::vector<uint64_t> idx;
    for (uint64_t i = 0; i < 64; ++i) idx.push_back(i * 1048573 + (i & 7));
    for (uint64_t i : idx) args << QString::number(i);
    p.start("python3", args);
    if (!p.waitForStarted(10000)) QSKIP("no python3");
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 0);
    const QStringList vals =
        QString::fromUtf8(p.readAllStandardOutput()).split(' ', Qt::SkipEmptyParts);
    QCOMPARE(vals.size(), int(idx.size()));
    for (size_t i = 0; i < idx.size(); ++i)
      QCOMPARE(vals[int(i)].trimmed().toDouble(), double(bench::inputValue(1, idx[i])));
  }

  void toleranceEdges() {
    // |got − ref| ≤ 0.02 + 0.02·|ref|: at ref = 1 the bound is 0.04.
    const float ref[4] = {1.0f, 1.0f, -0.5f, 0.0f};
    const float ok[4] = {1.0390625f, 0.9609375f, -0.5290527f, 0.0195f};
    auto r = bench::compareClose(ok, ref, 4, bench::kAttentionAtol, bench::kAttentionRtol);
    QVERIFY(r.ok());
    QCOMPARE(r.bad, int64_t(0));
    QCOMPARE(r.firstBad, int64_t(-1));
    QVERIFY(std::abs(r.maxAbs - 0.0390625) < 1e-9);
    const float bad[4] = {1.0f, 1.0419922f, -0.5f, -0.0205f};
    r = bench::compareClose(bad, ref, 4, bench::kAttentionAtol, bench::kAttentionRtol);
    QVERIFY(!r.ok());
    QCOMPARE(r.bad, int64_t(2));
    QCOMPARE(r.firstBad, int64_t(1));
  }

  void meanErrorSeesWhatEveryElementHides() {
    // 4096 outputs of attention's size (normal, σ 0.05) rounded to bf16 as a correct kernel
    // rounds O: well inside the mean bound. The same outputs 0.5 % too large pass the elementwise
    // rule at every element yet fail the mean, the error a wrong exp2 leaves after normalisation.
    std::mt19937 gen(7);
    std::normal_distribution<float> normal(0.0f, 0.05f);
    std::vector<float> ref(4096), rounded(4096), scaled(4096);
    auto toBf16 = [](float x) {
      uint32_t b;
      std::memcpy(&b, &x, 4);
      b = (b + 0x7FFFu + ((b >> 16) & 1u)) & 0xFFFF0000u;
      std::memcpy(&x, &b, 4);
      return x;
    };
    for (size_t i = 0; i < ref.size(); ++i) {
      ref[i] = normal(gen);
      rounded[i] = toBf16(ref[i]);
      scaled[i] = toBf16(ref[i] * 1.005f);
    }
    auto r = bench::compareClose(rounded.data(), ref.data(), 4096, bench::kAttentionAtol,
                                 bench::kAttentionRtol);
    QVERIFY(r.ok());
    QVERIFY2(r.meanRel() > 0.0005 && r.meanRel() < 0.6 * bench::kAttentionMeanRel,
             qPrintable(QString::number(r.meanRel())));
    r = bench::compareClose(scaled.data(), ref.data(), 4096, bench::kAttentionAtol,
                            bench::kAttentionRtol);
    QVERIFY(r.ok());
    QVERIFY2(r.meanRel() > bench::kAttentionMeanRel, qPrintable(QString::number(r.meanRel())));
    QCOMPARE(bench::CloseReport{}.meanRel(), 0.0);  // nothing compared
  }

  void nonFiniteNeverPasses() {
    const float nan = std::numeric_limits<float>::quiet_NaN(),
                inf = std::numeric_limits<float>::infinity();
    const float ref[3] = {0.0f, inf, 1.0f};
    const float got[3] = {nan, inf, 1.0f};  // NaN vs 0, inf vs inf: both fail
    auto r = bench::compareClose(got, ref, 3, bench::kAttentionAtol, bench::kAttentionRtol);
    QCOMPARE(r.bad, int64_t(2));
    QCOMPARE(r.firstBad, int64_t(0));
    QCOMPARE(r.maxAbs, 0.0);
    QVERIFY(!bench::compareClose(got, ref, 0, 1, 1).ok());  // nothing compared is not a pass
  }

  void timingReplies() {
    auto t = bench::parseTimings("ms 1.5 2.25 1.75");
    QVERIFY(t);
    QCOMPARE(int(t->size()), 3);
    QCOMPARE((*t)[1], 2.25);
    QVERIFY(!bench::parseTimings("ms"));
    QVERIFY(!bench::parseTimings("ms 1.0 nan"));
    QVERIFY(!bench::parseTimings("ms 1.0 -2"));
    QVERIFY(!bench::parseTimings("ms 1.0x"));
    QVERIFY(!bench::parseTimings("unavailable No available kernel"));
    QVERIFY(!bench::parseTimings("error CUDA out of memory"));
    QVERIFY(!bench::parseTimings(""));
  }

  void helperRepliesAreRecognised() {
    QVERIFY(bench::isHelperReply("ready torch 2.9.0 cudnn YES flash YES"));
    QVERIFY(bench::isHelperReply("ok cudnn maxdiff 0.0039"));
    QVERIFY(bench::isHelperReply("ms 1.0"));
    QVERIFY(bench::isHelperReply("unavailable No available kernel"));
    QVERIFY(bench::isHelperReply("error CUDA out of memory"));
    QVERIFY(!bench::isHelperReply("Loading cuDNN version 91000"));  // chatter on stdout
    QVERIFY(!bench::isHelperReply("msg"));
    QVERIFY(!bench::isHelperReply(""));
  }

  void mediansAndRatios() {
    QCOMPARE(bench::median({3, 1, 2}), 2.0);
    QCOMPARE(bench::median({4, 1, 3, 2}), 3.0);  // the upper middle, as bench_gpu_gemm
    QCOMPARE(bench::median({}), 0.0);
    QCOMPARE(bench::percent(650, 684), std::string("95.0 %"));
    QCOMPARE(bench::percent(1, 0), std::string("-"));
  }
};

QTEST_APPLESS_MAIN(TstAttentionBench)
#include "tst_attention_bench.moc"
