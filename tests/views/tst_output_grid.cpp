// The output grid (views/models/output_grid.*, the Results dock's Grid tab): the fold and the
// sampling on hand-made checks (a 2^20-element output with one bad element drawn as 256 × 512
// cells, the bad one's cell framed; thousands of outer blocks folded into rows); then the studio: a
// verify of the bundled activation.py with two reference elements made wrong frames exactly those
// two cells, with the kernel's values (checked against SiLU recomputed here) and the wrong
// references in the hover text; the |error| view; a click on a worst-element row selects its cell;
// sqrt of −1 painted NaN magenta (framed only when the check says NaN ≠ NaN); the H200 bundle's
// recorded output on the grid once the bundle is opened.
#include <QComboBox>
#include <QTabWidget>
#include <QTreeWidget>
#include <QtTest>
#include <cmath>

#include "core/layout/tile_layout.h"
#include "studio_test_util.h"
#include "views/engine/engine_products.h"
#include "views/engine/job_runner.h"
#include "views/engine/session.h"
#include "views/models/output_grid.h"
#include "views/widgets/layout_canvas.h"
#include "views/widgets/output_grid_view.h"
#include "views/widgets/results_view.h"

using namespace tirx;
using namespace tirx::views;

namespace {

constexpr int kWaitMs = 120000;

QString readSource(const QString& rel) {
  QFile f(QStringLiteral(TIRX_SOURCE_DIR "/") + rel);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(f.fileName()));
  return QString::fromUtf8(f.readAll());
}

/// activation.py's output element f: silu(x) * 2 + 1 with x = linspace(-2, 2, 256).
double activationAt(int64_t f) {
  const double x = double(float(-2.0 + 4.0 * double(f) / 255.0));
  return x / (1 + std::exp(-x)) * 2 + 1;
}

/// Verifies `text` in a ResultsView with the Grid tab raised and waits for its grid.
struct Studio {
  JobRunner runner;
  Session session{runner};
  ResultsView view{session};
  OutputGridView* grid = view.outputGrid();

  Studio() {
    view.resize(1100, 700);
    view.show();
    view.pickTab("grid");
  }
  bool verify(const QString& text, const QString& name) {
    QSignalSpy ready(grid, &OutputGridView::gridReady);
    session.loadText(text, name);
    session.requestCompileAndVerify();
    return ready.wait(kWaitMs) || ready.count() > 0;
  }
};

/// A mouse move over `w` at `pos`, delivered to `w` itself (offscreen windows may overlap).
void hover(QWidget* w, QPoint pos) {
  QMouseEvent e(QEvent::MouseMove, pos, w->mapToGlobal(pos), Qt::NoButton, Qt::NoButton,
                Qt::NoModifier);
  QApplication::sendEvent(w, &e);
}

/// The cell shown for element `coord` of the grid's check.
int64_t cellOf(const OutputGrid& g, const std::vector<int64_t>& coord) {
  return outputGridCellOf(g, flatten(coord, g.shape));
}

}  // namespace

class TstOutputGrid : public QObject {
  Q_OBJECT
 private slots:
  void sampledLargeOutput();
  void manyBlocksFold();
  void wrongReferenceMarked();
  void nanHighlighted();
  void bundleOutputs();
};

void TstOutputGrid::sampledLargeOutput() {
  verify::Check c;
  c.name = "big (line 1)";
  c.shape = {1024, 1024};
  c.rtol = 1e-5;
  c.atol = 1e-6;
  c.output.resize(size_t(1) << 20);
  for (size_t i = 0; i < c.output.size(); ++i) c.output[i] = double(i % 1000) / 100;
  c.reference = c.output;
  c.reference[size_t(513 * 1024 + 77)] += 0.5;  // one element off: (513, 77)
  const OutputGrid g = buildOutputGrid(c, OutputGridMode::AbsError, 256, 512);
  QVERIFY(g.ok);
  QVERIFY(g.sampled);
  QCOMPARE(g.rowStep, int64_t{4});
  QCOMPARE(g.colStep, int64_t{2});
  QCOMPARE(g.grid.rows(), int64_t{256});
  QCOMPARE(g.grid.cols(), int64_t{512});
  QCOMPARE(g.mismatches, int64_t{1});
  QCOMPARE(g.grid.mismatchCells(), int64_t{1});
  const int64_t cell = cellOf(g, {513, 77});
  QCOMPARE(cell, int64_t{(513 / 4) * 512 + 77 / 2});
  const CellValue& v = g.grid.values()[size_t(cell)];
  QVERIFY(v.mismatch);
  QVERIFY(std::fabs(v.value - 0.5) < 1e-12);  // the block's worst element: its |error|
  QCOMPARE(g.cellElement[size_t(cell)], int64_t{513 * 1024 + 77});
  QVERIFY(QString::fromStdString(g.note).contains("sampled to 256 × 512 cells"));
  // the rulers count the output's rows and columns
  QCOMPARE(g.grid.rowRulerValue(128), int64_t{512});
  QCOMPARE(g.grid.colRulerValue(38), int64_t{76});
  const QString details = QString::fromStdString(outputGridDetails(g, c, cell));
  QVERIFY2(details.startsWith("element (513, 77) (flat 525389)"), qPrintable(details));
  QVERIFY(details.contains("outside the tolerance"));
  QVERIFY(details.contains("this cell stands for 8 elements (4 rows × 2 columns): 1 outside"));
}

