// The Tune dock in the main window: Tune sweeps the 12-candidate GEMM space of
// tests/data/tune/gemm_tiles.py on the simulator off the GUI thread, the table lists ten ranked
// candidates and the two rejected ones with their reasons, the chart plots the ranked ones
// coloured by the chosen parameter, Apply writes the best values into the editor as one undoable
// edit, Cancel stops a running tune keeping what finished, and a malformed TUNE table is reported
// with its line and column.
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDockWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>

#include "studio_test_util.h"
#include "views/engine/session.h"
#include "views/widgets/editor_widget.h"
#include "views/widgets/main_window.h"
#include "views/widgets/tune_view.h"

using namespace tirx::views;

class TestTuneView : public QObject {
  Q_OBJECT

 private slots:
  void tuneRanksRejectsPlotsAndApplies() {
    MainWindow w(nullptr, false);
    QVERIFY(w.dock("tune") != nullptr);
    const QString text = readTestData("tune/gemm_tiles.py");
    w.session().loadText(text, QString());
    TuneView* view = w.tuneView();
    QSignalSpy finished(view, &TuneView::tuneFinished);
    QTest::mouseClick(view->tuneButton(), Qt::LeftButton);
    QVERIFY(view->running());
    QVERIFY(view->cancelButton()->isEnabled());
    QVERIFY(finished.wait(180000));
    QVERIFY(!view->running());
    QCOMPARE(view->table()->rowCount(), 12);
    QCOMPARE(view->progress()->value(), 12);
    QCOMPARE(view->table()->item(0, 0)->text(), QString("1"));
    QCOMPARE(view->table()->item(0, 1)->text(), QString("ROWS=2 COLS=2 STAGES=1"));
    QStringList statuses;
    for (int r = 0; r < 12; ++r) statuses << view->table()->item(r, 7)->text();
    QCOMPARE(view->table()->horizontalHeaderItem(6)->text(), QString("occupancy"));
    QCOMPARE(view->table()->item(0, 6)->text(), QString("12.5%"));  // two 4-warp blocks per SM
    QCOMPARE(statuses.count("ok"), 10);
    QVERIFY(statuses.filter(QRegularExpression("^rejected_check: E0125: ")).size() == 1);
    QVERIFY(statuses.filter(QRegularExpression("^rejected_verify: check gemm_bf16")).size() == 1);
    QCOMPARE(view->plottedPoints(), 10);
    // Coloured by ROWS: one series per value.
    QCOMPARE(view->chart()->chart()->series().size(), 2);
    view->colourPicker()->setCurrentText("STAGES");
    QCOMPARE(view->chart()->chart()->series().size(), 3);  // STAGES = 1, 2 and 3
    QCOMPARE(view->plottedPoints(), 10);
    QVERIFY(view->statusText().contains("best: ROWS=2 COLS=2 STAGES=1"));
    QVERIFY(view->applyButton()->isEnabled());
    QTest::mouseClick(view->applyButton(), Qt::LeftButton);
    const QString applied = w.editor()->text();
    QVERIFY(applied.contains("\nROWS = 2\nCOLS = 2\nSTAGES = 1\n"));
    QCOMPARE(w.session().text(), applied);
    QCOMPARE(QString(applied).replace("\nROWS = 2\nCOLS = 2\n", "\nROWS = 1\nCOLS = 1\n"), text);
    w.editor()->undo();  // one edit
    QCOMPARE(w.editor()->text(), text);
  }

  void cancelKeepsFinishedCandidates() {
    MainWindow w(nullptr, false);
    w.session().loadText(readTestData("tune/gemm_tiles.py"), QString());
    TuneView* view = w.tuneView();
    QSignalSpy finished(view, &TuneView::tuneFinished);
    view->start();
    QTRY_VERIFY_WITH_TIMEOUT(view->table()->rowCount() >= 1, 120000);
    QTest::mouseClick(view->cancelButton(), Qt::LeftButton);
    QCOMPARE(finished.count(), 1);
    QVERIFY(!view->running());
    const int shown = view->table()->rowCount();
    QVERIFY(shown >= 1 && shown < 12);
    QVERIFY2(view->statusText().startsWith("Cancelled after "), qPrintable(view->statusText()));
    QVERIFY(view->tuneButton()->isEnabled());
    QTest::qWait(1500);  // a late result of the cancelled job changes nothing
    QCOMPARE(view->table()->rowCount(), shown);
  }

  void malformedTableIsReportedWithItsPlace() {
    MainWindow w(nullptr, false);
    w.session().loadText(readTestData("tune/gemm_tiles.py").replace("[1, 2, 3]", "[1, 2.5]"),
                         QString());
    TuneView* view = w.tuneView();
    view->start();
    QVERIFY(!view->running());
    QVERIFY2(view->statusText().startsWith("TUNE table: line 18:55: a candidate of 'STAGES' must "
                                           "be an integer literal"),
             qPrintable(view->statusText()));
    QCOMPARE(view->table()->rowCount(), 0);
  }
};

QTEST_MAIN(TestTuneView)
#include "tst_tune_view.moc"
