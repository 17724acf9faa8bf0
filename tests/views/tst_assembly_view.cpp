// The assembly view: after a compile, selecting a script line highlights the PTX (and CUDA) lines
// it became, from the compiler's own source map; clicking a PTX line selects the script line.
// A hand-made SourceMap is linked the same way (the view derives nothing). Needs core/driver
// (NVRTC) for the compile; skips visibly when this build has none.
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QtTest>
#include <algorithm>

#include "studio_test_util.h"
#include "views/engine/engine_products.h"
#include "views/engine/job_runner.h"
#include "views/engine/session.h"
#include "views/widgets/assembly_view.h"

using namespace tirx::views;

class TstAssemblyView : public QObject {
  Q_OBJECT
 private slots:
  void scriptLineHighlightsPtx() {
    JobRunner runner;
    Session session(runner);
    AssemblyView view(session);
    view.resize(900, 700);
    view.show();
    QSignalSpy compiled(&session, &Session::productsChanged);
    session.loadText(readTestData("kernels/affine_relu.py"), QString());
    compiled.clear();
    session.requestCompile();
    QTRY_VERIFY_WITH_TIMEOUT(compiled.count() >= 1, 60000);
    auto p = session.products();
    QVERIFY(p);
    QVERIFY2(p->engine.ok, p->summary.c_str());
    QVERIFY(!p->engine.ptx.empty());

    session.selectLine(15);  // the ld.global.v4.b32 tile op
    auto lines = view.highlightedLines(AssemblyView::PtxTab);
    QVERIFY2(!lines.empty(), "no PTX lines highlighted for script line 15");
    auto* ptx = view.text(AssemblyView::PtxTab);
    bool sawLoad = false;
    for (int l : lines)
      sawLoad |= ptx->document()->findBlockByNumber(l - 1).text().contains("ld.global.v4");
    QVERIFY2(sawLoad, "the highlighted PTX lines of line 15 contain no ld.global.v4");
    QVERIFY(!view.highlightedLines(AssemblyView::CudaTab).empty());

    session.selectLine(21);  // the st.global.v4.b32 tile op
    bool sawStore = false;
    for (int l : view.highlightedLines(AssemblyView::PtxTab)) {
      QString t = ptx->document()->findBlockByNumber(l - 1).text();
      sawStore |= t.contains("st.global.v4");
      QVERIFY2(!t.contains("ld.global.v4"), qPrintable(t));
    }
    QVERIFY(sawStore);

    // reverse: click the first highlighted PTX line of line 15 → the script line is selected
    session.selectLine(15);
    int first = view.highlightedLines(AssemblyView::PtxTab).front();
    QTextCursor c(ptx->document()->findBlockByNumber(first - 1));
    session.selectLine(1);
    ptx->setTextCursor(c);
    QCOMPARE(session.selectedLine(), 15);
    for (int l : view.highlightedLines(AssemblyView::PtxTab))
      if (ptx->document()->findBlockByNumber(l - 1).text().contains("ld.global.v4.b32")) {
        QString hover = view.describeLine(AssemblyView::PtxTab, l);
        QVERIFY2(hover.contains("atom 4"), qPrintable(hover));
      }
  }

  // A bundle recorded on the H200 carries nvdisasm -g's SASS: the engine's source map links its
  // `//## File` records to the script (both ways), and hovering a SASS line describes its
  // mnemonic from core/toolchain's table (the view parses nothing).
  void h200SassLinksAndHovers() {
    const OpenedBundle b =
        loadBundleFile(TIRX_SOURCE_DIR "/tests/data/bundles/activation_h200.tirxb");
    QVERIFY2(b.ok, b.error.c_str());
    const auto& sassToScript = b.products.engine.map.sassToScript;
    QVERIFY(std::any_of(sassToScript.begin(), sassToScript.end(), [](int l) { return l > 0; }));
    JobRunner runner;
    Session session(runner);
    AssemblyView view(session);
    view.resize(900, 700);
    view.show();
    session.showRecorded(QString::fromStdString(b.script), QString::fromStdString(b.scriptFile),
                         b.products, b.report);
    int loadLine = -1;
    const QStringList scriptLines = QString::fromStdString(b.script).split('\n');
    for (int i = 0; i < scriptLines.size() && loadLine < 0; ++i)
      if (scriptLines[i].contains("T.ptx[\"ld.global.v4.b32\"], R, A")) loadLine = i + 1;
    QVERIFY(loadLine > 0);
    session.selectLine(loadLine);
    const auto sassLines = view.highlightedLines(AssemblyView::SassTab);
    QVERIFY2(!sassLines.empty(), "no SASS lines for the ld.global.v4.b32 line");
    auto* sass = view.text(AssemblyView::SassTab);
    bool sawLdg = false;
    for (int l : sassLines) {
      const QString t = sass->document()->findBlockByNumber(l - 1).text();
      QVERIFY2(t.trimmed().startsWith("/*"), qPrintable(t));  // instruction lines only
      if (t.contains("LDG.E.128")) {
        sawLdg = true;
        const QString hover = view.describeLine(AssemblyView::SassTab, l);
        QVERIFY2(hover.startsWith("LDG.E.128 — load from global memory"), qPrintable(hover));
      }
    }
    QVERIFY(sawLdg);
    QVERIFY(!view.highlightedLines(AssemblyView::PtxTab).empty());  // .loc of the recorded PTX
    // reverse: putting the cursor on a SASS line of another script line selects that line
    session.selectLine(1);
    sass->setTextCursor(QTextCursor(sass->document()->findBlockByNumber(sassLines.front() - 1)));
    QCOMPARE(session.selectedLine(), loadLine);
    // a PTX line's hover comes from the PTX table (ptxLineFacts), a directive has none
    auto* ptx = view.text(AssemblyView::PtxTab);
    int ldLine = 0, regLine = 0;
    for (int l = 1; l <= ptx->document()->blockCount(); ++l) {
      const QString t = ptx->document()->findBlockByNumber(l - 1).text().trimmed();
      if (!ldLine && t.startsWith("ld.global.v4.b32")) ldLine = l;
      if (!regLine && t.startsWith(".reg")) regLine = l;
    }
    QVERIFY(ldLine > 0 && regLine > 0);
    QVERIFY2(view.describeLine(AssemblyView::PtxTab, ldLine).contains("atom 4"),
             qPrintable(view.describeLine(AssemblyView::PtxTab, ldLine)));
    QVERIFY(view.describeLine(AssemblyView::PtxTab, regLine).isEmpty());
    // the recorded resource line, read back into the engine's value and shown in its one form
    const QString res = view.text(AssemblyView::ResourcesTab)->toPlainText();
    QVERIFY2(res.startsWith("activation: 24 registers, 0 bytes shared, 0 bytes stack, 0 spill "
                            "stores, 0 spill loads\n"),
             qPrintable(res));
  }

