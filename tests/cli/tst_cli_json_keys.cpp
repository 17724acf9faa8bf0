// One JSON key style (issue 23, decision FRONT-3): every command that prints `--json` is run on
// inputs that fill its optional parts (diagnostics with notes, faults, worst elements with their
// owner, shared-memory counts, a timeline, swizzle images, replayed outputs, diff sections), and
// every key of every object in the document must be snake_case. Keys that are data — a script's
// scalar names in `debug`'s stop, the axes of a layout's offset — are the only exceptions. The
// bundle file is walked the same way.
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <functional>
#include <nlohmann/json.hpp>

#include "tirx_process.h"

namespace {

QString src(const QString& rel) {
  return QStringLiteral(TIRX_SOURCE_DIR "/") + rel;
}

/// Objects whose keys are data, by their path in the document.
const QStringList kDataKeyed = {"/stop/scalars", "/offset"};

/// Every key of `j` that is not snake_case, with its path.
void badKeys(const nlohmann::json& j, const QString& path, QStringList& bad) {
  static const QRegularExpression snake("^[a-z][a-z0-9]*(_[a-z0-9]+)*$");
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      const QString key = QString::fromStdString(it.key());
      if (!kDataKeyed.contains(path) && !snake.match(key).hasMatch()) bad << path + "/" + key;
      badKeys(it.value(), path + "/" + key, bad);
    }
  } else if (j.is_array()) {
    for (const auto& e : j) badKeys(e, path, bad);
  }
}

/// How many objects the document holds: a walk over an empty document proves nothing.
int objects(const nlohmann::json& j) {
  int n = j.is_object() ? 1 : 0;
  if (j.is_structured())
    for (const auto& e : j) n += objects(e);
  return n;
}

}  // namespace

