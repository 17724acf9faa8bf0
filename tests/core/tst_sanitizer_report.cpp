// The compute-sanitizer report parser (core/driver/sanitizer.h) against the reports recorded on the
// H200 (tests/data/sanitizer/, README there) and hand-written variants: a racecheck warning, the
// older "Potential WAR hazard" format, a truncated report, garbage, a location outside the script,
// a report whose errors name no kernel location. Also the tool search order and the wrapped argv.
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <sstream>

#include "core/driver/sanitizer.h"

using namespace tirx;
using namespace tirx::driver;

namespace {

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string data(const char* name) {
  return readText(TIRX_SOURCE_DIR "/tests/data/sanitizer/" + std::string(name));
}
std::string raceSource() {
  return readText(TIRX_SOURCE_DIR "/tests/data/sim/race.py");
}
std::string oobSource() {
  return readText(TIRX_SOURCE_DIR "/tests/data/sanitizer/oob.py");
}  // as recorded

const SourceSpan kDef{16, 5, 3, 0};  // where findings outside the script go (the kernel's def)

}  // namespace

class TestSanitizerReport : public QObject {
  Q_OBJECT

 private slots:
  // The recorded race: both lines, primary at the write (27), note at the read (29); the report
  // lists it twice (two passes of the runner), the parser merges them.
  void recordedRace() {
    const auto r = parseSanitizerReport(data("racecheck_race.log"), SanitizerTool::Racecheck,
                                        "race.py", raceSource(), kDef);
    QVERIFY(r.header && r.summary);
    QCOMPARE(r.errors, 2);
    QCOMPARE(r.findings, 2);
    QVERIFY(!r.clean());
    QCOMPARE(r.diagnostics.size(), size_t(1));
    const Diagnostic& d = r.diagnostics[0];
    QCOMPARE(d.code, std::string("E0955"));
    QCOMPARE(d.span.line, 27);
    QCOMPARE(d.span.col, 5);  // the statement's text, not the indentation
    QCOMPARE(d.span.length,
             int(std::string("T.cuda.tile.apply(T.ptx[\"st.shared.v4.b32\"], sv, R, scope=\"cta\")")
                     .size()));
    QCOMPARE(d.message,
             std::string(
                 "data race between the write at line 27 and the read at line 29 with no barrier "
                 "between them, 1024 hazards (compute-sanitizer racecheck)"));
    QCOMPARE(d.notes.size(), size_t(1));
    QCOMPARE(d.notes[0].span.line, 29);
    QCOMPARE(d.notes[0].span.col, 9);
    QCOMPARE(r.summaryText(), std::string("compute-sanitizer racecheck: 2 errors, 0 warnings"));
    const std::string text = formatGcc(d, "race.py");
    QVERIFY2(text.find("race.py:27:5: error: data race") == 0, text.c_str());
    QVERIFY2(text.find("race.py:29:9: note: the read that races with it") != std::string::npos,
             text.c_str());
  }

  // The recorded memcheck error: access kind, size, thread, block and line; the six API errors
  // that follow the stopped launch are counted, not reported as findings.
  void recordedOutOfBounds() {
    const auto r = parseSanitizerReport(data("memcheck_oob.log"), SanitizerTool::Memcheck,
                                        "/home/u/oob.py", oobSource(), kDef);
    QVERIFY(r.summary);
    QCOMPARE(r.errors, 7);
    QCOMPARE(r.apiErrors, 6);
    QCOMPARE(r.firstApiError, std::string("CUDA_ERROR_LAUNCH_FAILED on cuEventSynchronize"));
    QCOMPARE(r.diagnostics.size(), size_t(1));
    const Diagnostic& d = r.diagnostics[0];
    QCOMPARE(d.code, std::string("E0956"));
    QCOMPARE(d.span.line, 10);
    QCOMPARE(d.span.col, 9);
    QCOMPARE(d.message,
             std::string(
                 "invalid __global__ write of size 4 bytes by thread (63,0,0) in block (0,0,0): "
                 "access to "
                 "0x7f2070800800 is out of bounds and is 1 bytes after the nearest allocation at "
                 "0x7f2070800400 of size 1,024 bytes (compute-sanitizer memcheck)"));
    QCOMPARE(r.summaryText(),
             std::string("compute-sanitizer memcheck: 7 errors (6 CUDA API errors after the "
                         "kernel was stopped)"));
  }

