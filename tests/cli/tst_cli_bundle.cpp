// Kernel bundles end to end: `tirx bundle` on the simulator and (through the fake runner) on a
// "GPU", `tirx replay` of each on either device, a tampered recording that must differ, and every
// kind of damaged file — garbage, truncated, not a bundle, a newer version, members of the wrong
// type or size, bad base64 — refused with its message and exit 2.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>

#include "core/verify/bundle.h"
#include "tirx_process.h"

namespace {

QString src(const QString& rel) {
  return QStringLiteral(TIRX_SOURCE_DIR "/") + rel;
}

QByteArray readBytes(const QString& p) {
  QFile f(p);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeBytes(const QString& p, const QByteArray& b) {
  QFile f(p);
  QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
  f.write(b);
}

}  // namespace

class TestCliBundle : public QObject {
  Q_OBJECT

  QTemporaryDir m_dir;
  QString m_simBundle;

 private slots:
  void initTestCase() {
    m_simBundle = m_dir.filePath("activation.tirxb");
    const Run r = runTirx({"bundle", src("resources/examples/activation.py"), "-o", m_simBundle});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.startsWith("wrote " + m_simBundle +
                              ": 1 launch on simulator, 1/1 checks passed, 0 faults"),
             qPrintable(r.out));
    QVERIFY(!QFile::exists(m_simBundle + ".partial"));
  }

  void bundleHoldsEverything() {
    const QJsonObject b = QJsonDocument::fromJson(readBytes(m_simBundle)).object();
    QCOMPARE(b["format"].toString(), QString("tirx-bundle"));
    QCOMPARE(b["version"].toInt(), 2);
    QCOMPARE(b["tirx"].toString(), QString("0.1.0"));
    QCOMPARE(b["script"].toObject()["file"].toString(), QString("activation.py"));
    QCOMPARE(b["script"].toObject()["text"].toString().toUtf8(),
             readBytes(src("resources/examples/activation.py")));
    QVERIFY(b["toolkit"].toString().startsWith("NVRTC"));
    const QJsonObject check = b["verify"].toObject()["checks"].toArray()[0].toObject();
    QCOMPARE(check["kernel"].toString(), QString("activation"));
    QCOMPARE(QByteArray::fromBase64(check["reference"].toString().toLatin1()).size(), 256 * 8);
    const QJsonObject launch = b["launches"].toArray()[0].toObject();
    QCOMPARE(launch["kernel"].toString(), QString("activation"));
    QCOMPARE(launch["device"].toString(), QString("simulator"));
    const QJsonArray args = launch["args"].toArray();
    QCOMPARE(args.size(), 2);
    QVERIFY(!args[0].toObject().contains("output"));  // the input A is only read
    QCOMPARE(QByteArray::fromBase64(
                 args[1].toObject()["output"].toObject()["data"].toString().toLatin1())
                 .size(),
             1024);
    const QJsonObject p = b["products"].toObject();
    QVERIFY2(p["error"].toString().isEmpty(), qPrintable(p["error"].toString()));
    QVERIFY(p["cuda"].toString().contains("#line"));
    QVERIFY(p["ptx"].toString().contains(".entry activation"));
    // the resources as values (version 2), snake_case as every other member
    const QJsonObject res = p["resources"].toArray()[0].toObject();
    QCOMPARE(res["kernel"].toString(), QString("activation"));
    QVERIFY(res["registers"].toInt() > 0);
    QCOMPARE(res["spill_stores"].toInt(), 0);
    QVERIFY(p.contains("sass_status") && launch.contains("compile_ms") &&
            launch.contains("run_ms"));
    QVERIFY(b["verify"].toObject().contains("total_ms") && check.contains("max_abs"));
  }

  void bundleCarriesAnAttachedProfile() {
    // `--profile REPORT.json` stores the tirx profile summary; replay and parsing keep it.
    QTemporaryDir dir;
    const QString path = dir.filePath("fma.tirxb");
    const QString report = src("tests/data/profile/handwritten_fma/fma.profile.json");
    const Run r = runTirx({"bundle", src("tests/data/sass/fma.py"), "-o", path, "--device", "sim",
                           "--profile", report});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    const QJsonObject j = QJsonDocument::fromJson(bytes).object();
    QCOMPARE(j["profile"].toObject()["kernel"].toObject()["name"].toString(),
             QString("fma_affine"));
    QCOMPARE(j["profile"].toObject()["lines"].toArray().size(), 4);
    auto parsed = tirx::verify::parseBundle(bytes.toStdString());
    QVERIFY(parsed);
    QVERIFY(parsed->profile);
    QCOMPARE(parsed->profile->kernel.totalSamples, int64_t(17));
    QCOMPARE(runTirx({"replay", path}).code, 0);
    // not a profile: refused before anything runs
    const Run bad = runTirx({"bundle", src("tests/data/sass/fma.py"), "-o", path, "--profile",
                             src("tests/data/sass/fma.py")});
    QCOMPARE(bad.code, 2);
    QVERIFY2(bad.err.contains("is not a tirx profile report"), qPrintable(bad.err));
  }

