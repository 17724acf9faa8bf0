// Nsight Compute's CSV pages read back and folded onto script lines (core/toolchain/ncu_profile.h),
// on the HAND-WRITTEN fixture tests/data/profile/handwritten_fma (ncu's documented layout, invented
// samples over the offsets of the recorded nvdisasm listing tests/data/sass/fma.g.txt; its README
// gives the figures): the CSV reader (quotes, "" escapes, CRLF, ncu's chatter before the header),
// columns found by name in any order, the join by offset within the kernel, per-line stall shares
// that add up to the kernel's samples, units of the raw page, and the JSON summary's round trip.
#include <QFile>
#include <QtTest>
#include <algorithm>
#include <map>
#include <sstream>

#include "core/toolchain/ncu_profile.h"

using namespace tirx::toolchain;

namespace {

std::string data(const QString& name) {
  QFile f(QStringLiteral(TIRX_SOURCE_DIR "/tests/data/") + name);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(name));
  return f.readAll().toStdString();
}

Profile fmaProfile() {
  const std::string dir = "profile/handwritten_fma/";
  return foldProfile(parseNcuSourcePage(data(QString::fromStdString(dir + "source_sass.csv"))),
                     parseSassLineInfo(data("sass/fma.g.txt"), "fma.py"), "fma_affine",
                     parseNcuDetailsPage(data(QString::fromStdString(dir + "details.csv"))),
                     parseNcuRawPage(data(QString::fromStdString(dir + "raw.csv"))));
}

}  // namespace

class TestNcuProfile : public QObject {
  Q_OBJECT
 private slots:
  void csvQuotesEscapesAndLineEnds() {
    const auto rows =
        parseCsv("==PROF== Connected\r\n\"a\",\"b, c\",\"say \"\"hi\"\"\"\r\n1,,\"x\ny\"\n");
    QCOMPARE(rows.size(), size_t(2));
    QCOMPARE(rows[0], (std::vector<std::string>{"a", "b, c", "say \"hi\""}));
    QCOMPARE(rows[1], (std::vector<std::string>{"1", "", "x\ny"}));
  }

  // Columns by header name: reordered columns and an extra one read the same.
  void sourcePageColumnsByName() {
    const auto page = parseNcuSourcePage(
        "\"Source\",\"Extra\",\"stall_barrier\",\"# Address\",\"Warp Stall Sampling (All "
        "Samples)\",\"L1 Wavefronts Shared\",\"L1 Wavefronts Shared Ideal\"\n"
        "\"STS [R1], R2\",\"?\",\"7\",\"0x1000\",\"9\",\"1,024\",\"256\"\n"
        "\"BAR.SYNC 0x0\",\"?\",\"3\",\"0x1010\",\"3\",\"0\",\"0\"\n");
    QVERIFY(page.error.empty());
    QCOMPARE(page.rows.size(), size_t(2));
    QCOMPARE(page.rows[1].offset, int64_t(0x10));
    QCOMPARE(page.rows[0].source, std::string("STS [R1], R2"));
    QCOMPARE(page.rows[0].samples, int64_t(9));
    QCOMPARE(page.rows[0].stalls.at("barrier"), int64_t(7));
    QCOMPARE(page.rows[0].sharedWavefronts, int64_t(1024));  // grouping commas dropped
    QVERIFY(!parseNcuSourcePage("\"Source\"\n\"x\"\n").error.empty());
  }

  // Per line (the README's figures): 3 / 4 / 5 / 5, adding up to the kernel's 17 samples.
  void foldsOntoScriptLines() {
    const Profile p = fmaProfile();
    QCOMPARE(p.kernel.totalSamples, int64_t(17));
    QCOMPARE(p.kernel.unattributedSamples, int64_t(0));
    std::map<int, int64_t> byLine;
    int64_t sum = 0;
    for (const auto& l : p.lines) {
      byLine[l.line] = l.samples;
      sum += l.samples;
      int64_t reasons = 0;
      for (const auto& [r, n] : l.stalls) reasons += n;
      QCOMPARE(reasons, l.samples);  // every sample of the line has its reason
    }
    QCOMPARE(sum + p.kernel.unattributedSamples, p.kernel.totalSamples);
    QCOMPARE(byLine, (std::map<int, int64_t>{{8, 3}, {11, 4}, {12, 5}, {13, 5}}));
    QCOMPARE(p.lines[2].stalls.at("long_sb"), int64_t(5));
    QVERIFY(p.status.rfind("21 of 21 SASS rows joined", 0) == 0);
  }

