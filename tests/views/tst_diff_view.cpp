// The Diff dock: two versions opened the ways a user opens them — another file, the file's saved
// state against edits in the buffer, a bundle — and the view's content read back: the summary,
// the aligned panes (the PTX loads of the activation pair, red and green rows), the moved cells
// on the grid (252, counted by hand in tests/data/diff/README.md), the resources/results table;
// the comparison runs on the job runner's worker, not in the call that starts it.
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QtTest>

#include "views/diff_grid.h"
#include "views/diff_view.h"
#include "views/job_runner.h"
#include "views/main_window.h"
#include "views/session.h"

using namespace tirx::views;

namespace {

QString dataPath(const QString& rel) {
  return QStringLiteral(TIRX_SOURCE_DIR "/tests/data/") + rel;
}

QString readText(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
  return QString::fromUtf8(f.readAll());
}

/// The row of the pane whose text contains `needle` (-1 when none).
int rowOf(QPlainTextEdit* pane, const QString& needle, int from = 0) {
  for (QTextBlock b = pane->document()->findBlockByNumber(from); b.isValid(); b = b.next())
    if (b.text().contains(needle)) return b.blockNumber();
  return -1;
}

/// The background of the extra selection on `row`, invalid when that row has none.
QColor rowColour(QPlainTextEdit* pane, int row) {
  for (const auto& s : pane->extraSelections())
    if (s.cursor.block().blockNumber() == row) return s.format.background().color();
  return {};
}

QString tableValue(QTableWidget* t, const QString& what, int column) {
  for (int r = 0; r < t->rowCount(); ++r)
    if (t->item(r, 0)->text() == what) return t->item(r, column)->text();
  return {};
}

}  // namespace

