// The Diff dock: two versions opened the ways a user opens them — another file, the file's saved
// state against edits in the buffer, a bundle — and the view's content read back: the summary,
// the aligned panes (the PTX loads of the activation pair, red and green rows), the moved cells
// on the grid (252, counted by hand in tests/data/diff/README.md), the resources/results table;
// the comparison runs on the job runner's worker, not in the call that starts it. Two files or two
// bundles typed into the A and B fields and compared with the Compare button: the shared pair's
// tile on the grid (the moved elements counted here by brute force from the layouts' formulas),
// its bank conflicts, results, devices and timings in the table. The main window's device and
// target pickers reach the comparison's request; a CUDA device this machine lacks is reported as
// unavailable on both sides, with the reason.
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QtTest>
#include <cmath>

#include "core/verify/bundle.h"
#include "views/engine/job_runner.h"
#include "views/engine/session.h"
#include "views/models/theme.h"
#include "views/widgets/diff_grid.h"
#include "views/widgets/diff_view.h"
#include "views/widgets/main_window.h"

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

/// The shared pair's tile (32 × 32 float32): element (i, j) at 32·i + j in A, 36·i + j in B.
/// Elements whose byte offset changed, and those whose bank changed.
std::pair<int, int> sharedPairMoved() {
  int moved = 0, bank = 0;
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) {
      moved += 32 * i + j != 36 * i + j;
      bank += (32 * i + j) % 32 != (36 * i + j) % 32;
    }
  return {moved, bank};
}

/// Types the two paths into the dock's fields and clicks Compare.
void typeAndCompare(DiffView& view, const QString& a, const QString& b) {
  view.pathAField()->clear();
  QTest::keyClicks(view.pathAField(), a);
  view.pathBField()->clear();
  QTest::keyClicks(view.pathBField(), b);
  QTest::mouseClick(view.compareButton(), Qt::LeftButton);
}

