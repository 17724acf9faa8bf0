// End-to-end tests of `tirx ptx-conform` (app/cli/cmd_ptx_conform.cpp, core/conform): the
// generated kernels run on the simulator through sema and the executor and agree with the
// simulator's model for every spelling (the whole table, arithmetic and memory); --json and
// --record documents; --device cuda without a driver is an environment error (exit 3); usage
// errors exit 2.
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/conform/ptx_conform.h"
#include "core/device/cuda_driver.h"
#include "tirx_process.h"

namespace {

Run conformRun(const QStringList& args, int timeoutMs = 600000) {
  return runTirx(QStringList{"ptx-conform"} + args, timeoutMs);
}

}  // namespace

class TestCliPtxConform : public QObject {
  Q_OBJECT

 private slots:
  void wholeTableOnTheSimulator() {
    const Run r = conformRun({"--device", "sim"});
    QVERIFY2(r.code == 0, qPrintable(r.out.left(3000) + r.err.left(2000)));
    QVERIFY(r.out.startsWith("ptx-conform: "));
    QVERIFY(r.out.contains(QRegularExpression(R"(mismatch\s+0\n)")));
    QVERIFY(r.out.contains(QRegularExpression(R"(failed\s+0\n)")));
    QVERIFY(r.out.contains(QRegularExpression(R"(within-bound\s+16\n)")));
    // sm_100 forms are skipped on sm_90, with the reason.
    QVERIFY(r.out.contains("needs sm_100"));
  }

  void jsonAndRecord() {
    QTemporaryDir dir;
    const QString rec = dir.filePath("rec.json");
    const Run r = conformRun({"--filter", "mul.", "--json", "--record", rec});
    QCOMPARE(r.code, 0);
    const auto j = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(j["device"].get<std::string>(), std::string("simulator"));
    QVERIFY(j["passed"].get<bool>());
    QVERIFY(j["counts"]["match"].get<int>() > 40);
    QCOMPARE(j["counts"]["mismatch"].get<int>(), 0);
    std::ifstream in(rec.toStdString());
    std::stringstream ss;
    ss << in.rdbuf();
    auto record = tirx::conform::readRecord(ss.str());
    QVERIFY2(record.ok(), record.ok() ? "" : record.error().text().c_str());
    QCOMPARE(record->device, std::string("simulator"));
    // Replayed against the simulator, every recorded case matches; a corrupted digest does not.
    bool sawHi = false;
    const auto all = tirx::ptxConformCases("mul.");
    for (auto c : record->cases) {
      sawHi |= c.opcode == "mul.hi.u64";
      const tirx::PtxConformCase* pc = nullptr;
      for (const auto& x : all)
        if (x.opcode == c.opcode && x.arity == c.arity) pc = &x;
      QVERIFY(pc);
      QVERIFY(c.outputs.empty());  // matched exactly: only the digest is kept
      QCOMPARE(tirx::conform::replayCase(*pc, c).verdict, tirx::conform::Verdict::Match);
      c.outputsDigest ^= 1;
      QCOMPARE(tirx::conform::replayCase(*pc, c).verdict, tirx::conform::Verdict::Mismatch);
    }
    QVERIFY(sawHi);
  }

  void mismatchesAreReported() {
    // A record with one wrong answer replayed against the simulator is a mismatch.
    const auto cases = tirx::ptxConformCases("add.rn.f32");
    QVERIFY(!cases.empty());
    const auto in = tirx::ptxConformVectors(cases[0], 4);
    std::vector<uint64_t> bits(4, 0x3f800000);
    const auto r = tirx::conform::compareCase(cases[0], in, bits);
    QCOMPARE(r.verdict, tirx::conform::Verdict::Mismatch);
    QVERIFY(r.differing > 0);
  }

  void cudaWithoutDriverIsEnvironment() {
    if (tirx::device::driverLibraryPresent()) QSKIP("a CUDA driver is installed here");
    const Run r = conformRun({"--device", "cuda", "--filter", "add.rn.f32"});
    QCOMPARE(r.code, 3);
    QVERIFY(r.err.contains("no CUDA driver"));
  }

  void usageErrors() {
    QCOMPARE(conformRun({"--device", "gpu"}).code, 2);
    QCOMPARE(conformRun({"--arch", "sm_x"}).code, 2);
    QCOMPARE(conformRun({"extra"}).code, 2);
    QCOMPARE(conformRun({"--bogus"}).code, 2);
    QCOMPARE(conformRun({"--device", "cuda:abc"}).code, 2);
    const Run none = conformRun({"--filter", "lod."});  // a typo must not pass with 0 cases
    QCOMPARE(none.code, 2);
    QVERIFY(none.err.contains("no spelling of the PTX table starts with 'lod.'"));
  }
};

QTEST_MAIN(TestCliPtxConform)
#include "tst_cli_ptx_conform.moc"