class TstDiffView : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void anotherFileShowsEverySection() {
    JobRunner runner;
    Session session(runner);
    DiffView view(session);
    view.resize(1400, 900);
    view.show();
    // B = the editor (version B of the pair), A = the file activation_a.py.
    session.loadText(readText(dataPath("diff/activation_b.py")), dataPath("diff/activation_b.py"));
    QSignalSpy ready(&view, &DiffView::diffReady);
    view.compareWithFile(dataPath("diff/activation_a.py"));
    QVERIFY(view.isBusy());  // the call only queued the job; the worker compares
    QVERIFY(ready.wait(120000));
    auto d = view.data();
    QVERIFY(d && d->ok);
    QVERIFY2(view.summaryText().contains("layouts: 1 register tiles, 1 changed, 252 cells moved"),
             qPrintable(view.summaryText()));
    QVERIFY(view.summaryText().contains("PTX: +"));
    QVERIFY(view.summaryText().contains("results: A passed 1/1"));
    QVERIFY(view.statusText().contains("activation_a.py"));
    // The grid: 252 of 256 moved, (0, 0, j) unchanged.
    QCOMPARE(view.grid()->cellCount(), 256);
    QCOMPARE(view.grid()->movedCount(), 252);
    QVERIFY(!view.grid()->isMoved(0) && !view.grid()->isMoved(3) && view.grid()->isMoved(4));
    QCOMPARE(view.grid()->cellText(4), QString("(0, 1, 0): w0 l1 r0 → w0 l0 r4"));
    QCOMPARE(view.grid()->cellAt(QPoint(2, 2)), 0);
    // Hit-testing agrees with painting in every band the rows are wrapped into.
    view.grid()->resize(400, 120);
    QVERIFY(view.grid()->bands() > 1);
    for (int64_t f : {int64_t(0), int64_t(5), int64_t(130), int64_t(255)}) {
      int64_t hit = -1;
      for (int x = 0; x < 400 && hit != f; ++x)
        for (int y = 0; y < 120 && hit != f; ++y) hit = view.grid()->cellAt(QPoint(x, y));
      QCOMPARE(hit, f);
    }
    QVERIFY(view.tilePicker()->currentText().contains("252 of 256 cells moved"));
    // The panes face each other row by row; the script's layout line is a changed row.
    QCOMPARE(view.leftPane()->document()->blockCount(), view.rightPane()->document()->blockCount());
    const int layoutRow = rowOf(view.rightPane(), "S[(32, 2, 4) : (1 @ laneid, 4, 1)]");
    QVERIFY(layoutRow > 0);
    QVERIFY(view.leftPane()->document()->findBlockByNumber(layoutRow).text().contains(
        "1 @ warpid, 1 @ laneid, 1"));
    QCOMPARE(rowColour(view.rightPane(), layoutRow), QColor(210, 245, 210));
    QCOMPARE(rowColour(view.leftPane(), layoutRow), QColor(255, 215, 215));
    // PTX: under "script line 22 → 23" the second load is B's only, facing a blank in A.
    QVERIFY(view.showSection("ptx"));
    const int ptxStart = rowOf(view.rightPane(), "── PTX");
    QVERIFY(ptxStart > layoutRow);
    const int group = rowOf(view.rightPane(), "── script line 22 → 23", ptxStart);
    QVERIFY(group > ptxStart);
    const int ld2 = rowOf(view.rightPane(), "ld.global.v4.b32 {%f5, %f6, %f7, %f8}", group);
    QVERIFY(ld2 > group);
    QCOMPARE(rowColour(view.rightPane(), ld2), QColor(210, 245, 210));
    QVERIFY(view.leftPane()->document()->findBlockByNumber(ld2).text().trimmed().isEmpty());
    QVERIFY(view.firstVisibleRow() > 0);
    // The table: registers and the verdicts.
    QVERIFY(!tableValue(view.table(), "registers", 1).isEmpty());
    QCOMPARE(tableValue(view.table(), "result", 1), QString("pass"));
    QCOMPARE(tableValue(view.table(), "result", 2), QString("pass"));
  }

  void savedFileAgainstTheEditedBuffer() {
    QTemporaryDir dir;
    const QString path = dir.filePath("kernel.py");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(readText(dataPath("diff/activation_a.py")).toUtf8());
    f.close();
    JobRunner runner;
    Session session(runner);
    DiffView view(session);
    view.setVerify(false);
    session.loadText(readText(path), path);
    QSignalSpy ready(&view, &DiffView::diffReady);
    QVERIFY(view.compareWithSaved());
    QVERIFY(ready.wait(120000));
    QVERIFY(view.summaryText().contains("script: identical"));
    QVERIFY(view.summaryText().contains("0 cells moved"));
    QCOMPARE(view.grid()->movedCount(), 0);
    // Edit the buffer (not saved): now the saved file is A and the edits are B.
    session.setText(readText(dataPath("diff/activation_b.py")));
    QVERIFY(view.compareWithSaved());
    QVERIFY(ready.wait(120000));
    QVERIFY(view.statusText().contains("kernel.py (saved)"));
    QVERIFY(view.summaryText().contains("252 cells moved"));
    QCOMPARE(view.grid()->movedCount(), 252);
    QVERIFY(view.summaryText().contains("not verified"));
  }

  void untitledDocumentHasNoSavedState() {
    JobRunner runner;
    Session session(runner);
    DiffView view(session);
    session.loadText("x = 1\n", QString());
    QVERIFY(!view.compareWithSaved());
    QVERIFY(view.statusText().contains("no file on disk"));
  }

  void bundleAndUnreadableFile() {
    JobRunner runner;
    Session session(runner);
    DiffView view(session);
    view.setVerify(false);
    session.loadText(readText(QStringLiteral(TIRX_SOURCE_DIR "/resources/examples/activation.py")),
                     QString());
    QSignalSpy ready(&view, &DiffView::diffReady);
    view.compareWithFile(dataPath("bundles/activation_h200.tirxb"));
    QVERIFY(ready.wait(120000));
    QVERIFY2(view.summaryText().contains("recorded on NVIDIA H200 (cuda:0)"),
             qPrintable(view.summaryText()));
    QVERIFY(view.summaryText().contains("PTX: identical"));
    QVERIFY(view.statusText().contains("bundle"));
    view.compareWithFile("/nonexistent/other.py");
    QVERIFY(ready.wait(60000));
    QVERIFY(view.statusText().contains("Cannot compare"));
    QVERIFY(view.statusText().contains("/nonexistent/other.py"));
  }

  void stopEndsAComparison() {
    JobRunner runner;
    Session session(runner);
    DiffView view(session);
    session.loadText(readText(dataPath("diff/activation_b.py")), dataPath("diff/activation_b.py"));
    view.compareWithFile(dataPath("diff/activation_a.py"));
    QVERIFY(view.isBusy());
    if (!session.stop()) QSKIP("the comparison finished before Stop");
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy(), 60000);
    QVERIFY2(view.statusText().contains("Stopped.") ||
                 view.statusText().contains("(stopped: incomplete)"),
             qPrintable(view.statusText()));
  }

  void mainWindowHasTheDock() {
    MainWindow w(nullptr, false);
    QVERIFY(w.dock("diff"));
    QCOMPARE(w.dock("diff")->widget(), static_cast<QWidget*>(w.diffView()));
  }
};

QTEST_MAIN(TstDiffView)
#include "tst_diff_view.moc"
