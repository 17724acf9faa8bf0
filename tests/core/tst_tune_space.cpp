// core/tune without the CLI: the space of a script (TUNE table and --param overrides, read from
// the parser's tree), candidates as the cartesian product, substitution at the literals' spans,
// the script hash that ignores the tuned values, the tune device forms, and the JSON-lines cache
// under concurrent appenders (processes) with a torn last line.
#include <sys/wait.h>
#include <unistd.h>

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

#include "core/tune/tune.h"

using namespace tirx;
using namespace tirx::tune;

namespace {
const char* kScript =
    "BLOCK = 64\n"
    "STAGES = 2\n"
    "OTHER = 7  # BLOCK = 999 in a comment is no definition\n"
    "TUNE = {\"BLOCK\": [64, 128], \"STAGES\": [2, 3, 4]}\n";
}

class TestTuneSpace : public QObject {
  Q_OBJECT

 private slots:
  void tableAndOverrides() {
    TuneSpace s = findTuneSpace(kScript);
    QVERIFY(s.ok());
    QCOMPARE(s.params.size(), size_t(2));
    QCOMPARE(s.params[0].name, std::string("BLOCK"));
    QCOMPARE(s.params[0].literal.line, 1);
    QCOMPARE(s.params[0].literal.col, 9);
    const auto all = enumerateCandidates(s);
    QCOMPARE(all.size(), size_t(6));
    QCOMPARE(all.front(), (Candidate{64, 2}));
    QCOMPARE(all.back(), (Candidate{128, 4}));
    const std::string sub = substitute(kScript, s, {128, 3});
    QVERIFY(sub.rfind("BLOCK = 128\nSTAGES = 3\nOTHER = 7  # BLOCK = 999", 0) == 0);
    QVERIFY(sub.find("\"BLOCK\": [64, 128]") != std::string::npos);  // the table is unchanged
    // The hash ignores the tuned values and nothing else.
    QCOMPARE(scriptHash(sub, findTuneSpace(sub)), scriptHash(kScript, s));
    std::string edited = std::string(kScript) + "# a comment\n";
    QVERIFY(scriptHash(edited, findTuneSpace(edited)) != scriptHash(kScript, s));
    QCOMPARE(shapeText(kScript, s), std::string("OTHER=7"));

    ParamOverride o;
    std::string why;
    QVERIFY(parseParamOverride("OTHER=1,2,3", o, why));
    QCOMPARE(o.values, (std::vector<int64_t>{1, 2, 3}));
    QVERIFY(!parseParamOverride("OTHER=1,,2", o, why));
    QVERIFY(!parseParamOverride("=1", o, why));
    s = findTuneSpace(kScript, {{"STAGES", {5}, {}}, {"OTHER", {1, 2}, {}}});
    QVERIFY(s.ok());
    QCOMPARE(enumerateCandidates(s).size(), size_t(4));  // 2 × 1 × 2
  }

  void malformedTables() {
    auto first = [](const std::string& text) {
      const TuneSpace s = findTuneSpace(text);
      return s.diagnostics.empty() ? std::string()
                                   : s.diagnostics.front().code + " " +
                                         std::to_string(s.diagnostics.front().span.line) + ":" +
                                         std::to_string(s.diagnostics.front().span.col);
    };
    QCOMPARE(first("A = 1\nTUNE = {\"A\": []}\n"), std::string("E0860 2:14"));
    QCOMPARE(first("A = 1\nTUNE = {A: [1]}\n"), std::string("E0860 2:9"));
    QCOMPARE(first("A = 1\nTUNE = {\"A\": [1], \"A\": [2]}\n"), std::string("E0861 2:19"));
    QCOMPARE(first("TUNE = {\"B\": [1]}\n"), std::string("E0862 1:9"));
    QCOMPARE(first("A = 2 * 2\nTUNE = {\"A\": [1]}\n"), std::string("E0863 1:5"));
    QVERIFY(!findTuneSpace("A = 1\n").ok());  // nothing to tune
  }

  void deviceForms() {
    QVERIFY(parseTuneDevice("cuda:all")->kind == TuneDevice::Kind::AllGpus);
    QCOMPARE(parseTuneDevice("slurm:gpu")->partition, std::string("gpu"));
    QVERIFY(parseTuneDevice("slurm")->partition.empty());
    QVERIFY(!parseTuneDevice("slurm:"));
    QVERIFY(!parseTuneDevice("both"));
    QVERIFY(parseTuneDevice("cuda:1")->single.index == 1);
  }

  void cacheSurvivesConcurrentAppendersAndATornLine() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("c.jsonl").toStdString();
    // Four processes append 200 results each at once.
    std::vector<pid_t> kids;
    for (int k = 0; k < 4; ++k) {
      const pid_t pid = fork();
      if (pid == 0) {
        for (int i = 0; i < 200; ++i) {
          CandidateResult r;
          r.values = {{"K", k}, {"I", i}};
          r.outcome = Outcome::Ranked;
          r.reason = std::string(300, 'x');  // long lines, so interleaving would show
          std::string why;
          if (!appendCache(path, "key-" + std::to_string(k) + "-" + std::to_string(i), r, why))
            _exit(1);
        }
        _exit(0);
      }
      kids.push_back(pid);
    }
    for (pid_t pid : kids) {
      int status = 0;
      QCOMPARE(waitpid(pid, &status, 0), pid);
      QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    {
      std::ofstream torn(path, std::ios::app);
      torn << "{\"key\":\"key-9-9\",\"values\":{\"K\":";
    }
    const auto cache = readCache(path);
    QCOMPARE(cache.size(), size_t(800));
    QCOMPARE(cache.at("key-3-199").values.at("I"), int64_t(199));
    QVERIFY(cache.at("key-0-0").cached);
    QVERIFY(!cache.count("key-9-9"));
  }
};

QTEST_GUILESS_MAIN(TestTuneSpace)
#include "tst_tune_space.moc"
