// The results view: Compile & Verify on an acceptance script shows PASS, a chart with the output
// and the reference, and the check's numbers (needs core/verify; skips visibly without it). A
// hand-made verify::Report shown in the session is drawn as the engine wrote it: check rows, worst
// elements with their producer, fault rows and the editor's fault markers, and a worst element
// selects the line that produced it and, in the Layout dock, its register tile by buffer id (two
// kernels may each have a tile "R").
#include <QTreeWidget>
#include <QtTest>

#include "core/verify/verify.h"
#include "studio_test_util.h"
#include "views/engine/engine_products.h"
#include "views/engine/job_runner.h"
#include "views/engine/session.h"
#include "views/widgets/editor_widget.h"
#include "views/widgets/layout_panel.h"
#include "views/widgets/results_view.h"

using namespace tirx::views;

class TstResultsView : public QObject {
  Q_OBJECT
 private slots:
  void acceptanceScriptPasses_data() {
    QTest::addColumn<QString>("script");
    QTest::addColumn<int>("points");
    QTest::newRow("affine_relu") << "kernels/affine_relu.py" << 512;
    QTest::newRow("silu") << "kernels/silu.py" << 512;
  }
  void acceptanceScriptPasses() {
    QFETCH(QString, script);
    QFETCH(int, points);
    JobRunner runner;
    Session session(runner);
    ResultsView view(session);
    view.resize(1000, 600);
    view.show();
    QSignalSpy reported(&session, &Session::reportChanged);
    session.loadText(readTestData(script), QString());
    reported.clear();
    session.requestCompileAndVerify();
    QTRY_VERIFY_WITH_TIMEOUT(reported.count() >= 1, 120000);
    auto r = session.report();
    QVERIFY(r);
    QVERIFY2(r->engine.passed(), r->summary.c_str());
    QCOMPARE(view.verdictText(), QString("PASS"));
    QCOMPARE(view.checksTree()->topLevelItemCount(), 1);
    QCOMPARE(view.checksTree()->topLevelItem(0)->text(1), QString("PASS"));
    QCOMPARE(view.plottedPoints(), points);  // output + reference, 256 each
    QTemporaryDir dir;
    QVERIFY(view.exportPlot(dir.filePath("plot.png")));
  }

  void failingCheckIsFail() {
    JobRunner runner;
    Session session(runner);
    ResultsView view(session);
    view.show();
    QSignalSpy reported(&session, &Session::reportChanged);
    QString s = readTestData("kernels/affine_relu.py");
    s.replace("T.float32(2), T.float32(1)", "T.float32(2), T.float32(3)");  // wrong bias
    session.loadText(s, QString());
    reported.clear();
    session.requestCompileAndVerify();
    QTRY_VERIFY_WITH_TIMEOUT(reported.count() >= 1, 120000);
    QCOMPARE(view.verdictText(), QString("FAIL"));
    QVERIFY(view.worstTree()->topLevelItemCount() > 0);
    // the engine names the producing register tile by its kernel and buffer id (issue 23)
    const tirx::verify::OwnerInfo& o = session.report()->engine.checks.at(0).worst.at(0).owner;
    QVERIFY(o.known);
    QCOMPARE(o.kernel, std::string("affine_relu"));
    const tirx::ir::Kernel& k = *session.facts()->frontEnd->program.findKernel("affine_relu");
    QVERIFY(o.buffer >= 0 && size_t(o.buffer) < k.buffers.size());
    QCOMPARE(k.buffers[size_t(o.buffer)].name, std::string("registers"));
  }

  void handMadeReport();
  void layoutDockShowsTheTileOfTheOwnersKernel();
};

