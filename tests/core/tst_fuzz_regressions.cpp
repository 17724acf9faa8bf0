// Replays the inputs that fuzzing found (tests/data/fuzz/TARGET/*, see its README.md) through the
// same target bodies the libFuzzer executables run (tests/fuzz/fuzz_targets.h), in the normal
// build, so that CI catches a regression without clang or sanitizers: a crash, an uncaught
// exception or a broken invariant (the targets abort) fails this test, and a hang runs into the
// CTest timeout. The targets also run over the bundled examples and the acceptance scripts, so
// that the target code itself is exercised on inputs that get all the way through the engine.
#include <QtTest>
#include <fstream>
#include <sstream>

#include "../shared_corpus.h"
#include "tests/fuzz/fuzz_targets.h"

using namespace tirx;

namespace {

std::string readFile(const QString& path) {
  std::ifstream f(path.toStdString(), std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

int runTarget(const QString& target, std::string_view input) {
  if (target == "check") return fuzz::fuzzCheck(input);
  if (target == "codegen") return fuzz::fuzzCodegen(input);
  if (target == "sim") return fuzz::fuzzSim(input);
  if (target == "verify") return fuzz::fuzzVerify(input);
  qFatal("unknown fuzz target %s", qPrintable(target));
}

const char* const kTargets[] = {"check", "codegen", "sim", "verify"};

}  // namespace

class TstFuzzRegressions : public QObject {
  Q_OBJECT
 private slots:
  void regressions_data() {
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("path");
    int rows = 0;
    for (const char* t : kTargets) {
      const QDir dir(QStringLiteral(TIRX_SOURCE_DIR "/tests/data/fuzz/") + t);
      for (const QString& f : dir.entryList(QDir::Files, QDir::Name)) {
        QTest::newRow(qPrintable(QString(t) + "/" + f)) << QString(t) << dir.filePath(f);
        ++rows;
      }
    }
    if (rows == 0) QTest::newRow("none") << QString() << QString();
  }

  // Every input found by fuzzing goes through its target (and the later targets: an input that
  // crashed the checker must not crash codegen, the simulator or the harness once it is fixed).
  void regressions() {
    QFETCH(QString, target);
    QFETCH(QString, path);
    if (path.isEmpty()) QSKIP("tests/data/fuzz/ holds no regression input");
    const std::string input = readFile(path);
    QVERIFY2(!input.empty(), qPrintable(path + " is empty or unreadable"));
    bool later = false;
    for (const char* t : kTargets) {
      later = later || target == t;
      if (later) runTarget(t, input);
    }
  }

  void seeds_data() {
    QTest::addColumn<QString>("path");
    const QDir examples(QStringLiteral(TIRX_SOURCE_DIR "/resources/examples"));
    for (const QString& f : examples.entryList({"*.py"}, QDir::Files, QDir::Name))
      QTest::newRow(qPrintable("examples/" + f)) << examples.filePath(f);
    const QDir kernels(QStringLiteral(TIRX_SOURCE_DIR "/tests/data/kernels"));
    for (const QString& f : kernels.entryList({"*.py"}, QDir::Files, QDir::Name))
      QTest::newRow(qPrintable("kernels/" + f)) << kernels.filePath(f);
    // The acceptance corpus beside the checkout, when it is there (acceptanceCorpus says if not).
    const QDir acceptance(sharedCorpus("acceptance"));
    for (const QString& f : acceptance.entryList({"*.py"}, QDir::Files, QDir::Name))
      QTest::newRow(qPrintable("acceptance/" + f)) << acceptance.filePath(f);
  }

  void acceptanceCorpus() {
    TIRX_NEED_SHARED("acceptance");
    QVERIFY(!QDir(sharedCorpus("acceptance")).entryList({"*.py"}, QDir::Files).isEmpty());
  }

  // The seeds (all but max3.py, which needs sm_100, check clean for sm_90) go through to the
  // simulator and the harness: the targets' own invariants (spans, source map, two identical
  // simulator runs) hold on them.
  void seeds() {
    QFETCH(QString, path);
    const std::string input = readFile(path);
    QVERIFY(!input.empty());
    for (const char* t : kTargets) QCOMPARE(runTarget(t, input), 0);
  }
};

QTEST_APPLESS_MAIN(TstFuzzRegressions)
#include "tst_fuzz_regressions.moc"
