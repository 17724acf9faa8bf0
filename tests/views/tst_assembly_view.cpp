// The assembly view: after a compile, selecting a script line highlights the PTX (and CUDA) lines
// it became, from the compiler's own source map; clicking a PTX line selects the script line.
// Needs core/driver (NVRTC); skips visibly when this build has none.
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QtTest>

#include "studio_test_util.h"
#include "views/assembly_view.h"
#include "views/engine_products.h"
#include "views/job_runner.h"
#include "views/session.h"

using namespace tirx::views;

class TstAssemblyView : public QObject {
  Q_OBJECT
 private slots:
  void scriptLineHighlightsPtx() {
    if (!compileAvailable()) QSKIP(compileUnavailableReason().c_str());
    JobRunner runner;
    Session session(runner);
    AssemblyView view(session);
    view.resize(900, 700);
    view.show();
    QSignalSpy compiled(&session, &Session::productsChanged);
    session.loadText(readShared("acceptance/arith_affine_relu.py"), QString());
    compiled.clear();
    session.requestCompile();
    QTRY_VERIFY_WITH_TIMEOUT(compiled.count() >= 1, 60000);
    auto p = session.products();
    QVERIFY(p);
    QVERIFY2(p->ok, p->summary.c_str());
    QVERIFY(!p->ptx.empty());

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
