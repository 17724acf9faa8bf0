// One analysis of a script per verify: the front end's result, when the caller has it (the studio's
// diagnostics lane, `tirx diff`'s compile), is handed to the compile and the verify
// (CompileOptions::analysed, VerifyOptions::analysed) and they do not run the front end again.
// Shown here by handing them the analysis of activation.py together with text the front end
// would refuse: they compile and verify the analysed program, and report nothing about the text.
#include <QtTest>
#include <fstream>
#include <sstream>

#include "core/driver/compile.h"
#include "core/sema/sema.h"
#include "core/verify/verify.h"

using namespace tirx;

namespace {

std::string readExample(const std::string& name) {
  std::ifstream in(std::string(TIRX_SOURCE_DIR "/resources/examples/") + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const char* kNotAScript = "def broken(:\n";

}  // namespace

class TestOneAnalysis : public QObject {
  Q_OBJECT
 private slots:
  void verifyUsesTheGivenAnalysis() {
    const std::string text = readExample("activation.py");
    const FrontEndResult fe = checkScript(text, "activation.py");
    QVERIFY(fe.ok());
    verify::VerifyOptions o;
    o.fileName = "activation.py";
    o.device = driver::DeviceSpec::simulator();
    // without an analysis, the text is what the front end sees
    const verify::Report refused = verify::verifyScript(kNotAScript, o);
    QVERIFY(!refused.errors.empty());
    o.analysed = &fe;
    const verify::Report rep = verify::verifyScript(kNotAScript, o);
    QVERIFY2(rep.errors.empty(), rep.errors.empty() ? "" : rep.errors.front().message.c_str());
    QVERIFY(rep.passed());
    QCOMPARE(rep.runs.size(), size_t(1));
    QCOMPARE(rep.runs[0].kernel, std::string("activation"));
  }

  void compileUsesTheGivenAnalysis() {
    const std::string text = readExample("activation.py");
    const FrontEndResult fe = checkScript(text, "activation.py");
    QVERIFY(fe.ok());
    driver::CompileOptions co;
    co.cubin = false;
    co.sass = false;
    co.useCache = false;
    co.analysed = &fe;
    auto r = driver::compileScript(kNotAScript, "activation.py", co);
    QVERIFY(r.ok());
    QCOMPARE(r->kernels, (std::vector<std::string>{"activation"}));
    QVERIFY(r->cuda.find("activation") != std::string::npos);
    QVERIFY(!hasErrors(r->diagnostics));
    // and a failed analysis is reported as the compile's diagnostics, as the front end's would be
    const FrontEndResult bad = checkScript(kNotAScript, "broken.py");
    QVERIFY(!bad.ok());
    co.analysed = &bad;
    auto b = driver::compileScript(text, "broken.py", co);
    QVERIFY(b.ok());
    QVERIFY(!b->ok);
    QCOMPARE(b->diagnostics.size(), bad.diagnostics.size());
  }
};

QTEST_APPLESS_MAIN(TestOneAnalysis)
#include "tst_one_analysis.moc"
