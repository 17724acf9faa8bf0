// `tirx diff` end to end (the real binary): the activation pair of tests/data/diff reports the
// moved cells (252, counted by hand in its README), the changed PTX lines at the load's script
// line and both results, as text and as JSON; the shared pair reports the elements whose byte
// offset and bank changed (counted here by brute force from the two layouts' formulas) and the
// bank conflicts of each statement before and after; a version against itself exits 0; a bundle
// against its script, two bundles exported by `tirx bundle`; usage and I/O errors exit 2.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include "tirx_process.h"

namespace {
QString data(const QString& rel) {
  return QStringLiteral(TIRX_SOURCE_DIR "/tests/data/") + rel;
}

/// The shared pair's tile: 32 × 32 float32, element (i, j) at element offset 32·i + j in A and
/// 36·i + j in B (the two TileLayouts' formulas). Elements whose byte offset / bank changed.
struct Moved {
  int moved = 0, bankMoved = 0;
};
Moved sharedPairByBruteForce() {
  Moved m;
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) {
      const int a = (32 * i + j) * 4, b = (36 * i + j) * 4;
      m.moved += a != b;
      m.bankMoved += (a / 4) % 32 != (b / 4) % 32;
    }
  return m;
}

/// The worst conflict of a warp access where lane l reads element offset stride·l + j (4-byte
/// words: the most distinct words one bank serves).
int ways(int stride, int j) {
  int most = 0;
  for (int bank = 0; bank < 32; ++bank) {
    QSet<int> words;
    for (int l = 0; l < 32; ++l)
      if ((stride * l + j) % 32 == bank) words.insert(stride * l + j);
    most = std::max(most, int(words.size()));
  }
  return most;
}
}  // namespace

class TstCliDiff : public QObject {
  Q_OBJECT

 private slots:
  void textReportsMovedCellsPtxAndResults() {
    const Run r = runTirx({"diff", data("diff/activation_a.py"), data("diff/activation_b.py")});
    QCOMPARE(r.code, 1);  // the versions differ
    QVERIFY2(r.out.contains("== layouts: 1 register tile, 1 changed, 252 cells moved"),
             qPrintable(r.out));
    QVERIFY(r.out.contains("activation.R: 252 of 256 cells changed owner"));
    QVERIFY(r.out.contains("(0, 1, 0): w0 l1 r0 -> w0 l0 r4"));
    QVERIFY(r.out.contains("… 188 more"));
    QVERIFY(r.out.contains("== shared: no shared tile in either version"));  // 64 listed by default
    const qsizetype ptx = r.out.indexOf("== ptx: +");
    QVERIFY(ptx > 0);
    const qsizetype ld = r.out.indexOf("line 22 -> 23:", ptx);
    QVERIFY(ld > ptx);
    QVERIFY(r.out.indexOf("+\tld.global.v4.b32 {%f5, %f6, %f7, %f8}", ld) > ld);
    QVERIFY(r.out.contains("registers "));
    QVERIFY(r.out.contains("A: passed, 1/1 checks"));
    QVERIFY(r.out.contains("B: passed, 1/1 checks"));
    QVERIFY(r.out.endsWith("versions differ\n"));
  }

  void jsonCarriesTheSameValues() {
    const Run r = runTirx({"diff", data("diff/activation_a.py"), data("diff/activation_b.py"),
                           "--json", "--max-cells", "3"});
    QCOMPARE(r.code, 1);
    const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QVERIFY2(!j.isEmpty(), qPrintable(r.out.left(400)));
    QCOMPARE(j["identical"].toBool(), false);
    const QJsonObject l = j["layouts"].toArray().at(0).toObject();
    QCOMPARE(l["moved"].toInt(), 252);
    QCOMPARE(l["cells"].toInt(), 256);
    QCOMPARE(l["listed"].toArray().size(), 3);
    QCOMPARE(l["truncated"].toBool(), true);
    const QJsonObject first = l["listed"].toArray().at(0).toObject();
    QCOMPARE(first["before"].toObject()["lane"].toInt(), 1);
    QCOMPARE(first["after"].toObject()["reg"].toInt(), 4);
    QVERIFY(j["ptx"].toObject()["added"].toInt() > 0);
    bool ldGroup = false;
    for (const auto& g : j["ptx"].toObject()["groups"].toArray())
      ldGroup |= g.toObject()["script_a"].toInt() == 22 && g.toObject()["script_b"].toInt() == 23;
    QVERIFY(ldGroup);
    QCOMPARE(j["results"].toObject()["a"].toObject()["passed"].toBool(), true);
    QCOMPARE(j["results"].toObject()["b"].toObject()["source"].toString(),
             QString("verified on sim"));
    QCOMPARE(j["script"].toObject()["added"].toInt(), 11);
  }