  void replayMatchesOnTheSimulator() {
    const Run r = runTirx({"replay", m_simBundle});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY2(
        r.out.contains("activation on simulator: matches the recording\n  Out: 0/256 elements "
                       "differ, max abs 0 "
                       "(rtol 2e-05, atol 2e-05)\nreplay matches: 1 launch recorded on simulator"),
        qPrintable(r.out));
    const Run j = runTirx({"replay", m_simBundle, "--json"});
    QCOMPARE(j.code, 0);
    QCOMPARE(QJsonDocument::fromJson(j.out.toUtf8()).object()["match"].toBool(), true);
  }

  // One recorded element changed by 0.01 (over the check's 2e-5): the replay must say so.
  void tamperedRecordingDiffers() {
    QJsonObject b = QJsonDocument::fromJson(readBytes(m_simBundle)).object();
    QJsonArray launches = b["launches"].toArray();
    QJsonObject launch = launches[0].toObject();
    QJsonArray args = launch["args"].toArray();
    QJsonObject arg = args[1].toObject();
    QJsonObject output = arg["output"].toObject();
    QByteArray data = QByteArray::fromBase64(output["data"].toString().toLatin1());
    float v;
    std::memcpy(&v, data.data() + 4 * 5, 4);
    v += 0.01f;
    std::memcpy(data.data() + 4 * 5, &v, 4);
    output["data"] = QString::fromLatin1(data.toBase64());
    arg["output"] = output;
    args[1] = arg;
    launch["args"] = args;
    launches[0] = launch;
    b["launches"] = launches;
    const QString path = m_dir.filePath("tampered.tirxb");
    writeBytes(path, QJsonDocument(b).toJson());
    const Run r = runTirx({"replay", path});
    QCOMPARE(r.code, 1);
    QVERIFY2(
        r.out.contains(
            "activation on simulator: DIFFERS from the recording\n  Out: 1/256 elements differ") &&
            r.out.contains("first at element 5: got ") &&
            r.out.contains("replay DIFFERS: 1 launch"),
        qPrintable(r.out));
  }