class TestCliJsonKeys : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;

 private slots:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    // a failing check: its worst elements carry their owner
    QFile in(src("tests/data/kernels/affine_relu.py"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QByteArray wrong = in.readAll();
    QVERIFY(wrong.contains("T.float32(2), T.float32(1)"));
    wrong.replace("T.float32(2), T.float32(1)", "T.float32(2), T.float32(3)");
    QFile out(m_dir.filePath("wrong_bias.py"));
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(wrong);
    out.close();
    const Run b = runTirx({"bundle", src("resources/examples/activation.py"), "-o",
                           m_dir.filePath("activation.tirxb")});
    QVERIFY2(b.code == 0, qPrintable(b.out + b.err));
  }

  void everyKeyIsSnakeCase_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QList<int>>("codes");  // the exit codes this input gives
    QTest::addColumn<QString>("mustHave");  // a key path the document must hold
    const QString bundle = m_dir.filePath("activation.tirxb");
    QTest::newRow("check") << QStringList{"check",
                                          src("tests/data/diagnostics/call_too_many_args.py"),
                                          "--json"}
                           << QList<int>{1} << "/diagnostics/notes";
    QTest::newRow("run shared") << QStringList{"run", src("tests/data/kernels/two_kernels.py"),
                                               "--kernel", "shared_affine", "--json"}
                                << QList<int>{0} << "/runs/shared_memory/per_op/ideal_wavefronts";
    QTest::newRow("verify worst") << QStringList{"verify", m_dir.filePath("wrong_bias.py"),
                                                 "--json"}
                                  << QList<int>{1} << "/checks/worst/owner/register_line";
    QTest::newRow("verify timeline")
        << QStringList{"verify", src("resources/examples/tma_copy_128b.py"), "--timeline", "--json"}
        << QList<int>{0} << "/runs/timeline/images/elem_bytes";
    QTest::newRow("debug") << QStringList{"debug",
                                          src("resources/examples/gemm_ldmatrix_swizzled.py"),
                                          "--break",
                                          "52",
                                          "--print",
                                          "acc",
                                          "--json"}
                           << QList<int>{0} << "/first_recorded";
    QTest::newRow("layout") << QStringList{"layout", "S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]",
                                           "--json"}
                            << QList<int>{0} << "/registers_per_thread";
    QTest::newRow("layout swizzle")
        << QStringList{"layout", "ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))", "--json"}
        << QList<int>{0} << "/ldmatrix_phases/wavefronts";
    QTest::newRow("replay") << QStringList{"replay", bundle, "--json"} << QList<int>{0}
                            << "/launches/outputs/max_abs";
    QTest::newRow("diff") << QStringList{"diff", src("tests/data/diff/shared_a.py"),
                                         src("tests/data/diff/shared_b.py"), "--json"}
                          << QList<int>{1} << "/shared/accesses/a/ideal_wavefronts";
    QTest::newRow("ptx-conform") << QStringList{"ptx-conform", "--filter", "ex2.approx", "--json"}
                                 << QList<int>{0} << "/counts/within_bound";
    // compile timings need NVRTC; without a GPU the document has no gpu entries
    QTest::newRow("bench") << QStringList{"bench", src("resources/examples/activation.py"),
                                          "--repeat", "1", "--json"}
                           << QList<int>{0} << "/compile/front_end_ms";
  }

  void everyKeyIsSnakeCase() {
    QFETCH(QStringList, args);
    QFETCH(QList<int>, codes);
    QFETCH(QString, mustHave);
    const Run r = runTirx(args);
    if (args[0] == "bench" && r.code != 0 && r.err.contains("NVRTC"))
      QSKIP("NVRTC is not available");
    QVERIFY2(codes.contains(r.code),
             qPrintable(QString::number(r.code) + "\n" + r.out.left(2000) + r.err.left(2000)));
    const nlohmann::json j = nlohmann::json::parse(r.out.toStdString(), nullptr, false);
    QVERIFY2(!j.is_discarded() && j.is_object(), qPrintable(r.out.left(2000)));
    QStringList bad;
    badKeys(j, "", bad);
    bad.removeDuplicates();
    QVERIFY2(bad.isEmpty(), qPrintable("not snake_case: " + bad.join(", ")));
    // the walk saw the optional part this input is for
    QStringList paths;
    std::function<void(const nlohmann::json&, const QString&)> walk = [&](const nlohmann::json& v,
                                                                          const QString& p) {
      if (v.is_object())
        for (auto it = v.begin(); it != v.end(); ++it) {
          paths << p + "/" + QString::fromStdString(it.key());
          walk(it.value(), p + "/" + QString::fromStdString(it.key()));
        }
      else if (v.is_array())
        for (const auto& e : v) walk(e, p);
    };
    walk(j, "");
    QVERIFY2(paths.contains(mustHave), qPrintable(mustHave + " missing from " + r.out.left(2000)));
    QVERIFY(objects(j) > 1);
  }

  // The walker itself: a camelCase key anywhere, and a kebab-case one, are found.
  void walkerFindsCamelCase() {
    const auto j = nlohmann::json::parse(
        R"({"ok_key": [{"runMs": 1}], "stop": {"scalars": {"numBlocks": 1}}, "counts": {"within-bound": 2}})");
    QStringList bad;
    badKeys(j, "", bad);
    QCOMPARE(bad, (QStringList{"/counts/within-bound", "/ok_key/runMs"}));
  }

  void bundleFileIsSnakeCase() {
    QFile f(m_dir.filePath("activation.tirxb"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const nlohmann::json j = nlohmann::json::parse(f.readAll().toStdString(), nullptr, false);
    QVERIFY(j.is_object());
    QStringList bad;
    badKeys(j, "", bad);
    QVERIFY2(bad.isEmpty(), qPrintable("not snake_case: " + bad.join(", ")));
    QVERIFY(j["products"]["resources"][0].contains("spill_stores"));
  }
};

QTEST_APPLESS_MAIN(TestCliJsonKeys)
#include "tst_cli_json_keys.moc"
