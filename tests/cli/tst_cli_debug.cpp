// End-to-end tests of `tirx debug` (app/cli/cmd_debug.cpp): runs the built binary on the bundled
// 64×64×64 GEMM (resources/examples/gemm_ldmatrix_swizzled.py): a line breakpoint at the mma.sync,
// stepping back to the ldmatrix, the --json document (values, owners, reference and error of the
// accumulator, checked against a recomputation of C = A·Bᵀ from the script's input formula), a
// watch condition, and the exit codes 1 (bad breakpoint, unknown buffer) and 2 (usage). The launch
// options on tests/data/debug/two_kernels.py (scale once, shift twice): --kernel and --launch pick
// the recorded launch, whose values differ by input; --trace-mib (decimal MiB) stops the recording
// with W0844 and --first-step records a later window.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "tirx_process.h"

namespace {

/// resources/examples/gemm_ldmatrix_swizzled.py with periodic inputs in its check code instead of
/// the example's random ones, written once to a temporary folder, so that cAt can recompute C.
QString periodicGemmPath() {
  static QTemporaryDir dir;
  static const QString path = [] {
    QFile in(QStringLiteral(TIRX_SOURCE_DIR "/resources/examples/gemm_ldmatrix_swizzled.py"));
    if (!in.open(QIODevice::ReadOnly)) qFatal("cannot read gemm_ldmatrix_swizzled.py");
    QString text = QString::fromUtf8(in.readAll());
    const QString a = "a = (torch.floor(torch.rand(4096, device=\"cuda\") * 7) - 3)";
    const QString b = "b = (torch.floor(torch.rand(4096, device=\"cuda\") * 5) - 2)";
    if (!text.contains(a) || !text.contains(b))
      qFatal("gemm_ldmatrix_swizzled.py's inputs changed");
    text.replace(a, "a = ((torch.arange(4096, device=\"cuda\") % 7) - 3)");
    text.replace(b, "b = ((torch.arange(4096, device=\"cuda\") % 5) - 2)");
    const QString out = dir.filePath("gemm_ldmatrix_swizzled.py");
    QFile f(out);
    if (!f.open(QIODevice::WriteOnly) || f.write(text.toUtf8()) < 0)
      qFatal("cannot write %s", qPrintable(out));
    return out;
  }();
  return path;
}
const QString kGemm = periodicGemmPath();
Run tirx(const QStringList& args) {
  return runTirx(QStringList{"debug", kGemm} + args);
}

const QString kTwo = QStringLiteral(TIRX_SOURCE_DIR "/tests/data/debug/two_kernels.py");

nlohmann::json jsonOf(const Run& r) {
  return nlohmann::json::parse(r.out.toStdString(), nullptr, false);
}

/// The values of the first printed tile of a --json stop.
std::vector<double> tileValues(const nlohmann::json& j) {
  std::vector<double> v;
  for (const auto& e : j["tiles"][0]["elements"]) v.push_back(e["value"].get<double>());
  return v;
}

/// C[i, j] of the periodic script: a = (arange(4096) % 7) - 3, b = (arange(4096) % 5) - 2, C = a ·
/// bᵀ.
double cAt(int i, int j) {
  double s = 0;
  for (int k = 0; k < 64; ++k) s += double((i * 64 + k) % 7 - 3) * double((j * 64 + k) % 5 - 2);
  return s;
}

}  // namespace

class TestCliDebug : public QObject {
  Q_OBJECT

