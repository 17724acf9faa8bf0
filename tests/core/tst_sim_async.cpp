// The asynchronous protocol in the simulator (spec TC §2.5, §3.4, §8.7, §12), data-driven: every
// script in tests/data/sim_async and tests/data/sim_wgmma (the wgmma rules of §8.3) is checked by
// the front end (it must be clean), run on the simulator with zero-filled tensors, and its faults
// must be exactly the annotated ones:
//   # expected-fault@+N CODE {{substring}}...   (line relative to the comment; W codes are
//   warnings) # expected-no-faults
// Each script must finish within a second: the faults that would hang a GPU (a wait that never
// completes) are diagnosed at once, not by the work budget.
#include <QDir>
#include <QtTest>
#include <chrono>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/sema/sema.h"
#include "core/sim/simulator.h"

using namespace tirx;

namespace {

struct Expected {
  int line = 0;
  std::string code;
  std::vector<std::string> parts;
};

std::vector<Expected> annotations(const std::string& text, bool& none) {
  std::vector<Expected> out;
  std::istringstream in(text);
  std::string l;
  const std::regex re(R"(#\s*expected-fault(@([+-]?)(\d+))?\s+([EW]\d{4})(.*))");
  const std::regex part(R"(\{\{(.*?)\}\})");
  for (int n = 1; std::getline(in, l); ++n) {
    if (l.find("expected-no-faults") != std::string::npos) none = true;
    std::smatch m;
    if (!std::regex_search(l, m, re)) continue;
    Expected e;
    e.line = n;
    if (m[1].matched) {
      const int v = std::stoi(m[3].str());
      e.line = m[2].str() == "+" ? n + v : m[2].str() == "-" ? n - v : v;
    }
    e.code = m[4].str();
    const std::string rest = m[5].str();
    for (std::sregex_iterator it(rest.begin(), rest.end(), part), end; it != end; ++it)
      e.parts.push_back((*it)[1].str());
    out.push_back(e);
  }
  return out;
}

std::vector<ir::KernelArg> zeroArgs(const ir::Kernel& k) {
  std::vector<ir::KernelArg> args;
  for (const auto& p : k.params) {
    ir::KernelArg a;
    if (!p.isTensor) {
      a.isTensor = false;
      args.push_back(a);
      continue;
    }
    const auto& b = k.buffers[size_t(p.buffer)];
    a.tensor.dtype = b.dtype;
    a.tensor.shape = b.shape;
    a.tensor.data.assign(size_t(a.tensor.numel() * ir::dtypeBytes(b.dtype)), 1);
    args.push_back(a);
  }
  return args;
}

}  // namespace

class TestSimAsync : public QObject {
  Q_OBJECT
 private slots:
  void scripts_data() {
    QTest::addColumn<QString>("file");
    for (const char* dir : {"sim_async", "sim_wgmma", "sim_barrier"}) {
      const QStringList files = QDir(QStringLiteral(TIRX_SOURCE_DIR "/tests/data/") + dir)
                                    .entryList({"*.py"}, QDir::Files, QDir::Name);
      QVERIFY(files.size() >= 4);
      for (const QString& f : files) QTest::newRow(qPrintable(f)) << QString(dir) + "/" + f;
    }
  }

  void scripts() {
    QFETCH(QString, file);
    std::ifstream in(std::string(TIRX_SOURCE_DIR) + "/tests/data/" + file.toStdString());
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    FrontEndResult fe = checkScript(text, file.toStdString());
    QVERIFY2(fe.ok(), formatGcc(fe.diagnostics, file.toStdString()).c_str());
    bool none = false;
    auto expected = annotations(text, none);
    QVERIFY2(none != !expected.empty(), "annotate faults or expected-no-faults");
    const auto& k = fe.program.kernels.at(0);
    auto args = zeroArgs(k);
    sim::Simulator s;
    const auto t0 = std::chrono::steady_clock::now();
    auto res = s.run(fe.program, k.name, args);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    QVERIFY(res.ok());
    QVERIFY2(secs < 1.0, qPrintable(QString("took %1 s").arg(secs)));
    std::string got;
    for (const auto& f : res->faults)
      got += std::to_string(f.diag.span.line) + ": " + f.diag.code + " " + f.diag.message + "\n";
    QVERIFY2(res->faults.size() == expected.size(), got.c_str());
    for (const Expected& e : expected) {
      bool found = false;
      for (const auto& f : res->faults) {
        if (f.diag.span.line != e.line || f.diag.code != e.code) continue;
        if ((e.code[0] == 'W') != (f.diag.severity == Severity::Warning)) continue;
        bool all = true;
        for (const auto& p : e.parts) all = all && f.diag.message.find(p) != std::string::npos;
        found = found || all;
      }
      QVERIFY2(found, (std::to_string(e.line) + ": " + e.code + " not among\n" + got).c_str());
    }
  }
};

QTEST_APPLESS_MAIN(TestSimAsync)
#include "tst_sim_async.moc"