  // The view draws what the engine published and nothing else: a hand-made driver::CompileProducts
  // (texts, a SourceMap, one kernel's resources, no SASS) is linked both ways through that map.
  void handBuiltSourceMapLinks() {
    CompileProducts p;
    tirx::driver::CompileProducts& e = p.engine;
    e.ok = true;
    e.cuda = "c1\nc2\nc3\nc4\n";
    e.ptx = "p1\np2\np3\n";
    e.sassStatus = "no disassembler found";
    e.map.cudaToScript = {0, 0, 2, 2, 3};  // CUDA lines 2 and 3 came from script line 2
    e.map.ptxToScript = {0, 3, 0, 2};
    tirx::toolchain::KernelResources k;
    k.kernel = "k";
    k.registers = 40;
    k.barriers = 1;
    e.resources.push_back(k);
    tirx::ir::Kernel kernel;  // 256 threads: 40 registers = 1280 a warp, 51 warps, 6 blocks/SM
    kernel.name = "k";
    kernel.launch.block = {256, 1, 1};
    e.program.kernels.push_back(kernel);
    p.summary = "hand-made";
    JobRunner runner;
    Session session(runner);
    AssemblyView view(session);
    view.resize(900, 700);
    view.show();
    session.showRecorded("s1\ns2\ns3\n", "k.py", p, {});
    session.selectLine(2);
    QCOMPARE(view.highlightedLines(AssemblyView::CudaTab), (std::vector<int>{2, 3}));
    QCOMPARE(view.highlightedLines(AssemblyView::PtxTab), (std::vector<int>{3}));
    QVERIFY(view.highlightedLines(AssemblyView::SassTab).empty());
    auto* ptx = view.text(AssemblyView::PtxTab);
    ptx->setTextCursor(QTextCursor(ptx->document()->findBlockByNumber(1)));  // a generated line
    QCOMPARE(session.selectedLine(), 2);
    ptx->setTextCursor(QTextCursor(ptx->document()->findBlockByNumber(0)));  // PTX line 1
    QCOMPARE(session.selectedLine(), 3);
    QCOMPARE(view.highlightedLines(AssemblyView::CudaTab), (std::vector<int>{4}));
    QCOMPARE(view.text(AssemblyView::SassTab)->toPlainText(),
             QString("SASS not available: no disassembler found"));
    QVERIFY2(
        view.text(AssemblyView::ResourcesTab)
            ->toPlainText()
            .startsWith(
                "k: 40 registers, 0 bytes shared, 0 bytes stack, 0 spill stores, 0 spill loads, "
                "0 bytes constant, 1 barriers\n"),
        qPrintable(view.text(AssemblyView::ResourcesTab)->toPlainText()));
    QVERIFY2(view.text(AssemblyView::ResourcesTab)
                 ->toPlainText()
                 .contains("k: 256 threads, 40 registers (ptxas), 0 B shared -> 6 blocks/SM (48 "
                           "warps, 75.0%), limited by registers"),
             qPrintable(view.text(AssemblyView::ResourcesTab)->toPlainText()));
  }

  void showsNotCompiledState() {
    JobRunner runner;
    Session session(runner);
    AssemblyView view(session);
    QVERIFY(view.text(AssemblyView::PtxTab)->toPlainText().isEmpty());
    QVERIFY(view.highlightedLines(AssemblyView::PtxTab).empty());
  }
};

QTEST_MAIN(TstAssemblyView)
#include "tst_assembly_view.moc"
