// `tirx tune` end to end through the real binary, on the simulator: the 12-candidate GEMM space of
// tests/data/tune/gemm_tiles.py ranks ten candidates and rejects two with their reasons (one fails
// check with E0125, one verifies wrong on purpose); a second run takes all twelve from the cache; a
// changed script misses only its own entries; a torn last cache line is skipped; --apply rewrites
// the constants; --param narrows or extends the space; malformed TUNE tables are diagnostics with
// line and column; Ctrl-C keeps the finished candidates in the cache.
#include <signal.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "tirx_process.h"

namespace {

QString gemm() {
  return QStringLiteral(TIRX_SOURCE_DIR "/tests/data/tune/gemm_tiles.py");
}

QJsonObject jsonOf(const Run& r) {
  return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

QString valuesKey(const QJsonObject& values) {
  return QStringLiteral("%1,%2,%3")
      .arg(values["ROWS"].toInt())
      .arg(values["COLS"].toInt())
      .arg(values["STAGES"].toInt());
}

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeAll(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
  f.write(bytes);
}

/// The ranked candidates of a --json run, best first.
QStringList ranking(const QJsonObject& doc) {
  QStringList out;
  for (const auto& v : doc["results"].toArray())
    if (v.toObject()["outcome"].toString() == "ranked")
      out << valuesKey(v.toObject()["values"].toObject());
  return out;
}

}  // namespace

class TestCliTune : public QObject {
  Q_OBJECT

 private slots:
  void sweepRanksTenRejectsTwoThenHitsTheCache() {
    QTemporaryDir dir;
    const QString cache = dir.filePath("tune.jsonl");
    const Run first = runTirx({"tune", gemm(), "--cache", cache, "--json"});
    QVERIFY2(first.code == 0, qPrintable(first.out + first.err));
    const QJsonObject doc = jsonOf(first);
    QCOMPARE(doc["candidates"].toInt(), 12);
    QCOMPARE(doc["cache_hits"].toInt(), 0);
    QCOMPARE(doc["results"].toArray().size(), 12);
    QMap<QString, QJsonObject> byValues;
    for (const auto& v : doc["results"].toArray())
      byValues[valuesKey(v.toObject()["values"].toObject())] = v.toObject();
    const QJsonObject illegal = byValues["2,2,3"];
    QCOMPARE(illegal["outcome"].toString(), QStringLiteral("rejected_check"));
    QVERIFY2(illegal["reason"].toString().startsWith("E0125: "),
             qPrintable(illegal["reason"].toString()));
    QVERIFY(illegal["reason"].toString().contains("(line 40:5)"));
    const QJsonObject wrong = byValues["1,1,3"];
    QCOMPARE(wrong["outcome"].toString(), QStringLiteral("rejected_verify"));
    QVERIFY2(wrong["reason"].toString().contains("16384/16384 mismatches"),
             qPrintable(wrong["reason"].toString()));
    const QStringList ranked = ranking(doc);
    QCOMPARE(ranked.size(), 10);
    QVERIFY(!ranked.contains("2,2,3") && !ranked.contains("1,1,3"));
    // The simulator ranks by work units: fewer, longer CTAs (2 × 2 tiles each) do least work.
    QCOMPARE(ranked.first(), QStringLiteral("2,2,1"));
    QCOMPARE(valuesKey(doc["best"].toObject()), ranked.first());
    int64_t previous = 0;
    for (const auto& v : doc["results"].toArray()) {
      const QJsonObject o = v.toObject();
      if (o["outcome"].toString() != "ranked") continue;
      QVERIFY(o["sim_work"].toInteger() >= previous);
      previous = o["sim_work"].toInteger();
      QVERIFY(o["time_ms"].toDouble() > 0);
      QCOMPARE(o["cached"].toBool(), false);
      // 128 threads at 178+ registers: two blocks per SM by registers (8 of 64 warps), one when
      // the ring's dynamic shared memory (counted in shared_bytes) passes 113 KiB.
      QVERIFY(o["shared_bytes"].toInt() > 1024);
      QCOMPARE(o["occupancy"].toDouble(), o["shared_bytes"].toInt() > 113 * 1024 ? 0.0625 : 0.125);
    }
    QCOMPARE(readAll(cache).count('\n'), 12);

    const Run second = runTirx({"tune", gemm(), "--cache", cache, "--json"});
    QVERIFY2(second.code == 0, qPrintable(second.out + second.err));
    const QJsonObject again = jsonOf(second);
    QCOMPARE(again["cache_hits"].toInt(), 12);
    QCOMPARE(ranking(again), ranked);
    for (const auto& v : again["results"].toArray()) QVERIFY(v.toObject()["cached"].toBool());
    QCOMPARE(readAll(cache).count('\n'), 12);  // nothing new appended

    // The table: ranks, the two rejections with their reasons, the best choice.
    const Run text = runTirx({"tune", gemm(), "--cache", cache});
    QCOMPARE(text.code, 0);
    QVERIFY2(
        text.out.contains(QRegularExpression("\\n1 +ROWS=2 COLS=2 STAGES=1 .* ok \\(cached\\)\\n")),
        qPrintable(text.out));
    QVERIFY(text.out.contains(
        QRegularExpression("\\n- +ROWS=2 COLS=2 STAGES=3 .*rejected_check \\(cached\\): E0125: ")));
    QVERIFY(text.out.contains(QRegularExpression(
        "\\n- +ROWS=1 COLS=1 STAGES=3 .*rejected_verify \\(cached\\): check gemm_bf16")));
    QVERIFY(text.out.contains("12 candidates: 0 run, 12 cached, 0 not run\n"));
    // A simulator time is the simulation's wall time: no TFLOP/s or GB/s column; a rejected
    // candidate has no time at all.
    QVERIFY2(text.out.startsWith("rank  candidate") && !text.out.contains("TFLOP/s") &&
                 !text.out.contains("GB/s"),
             qPrintable(text.out));
    QVERIFY2(
        text.out.contains(QRegularExpression("\\n- +ROWS=2 COLS=2 STAGES=3 +- +0 +0 +rejected")),
        qPrintable(text.out));
    QVERIFY(text.out.endsWith("best: ROWS=2 COLS=2 STAGES=1\n"));
  }