  // Recorded on a "GPU" (the fake runner that zeroes the first half, as partial_zeros' kernel does)
  // and replayed there and on the simulator: both reproduce it.
  void gpuBundleReplaysOnBothDevices() {
    const QString path = m_dir.filePath("gpu.tirxb");
    const Run r =
        runTirx({"bundle", src("tests/data/gpu/partial_zeros.py"), "-o", path, "--device", "cuda"},
                180000, fakeRunnerEnv("half"));
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains("1 launch on Fake GPU (cuda:0), 1/1 checks passed"), qPrintable(r.out));
    const QJsonObject b = QJsonDocument::fromJson(readBytes(path)).object();
    QCOMPARE(b["device"].toObject()["requested"].toString(), QString("cuda:0"));
    Run p = runTirx({"replay", path, "--device", "cuda"}, 180000, fakeRunnerEnv("half"));
    QVERIFY2(p.code == 0 &&
                 p.out.contains("zero_first_half on Fake GPU (cuda:0): matches the recording"),
             qPrintable(p.out + p.err));
    p = runTirx({"replay", path});
    QVERIFY2(p.code == 0 && p.out.contains("zero_first_half on simulator: matches the recording"),
             qPrintable(p.out));
    // A "GPU" that computes nothing does not reproduce it.
    p = runTirx({"replay", path, "--device", "cuda"}, 180000, fakeRunnerEnv("identity"));
    QCOMPARE(p.code, 1);
    QVERIFY2(p.out.contains("B: 32/64 elements differ"), qPrintable(p.out));
  }

  // Issue 23: a version 1 bundle (the H200's, camelCase members, resources as text lines) opens
  // into engine values — its resource lines are values, its launches a Report's runs, its SASS
  // linked to the script — through the door the studio uses too.
  void version1BundleOpensAsValues() {
    const auto o =
        tirx::verify::openBundle(src("tests/data/bundles/activation_h200.tirxb").toStdString());
    QVERIFY2(o.ok(), o.ok() ? "" : o.error().message.c_str());
    QCOMPARE(o->bundle.version, 1);
    QCOMPARE(o->bundle.products.unreadableResources, 0);
    QCOMPARE(o->products.resources.size(), size_t(1));
    const tirx::toolchain::KernelResources& k = o->products.resources[0];
    QCOMPARE(k.kernel, std::string("activation"));
    QCOMPARE(k.registers, 24);
    QCOMPARE(k.spillLoads, 0);
    QCOMPARE(k.barriers, -1);  // the line predates the field: unknown
    QCOMPARE(o->report.runs.size(), size_t(1));
    QCOMPARE(o->report.runs[0].device, std::string("NVIDIA H200 (cuda:0)"));
    QVERIFY(o->report.runs[0].runMs > 0);  // read from "runMs"
    QVERIFY(o->report.passed());
    const auto& sass = o->products.map.sassToScript;
    QVERIFY(std::any_of(sass.begin(), sass.end(), [](int l) { return l > 0; }));
    // a missing file is an "open" Status, a broken one the reader's
    const auto missing = tirx::verify::openBundle(m_dir.filePath("none.tirxb").toStdString());
    QVERIFY(!missing.ok() && missing.error().api == "open");
  }

  // A bundle made on the H200 (tests/data/bundles/README.md) replays on this machine's simulator.
  void h200BundleReplaysHere() {
    const Run r = runTirx({"replay", src("tests/data/bundles/activation_h200.tirxb")});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(
                 "activation on simulator: matches the recording\n  Out: 0/256 elements differ") &&
                 r.out.contains("replay matches: 1 launch recorded on NVIDIA H200 (cuda:0)"),
             qPrintable(r.out));
  }

  void damagedBundlesAreRefused_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    const QByteArray good = readBytes(m_simBundle);
    QTest::newRow("empty") << QByteArray() << "the file is empty";
    QTest::newRow("garbage") << QByteArray("\x01\x02 not json {{")
                             << "the file is not JSON (truncated or garbage)";
    QTest::newRow("truncated") << good.left(good.size() / 2)
                               << "the file is not JSON (truncated or garbage)";
    QTest::newRow("not a bundle")
        << QByteArray(R"({"format": "zip", "version": 1})")
        << "the file is not a tirx bundle (no \"format\": \"tirx-bundle\")";
    QByteArray newer = good;
    newer.replace("\"version\": 2", "\"version\": 3");
    QTest::newRow("newer")
        << newer
        << "the bundle has version 3, newer than the version 2 this tirx reads (update tirx)";
    QByteArray zero = good;
    zero.replace("\"version\": 2", "\"version\": 0");
    QTest::newRow("version 0")
        << zero << "malformed bundle: bundle.version must be an integer in [1, 1048576]";
    QByteArray launches = good;
    launches.replace("\"launches\": [", "\"launches\": \"many\", \"x\": [");
    QTest::newRow("wrong type") << launches << "malformed bundle: bundle.launches must be an array";
    QByteArray dtype = good;
    dtype.replace("\"dtype\": \"float32\"", "\"dtype\": \"float99\"");
    QTest::newRow("dtype")
        << dtype << "malformed bundle: launches[0].args[0].input.dtype: unknown dtype 'float99'";
    QJsonObject doc = QJsonDocument::fromJson(good).object();
    QJsonArray ls = doc["launches"].toArray();
    QJsonObject l0 = ls[0].toObject();
    QJsonArray as = l0["args"].toArray();
    QJsonObject a0 = as[0].toObject();
    QJsonObject in = a0["input"].toObject();
    in["shape"] = QJsonArray{3, 32, 4};
    a0["input"] = in;
    as[0] = a0;
    l0["args"] = as;
    ls[0] = l0;
    doc["launches"] = ls;
    const QByteArray shape = QJsonDocument(doc).toJson();
    QTest::newRow("size")
        << shape
        << "malformed bundle: launches[0].args[0].input.data holds 1024 bytes, expected 1536";
    QByteArray b64 = good;
    b64.replace("\"data\": \"", "\"data\": \"*");
    QTest::newRow("base64") << b64
                            << "malformed bundle: launches[0].args[0].input.data is not base64";
    QByteArray noScript = good;
    noScript.replace("\"script\":", "\"scrip\":");
    QTest::newRow("no script") << noScript << "malformed bundle: bundle has no 'script'";
    QByteArray registers = good;
    registers.replace("\"registers\": ", "\"registers\": \"many\", \"x\": ");
    QTest::newRow("resources") << registers
                               << "malformed bundle: products.resources[0].registers must be an "
                                  "integer in [-1, 1073741824]";
    // version 1 (camelCase members) is read under its own names, and named so in messages
    QByteArray v1 = readBytes(src("tests/data/bundles/activation_h200.tirxb"));
    v1.replace("\"compileMs\":", "\"compile\":");
    QTest::newRow("version 1 member") << v1 << "malformed bundle: launches[0] has no 'compileMs'";
  }
  void damagedBundlesAreRefused() {
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    const QString path = m_dir.filePath("bad.tirxb");
    writeBytes(path, text);
    const Run r = runTirx({"replay", path});
    QVERIFY2(r.code == 2, qPrintable(QString::number(r.code) + r.out + r.err));
    QVERIFY2(r.err.contains("tirx replay: cannot replay '" + path + "': " + message),
             qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
  }

  void usage() {
    Run r = runTirx({"bundle", src("resources/examples/activation.py")});
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains("expected one FILE and -o OUT"));
    r = runTirx({"replay", m_dir.path()});
    QCOMPARE(r.code, 2);
    r = runTirx({"replay", m_simBundle, "--device", "gpu"});
    QCOMPARE(r.code, 2);
    r = runTirx(
        {"bundle", src("resources/examples/activation.py"), "-o", "/nonexistent/dir/x.tirxb"});
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains("cannot write '/nonexistent/dir/x.tirxb'"));
  }
};

QTEST_APPLESS_MAIN(TestCliBundle)
#include "tst_cli_bundle.moc"
