// Random check data catches a broken quad shuffle that periodic data lets pass (issue 22). The
// FA3-style attention example (resources/examples/attention_fwd_d64.py) takes each query row's
// running max across the quad that holds the row — `n = T.max(n, shfl_xor(n, 1))` then
// `T.max(n, shfl_xor(n, 2))` (shfl.sync.bfly 1, 2) — and the row sum the same way. Two broken
// kernels, made here from the example's text:
//   * pair max: the second max butterfly uses xor distance 1 again instead of 2, so each thread
//     only sees its pair's max and the four threads of a row subtract different maxima;
//   * pair sum: the same mistake in the row-sum butterfly.
// Each runs on the simulator with the example's own check code (torch.randn Q, K, V against
// scaled_dot_product_attention) and with the periodic data the examples used to have
// (`arange % 7 - 3`). With that pattern a Q or K row r is row 0 shifted by r (64 ≡ 1 mod 7), and
// the 16 columns one thread holds of a 64-column block, 2t + c + 8j for j = 0..7, cover all seven
// residues mod 7: every thread's own max already is the row max, so the broken max butterfly
// changes nothing and the broken kernel PASSES; the random data makes it FAIL. The per-thread
// partial sums are not equal under the pattern (one residue is counted twice, a different one per
// thread), so the pair-sum bug fails with both data sets: the test asserts that too, no more.
#include <QFile>
#include <QtTest>

#include "core/verify/verify.h"

using namespace tirx;

namespace {

const char* kExample = "attention_fwd_d64.py";

std::string readExample() {
  QFile f(QStringLiteral(TIRX_SOURCE_DIR "/resources/examples/") + kExample);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", kExample);
  return f.readAll().toStdString();
}

/// `text` with every `from` replaced by `to`; `count` is how many there were.
std::string replaceAll(std::string text, const std::string& from, const std::string& to,
                       int& count) {
  count = 0;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
    ++count;
  }
  return text;
}

/// The example's random Q, K, V (torch.randn) replaced by the old periodic pattern.
std::string withPeriodicData(const std::string& text) {
  int n = 0;
  std::string out = text;
  for (const char* name : {"q", "k", "v"}) {
    const std::string random =
        std::string(name) + " = torch.randn(BH, SEQ, D, dtype=torch.bfloat16, device=\"cuda\")";
    const std::string periodic = std::string(name) +
                                 " = ((torch.arange(BH * SEQ * D) % 7 - 3).reshape(BH, SEQ, "
                                 "D)).to(torch.bfloat16).to(\"cuda\")";
    int one = 0;
    out = replaceAll(out, random, periodic, one);
    n += one;
  }
  if (n != 3) qFatal("the example's check code no longer draws q, k, v with torch.randn");
  return out;
}

/// The second butterfly of the quad max (xor 2) turned into a second xor 1.
std::string withPairMax(const std::string& text) {
  int n0 = 0, n1 = 0;
  std::string out = replaceAll(text, "T.max(n0, T.cuda.__shfl_xor_sync(0xFFFFFFFF, n0, 2))",
                               "T.max(n0, T.cuda.__shfl_xor_sync(0xFFFFFFFF, n0, 1))", n0);
  out = replaceAll(out, "T.max(n1, T.cuda.__shfl_xor_sync(0xFFFFFFFF, n1, 2))",
                   "T.max(n1, T.cuda.__shfl_xor_sync(0xFFFFFFFF, n1, 1))", n1);
  if (n0 != 1 || n1 != 1) qFatal("the example's quad max butterfly changed");
  return out;
}

/// The second butterfly of the quad row sum (xor 2) turned into a second xor 1.
std::string withPairSum(const std::string& text) {
  int l0 = 0, l1 = 0;
  std::string out = replaceAll(text, "l0 + T.cuda.__shfl_xor_sync(0xFFFFFFFF, l0, 2)",
                               "l0 + T.cuda.__shfl_xor_sync(0xFFFFFFFF, l0, 1)", l0);
  out = replaceAll(out, "l1 + T.cuda.__shfl_xor_sync(0xFFFFFFFF, l1, 2)",
                   "l1 + T.cuda.__shfl_xor_sync(0xFFFFFFFF, l1, 1)", l1);
  if (l0 != 1 || l1 != 1) qFatal("the example's quad sum butterfly changed");
  return out;
}

/// "PASS" or "FAIL" with what the check found, for the failure messages.
QString describe(const verify::Report& r) {
  QString s = r.passed() ? "PASS" : "FAIL";
  for (const auto& e : r.errors) s += "\n  error: " + QString::fromStdString(e.message);
  for (const auto& f : r.faults) s += "\n  fault: " + QString::fromStdString(f.diag.message);
  for (const auto& c : r.checks)
    s += QString("\n  %1 %2: %3 of %4 mismatched, max abs %5")
             .arg(c.pass ? "PASS" : "FAIL", QString::fromStdString(c.name))
             .arg(c.mismatches)
             .arg(c.total)
             .arg(c.maxAbs);
  return s;
}

verify::Report verifyOnSim(const std::string& text, const char* name) {
  verify::VerifyOptions o;
  o.fileName = name;
  o.device = driver::DeviceSpec::simulator();
  verify::Report r = verify::verifyScript(text, o);
  qInfo().noquote() << name << describe(r);
  return r;
}

/// The run went through (no errors, no faults, the check ran) and its one check says `pass`.
void expectVerdict(const verify::Report& r, bool pass) {
  QVERIFY2(r.errors.empty() && r.faults.empty(), qPrintable(describe(r)));
  QCOMPARE(r.checks.size(), size_t{1});
  QCOMPARE(r.checks[0].kind, std::string("assert_close"));
  QVERIFY2(r.checks[0].total == 2 * 256 * 64, qPrintable(describe(r)));
  QVERIFY2(r.passed() == pass, qPrintable(describe(r)));
  if (!pass) QVERIFY2(r.checks[0].mismatches > 0, qPrintable(describe(r)));
}

}  // namespace

class TstCheckDataCatchesBugs : public QObject {
  Q_OBJECT
 private slots:
  void theExampleDrawsRandomData() {
    const std::string text = readExample();
    QVERIFY(text.find("torch.manual_seed(0)") != std::string::npos);
    QVERIFY(text.find("arange") == std::string::npos);  // no periodic pattern left
    // the correct kernel passes with both data sets: the pattern alone is not the problem
    expectVerdict(verifyOnSim(text, kExample), true);
    expectVerdict(verifyOnSim(withPeriodicData(text), "attention_periodic.py"), true);
  }

  void aPairMaxPassesThePeriodicDataAndFailsTheRandom() {
    const std::string broken = withPairMax(readExample());
    expectVerdict(verifyOnSim(withPeriodicData(broken), "attention_pair_max_periodic.py"), true);
    expectVerdict(verifyOnSim(broken, "attention_pair_max.py"), false);
  }

  void aPairSumFailsBoth() {
    const std::string broken = withPairSum(readExample());
    expectVerdict(verifyOnSim(broken, "attention_pair_sum.py"), false);
    expectVerdict(verifyOnSim(withPeriodicData(broken), "attention_pair_sum_periodic.py"), false);
  }
};

QTEST_GUILESS_MAIN(TstCheckDataCatchesBugs)
#include "tst_check_data_catches_bugs.moc"