  void changedScriptMissesOnlyItsOwnEntries() {
    QTemporaryDir dir;
    const QString cache = dir.filePath("tune.jsonl");
    const QString copy = dir.filePath("gemm.py");
    QByteArray text = readAll(gemm());
    writeAll(copy, text);
    QCOMPARE(runTirx({"tune", copy, "--cache", cache, "--param", "STAGES=1"}).code, 0);
    // The constants' values are not part of the script hash: another value of a tuned constant
    // as written still hits.
    writeAll(copy, QByteArray(text).replace("\nROWS = 1\n", "\nROWS = 2\n"));
    Run r = runTirx({"tune", copy, "--cache", cache, "--param", "STAGES=1", "--json"});
    QCOMPARE(jsonOf(r)["cache_hits"].toInt(), 4);
    // Any other change is another script.
    writeAll(copy, QByteArray(text).replace("block=128))", "block=128))  # changed"));
    r = runTirx({"tune", copy, "--cache", cache, "--param", "STAGES=1", "--json"});
    QCOMPARE(r.code, 0);
    QCOMPARE(jsonOf(r)["cache_hits"].toInt(), 0);
    // ... and the original's entries are still there, beside a torn last line.
    QFile f(cache);
    QVERIFY(f.open(QIODevice::Append));
    f.write("{\"key\":\"abc|sm_90|sim||");
    f.close();
    writeAll(copy, text);
    r = runTirx({"tune", copy, "--cache", cache, "--param", "STAGES=1", "--json"});
    QCOMPARE(r.code, 0);
    QCOMPARE(jsonOf(r)["cache_hits"].toInt(), 4);
  }

  void applyWritesTheBestValues() {
    QTemporaryDir dir;
    const QString copy = dir.filePath("gemm.py");
    const QByteArray text = readAll(gemm());
    writeAll(copy, text);
    const Run r = runTirx({"tune", copy, "--param", "STAGES=1", "--apply"});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY(r.out.contains("best: ROWS=2 COLS=2 STAGES=1 (applied to "));
    const QByteArray applied = readAll(copy);
    QVERIFY(applied.contains("\nROWS = 2\nCOLS = 2\nSTAGES = 1\n"));
    // Only the literals changed: the TUNE table and everything else stay as written.
    QCOMPARE(QByteArray(applied).replace("\nROWS = 2\nCOLS = 2\n", "\nROWS = 1\nCOLS = 1\n"), text);
  }