void TstOutputGrid::manyBlocksFold() {
  verify::Check c;
  c.name = "blocks";
  c.shape = {600, 2, 3};
  c.output.assign(3600, 1.0);
  c.reference = c.output;
  c.reference[size_t(599 * 6 + 1 * 3 + 2)] = 2;  // (599, 1, 2)
  OutputGrid g = buildOutputGrid(c, OutputGridMode::Value, 256, 512);
  QVERIFY(g.ok);
  QVERIFY(g.blocksFolded);  // 600 blocks cannot each have a row among 256
  QCOMPARE(g.grid.cols(), int64_t{3});
  QCOMPARE(g.grid.rows(), int64_t{240});  // 1200 rows, 5 per cell
  const int64_t cell = cellOf(g, {599, 1, 2});
  QCOMPARE(cell, int64_t{(1199 / 5) * 3 + 2});
  QVERIFY(g.grid.values()[size_t(cell)].mismatch);
  // A few blocks keep their labels: (2, 32, 4) is two blocks of 32 × 4.
  c.shape = {2, 32, 4};
  c.output.assign(256, 0.5);
  c.reference = c.output;
  g = buildOutputGrid(c, OutputGridMode::Value, 256, 512);
  QVERIFY(!g.sampled && !g.blocksFolded);
  QCOMPARE(g.grid.blockCount(), int64_t{2});
  QCOMPARE(QString::fromStdString(g.grid.blockLabel(1)), QString("[1, :, :]"));
  // No values: nothing to lay out, and why.
  c.output.clear();
  g = buildOutputGrid(c, OutputGridMode::Value);
  QVERIFY(!g.ok);
  QVERIFY(QString::fromStdString(g.note).contains("no output values"));
}

void TstOutputGrid::wrongReferenceMarked() {
  QString text = readSource("resources/examples/activation.py");
  text.replace("np.testing.assert_allclose(out.numpy(), ref",
               "ref = ref.copy()\nref[1, 3, 2] = 7.0\nref[0, 31, 0] = -1.0\n"
               "np.testing.assert_allclose(out.numpy(), ref");
  Studio s;
  QVERIFY(s.verify(text, "activation.py"));
  QCOMPARE(s.view.verdictText(), QString("FAIL"));
  const OutputGrid& g = s.grid->grid();
  QVERIFY(g.ok);
  QCOMPARE(g.grid.rows(), int64_t{64});
  QCOMPARE(g.grid.cols(), int64_t{4});
  QCOMPARE(g.grid.blockCount(), int64_t{2});
  QCOMPARE(g.grid.colouring(), LayoutColouring::Values);
  // Exactly the two wrong elements are framed: (1, 3, 2) is row 32 + 3, column 2.
  std::vector<int64_t> framed;
  for (int64_t f = 0; f < g.grid.cellCount(); ++f)
    if (g.grid.values()[size_t(f)].mismatch) framed.push_back(f);
  QCOMPARE(framed, (std::vector<int64_t>{31 * 4 + 0, 35 * 4 + 2}));
  QCOMPARE(cellOf(g, {1, 3, 2}), int64_t{35 * 4 + 2});
  // Every cell holds the kernel's value (SiLU recomputed here) and its reference.
  for (int64_t f = 0; f < g.grid.cellCount(); ++f) {
    const CellValue& v = g.grid.values()[size_t(f)];
    QVERIFY2(std::fabs(v.value - activationAt(f)) < 1e-5, qPrintable(QString::number(f)));
    QVERIFY(v.hasReference);
  }
  QCOMPARE(g.grid.values()[35 * 4 + 2].reference, 7.0);
  QCOMPARE(g.grid.values()[31 * 4].reference, -1.0);
  QVERIFY(s.grid->noteText().contains("2 of 256 elements outside the tolerance (rtol 2e-05"));
  QVERIFY(s.grid->canvas()->legendText().contains("colour: value"));
  QVERIFY(s.grid->canvas()->legendText().contains("framed: outside the tolerance (2 cells)"));

  // Hover the wrong cell: its output, the wrong reference, the error.
  LayoutCanvas* canvas = s.grid->canvas();
  canvas->setCellSize(40);
  canvas->ensureVisible(35 * 4 + 2);
  hover(canvas, canvas->cellRect(35 * 4 + 2).center().toPoint());
  QTRY_VERIFY2(s.grid->infoText().startsWith("element (1, 3, 2) (flat 142)"),
               qPrintable(s.grid->infoText()));
  QVERIFY(s.grid->infoText().contains(
      QString("output %1, reference 7")
          .arg(QString::fromStdString(valueText(CellValue{g.grid.values()[35 * 4 + 2].value})))));
  QVERIFY(s.grid->infoText().contains("outside the tolerance"));

  // The |error| view: the same frames, the errors as values.
  QSignalSpy ready(s.grid, &OutputGridView::gridReady);
  s.grid->setMode(OutputGridMode::AbsError);
  QVERIFY(ready.wait(kWaitMs));
  QCOMPARE(s.grid->grid().grid.mismatchCells(), int64_t{2});
  QVERIFY(std::fabs(s.grid->grid().grid.values()[35 * 4 + 2].value - (7.0 - activationAt(142))) <
          1e-5);

  // A worst-element row selects its cell: the worst is (1, 3, 2) (error 5.75).
  QTreeWidget* worst = s.view.worstTree();
  QCOMPARE(worst->topLevelItemCount(), 2);
  QTreeWidgetItem* second = worst->topLevelItem(1);
  QCOMPARE(second->text(0), QString("[0, 31, 0]"));
  worst->setCurrentItem(second);
  QTest::mouseClick(worst->viewport(), Qt::LeftButton, {}, worst->visualItemRect(second).center());
  QCOMPARE(canvas->selectedCell(), int64_t{31 * 4});
  QVERIFY2(s.grid->infoText().startsWith("element (0, 31, 0)"), qPrintable(s.grid->infoText()));
  QTreeWidgetItem* first = worst->topLevelItem(0);
  worst->setCurrentItem(first);
  QTest::mouseClick(worst->viewport(), Qt::LeftButton, {}, worst->visualItemRect(first).center());
  QCOMPARE(canvas->selectedCell(), int64_t{35 * 4 + 2});
  if (qEnvironmentVariableIsSet("TIRX_OUTPUT_GRID_SHOT")) {
    canvas->fitToView();
    s.grid->setMode(OutputGridMode::Value);
    QVERIFY(ready.wait(kWaitMs));
    s.view.grab().save(qEnvironmentVariable("TIRX_OUTPUT_GRID_SHOT") + "/results_grid.png");
  }
}