  // Kernel facts: usecond and Kbyte scaled, 2 FLOPs per FFMA, the fewest-blocks limiter.
  void kernelFactsFromDetailsAndRaw() {
    const Profile p = fmaProfile();
    QCOMPARE(p.kernel.durationNs, 2140.0);
    QCOMPARE(p.kernel.bytes, 32.0);
    QCOMPARE(p.kernel.flop, 8.0);
    QCOMPARE(p.kernel.registers, 14);
    QCOMPARE(p.kernel.theoreticalOccupancy, 50.0);
    QCOMPARE(p.kernel.occupancyLimiter, std::string("SM"));
    QCOMPARE(p.kernel.peaks.name, std::string("H100"));
    QCOMPARE(gpuPeaks("NVIDIA H200").name, std::string("H200"));
  }

  // A sample whose offset has no line record counts for the kernel only.
  void unmatchedOffsetsAreUnattributed() {
    NcuSourcePage page = parseNcuSourcePage(data("profile/handwritten_fma/source_sass.csv"));
    for (auto& r : page.rows) r.offset += 0x10000;
    const Profile p = foldProfile(page, parseSassLineInfo(data("sass/fma.g.txt"), "fma.py"),
                                  "fma_affine", {}, {});
    QVERIFY(p.lines.empty());
    QCOMPARE(p.kernel.unattributedSamples, int64_t(17));
  }

  void recordedH100PagesFoldOntoTheScript() {
    // Real pages (tests/data/profile/h100_shared_a, README there): every SASS row joins tirx's
    // listing by offset, the per-line samples and the unattributed ones add up to the kernel's
    // total, and the hardware's bank-conflict wavefronts land on the conflicting load and store.
    const std::string dir = "profile/h100_shared_a/";
    const Profile p = foldProfile(
        parseNcuSourcePage(data(QString::fromStdString(dir + "source_sass.csv"))),
        parseSassLineInfo(data(QString::fromStdString(dir + "tirx.sass")), "shared_a.py"), "stage",
        parseNcuDetailsPage(data(QString::fromStdString(dir + "details.csv"))),
        parseNcuRawPage(data(QString::fromStdString(dir + "raw.csv"))));
    QVERIFY2(p.status.rfind("144 of 144 SASS rows joined", 0) == 0, p.status.c_str());
    QCOMPARE(p.kernel.totalSamples, int64_t(3));  // this recording (sampling varies by run)
    int64_t sum = p.kernel.unattributedSamples;
    std::map<int, int64_t> conflicts;
    for (const auto& l : p.lines) {
      sum += l.samples;
      if (l.bankConflictWavefronts()) conflicts[l.line] = l.bankConflictWavefronts();
    }
    QCOMPARE(sum, p.kernel.totalSamples);
    // the reasons split each line's samples once ("stall_X (Not Issued)" columns are a subset)
    for (const auto& l : p.lines) {
      int64_t reasons = 0;
      for (const auto& [name, n] : l.stalls) {
        QVERIFY2(name.find("Not Issued") == std::string::npos, name.c_str());
        reasons += n;
      }
      QCOMPARE(reasons, l.samples);
    }
    QCOMPARE(conflicts, (std::map<int, int64_t>{{20, 224}, {23, 992}}));
    QVERIFY2(p.kernel.device.find("H100") != std::string::npos, p.kernel.device.c_str());
    QCOMPARE(p.kernel.registers, 40);
    // ncu 2025.3 writes "us": the duration is in microseconds, and the kernel ran for a few
    QVERIFY2(p.kernel.durationNs > 1000 && p.kernel.durationNs < 1e6,
             std::to_string(p.kernel.durationNs).c_str());
  }