  void sharedTileMovedElementsAndBankConflicts() {
    const Moved want = sharedPairByBruteForce();
    const Run r = runTirx({"diff", data("diff/shared_a.py"), data("diff/shared_b.py")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains(QString("== shared: 1 shared tile, 1 changed, %1 elements moved (%2 to "
                                    "another bank)")
                                .arg(want.moved)
                                .arg(want.bankMoved)),
             qPrintable(r.out));
    QVERIFY(r.out.contains("    A: S[(32, 32) : (32, 1)] float32"));
    QVERIFY(r.out.contains("    B: S[(32, 32) : (36, 1)] float32"));
    QVERIFY(r.out.contains("(1, 0): byte 128 bank 0 -> byte 144 bank 4"));
    // 32 instructions per statement (one per column), each 32-way in A and 4-way in B.
    const int wa = ways(32, 0), wb = ways(36, 0);
    const QString counts = QString("%1-way, %2/32 wavefronts -> %3-way, %4/32 wavefronts (%5)")
                               .arg(wa)
                               .arg(32 * wa)
                               .arg(wb)
                               .arg(32 * wb)
                               .arg(32 * wb - 32 * wa);
    QVERIFY2(r.out.contains("line 20 store tile: " + counts), qPrintable(counts));
    QVERIFY(r.out.contains("line 23 ld.shared.b32: " + counts));
    // The loads' counts equal ncu's on the H200 (1024 / 128); the stores are the PTX's (ptxas
    // made 8 STS.128 of the 32 scalar stores: ncu 256 / 32), and the text says whose they are.
    QVERIFY(r.out.contains("bank conflicts on the simulator, per PTX instruction"));
    QVERIFY(r.out.contains("ptxas may merge scalar stores"));
    QVERIFY(r.out.contains("A: passed, 1/1 checks"));
    QVERIFY(r.out.contains("B: passed, 1/1 checks"));

    const Run js = runTirx(
        {"diff", data("diff/shared_a.py"), data("diff/shared_b.py"), "--json", "--max-cells", "2"});
    QCOMPARE(js.code, 1);
    const QJsonObject j = QJsonDocument::fromJson(js.out.toUtf8()).object();
    const QJsonObject t = j["shared"].toArray().at(0).toObject();
    QCOMPARE(t["buffer"].toString(), QString("tile"));
    QCOMPARE(t["moved"].toInt(), want.moved);
    QCOMPARE(t["bank_moved"].toInt(), want.bankMoved);
    QCOMPARE(t["cells"].toInt(), 1024);
    QCOMPARE(t["listed"].toArray().size(), 2);
    QCOMPARE(t["truncated"].toBool(), true);
    QCOMPARE(t["listed"].toArray().at(1).toObject()["after"].toObject()["byte"].toInt(), 148);
    QCOMPARE(t["accesses_counted"].toBool(), true);
    const QJsonObject ld = t["accesses"].toArray().at(1).toObject();
    QCOMPARE(ld["op_b"].toString(), QString("ld.shared.b32"));
    QCOMPARE(ld["a"].toObject()["max_ways"].toInt(), wa);
    QCOMPARE(ld["b"].toObject()["max_ways"].toInt(), wb);
    QCOMPARE(ld["a"].toObject()["wavefronts"].toInt(), 32 * wa);
    QCOMPARE(ld["b"].toObject()["wavefronts"].toInt(), 32 * wb);
    QCOMPARE(ld["changed"].toBool(), true);
  }

  void sharedTileWithoutVerifyHasNoBankCounts() {
    const Run r =
        runTirx({"diff", data("diff/shared_a.py"), data("diff/shared_b.py"), "--no-verify"});
    QCOMPARE(r.code, 1);
    QVERIFY(r.out.contains("bank counts not compared: A not verified; B not verified"));
    const Run same =
        runTirx({"diff", data("diff/shared_a.py"), data("diff/shared_a.py"), "--no-verify"});
    QCOMPARE(same.code, 0);
    QVERIFY(same.out.contains("stage.tile: 0 of 1024 elements moved, 0 to another bank"));
  }

  void gpuDeviceThroughTheRunner() {
    // --device cuda:0 with the fake runner (its "kernel" writes nothing, so the check fails
    // there): both sides run on it, and the shared section says the bank counts are the
    // simulator's; a runner that reports no device makes both unavailable (exit 3).
    const Run r = runTirx({"diff", data("diff/shared_a.py"), data("diff/shared_b.py"), "--device",
                           "cuda:0", "--json"},
                          180000, fakeRunnerEnv("identity"));
    QCOMPARE(r.code, 1);
    const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QVERIFY2(!j.isEmpty(), qPrintable(r.out.left(400) + r.err));
    for (const char* side : {"a", "b"}) {
      const QJsonObject res = j["results"].toObject()[side].toObject();
      QVERIFY2(res["ran"].toBool(), qPrintable(res["source"].toString()));
      QCOMPARE(res["passed"].toBool(), false);
      QVERIFY2(res["source"].toString().startsWith("verified on ") &&
                   res["source"].toString() != "verified on sim",
               qPrintable(res["source"].toString()));
    }
    const QJsonObject t = j["shared"].toArray().at(0).toObject();
    QCOMPARE(t["accesses_counted"].toBool(), false);
    QVERIFY2(t["access_note"].toString().contains(", not the simulator"),
             qPrintable(t["access_note"].toString()));
    QCOMPARE(t["moved"].toInt(), sharedPairByBruteForce().moved);  // no device needed for these

    const Run env =
        runTirx({"diff", data("diff/shared_a.py"), data("diff/shared_b.py"), "--device", "cuda:0"},
                180000, fakeRunnerEnv("env"));
    QCOMPARE(env.code, 3);
    QVERIFY2(env.out.contains("A: not verified: device cuda:0 unavailable"), qPrintable(env.out));
    QVERIFY(env.out.contains("B: not verified: device cuda:0 unavailable"));
  }

  void twoExportedBundles() {
    // Both versions exported by `tirx bundle` on the simulator, then compared as bundles: the
    // moved elements come from the scripts inside, the results are the recorded ones.
    QTemporaryDir dir;
    const QString a = dir.filePath("a.tirxb"), b = dir.filePath("b.tirxb");
    QCOMPARE(runTirx({"bundle", data("diff/shared_a.py"), "-o", a, "--device", "sim"}).code, 0);
    QCOMPARE(runTirx({"bundle", data("diff/shared_b.py"), "-o", b, "--device", "sim"}).code, 0);
    const Run r = runTirx({"diff", a, b, "--json"});
    QCOMPARE(r.code, 1);
    const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QVERIFY2(!j.isEmpty(), qPrintable(r.out.left(400) + r.err));
    QCOMPARE(j["a"].toObject()["kind"].toString(), QString("bundle"));
    QCOMPARE(j["b"].toObject()["kind"].toString(), QString("bundle"));
    QCOMPARE(j["shared"].toArray().at(0).toObject()["moved"].toInt(),
             sharedPairByBruteForce().moved);
    QVERIFY(j["shared"].toArray().at(0).toObject()["access_note"].toString().contains(
        "a bundle records no shared-memory counts"));
    const QJsonObject ra = j["results"].toObject()["a"].toObject();
    QCOMPARE(ra["passed"].toBool(), true);
    QVERIFY2(ra["source"].toString().startsWith("recorded on "),
             qPrintable(ra["source"].toString()));
    QVERIFY(j["timing"].toObject()["b"].toObject()["device"].toString().endsWith("(recorded)"));
    QCOMPARE(runTirx({"diff", a, a}).code, 0);
  }

  void twoProfileReports() {
    // Two `tirx profile` summaries: the recorded one of the hand-written fma pages and a copy in
    // which line 12 lost 3 of its 5 stall samples and the kernel got faster. Lines pair by number.
    QTemporaryDir dir;
    QFile src(data("profile/handwritten_fma/fma.profile.json"));
    QVERIFY(src.open(QIODevice::ReadOnly));
    QJsonObject j = QJsonDocument::fromJson(src.readAll()).object();
    QJsonObject k = j["kernel"].toObject();
    k["duration_ns"] = 1712.0;  // 2140 ns -> 1712 ns: -20 %
    k["total_samples"] = 14;
    j["kernel"] = k;
    QJsonArray lines = j["lines"].toArray();
    for (int i = 0; i < lines.size(); ++i) {
      QJsonObject l = lines[i].toObject();
      if (l["line"].toInt() != 12) continue;
      l["samples"] = 2;
      l["stalls"] = QJsonObject{{"long_sb", 2}};
      lines[i] = l;
    }
    j["lines"] = lines;
    const QString a = data("profile/handwritten_fma/fma.profile.json"), b = dir.filePath("b.json");
    QFile out(b);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument(j).toJson());
    out.close();
    const Run r = runTirx({"diff", a, b});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains("== profile: 1 of 4 lines changed"), qPrintable(r.out));
    QVERIFY2(r.out.contains("duration 2.14 -> 1.71 us (-20.0%)"), qPrintable(r.out));
    QVERIFY2(r.out.contains("stall samples 17 -> 14"), qPrintable(r.out));
    // line 12: 5 of 17 (29.4 %) -> 2 of 14 (14.3 %)
    QVERIFY2(r.out.contains("  12  29.4% -> 14.3% (-15.1)"), qPrintable(r.out));
    QVERIFY2(r.out.contains("(3 lines unchanged)"), qPrintable(r.out));
    const Run js = runTirx({"diff", a, b, "--json"});
    QCOMPARE(js.code, 1);
    const QJsonObject d = QJsonDocument::fromJson(js.out.toUtf8()).object();
    QCOMPARE(d["identical"].toBool(), false);
    QCOMPARE(d["a"].toObject()["total_samples"].toInt(), 17);
    const QJsonArray rows = d["lines"].toArray();
    QCOMPARE(rows.size(), 4);
    QCOMPARE(rows[2].toObject()["line"].toInt(), 12);
    QCOMPARE(rows[2].toObject()["samples"].toArray()[1].toInt(), 2);
    QCOMPARE(rows[2].toObject()["changed"].toBool(), true);
    QCOMPARE(rows[0].toObject()["changed"].toBool(), false);
    QCOMPARE(runTirx({"diff", a, a}).code, 0);
    // a profile beside a script is a usage error, not a script diff of JSON text
    const Run mixed = runTirx({"diff", a, data("diff/activation_a.py")});
    QCOMPARE(mixed.code, 2);
    QVERIFY2(mixed.err.contains("is a profile report"), qPrintable(mixed.err));
  }

  void identicalVersionsExitZero() {
    const Run r = runTirx(
        {"diff", data("diff/activation_a.py"), data("diff/activation_a.py"), "--no-verify"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("== script: identical"));
    QVERIFY(r.out.contains("0 of 256 cells changed owner"));
    QVERIFY(r.out.contains("versions are identical (timings aside)"));
  }

  void bundleAgainstItsScript() {
    const Run r = runTirx({"diff", data("bundles/activation_h200.tirxb"),
                           QStringLiteral(TIRX_SOURCE_DIR "/resources/examples/activation.py")});
    QVERIFY2(r.code == 0 || r.code == 1, qPrintable(r.err));
    QVERIFY(r.out.contains("(bundle, NVIDIA H200 (cuda:0))"));
    QVERIFY(r.out.contains("recorded on NVIDIA H200 (cuda:0)"));
    QVERIFY(r.out.contains("== ptx: identical"));
  }

  void invalidUtf8ScriptGivesValidJson() {
    // Regression: the JSON writer threw on a script's invalid UTF-8 (tirx aborted).
    QTemporaryDir dir;
    QFile bad(dir.filePath("bad.py"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("x = 1\n\xff\xfe\n");
    bad.close();
    const Run r =
        runTirx({"diff", bad.fileName(), data("diff/activation_a.py"), "--json", "--no-verify"});
    QCOMPARE(r.code, 1);
    const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QVERIFY2(!j.isEmpty(), qPrintable(r.out.left(300)));
    QCOMPARE(j["a"].toObject()["errors"].toArray().at(0).toObject()["code"].toString(),
             QString("E0007"));
    QCOMPARE(j["a"].toObject()["errors"].toArray().at(0).toObject()["line"].toInt(), 2);
  }

  void usageAndInputErrors() {
    QCOMPARE(runTirx({"diff", data("diff/activation_a.py")}).code, 2);
    QCOMPARE(runTirx({"diff", data("diff/activation_a.py"), data("diff/activation_b.py"),
                      "--device", "gpu"})
                 .code,
             2);
    QCOMPARE(runTirx({"diff", data("diff/activation_a.py"), data("diff/activation_b.py"),
                      "--max-cells", "-1"})
                 .code,
             2);
    const Run missing = runTirx({"diff", data("diff/activation_a.py"), "/nonexistent/b.py"});
    QCOMPARE(missing.code, 2);
    QVERIFY(missing.err.contains("cannot read '/nonexistent/b.py'"));
    QTemporaryDir dir;
    QFile bad(dir.filePath("bad.tirxb"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("{\"tirx\": 1, truncated");
    bad.close();
    const Run malformed = runTirx({"diff", bad.fileName(), data("diff/activation_a.py")});
    QCOMPARE(malformed.code, 2);
    QVERIFY(malformed.err.contains("bad.tirxb"));
  }
};

QTEST_GUILESS_MAIN(TstCliDiff)
#include "tst_cli_diff.moc"
