// Robustness of the whole front end: the deterministic mutants of the four test kernels
// (tests/core/mutations.h, the same generator as tst_parser_fuzz) go through checkScript (parse +
// sema). Each run must finish within a time bound, and every diagnostic (and note) must carry a
// well-formed code and message and a span inside the source whose line/column match its offset.
#include <QtTest>
#include <fstream>
#include <sstream>

#include "core/sema/sema.h"
#include "tests/core/ast_checks.h"
#include "tests/core/mutations.h"

using namespace tirx;

namespace {

std::string readKernel(const char* name) {
  std::ifstream f(std::string(TIRX_SOURCE_DIR) + "/tests/data/kernels/" + name, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

const char* const kKernels[] = {"affine_relu.py", "silu.py", "to_float16.py", "two_kernels.py"};

// Generous: the budget is 2 ms per script, but the test machine may be heavily shared; this
// bound only catches hangs and blow-ups.
constexpr qint64 kMaxMsPerRun = 1000;

// Lower-case start and no trailing period. A message may start with a code word such as
// `T.Tensor` or `S`, and may end in an ellipsis ("needs .f32, .f64, ...").
bool wellFormedMessage(const std::string& m) {
  if (m.empty()) return false;
  if (m.back() == '.' && !(m.size() >= 3 && m.compare(m.size() - 3, 3, "...") == 0)) return false;
  const std::string first = m.substr(0, m.find(' '));
  if (first.size() > 1 && first[0] >= 'A' && first[0] <= 'Z') {
    bool ordinaryWord = true;
    for (size_t i = 1; i < first.size(); ++i)
      if (!(first[i] >= 'a' && first[i] <= 'z')) ordinaryWord = false;
    if (ordinaryWord) return false;  // "Expected ..." rather than "expected ..."
  }
  return true;
}

std::string checkDiagnostics(const testing::SpanChecker& spans, const Diagnostics& ds) {
  for (const Diagnostic& d : ds) {
    if (d.code.size() != 5 || (d.code[0] != 'E' && d.code[0] != 'W'))
      return "malformed code '" + d.code + "' (" + d.message + ")";
    if (!wellFormedMessage(d.message)) return "badly formed message [" + d.code + "]: " + d.message;
    // A diagnostic may have no location; when it has one, it must be right.
    if (d.span.valid()) {
      std::string err = spans.check(d.span, "diagnostic");
      if (!err.empty()) return err + " [" + d.code + " " + d.message + "]";
    }
    for (const DiagNote& n : d.notes) {
      if (!n.span.valid()) continue;
      std::string err = spans.check(n.span, "note");
      if (!err.empty()) return err + " [" + d.code + " note: " + n.message + "]";
    }
  }
  return {};
}

}  // namespace

class TstCheckFuzz : public QObject {
  Q_OBJECT
 private slots:
  void acceptanceScriptsCheckClean() {
    for (const char* name : kKernels) {
      FrontEndResult r = checkScript(readKernel(name), name);
      QVERIFY2(r.ok(), formatGcc(r.diagnostics, name).c_str());
    }
  }

  void mutantsThroughTheFrontEnd() {
    int failures = 0, rejected = 0;
    qint64 worst = 0;
    for (size_t file = 0; file < 4; ++file) {
      const std::string src = readKernel(kKernels[file]);
      QVERIFY(!src.empty());
      for (uint64_t i = 0; i < 750; ++i) {
        const uint64_t seed = file * 100000 + i;
        const std::string mutant = testing::mutate(src, seed);
        QElapsedTimer timer;
        timer.start();
        FrontEndResult r = checkScript(mutant, "fuzz.py");
        const qint64 ms = timer.elapsed();
        worst = std::max(worst, ms);
        std::string err;
        if (ms > kMaxMsPerRun) err = "took " + std::to_string(ms) + " ms";
        if (err.empty()) err = checkDiagnostics(testing::SpanChecker(mutant), r.diagnostics);
        if (!r.ok()) ++rejected;
        if (!err.empty() && ++failures <= 5)
          qWarning("seed %llu of %s: %s", static_cast<unsigned long long>(seed), kKernels[file],
                   err.c_str());
      }
    }
    qInfo("3000 mutants: %d rejected, slowest %lld ms", rejected, static_cast<long long>(worst));
    QCOMPARE(failures, 0);
    QVERIFY(rejected > 1500);
  }
};

QTEST_APPLESS_MAIN(TstCheckFuzz)
#include "tst_check_fuzz.moc"