  void recordedH100WgmmaGemmFoldsOntoTheScript() {
    // The bundled warp-specialized wgmma GEMM (tests/data/profile/h100_gemm_wgmma_ws, README
    // there): a 624-instruction kernel whose SASS interleaves the producer's TMA and the
    // consumers' wgmma; every row joins, every sample lands on a script line, and the kernel
    // facts are the ones `tirx profile` printed on the H100.
    const std::string dir = "profile/h100_gemm_wgmma_ws/";
    const Profile p = foldProfile(
        parseNcuSourcePage(data(QString::fromStdString(dir + "source_sass.csv"))),
        parseSassLineInfo(data(QString::fromStdString(dir + "tirx.sass")), "gemm_wgmma_ws.py"),
        "gemm_ws", parseNcuDetailsPage(data(QString::fromStdString(dir + "details.csv"))),
        parseNcuRawPage(data(QString::fromStdString(dir + "raw.csv"))));
    QVERIFY2(p.status.rfind("624 of 624 SASS rows joined", 0) == 0, p.status.c_str());
    QCOMPARE(p.kernel.totalSamples, int64_t(27));
    QCOMPARE(p.kernel.unattributedSamples, int64_t(0));
    int64_t sum = 0;
    for (const auto& l : p.lines) {
      sum += l.samples;
      int64_t reasons = 0;
      for (const auto& [name, n] : l.stalls) reasons += n;
      QCOMPARE(reasons, l.samples);
      QVERIFY2(l.line >= 1 && l.line <= 140, std::to_string(l.line).c_str());  // script lines
    }
    QCOMPARE(sum, int64_t(27));
    QCOMPARE(p.kernel.registers, 168);
    QCOMPARE(p.kernel.spillBytes, int64_t(0));
    QVERIFY2(p.kernel.durationNs > 18000 && p.kernel.durationNs < 20000,
             std::to_string(p.kernel.durationNs).c_str());  // 18.94 us
    QVERIFY2(std::abs(p.kernel.achievedOccupancy - 12.63) < 0.01,
             std::to_string(p.kernel.achievedOccupancy).c_str());
    QVERIFY2(p.kernel.occupancyLimiter.find("egister") != std::string::npos,
             p.kernel.occupancyLimiter.c_str());
    // Exactly 2·256·512·256 FLOP of wgmma (the page breaks the same operations down by source
    // type and by instruction: counted once), in about 19 us.
    QCOMPARE(p.kernel.flop, 2.0 * 256 * 512 * 256);
  }