// The docks read the engine's Report itself: nothing here ran, every value is hand-made.
void TstResultsView::handMadeReport() {
  using namespace tirx;
  verify::Check c;
  c.name = "out (line 3)";
  c.kind = "assert_allclose";
  c.span.line = 3;
  c.pass = false;
  c.message = "1 of 4 elements differ";
  c.maxAbs = 2;
  c.maxRel = 0.25;
  c.mismatches = 1;
  c.total = 4;
  c.shape = {2, 2};
  c.output = {1, 2, 3, 10};
  c.reference = {1, 2, 3, 8};
  verify::WorstElement w;
  w.coord = {1, 1};
  w.actual = 10;
  w.expected = 8;
  w.absErr = 2;
  w.relErr = 0.25;
  w.owner.known = true;
  w.owner.cta = 0;
  w.owner.thread = 5;
  w.owner.warp = 0;
  w.owner.lane = 5;
  w.owner.reg = "R[1]";
  w.owner.kernel = "k";
  w.owner.buffer = 2;
  w.owner.tile = "R";
  w.owner.slot = 1;
  w.owner.regLine = 4;  // the tile op that wrote R[1]
  w.owner.storeLine = 5;
  c.worst.push_back(w);
  VerifyProducts p;
  p.engine.checks.push_back(c);
  ir::Fault f;
  f.kind = "race";
  f.diag = makeError("E0703", SourceSpan{6, 5, 3, 0}, "data race on S between threads 1 and 2");
  f.diag.notes.push_back({SourceSpan{2, 5, 3, 0}, "the other access"});
  p.engine.faults.push_back(f);
  p.engine.runs.push_back({"k", "sim", SourceSpan{1, 1, 1, 0}, true, 1.5, 2.5, {}, {}});
  p.engine.totalMs = 4;
  p.device = "sim";
  p.summary = "hand-made";

  JobRunner runner;
  Session session(runner);
  EditorWidget editor(session);
  ResultsView view(session);
  view.resize(1000, 600);
  view.show();
  editor.show();
  session.showRecorded("line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\n", "k.py", {}, p);
  QCOMPARE(view.verdictText(), QString("FAIL"));
  QCOMPARE(view.checksTree()->topLevelItemCount(), 1);
  const QTreeWidgetItem* check = view.checksTree()->topLevelItem(0);
  QCOMPARE(check->text(0), QString("out (line 3)"));
  QCOMPARE(check->text(1), QString("FAIL"));
  QCOMPARE(check->text(2), QString("2"));
  QCOMPARE(check->text(3), QString("0.25"));
  QCOMPARE(check->text(4), QString("1"));
  QCOMPARE(view.worstTree()->topLevelItemCount(), 1);
  QTreeWidgetItem* worst = view.worstTree()->topLevelItem(0);
  QCOMPARE(worst->text(0), QString("[1, 1]"));
  QCOMPARE(worst->text(1), QString("10"));
  QCOMPARE(worst->text(2), QString("8"));
  QCOMPARE(worst->text(4), QString("w0 l5 r1"));  // the producer: warp, lane, register slot
  QCOMPARE(worst->text(5), QString("4"));         // its register's writer, not the store
  QVERIFY(worst->toolTip(4).contains("register R[1] (last written at line 4), stored at line 5"));
  // the fault row names its line and carries its note; the editor marks both lines
  QTreeWidget* faults = view.faultsTree();
  QCOMPARE(faults->topLevelItemCount(), 1);
  QCOMPARE(faults->topLevelItem(0)->text(0), QString("6"));
  QVERIFY(faults->topLevelItem(0)->text(1).startsWith("E0703 data race on S"));
  QCOMPARE(faults->topLevelItem(0)->child(0)->text(0), QString("2"));
  QCOMPARE(editor.markedLines(EditorWidget::FaultMarker), (QList<int>{2, 6}));
  // clicking the worst element selects the line that produced it and the element of its tile
  QSignalSpy element(&session, &Session::elementSelected);
  session.selectLine(1);
  QTreeWidget* tree = view.worstTree();
  QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(worst).center());
  QCOMPARE(session.selectedLine(), 4);
  QCOMPARE(element.count(), 1);
  QCOMPARE(element.at(0).at(0).toString(), QString("k"));  // the tile by its kernel and buffer id
  QCOMPARE(element.at(0).at(1).toInt(), 2);
  QCOMPARE(element.at(0).at(2).toLongLong(), qint64(3));  // [1, 1] of a 2 × 2 output
  // a fault row selects its line
  QTest::mouseClick(faults->viewport(), Qt::LeftButton, {},
                    faults->visualItemRect(faults->topLevelItem(0)).center());
  QCOMPARE(session.selectedLine(), 6);
}

// Both kernels of two_kernels.py have a register tile named R. A worst element stored from the
// second kernel's R selects that R in the Layout dock: by buffer id, not by the name, which finds
// the first kernel's.
void TstResultsView::layoutDockShowsTheTileOfTheOwnersKernel() {
  using namespace tirx;
  JobRunner runner;
  Session session(runner);
  ResultsView view(session);
  LayoutPanel layout(session);
  view.resize(1000, 600);
  view.show();
  layout.show();
  session.loadText(readTestData("kernels/two_kernels.py"), QString());
  QTRY_VERIFY_WITH_TIMEOUT(session.facts() != nullptr, 60000);
  const ir::Program& prog = session.facts()->frontEnd->program;
  int firstR = -1, secondR = -1;
  for (int i = 0; i < int(prog.symbols.size()); ++i) {
    const ir::Symbol& s = prog.symbols[size_t(i)];
    if (s.name != "R" || s.kind != ir::Symbol::Kind::Tensor) continue;
    (s.kernel == "activation" ? firstR : secondR) = i;
  }
  QVERIFY(firstR >= 0 && secondR >= 0);
  QCOMPARE(prog.symbols[size_t(secondR)].kernel, std::string("shared_affine"));
  QVERIFY(layout.showSymbol("R"));  // by name: the first kernel's
  QCOMPARE(layout.shownSymbol(), firstR);

  verify::Check c;
  c.name = "shared_affine (line 59)";
  c.kind = "assert_allclose";
  c.kernel = "shared_affine";
  c.shape = {64, 4};
  c.output.assign(256, 1);
  c.reference.assign(256, 1);
  c.mismatches = 1;
  c.total = 256;
  verify::WorstElement w;
  w.coord = {1, 2};
  w.owner.known = true;
  w.owner.cta = 0;
  w.owner.thread = 1;
  w.owner.kernel = "shared_affine";
  w.owner.buffer = prog.symbols[size_t(secondR)].buffer;
  w.owner.tile = "R";
  w.owner.reg = "R[2]";
  w.owner.slot = 2;
  w.owner.storeLine = 39;
  c.worst.push_back(w);
  VerifyProducts p;
  p.engine.checks.push_back(c);
  p.device = "sim";
  p.summary = "hand-made";
  session.showRecorded(readTestData("kernels/two_kernels.py"), "two_kernels.py", {}, p);
  QTRY_VERIFY_WITH_TIMEOUT(session.facts() != nullptr, 60000);
  QTRY_COMPARE(view.worstTree()->topLevelItemCount(), 1);
  QTreeWidget* tree = view.worstTree();
  QTest::mouseClick(tree->viewport(), Qt::LeftButton, {},
                    tree->visualItemRect(tree->topLevelItem(0)).center());
  QCOMPARE(layout.shownSymbol(), secondR);
}

QTEST_MAIN(TstResultsView)
#include "tst_results_view.moc"