/// A bundle of `script` recorded on the simulator, written to `path`.
void writeSimBundle(const QString& script, const QString& path) {
  tirx::verify::BundleOptions o;
  o.fileName = script.toStdString();
  const std::string json =
      tirx::verify::bundleToJson(tirx::verify::makeBundle(readText(script).toStdString(), o));
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  f.write(QByteArray::fromStdString(json));
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
    QCOMPARE(rowColour(view.rightPane(), layoutRow), themeColours(false).diffAdded.background);
    QCOMPARE(rowColour(view.leftPane(), layoutRow), themeColours(false).diffRemoved.background);
    // PTX: under "script line 22 → 23" the second load is B's only, facing a blank in A.
    QVERIFY(view.showSection("ptx"));
    const int ptxStart = rowOf(view.rightPane(), "── PTX");
    QVERIFY(ptxStart > layoutRow);
    const int group = rowOf(view.rightPane(), "── script line 22 → 23", ptxStart);
    QVERIFY(group > ptxStart);
    const int ld2 = rowOf(view.rightPane(), "ld.global.v4.b32 {%f5, %f6, %f7, %f8}", group);
    QVERIFY(ld2 > group);
    QCOMPARE(rowColour(view.rightPane(), ld2), themeColours(false).diffAdded.background);
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

  void resultAndTimingDeltas() {
    // A = the H200 bundle (recorded: the GPU's expf, max abs error > 0), B = its script in the
    // editor verified on the simulator (exact): the table shows both errors and the change.
    JobRunner runner;
    Session session(runner);
    DiffView view(session);
    session.loadText(readText(QStringLiteral(TIRX_SOURCE_DIR "/resources/examples/activation.py")),
                     QString());
    QSignalSpy ready(&view, &DiffView::diffReady);
    typeAndCompare(view, dataPath("bundles/activation_h200.tirxb"), QString());
    QCOMPARE(view.lastRequest().pathB, QString());  // B: the editor's text
    QVERIFY(ready.wait(120000));
    const tirx::diff::DiffReport& r = view.data()->report;
    QVERIFY(r.resultA.maxAbs > 0 && r.resultB.ran && r.resultB.maxAbs == 0);
    QCOMPARE(tableValue(view.table(), "result", 1), QString("pass"));
    QCOMPARE(tableValue(view.table(), "result", 2), QString("pass"));
    QCOMPARE(tableValue(view.table(), "result", 3), QString());
    const QString delta = tableValue(view.table(), "max abs error", 3);
    QVERIFY2(delta.startsWith("-") && std::abs(delta.toDouble() + r.resultA.maxAbs) < 1e-9,
             qPrintable(delta));
    QCOMPARE(tableValue(view.table(), "ran on", 1), QString("NVIDIA H200 (cuda:0) (recorded)"));
    QCOMPARE(tableValue(view.table(), "ran on", 2), QString("sim"));
    // Recorded kernel time against the simulator's: the change column says by how much.
    const QString runs = tableValue(view.table(), "kernel runs", 3);
    QVERIFY2(runs.isEmpty() || runs.endsWith(" ms"), qPrintable(runs));
    QVERIFY(view.summaryText().contains("recorded on NVIDIA H200 (cuda:0)"));
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

  void twoTypedFilesShowTheSharedTile() {
    JobRunner runner;
    Session session(runner);
    DiffView view(session);
    view.resize(1400, 900);
    view.show();
    session.loadText("x = 1\n", QString());  // the editor is not a version here
    QSignalSpy ready(&view, &DiffView::diffReady);
    typeAndCompare(view, dataPath("diff/shared_a.py"), dataPath("diff/shared_b.py"));
    QVERIFY(view.isBusy());
    QCOMPARE(view.lastRequest().pathB, dataPath("diff/shared_b.py"));
    QCOMPARE(view.lastRequest().device, QString("sim"));
    QVERIFY(ready.wait(120000));
    const auto [moved, bankMoved] = sharedPairMoved();
    QVERIFY2(view.summaryText().contains(
                 QString("shared tiles: 1 shared tiles, 1 changed, %1 elements moved (%2 to "
                         "another bank)")
                     .arg(moved)
                     .arg(bankMoved)),
             qPrintable(view.summaryText()));
    QVERIFY(view.statusText().contains("shared_a.py (verified on sim)"));
    QVERIFY(view.statusText().contains("shared_b.py (verified on sim)"));
    // The register tile R is unchanged, so the picker opens on the changed shared tile.
    QVERIFY2(view.tilePicker()->currentText().startsWith("stage.tile (shared)"),
             qPrintable(view.tilePicker()->currentText()));
    QVERIFY(view.grid()->showsShared());
    QCOMPARE(view.grid()->cellCount(), 1024);
    QCOMPARE(view.grid()->movedCount(), moved);
    QVERIFY(!view.grid()->isMoved(31) && view.grid()->isMoved(32));
    QCOMPARE(view.grid()->cellText(32), QString("(1, 0): byte 128 bank 0 → byte 144 bank 4"));
    QCOMPARE(view.grid()->cellText(0), QString("(0, 0): byte 0 bank 0 (unchanged)"));
    // Back to the register tile, and again to the shared one, through the picker.
    view.tilePicker()->setCurrentIndex(0);
    QVERIFY(!view.grid()->showsShared());
    QCOMPARE(view.grid()->movedCount(), 0);
    view.tilePicker()->setCurrentIndex(1);
    QVERIFY(view.grid()->showsShared());
    // Bank conflicts per statement, results, devices and timings in the table.
    QCOMPARE(tableValue(view.table(), "tile line 23 ld.shared.b32", 1),
             QString("32-way, 1024 wavefronts"));
    QCOMPARE(tableValue(view.table(), "tile line 23 ld.shared.b32", 2),
             QString("4-way, 128 wavefronts"));
    QCOMPARE(tableValue(view.table(), "tile line 23 ld.shared.b32", 3), QString("-896 wavefronts"));
    QCOMPARE(tableValue(view.table(), "tile line 20 store tile", 2),
             QString("4-way, 128 wavefronts"));
    QCOMPARE(tableValue(view.table(), "result", 1), QString("pass"));
    QCOMPARE(tableValue(view.table(), "result", 2), QString("pass"));
    QCOMPARE(tableValue(view.table(), "max abs error", 2), QString("0"));
    QCOMPARE(tableValue(view.table(), "ran on", 1), QString("sim"));
    QCOMPARE(tableValue(view.table(), "ran on", 2), QString("sim"));
    QVERIFY(tableValue(view.table(), "verify", 1).endsWith(" ms"));
    QVERIFY(tableValue(view.table(), "kernel runs", 2).endsWith(" ms"));
    // An empty A field is refused with a message, nothing is started.
    typeAndCompare(view, QString(), QString());
    QVERIFY(!view.isBusy());
    QVERIFY(view.statusText().contains("Type the path of version A"));
  }

  void twoTypedBundles() {
    QTemporaryDir dir;
    const QString a = dir.filePath("a.tirxb"), b = dir.filePath("b.tirxb");
    writeSimBundle(dataPath("diff/shared_a.py"), a);
    writeSimBundle(dataPath("diff/shared_b.py"), b);
    JobRunner runner;
    Session session(runner);
    DiffView view(session);
    session.loadText("x = 1\n", QString());
    QSignalSpy ready(&view, &DiffView::diffReady);
    typeAndCompare(view, a, b);
    QVERIFY(ready.wait(120000));
    QVERIFY2(view.statusText().contains("a.tirxb (bundle"), qPrintable(view.statusText()));
    QVERIFY(view.statusText().contains("b.tirxb (bundle"));
    QVERIFY(view.summaryText().contains(QString("%1 elements moved").arg(sharedPairMoved().first)));
    QVERIFY(view.summaryText().contains("results: A passed 1/1"));
    QVERIFY(view.summaryText().contains("recorded on"));
    QVERIFY(tableValue(view.table(), "ran on", 1).endsWith("(recorded)"));
    QCOMPARE(tableValue(view.table(), "result", 2), QString("pass"));
    // A bundle records no simulator counts: no bank rows, and the tile's note says why.
    QVERIFY(tableValue(view.table(), "tile line 23 ld.shared.b32", 1).isEmpty());
    QVERIFY(view.data()->report.shared.at(0).accessNote.find("a bundle records no") !=
            std::string::npos);
  }

  void devicePickerReachesTheRequest() {
    MainWindow w(nullptr, false);
    QComboBox* devices = w.devicePicker();
    devices->addItem("cuda:0 — test", "cuda:0");
    devices->setCurrentIndex(devices->count() - 1);
    const int sm = w.session().sm();
    DiffView* view = w.diffView();
    QSignalSpy ready(view, &DiffView::diffReady);
    typeAndCompare(*view, dataPath("diff/shared_a.py"), dataPath("diff/shared_b.py"));
    QCOMPARE(view->lastRequest().device, QString("cuda:0"));
    QCOMPARE(view->lastRequest().sm, sm);
    QVERIFY(view->lastRequest().verify);
    QVERIFY(view->statusText().contains("verifying both on cuda:0"));
    QVERIFY(ready.wait(120000));
    // No GPU here: both sides say the device is unavailable and why, nothing pretends to pass.
    QVERIFY2(view->statusText().contains("not verified: device cuda:0 unavailable"),
             qPrintable(view->statusText()));
    QVERIFY2(view->summaryText().contains("A not verified: device cuda:0 unavailable ("),
             qPrintable(view->summaryText()));
    QVERIFY(view->summaryText().contains("B not verified: device cuda:0 unavailable ("));
    QVERIFY(view->statusText().contains("no CUDA driver"));  // the reason, from the executor
    QCOMPARE(tableValue(view->table(), "ran on", 1), QString("cuda:0 (unavailable)"));
    QVERIFY(tableValue(view->table(), "result", 1).isEmpty());  // no verdict row without a run
    QVERIFY(!view->data()->report.resultA.ran && view->data()->report.resultA.unavailable);
    // The layouts are compared all the same (no device needed).
    QCOMPARE(view->grid()->movedCount(), sharedPairMoved().first);
    // Back on the simulator, the next comparison runs there.
    devices->setCurrentIndex(devices->findData("sim"));
    typeAndCompare(*view, dataPath("diff/shared_a.py"), dataPath("diff/shared_b.py"));
    QCOMPARE(view->lastRequest().device, QString("sim"));
    QVERIFY(ready.wait(120000));
    QVERIFY(view->statusText().contains("(verified on sim)"));
  }

  void gpuDeviceRunsBothSidesThroughTheRunner() {
    // The fake GPU runner (tests/cli/fake_runner.cpp; its "kernel" writes nothing, so the check
    // fails there) stands in for cuda:0: each side goes through the studio's GPU executor.
    qputenv("TIRX_RUNNER", TIRX_FAKE_RUNNER);
    qputenv("TIRX_FAKE_RUNNER_MODE", "identity");
    MainWindow w(nullptr, false);
    w.devicePicker()->addItem("cuda:0 — fake", "cuda:0");
    w.devicePicker()->setCurrentIndex(w.devicePicker()->count() - 1);
    DiffView* view = w.diffView();
    QSignalSpy ready(view, &DiffView::diffReady);
    typeAndCompare(*view, dataPath("diff/shared_a.py"), dataPath("diff/shared_b.py"));
    const bool done = ready.wait(120000);
    qunsetenv("TIRX_RUNNER");
    qunsetenv("TIRX_FAKE_RUNNER_MODE");
    QVERIFY(done);
    const QString ranA = tableValue(view->table(), "ran on", 1);
    QVERIFY2(!ranA.isEmpty() && ranA != "sim" && !ranA.contains("unavailable"), qPrintable(ranA));
    QCOMPARE(tableValue(view->table(), "ran on", 2), ranA);
    QVERIFY2(view->statusText().contains("(verified on " + ranA + ")"),
             qPrintable(view->statusText()));
    QCOMPARE(tableValue(view->table(), "result", 1), QString("FAIL"));
    QCOMPARE(tableValue(view->table(), "result", 2), QString("FAIL"));
    // Bank counts are the simulator's: none for a GPU run, and the tile says so.
    QVERIFY(tableValue(view->table(), "tile line 23 ld.shared.b32", 1).isEmpty());
    QVERIFY(view->data()->report.shared.at(0).accessNote.find(", not the simulator") !=
            std::string::npos);
  }

  void mainWindowHasTheDock() {
    MainWindow w(nullptr, false);
    QVERIFY(w.dock("diff"));
    QCOMPARE(w.dock("diff")->widget(), static_cast<QWidget*>(w.diffView()));
  }
};

QTEST_MAIN(TstDiffView)
#include "tst_diff_view.moc"