  void paramsAndMalformedTables() {
    QTemporaryDir dir;
    const QString copy = dir.filePath("gemm.py");
    const QByteArray text = readAll(gemm());
    Run r = runTirx({"tune", gemm(), "--param", "NOPE=1,2"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(":1:1: error: the tuned parameter 'NOPE' is not a module constant of "
                            "the script [E0862]"),
             qPrintable(r.err));
    r = runTirx({"tune", gemm(), "--param", "ROWS=1,x"});
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains("--param: expected an integer value of ROWS, found 'x'"));
    // K added to the space by --param, the table's ROWS narrowed.
    r = runTirx({"tune", gemm(), "--param", "ROWS=1", "--param", "COLS=1", "--param", "STAGES=1",
                 "--param", "K=64,128", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QCOMPARE(jsonOf(r)["candidates"].toInt(), 2);
    QCOMPARE(jsonOf(r)["params"].toArray().last().toObject()["name"].toString(),
             QStringLiteral("K"));
    writeAll(copy, QByteArray(text).replace("\"STAGES\": [1, 2, 3]", "\"STAGES\": [1, 2.5]"));
    r = runTirx({"tune", copy});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(":18:55: error: a candidate of 'STAGES' must be an integer literal "
                            "[E0860]"),
             qPrintable(r.err));
    writeAll(copy, QByteArray(text).replace("\nSTAGES = 1\n", "\nSTAGES = 2 - 1\n"));
    r = runTirx({"tune", copy});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(":17:10: error: the tuned parameter 'STAGES' must be defined as an "
                            "integer literal"),
             qPrintable(r.err));
    writeAll(copy, QByteArray(text).replace("TUNE = {", "TUNE = [{").replace("3]}", "3]}]"));
    r = runTirx({"tune", copy});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(":18:8: error: TUNE must be a dict"), qPrintable(r.err));
    r = runTirx({"tune", copy, "--device", "cuda:x"});
    QCOMPARE(r.code, 2);
  }

  void allGpusRunsOneLanePerGpu() {
    // Two fake GPUs (tests/cli/fake_runner.cpp): their "kernel" writes nothing, so every
    // candidate that passes check verifies wrong and none is ranked; both lanes took candidates.
    QProcessEnvironment env = fakeRunnerEnv("identity");
    env.insert("TIRX_TUNE_GPU_COUNT", "2");
    const Run r = runTirx(
        {"tune", gemm(), "--device", "cuda:all", "--param", "STAGES=1,3", "--json"}, 180000, env);
    QVERIFY2(r.code == 1, qPrintable(r.out + r.err));
    const QJsonObject doc = jsonOf(r);
    QCOMPARE(doc["results"].toArray().size(), 8);
    QSet<QString> lanes;
    for (const auto& v : doc["results"].toArray()) {
      const QJsonObject o = v.toObject();
      lanes.insert(o["lane"].toString());
      if (valuesKey(o["values"].toObject()) == "2,2,3")
        QCOMPARE(o["outcome"].toString(), QStringLiteral("rejected_check"));
      else
        QCOMPARE(o["outcome"].toString(), QStringLiteral("rejected_verify"));
    }
    QCOMPARE(lanes, (QSet<QString>{"cuda:0", "cuda:1"}));
    QVERIFY(doc["best"].isNull());
    // Without a driver and without a runner override there is no GPU to fan out to.
    QProcessEnvironment bare = QProcessEnvironment::systemEnvironment();
    bare.remove("TIRX_RUNNER");
    if (QFile::exists("/usr/lib/x86_64-linux-gnu/libcuda.so.1")) return;
    const Run none = runTirx({"tune", gemm(), "--device", "cuda:all"}, 180000, bare);
    QCOMPARE(none.code, 3);
    QVERIFY2(none.err.contains("tirx tune: --device cuda:all: "), qPrintable(none.err));
  }

  void interruptKeepsFinishedCandidates() {
    QTemporaryDir dir;
    const QString cache = dir.filePath("tune.jsonl");
    QProcess p;
    p.start(QStringLiteral(TIRX_BIN), {"tune", gemm(), "--cache", cache, "--json"});
    QVERIFY(p.waitForStarted());
    QElapsedTimer t;
    t.start();
    while (readAll(cache).count('\n') < 2 && t.elapsed() < 120000) QTest::qWait(10);
    QVERIFY(readAll(cache).count('\n') >= 2);
    ::kill(pid_t(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitCode(), 130);
    const QJsonObject doc = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    QVERIFY(doc["cancelled"].toBool());
    const int finished = doc["results"].toArray().size();
    QVERIFY(finished >= 2 && finished < 12);
    QCOMPARE(doc["skipped"].toInt(), 12 - finished);
    QCOMPARE(readAll(cache).count('\n'), finished);
    const Run again = runTirx({"tune", gemm(), "--cache", cache, "--json"});
    QCOMPARE(again.code, 0);
    QCOMPARE(jsonOf(again)["cache_hits"].toInt(), finished);
  }
};

QTEST_GUILESS_MAIN(TestCliTune)
#include "tst_cli_tune.moc"