  void recordedCleanReports_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("tool");
    QTest::addColumn<QString>("summary");
    QTest::newRow("racecheck") << "racecheck_clean.log" << int(SanitizerTool::Racecheck)
                               << "compute-sanitizer racecheck: no hazards";
    QTest::newRow("gemm") << "racecheck_gemm.log" << int(SanitizerTool::Racecheck)
                          << "compute-sanitizer racecheck: no hazards";
    QTest::newRow("memcheck") << "memcheck_clean.log" << int(SanitizerTool::Memcheck)
                              << "compute-sanitizer memcheck: no errors";
    QTest::newRow("initcheck") << "initcheck_output.log" << int(SanitizerTool::Initcheck)
                               << "compute-sanitizer initcheck: no errors";
    QTest::newRow("initcheck2") << "initcheck_clean.log" << int(SanitizerTool::Initcheck)
                                << "compute-sanitizer initcheck: no errors";
    QTest::newRow("synccheck") << "synccheck_clean.log" << int(SanitizerTool::Synccheck)
                               << "compute-sanitizer synccheck: no errors";
  }
  void recordedCleanReports() {
    QFETCH(QString, file);
    QFETCH(int, tool);
    QFETCH(QString, summary);
    const auto r = parseSanitizerReport(data(file.toStdString().c_str()), SanitizerTool(tool),
                                        "x.py", "", kDef);
    QVERIFY(r.header && r.summary && r.clean());
    QVERIFY(r.diagnostics.empty());
    QCOMPARE(QString::fromStdString(r.summaryText()), summary);
  }

  // Hand-written: a racecheck warning (W0955), a read-after-write whose second access lies in a
  // header (no note; the header location is named in the message), and the old hazard format.
  void raceVariants() {
    const std::string log =
        "========= COMPUTE-SANITIZER\n"
        "========= Warning: Race reported between Read access at k+0x10 in race.py:29\n"
        "=========     and Write access at k+0x20 in race.py:27 [32 hazards]\n"
        "========= \n"
        "========= Error: Race reported between Write access at k+0x10 in "
        "/usr/include/cuda_fp16.hpp:120\n"
        "=========     and Read access at k+0x20 in race.py:29 [4 hazards]\n"
        "========= \n"
        "========= ERROR: Potential WAR hazard detected at __shared__ 0x100 in block (0,0,0) :\n"
        "=========     Read Thread (31,0,0) at 0x000001d0 in race.py:29\n"
        "=========     Write Thread (0,0,0) at 0x000002a0 in race.py:27\n"
        "=========     Current Value : 0\n"
        "========= \n"
        "========= RACECHECK SUMMARY: 3 hazards displayed (2 errors, 1 warnings)\n";
    const auto r =
        parseSanitizerReport(log, SanitizerTool::Racecheck, "race.py", raceSource(), kDef);
    QCOMPARE(r.diagnostics.size(), size_t(3));
    QCOMPARE(r.diagnostics[0].code, std::string("W0955"));
    QCOMPARE(r.diagnostics[0].severity, Severity::Warning);
    QCOMPARE(r.diagnostics[0].span.line, 29);
    QCOMPARE(r.diagnostics[0].notes.at(0).span.line, 27);
    // The script line is the primary even when the sanitizer names it second.
    QCOMPARE(r.diagnostics[1].span.line, 29);
    QVERIFY(r.diagnostics[1].notes.empty());
    QVERIFY2(r.diagnostics[1].message.find(
                 "the read at line 29 and the write at /usr/include/cuda_fp16.hpp:120 "
                 "(outside the script)") != std::string::npos,
             r.diagnostics[1].message.c_str());
    QCOMPARE(r.diagnostics[2].code, std::string("E0955"));
    QCOMPARE(r.diagnostics[2].span.line, 29);
    QVERIFY2(r.diagnostics[2].message.find(
                 "read by thread (31,0,0) at line 29 and the write by thread (0,0,0) at "
                 "line 27 with no barrier between them, WAR hazard on __shared__ in "
                 "block (0,0,0)") != std::string::npos,
             r.diagnostics[2].message.c_str());
    QCOMPARE(r.errors, 2);
    QCOMPARE(r.warnings, 1);
    QCOMPARE(r.summaryText(), std::string("compute-sanitizer racecheck: 2 errors, 1 warning"));
  }

  // A finding in the generated CUDA (a line without a #line mapping) goes to the kernel's def and
  // names the location; initcheck and synccheck blocks get their own codes.
  void findingsOutsideTheScriptAndOtherTools() {
    const std::string log =
        "========= COMPUTE-SANITIZER\n"
        "========= Uninitialized __global__ memory read of size 4 bytes\n"
        "=========     at k+0x50 in /tmp/tirx_run_x/kernel.cu:88\n"
        "=========     by thread (1,0,0) in block (2,0,0)\n"
        "========= \n"
        "========= Barrier error detected. Divergent thread(s) in warp\n"
        "=========     at k+0x60 in race.py:22\n"
        "=========     by thread (0,0,0) in block (0,0,0)\n"
        "=========     Device Frame: k+0x60 in race.py:22\n"
        "========= \n"
        "========= ERROR SUMMARY: 2 errors\n";
    const auto r =
        parseSanitizerReport(log, SanitizerTool::Initcheck, "race.py", raceSource(), kDef);
    QCOMPARE(r.diagnostics.size(), size_t(2));
    QCOMPARE(r.diagnostics[0].code, std::string("E0957"));
    QCOMPARE(r.diagnostics[0].span, kDef);
    QCOMPARE(
        r.diagnostics[0].message,
        std::string(
            "uninitialized __global__ memory read of size 4 bytes by thread (1,0,0) in block "
            "(2,0,0) at "
            "/tmp/tirx_run_x/kernel.cu:88 (outside the script) (compute-sanitizer initcheck)"));
    QCOMPARE(r.diagnostics[1].code, std::string("E0958"));
    QCOMPARE(r.diagnostics[1].span.line, 22);
    QCOMPARE(r.diagnostics[1].message, std::string("barrier error detected. Divergent thread(s) in "
                                                   "warp by thread (0,0,0) in block (0,0,0) "
                                                   "(compute-sanitizer initcheck)"));
  }

  // Truncated (the tool died, or the runner was killed mid-report): the findings so far, no
  // summary.
  void truncatedReport() {
    const std::string full = data("racecheck_race.log");
    const std::string cut = full.substr(0, full.find("[1024 hazards]") + 5);
    const auto r =
        parseSanitizerReport(cut, SanitizerTool::Racecheck, "race.py", raceSource(), kDef);
    QVERIFY(r.header && !r.summary && !r.clean());
    QCOMPARE(r.diagnostics.size(), size_t(1));
    QCOMPARE(r.diagnostics[0].span.line, 27);
    QCOMPARE(r.summaryText(),
             std::string("compute-sanitizer racecheck: the report is truncated (no summary line)"));
  }

  void garbageAndEmpty() {
    std::string junk(100000, '=');
    for (size_t i = 0; i < junk.size(); i += 7) junk[i] = char(i * 31 % 256);
    for (const std::string& text :
         {std::string(), std::string("hello\nworld"), junk,
          std::string("========= Error: Race reported between\n========= ERROR SUMMARY: x"),
          std::string(
              "========= Invalid __global__ write\n=========     at k in race.py:99999999999\n")}) {
      const auto r =
          parseSanitizerReport(text, SanitizerTool::Memcheck, "race.py", raceSource(), kDef);
      QVERIFY(!r.summary);
      QVERIFY(!r.clean());
      for (const auto& d : r.diagnostics) QVERIFY(d.span.line > 0);
    }
    QCOMPARE(parseSanitizerReport("", SanitizerTool::Memcheck, "a.py", "", kDef).summaryText(),
             std::string("compute-sanitizer memcheck wrote no report"));
    // A script line past the end of the file: reported at that line with a 1-column span.
    const auto r = parseSanitizerReport(
        "========= Invalid __global__ write of size 4 bytes\n=========     at k+0x1 in "
        "race.py:500\n",
        SanitizerTool::Memcheck, "race.py", raceSource(), kDef);
    QCOMPARE(r.diagnostics.at(0).span, (SourceSpan{500, 1, 1, 0}));
  }

  void toolNamesAndSearch() {
    SanitizerTool t{};
    QVERIFY(parseSanitizerTool("racecheck", t) && t == SanitizerTool::Racecheck);
    QVERIFY(!parseSanitizerTool("leakcheck", t));
    QVERIFY(!parseSanitizerTool("", t));
    QTemporaryDir a, b, c;
    const std::string fake = TIRX_SOURCE_DIR "/tests/cli/fake_compute_sanitizer.sh";
    QVERIFY(QFile::link(QString::fromStdString(fake), b.filePath("compute-sanitizer")));
    QDir(c.path()).mkdir("bin");
    QVERIFY(QFile::link(QString::fromStdString(fake), c.filePath("bin/compute-sanitizer")));
    const std::string pa = a.path().toStdString(), pb = b.path().toStdString(),
                      pc = c.path().toStdString();
    QCOMPARE(findComputeSanitizer(pa + ":" + pb, pc, {}), pb + "/compute-sanitizer");  // PATH first
    QCOMPARE(findComputeSanitizer(pa, pc, {pb}), pc + "/bin/compute-sanitizer");  // then CUDA_HOME
    QCOMPARE(findComputeSanitizer(pa, "", {pa, pb}),
             pb + "/compute-sanitizer");  // then the fallbacks
    QCOMPARE(findComputeSanitizer(pa, pa, {pa}), std::string());
    QCOMPARE(sanitizerArgv("/cs", SanitizerTool::Synccheck, "/t/log", 7,
                           {"/bin/tirx", "runner", "r", "s"}),
             (std::vector<std::string>{"/cs", "--tool", "synccheck", "--log-file", "/t/log",
                                       "--print-limit", "7", "--show-backtrace", "device",
                                       "/bin/tirx", "runner", "r", "s"}));
    QCOMPARE(sanitizedTimeoutMs(SanitizerTool::Racecheck, 30000), 660000);
    QCOMPARE(sanitizedTimeoutMs(SanitizerTool::Memcheck, 30000), 360000);
    QCOMPARE(sanitizedTimeoutMs(SanitizerTool::Memcheck, 0x7fffffff), 0x7fffffff);
  }
};

QTEST_APPLESS_MAIN(TestSanitizerReport)
#include "tst_sanitizer_report.moc"