  void sharedPairMatchesNcusOwnCounts_data() {
    QTest::addColumn<QString>("version");
    QTest::addColumn<int>("stores");     // shared store wavefronts (line 20), as ncu counts them
    QTest::addColumn<int>("loads");      // shared load wavefronts (line 23)
    QTest::addColumn<int>("storeBank");  // of which bank conflicts
    QTest::addColumn<int>("loadBank");
    QTest::newRow("a: 32-way") << "a" << 256 << 1024 << 224 << 992;
    QTest::newRow("b: padded rows") << "b" << 32 << 128 << 0 << 96;
  }
  void sharedPairMatchesNcusOwnCounts() {
    // The pair of tests/data/diff on an H100 (tests/data/profile/h100_shared_{a,b}, READMEs
    // there): the fold's per-line wavefronts and bank conflicts of the store (line 20) and the
    // load (line 23) are what ncu's own metrics report for the kernel (ncu_direct.txt, `ncu
    // --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{st,ld}.sum,
    // l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{st,ld}.sum`).
    QFETCH(QString, version);
    QFETCH(int, stores);
    QFETCH(int, loads);
    QFETCH(int, storeBank);
    QFETCH(int, loadBank);
    const std::string dir = "profile/h100_shared_" + version.toStdString() + "/";
    auto page = [&](const char* name) { return data(QString::fromStdString(dir + name)); };
    const Profile p = foldProfile(
        parseNcuSourcePage(page("source_sass.csv")),
        parseSassLineInfo(page("tirx.sass"), "shared_" + version.toStdString() + ".py"), "stage",
        parseNcuDetailsPage(page("details.csv")), parseNcuRawPage(page("raw.csv")));
    QVERIFY2(p.status.rfind("144 of 144 SASS rows joined", 0) == 0, p.status.c_str());
    std::map<std::string, int64_t> direct;  // the first value ncu printed for each metric
    std::istringstream in(page("ncu_direct.txt"));
    for (std::string line; std::getline(in, line);) {
      std::istringstream words(line);
      std::string name, value;
      if (!(words >> name) || name.rfind("l1tex__", 0) != 0 || direct.count(name)) continue;
      while (words >> value) {
      }
      value.erase(std::remove(value.begin(), value.end(), ','), value.end());
      direct[name] = std::stoll(value);
    }
    std::map<int, const LineProfile*> byLine;
    for (const auto& l : p.lines) byLine[l.line] = &l;
    QVERIFY(byLine.count(20) && byLine.count(23));
    const std::string m = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_",
                      b = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_";
    QCOMPARE(direct.at(m + "st.sum"), int64_t(stores));
    QCOMPARE(direct.at(m + "ld.sum"), int64_t(loads));
    QCOMPARE(direct.at(b + "st.sum"), int64_t(storeBank));
    QCOMPARE(direct.at(b + "ld.sum"), int64_t(loadBank));
    QCOMPARE(byLine[20]->sharedWavefronts, int64_t(stores));
    QCOMPARE(byLine[23]->sharedWavefronts, int64_t(loads));
    QCOMPARE(byLine[20]->bankConflictWavefronts(), int64_t(storeBank));
    QCOMPARE(byLine[23]->bankConflictWavefronts(), int64_t(loadBank));
    int64_t others = 0;  // no other line touches shared memory
    for (const auto& l : p.lines)
      if (l.line != 20 && l.line != 23) others += l.sharedWavefronts;
    QCOMPARE(others, int64_t(0));
  }

  void recordedH100Gemm4096AgreesWithItsBenchmark() {
    // RECORDED pages of the 4096^3 wgmma GEMM (tests/data/profile/h100_gemm_4096, README there)
    // with bench_gpu_gemm's output from the same call, run before and after the profile: the
    // kernel facts alone (no source page), the FLOP count exactly 2·4096^3 (each wgmma once), and
    // the profile's FLOP/s within 5 % of the benchmark's queued launches (issue 25).
    const std::string dir = "profile/h100_gemm_4096/";
    const Profile p =
        foldProfile(NcuSourcePage{}, {}, "gemm_ws",
                    parseNcuDetailsPage(data(QString::fromStdString(dir + "details.csv"))),
                    parseNcuRawPage(data(QString::fromStdString(dir + "raw.csv"))));
    QCOMPARE(p.kernel.flop, 2.0 * 4096 * 4096 * 4096);
    QCOMPARE(p.kernel.durationNs, 186240.0);
    QCOMPARE(p.kernel.registers, 168);
    const double profiled = p.kernel.achievedFlops() / 1e12;
    QVERIFY2(std::abs(profiled - 737.97) < 0.01, std::to_string(profiled).c_str());
    std::vector<double> queued, single;
    std::istringstream bench(data(QString::fromStdString(dir + "bench_gpu_gemm.txt")));
    for (std::string key; bench >> key;) {
      if (key == "tirx_gemm_tflops_queued") queued.emplace_back(), bench >> queued.back();
      if (key == "tirx_gemm_tflops") single.emplace_back(), bench >> single.back();
    }
    QCOMPARE(queued, (std::vector<double>{716.62, 711.55}));
    QCOMPARE(single, (std::vector<double>{699.62, 694.98}));
    for (double q : queued)
      QVERIFY2(std::abs(profiled / q - 1) < 0.05, std::to_string(profiled / q).c_str());
  }