void TstOutputGrid::nanHighlighted() {
  const QString text = readSource("tests/data/debug/sqrt_nan.py");
  Studio s;
  QVERIFY(s.verify(text, "sqrt_nan.py"));
  QCOMPARE(s.view.verdictText(), QString("PASS"));  // NaN against np.sqrt(-1) = NaN
  const LayoutGridModel& m = s.grid->grid().grid;
  QCOMPARE(m.cellCount(), int64_t{4});
  QVERIFY(m.values()[1].nan);
  QCOMPARE(m.colours()[1], LayoutGridModel::kNanColour);
  QCOMPARE(QString::fromStdString(m.cellLabel(1)), QString("nan"));
  QCOMPARE(m.colours()[2], LayoutGridModel::kInfColour);  // sqrt(+inf)
  QCOMPARE(m.mismatchCells(), int64_t{0});
  // With equal_nan=False the NaN is a mismatch: framed, and still magenta.
  QString strict = text;
  strict.replace("equal_nan=True", "equal_nan=False");
  QVERIFY(s.verify(strict, "sqrt_nan.py"));
  QCOMPARE(s.view.verdictText(), QString("FAIL"));
  const LayoutGridModel& m2 = s.grid->grid().grid;
  QCOMPARE(m2.mismatchCells(), int64_t{1});
  QVERIFY(m2.values()[1].mismatch);
  QCOMPARE(m2.colours()[1], LayoutGridModel::kNanColour);
}

void TstOutputGrid::bundleOutputs() {
  // Recorded on the H200 (tests/data/bundles/README.md): the GPU's output fills the grid.
  OpenedBundle b = loadBundleFile(TIRX_SOURCE_DIR "/tests/data/bundles/activation_h200.tirxb");
  QVERIFY2(b.ok, b.error.c_str());
  Studio s;
  QSignalSpy ready(s.grid, &OutputGridView::gridReady);
  s.session.showRecorded(QString::fromStdString(b.script), QString::fromStdString(b.scriptFile),
                         std::move(b.products), std::move(b.report));
  QVERIFY(ready.wait(kWaitMs) || ready.count() > 0);
  const OutputGrid& g = s.grid->grid();
  QVERIFY(g.ok);
  QCOMPARE(g.grid.cellCount(), int64_t{256});
  QCOMPARE(g.grid.mismatchCells(), int64_t{0});
  QVERIFY(s.grid->noteText().contains("0 of 256 elements outside the tolerance"));
  const auto& check = s.session.report()->engine.checks.at(0);
  for (int64_t f = 0; f < 256; ++f) {
    QCOMPARE(g.grid.values()[size_t(f)].value, check.output[size_t(f)]);
    QVERIFY(std::fabs(check.output[size_t(f)] - activationAt(f)) < 2e-5);  // the GPU's expf
  }
}

QTEST_MAIN(TstOutputGrid)
#include "tst_output_grid.moc"