 private slots:
  void breakAtMmaText() {
    const Run r = tirx({"--break", "52", "--print", "acc", "--limit", "2"});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.err, QString());
    const QStringList lines = r.out.split('\n');
    QVERIFY2(lines[0].startsWith(
                 "step 7 of 9 (collective, cta 0) at " + kGemm +
                 ":52:5: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32, 128 lanes"),
             qPrintable(lines[0]));
    QVERIFY2(lines[1].startsWith("acc (local float32, shape [4, 1, 8, 16, 8]): "),
             qPrintable(lines[1]));
    QVERIFY(lines[1].contains(
        "0 uninitialised, 0 nan, 0 inf, max abs err 0 against the checked reference"));
    // acc[0, 0, 0, 0, 0] is C[0, 0], in warp 0 lane 0 register 0.
    QCOMPARE(lines[2], QString("  [0, 0, 0, 0, 0] = %1  (w0 l0 r0)  ref %1 err 0").arg(cAt(0, 0)));
    QVERIFY(lines[4].startsWith("  ... 4094 more"));
  }

  void stepBackJson() {
    // One step back from the mma: the ldmatrix of B ran, the accumulator holds the mov's zeros.
    const Run r =
        tirx({"--break", "52", "--step", "-1", "--print", "acc", "--print", "Bs", "--json"});
    QCOMPARE(r.code, 0);
    const auto j = nlohmann::json::parse(r.out.toStdString(), nullptr, false);
    QVERIFY(!j.is_discarded());
    QCOMPARE(j["stop"]["index"].get<int>(), 6);
    QCOMPARE(j["stop"]["line"].get<int>(), 51);
    QCOMPARE(j["stop"]["op"].get<std::string>(), std::string("mov.b32"));
    QCOMPARE(j["steps"].get<int>(), 9);
    const auto& acc = j["tiles"][0];
    QCOMPARE(acc["buffer"].get<std::string>(), std::string("acc"));
    QCOMPARE(acc["elements"].size(), size_t{4096});
    for (const auto& e : acc["elements"]) {
      // registers 4n + 2h + q of lane l in warp w: C[16w + l // 4 + 8h, 8n + 2 (l % 4) + q].
      const int w = e["warp"], l = e["lane"], reg = e["reg"];
      const int n = reg / 4, h = reg / 2 % 2, q = reg % 2;
      const int i = 16 * w + l / 4 + 8 * h, jj = 8 * n + 2 * (l % 4) + q;
      QCOMPARE(e["value"].get<double>(), 0.0);
      QCOMPARE(e["reference"].get<double>(), cAt(i, jj));
      QCOMPARE(e["abs_err"].get<double>(), std::abs(cAt(i, jj)));
    }
    const auto& bs = j["tiles"][1];
    QCOMPARE(bs["scope"].get<std::string>(), std::string("shared"));
    QCOMPARE(bs["uninit"].get<int>(), 0);
    for (const auto& e : bs["elements"]) {
      const int row = e["coord"][0], col = e["coord"][1];
      QCOMPARE(e["value"].get<double>(), double((row * 64 + col) % 5 - 2));
    }
  }

  void watchCondition() {
    const Run r = tirx({"--when", "C[63, 63] != 0", "--print", "C", "--limit", "0"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.startsWith("step 8 of 9 (tile-op, cta 0)"), qPrintable(r.out));
    QVERIFY(r.out.contains("st.global.v2.b32"));
    QVERIFY(r.out.contains("max abs err 0 against the checked reference"));
  }

  void kernelAndLaunch() {
    // No --kernel: the first launched kernel (scale), stopped at its fma: 2 · (1, 2, 3, 4).
    Run r = runTirx({"debug", kTwo, "--break", "11", "--print", "a", "--json"});
    QCOMPARE(r.code, 0);
    auto j = jsonOf(r);
    QCOMPARE(j["kernel"].get<std::string>(), std::string("scale"));
    QCOMPARE(j["launch"].get<int>(), 0);
    QCOMPARE(j["stop"]["line"].get<int>(), 11);
    QCOMPARE(tileValues(j), (std::vector<double>{2, 4, 6, 8}));
    // shift's first launch adds 1 to x, its second to scale's output.
    r = runTirx({"debug", kTwo, "--kernel", "shift", "--break", "20", "--print", "b", "--json"});
    QCOMPARE(r.code, 0);
    j = jsonOf(r);
    QCOMPARE(j["kernel"].get<std::string>(), std::string("shift"));
    QCOMPARE(j["stop"]["line"].get<int>(), 20);
    QCOMPARE(tileValues(j), (std::vector<double>{2, 3, 4, 5}));
    r = runTirx({"debug", kTwo, "--kernel", "shift", "--launch", "1", "--break", "20", "--print",
                 "b", "--json"});
    QCOMPARE(r.code, 0);
    j = jsonOf(r);
    QCOMPARE(j["launch"].get<int>(), 1);
    QCOMPARE(j["stop"]["line"].get<int>(), 20);
    QCOMPARE(tileValues(j), (std::vector<double>{3, 5, 7, 9}));
    QCOMPARE(j["tiles"][0]["max_abs_err"].get<double>(), 0.0);  // against the third check
    // A launch the script never makes, a kernel it does not have.
    r = runTirx({"debug", kTwo, "--kernel", "shift", "--launch", "2"});
    QCOMPARE(r.code, 1);
    QVERIFY2(
        r.err.contains("the script never ran kernel 'shift' 3 times") && r.err.contains("[E0843]"),
        qPrintable(r.err));
    r = runTirx({"debug", kTwo, "--kernel", "nope"});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.contains("never ran kernel 'nope'"));
  }

  void traceLimitAndFirstStep() {
    // 0.2 MiB holds the base image and one step: W0844 names step 1 of 9.
    Run r = tirx({"--trace-mib", "0.2", "--stop", "8", "--json"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.contains(kGemm + ":33:5: warning: the debug trace reached its limit of 0.2 MiB "
                                    "at step 1 of 9") &&
                 r.err.contains("[W0844]"),
             qPrintable(r.err));
    auto j = jsonOf(r);
    QCOMPARE(j["truncated"].get<bool>(), true);
    QCOMPARE(j["last_recorded"].get<int>(), 1);
    QCOMPARE(j["stop"]["index"].get<int>(), 1);  // --stop 8 is clamped to what was recorded
    // --first-step 5 records the window from step 5 under a smaller limit.
    r = tirx({"--first-step", "5", "--trace-mib", "0.1", "--json"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.err.contains("limit of 0.1 MiB at step 5 of 9"));
    j = jsonOf(r);
    QCOMPARE(j["first_recorded"].get<int>(), 5);
    QCOMPARE(j["stop"]["index"].get<int>(), 5);
    QCOMPARE(j["stop"]["line"].get<int>(), 48);
    // No warning under the default limit; bad values are usage errors.
    r = tirx({"--json"});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.err, QString());
    QCOMPARE(jsonOf(r)["truncated"].get<bool>(), false);
    for (const QString& bad : {"0", "-1", "x", "70000"}) {
      r = tirx({"--trace-mib", bad});
      QCOMPARE(r.code, 2);
      QVERIFY(r.err.contains("--trace-mib: expected a number of MiB"));
    }
  }

  void errors() {
    Run r = tirx({"--break", "40"});  // a comment line: no tile op
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(kGemm + ":40:1: error: line 40 holds no tile op of kernel 'gemm_64'") &&
                 r.err.contains("[E0841]"),
             qPrintable(r.err));
    r = tirx({"--when", "acc[0, 0 > 1"});
    QCOMPARE(r.code, 1);
    QVERIFY2(
        r.err.contains("<condition>:1:10: error: expected ',' or ']'") && r.err.contains("[E0840]"),
        qPrintable(r.err));
    r = tirx({"--print", "nope"});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.contains("[E0845]"));
    r = tirx({"--step", "x"});
    QCOMPARE(r.code, 2);
    r = runTirx({"debug"});
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains("usage: tirx debug FILE"));
  }
};

QTEST_APPLESS_MAIN(TestCliDebug)
#include "tst_cli_debug.moc"