  void recordedH100AttentionFoldsOntoTheScript() {
    // The benchmark's FA3-style attention at batch 4, 32 heads, 4096 tokens, head dim 128
    // (tests/data/profile/h100_attention_d128, README there): 1704 SASS rows of a producer and
    // two consumer warpgroups; every row joins, the 178,319 stall samples all land on lines of
    // the script (its 285 lines; none in the runtime's prelude), and the kernel facts are the
    // ones `tirx profile` printed on the H100.
    const std::string dir = "profile/h100_attention_d128/";
    const Profile p =
        foldProfile(parseNcuSourcePage(data(QString::fromStdString(dir + "source_sass.csv"))),
                    parseSassLineInfo(data(QString::fromStdString(dir + "tirx.sass")),
                                      "attention_fwd_bf16_d128.py"),
                    "attention_fwd_bf16_d128",
                    parseNcuDetailsPage(data(QString::fromStdString(dir + "details.csv"))),
                    parseNcuRawPage(data(QString::fromStdString(dir + "raw.csv"))));
    QVERIFY2(p.status.rfind("1704 of 1704 SASS rows joined", 0) == 0, p.status.c_str());
    QCOMPARE(p.kernel.totalSamples, int64_t(178319));
    QCOMPARE(p.kernel.unattributedSamples, int64_t(0));
    int64_t sum = 0;
    const LineProfile* heaviest = nullptr;
    for (const auto& l : p.lines) {
      sum += l.samples;
      int64_t reasons = 0;
      for (const auto& [name, n] : l.stalls) reasons += n;
      QCOMPARE(reasons, l.samples);
      QVERIFY2(l.line >= 1 && l.line <= 285, std::to_string(l.line).c_str());
      if (!heaviest || l.samples > heaviest->samples) heaviest = &l;
    }
    QCOMPARE(sum, int64_t(178319));
    // The softmax's ex2.approx tile op (line 230), 14.6 % of the samples, mostly `wait` (the
    // MUFU's fixed latency).
    QVERIFY(heaviest);
    QCOMPARE(heaviest->line, 230);
    QCOMPARE(heaviest->samples, int64_t(25947));
    QVERIFY(heaviest->stalls.at("wait") * 10 > heaviest->samples * 7);
    QCOMPARE(p.kernel.registers, 168);
    QCOMPARE(p.kernel.spillBytes, int64_t(0));
    QCOMPARE(p.kernel.durationNs, 1560000.0);  // ncu prints 1.56 ms
    QVERIFY2(std::abs(p.kernel.achievedOccupancy - 13.81) < 0.01,
             std::to_string(p.kernel.achievedOccupancy).c_str());
    QVERIFY2(p.kernel.occupancyLimiter.find("egister") != std::string::npos,
             p.kernel.occupancyLimiter.c_str());
    // 4·B·H·S²·D = 2^40 FLOP of wgmma, counted once: 704.8 TFLOP/s in 1.56 ms.
    QCOMPARE(p.kernel.flop, 4.0 * 4 * 32 * 4096.0 * 4096 * 128);
    QVERIFY2(std::abs(p.kernel.achievedFlops() / 1e12 - 704.8) < 0.1,
             std::to_string(p.kernel.achievedFlops()).c_str());
  }

  void jsonRoundTrip() {
    const Profile p = fmaProfile();
    const nlohmann::json j = profileJson(p);
    QCOMPARE(j["kernel"]["total_samples"].get<int64_t>(), int64_t(17));
    Profile back;
    std::string why;
    QVERIFY2(profileFromJson(j, back, why), why.c_str());
    QCOMPARE(profileJson(back), j);
    QVERIFY(!profileFromJson(nlohmann::json{{"version", 2}}, back, why));
  }
};

QTEST_APPLESS_MAIN(TestNcuProfile)
#include "tst_ncu_profile.moc"
