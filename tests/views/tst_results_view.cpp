// The results view: Compile & Verify on an acceptance script shows PASS, a chart with the output
// and the reference, and the check's numbers. Needs core/verify; skips visibly without it.
#include <QTreeWidget>
#include <QtTest>

#include "studio_test_util.h"
#include "views/engine_products.h"
#include "views/job_runner.h"
#include "views/results_view.h"
#include "views/session.h"

using namespace tirx::views;

class TstResultsView : public QObject {
  Q_OBJECT
 private slots:
  void acceptanceScriptPasses_data() {
    QTest::addColumn<QString>("script");
    QTest::addColumn<int>("points");
    QTest::newRow("affine_relu") << "acceptance/arith_affine_relu.py" << 512;
    QTest::newRow("silu") << "acceptance/arith_silu.py" << 512;
  }
  void acceptanceScriptPasses() {
    QFETCH(QString, script);
    QFETCH(int, points);
    if (!verifyAvailable()) QSKIP(verifyUnavailableReason().c_str());
    JobRunner runner;
    Session session(runner);
    ResultsView view(session);
    view.resize(1000, 600);
    view.show();
    QSignalSpy reported(&session, &Session::reportChanged);
    session.loadText(readShared(script), QString());
    reported.clear();
    session.requestCompileAndVerify();
    QTRY_VERIFY_WITH_TIMEOUT(reported.count() >= 1, 120000);
    auto r = session.report();
    QVERIFY(r);
    QVERIFY2(r->passed, r->summary.c_str());
    QCOMPARE(view.verdictText(), QString("PASS"));
    QCOMPARE(view.checksTree()->topLevelItemCount(), 1);
    QCOMPARE(view.checksTree()->topLevelItem(0)->text(1), QString("PASS"));
    QCOMPARE(view.plottedPoints(), points);  // output + reference, 256 each
    QTemporaryDir dir;
    QVERIFY(view.exportPlot(dir.filePath("plot.png")));
  }

  void failingCheckIsFail() {
    if (!verifyAvailable()) QSKIP(verifyUnavailableReason().c_str());
    JobRunner runner;
    Session session(runner);
    ResultsView view(session);
    view.show();
    QSignalSpy reported(&session, &Session::reportChanged);
    QString s = readShared("acceptance/arith_affine_relu.py");
    s.replace("T.float32(2), T.float32(1)", "T.float32(2), T.float32(3)");  // wrong bias
    session.loadText(s, QString());
    reported.clear();
    session.requestCompileAndVerify();
    QTRY_VERIFY_WITH_TIMEOUT(reported.count() >= 1, 120000);
    QCOMPARE(view.verdictText(), QString("FAIL"));
    QVERIFY(view.worstTree()->topLevelItemCount() > 0);
  }
};

QTEST_MAIN(TstResultsView)
#include "tst_results_view.moc"
