// End-to-end tests of `tirx layout` (app/cli/cmd_layout.cpp): runs the built binary (TIRX_BIN) on
// the seed register layout and checks the summary and table lines, the --json document (parsed
// with nlohmann/json), replicas, --shape, and the exit codes 0 (ok), 1 (diagnostic in SPEC) and
// 2 (usage).
#include <QProcess>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "tirx_process.h"

namespace {

Run tirx(const QStringList& args) {
  return runTirx(QStringList{"layout"} + args);
}

const QString kSeed = "S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)]";

}  // namespace

class TestCliLayout : public QObject {
  Q_OBJECT

 private slots:
  void seedText() {
    const Run r = tirx({kSeed});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.err, QString());
    const QStringList lines = r.out.split('\n');
    QCOMPARE(lines[0], QString("layout: S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]"));
    QCOMPARE(lines[1], QString("shape: (2, 32, 4), 256 elements"));
    QCOMPARE(lines[2], QString("threads used: 64 of 64 (warps 0-1)"));
    QCOMPARE(lines[3], QString("registers per thread: 4"));
    QCOMPARE(lines[4], QString("owners per element: 1"));
    QCOMPARE(lines[5], QString());
    QCOMPARE(lines[6], QString("[0, 0, :]   w0 l0 r0  | w0 l0 r1  | w0 l0 r2  | w0 l0 r3"));
    QVERIFY(lines.contains("[1, 31, :]  w1 l31 r0 | w1 l31 r1 | w1 l31 r2 | w1 l31 r3"));
    QCOMPARE(lines.size(), 6 + 64 + 1);  // header, 64 rows, trailing empty string
  }

  void seedTwoDimensionalShape() {
    const Run r = tirx({kSeed, "--shape", "64,4"});
    QCOMPARE(r.code, 0);
    const QStringList lines = r.out.split('\n');
    QCOMPARE(lines[1], QString("shape: (64, 4), 256 elements"));
    QVERIFY(lines.contains("[33, :]  w1 l1 r0  | w1 l1 r1  | w1 l1 r2  | w1 l1 r3"));
  }

  void seedJson() {
    const Run r = tirx({kSeed, "--json"});
    QCOMPARE(r.code, 0);
    const auto j = nlohmann::json::parse(r.out.toStdString(), nullptr, false);
    QVERIFY(!j.is_discarded());
    QCOMPARE(j["layout"].get<std::string>(),
             std::string("S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]"));
    QCOMPARE(j["shape"], nlohmann::json({2, 32, 4}));
    QCOMPARE(j["element_count"].get<int>(), 256);
    QCOMPARE(j["threads_used"].get<int>(), 64);
    QCOMPARE(j["registers_per_thread"].get<int>(), 4);
    QCOMPARE(j["owners_per_element"].get<int>(), 1);
    QCOMPARE(j["has_thread_axes"].get<bool>(), true);
    QCOMPARE(j["shard"][0], nlohmann::json({{"extent", 2}, {"stride", 1}, {"axis", "warpid"}}));
    QCOMPARE(j["elements"].size(), size_t{256});
    // element (1, 5, 3) -> thread 37, warp 1, lane 5, slot 3
    const auto& e = j["elements"][(1 * 32 + 5) * 4 + 3];
    QCOMPARE(e["index"], nlohmann::json({1, 5, 3}));
    QCOMPARE(e["owners"], nlohmann::json::parse(R"([{"thread":37,"warp":1,"lane":5,"slot":3}])"));
    QCOMPARE(j["threads"].size(), size_t{64});
    const auto& t = j["threads"][37];
    QCOMPARE(t["thread"].get<int>(), 37);
    QCOMPARE(t["slots"].size(), size_t{4});
    QCOMPARE(t["slots"][2], nlohmann::json::parse(R"({"slot":2,"index":[1,5,2]})"));
  }

  void replicas() {
    const Run r = tirx(
        {"S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid", "--shape=8,16"});
    QCOMPARE(r.code, 0);
    const QStringList lines = r.out.split('\n');
    QCOMPARE(lines[2], QString("threads used: 128 of 352 (warps 5-10)"));
    QCOMPARE(lines[4], QString("owners per element: 2"));
    QVERIFY(lines[6].startsWith("[0, 0:8]   {w5 l0 r0, w9 l0 r0}    | {w5 l0 r1, w9 l0 r1}"));
    const Run js = tirx({"S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid",
                         "--shape", "8,16", "--json"});
    const auto j = nlohmann::json::parse(js.out.toStdString(), nullptr, false);
    QVERIFY(!j.is_discarded());
    QCOMPARE(j["elements"][16 + 9]["owners"],
             nlohmann::json::parse(R"([{"thread":196,"warp":6,"lane":4,"slot":1},
                                       {"thread":324,"warp":10,"lane":4,"slot":1}])"));
    QCOMPARE(j["offset"], nlohmann::json({{"warpid", 5}}));
  }

  void localWithoutThreads() {
    const Run r = tirx({"TileLayout(S[(3, 4) : (16, 2)])"});
    QCOMPARE(r.code, 0);
    const QStringList lines = r.out.split('\n');
    QCOMPARE(lines[2], QString("threads used: no thread axes, every thread holds the whole tile"));
    QCOMPARE(lines[3], QString("registers per thread: 39 (12 used)"));
    QCOMPARE(lines[8], QString("[2, :]  r32 | r34 | r36 | r38"));
  }

  void laneOverflowWarns() {
    const Run r = tirx({"S[(8, 4) : (4@laneid, 2@laneid)]"});
    QCOMPARE(r.code, 0);
    const QStringList lines = r.out.split('\n');
    QCOMPARE(lines[5], QString("warning: laneid reaches 34, beyond its extent 32"));
    QCOMPARE(lines[6], QString());
    const Run js = tirx({"S[(8, 4) : (4@laneid, 2@laneid)]", "--json"});
    const auto j = nlohmann::json::parse(js.out.toStdString(), nullptr, false);
    QCOMPARE(j["warnings"], nlohmann::json({"laneid reaches 34, beyond its extent 32"}));
    QCOMPARE(tirx({kSeed, "--json"}).out.contains("\"warnings\": []"), true);
  }

  void badSpecIsDiagnostic() {
    Run r = tirx({"S[(2, 32, 4) : (1 @ warpid, 1)]"});
    QCOMPARE(r.code, 1);
    QCOMPARE(r.out, QString());
    QCOMPARE(r.err, QString("<layout>:1:16: error: extents and strides differ in length: 3 "
                            "extents, 2 strides [E0302]\n"));
    r = tirx({"S[8 : 4 @ lane]"});
    QCOMPARE(r.code, 1);
    QCOMPARE(r.err, QString("<layout>:1:11: error: unknown axis 'lane' [E0304]\n"));
    r = tirx({"S[(2, 32"});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.startsWith("<layout>:1:"));
    QVERIFY(r.err.contains("[E00"));
  }

  void usageErrors() {
    QCOMPARE(tirx({}).code, 2);
    QCOMPARE(tirx({kSeed, kSeed}).code, 2);
    QCOMPARE(tirx({kSeed, "--bogus"}).code, 2);
    QCOMPARE(tirx({kSeed, "--shape"}).code, 2);
    QCOMPARE(tirx({kSeed, "--shape", "2,x"}).code, 2);
    QCOMPARE(tirx({kSeed, "--shape", "2,0,128"}).code, 2);
    const Run r = tirx({kSeed, "--shape", "3,3"});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, QString("tirx layout: shape (3, 3) has 9 elements, the layout has 256\n"));
    QCOMPARE(tirx({"--help"}).code, 0);
  }
};

QTEST_APPLESS_MAIN(TestCliLayout)
#include "tst_cli_layout.moc"
