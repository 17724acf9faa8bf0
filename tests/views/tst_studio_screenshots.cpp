// `tirx-studio --screenshot` as scripts/screenshots.sh runs it (the real binary, offscreen): the
// Assembly dock with script line 28 selected renders in both themes — the window's dominant colour
// dark in the dark theme and light in the light one, the selected line's generated lines painted
// on that theme's generated-line background from the theme table (and never on the other
// theme's) — and the Diff dock's changed rows and headers in the dark theme use the dark table's
// colours. A dock that renders empty (no file open: no text, no cells, no checks, no comparison)
// fails the shot with exit status 4 and a message naming the dock; a PNG that cannot be written
// fails with 1. The Results grid's note of elements outside the tolerance takes the theme's FAIL
// colour (it was a fixed dark red: 2.4:1 on the dark window).
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <map>

#include "views/engine/job_runner.h"
#include "views/engine/session.h"
#include "views/models/theme.h"
#include "views/widgets/application_theme.h"
#include "views/widgets/output_grid_view.h"
#include "views/widgets/results_view.h"
#include "views/widgets/screenshot_runner.h"

using namespace tirx::views;

namespace {

struct Shot {
  int code = -1;
  QString err;
  QImage image;
};

/// Runs the studio binary with `args` after `--screenshot PNG` (settings kept in `dir`).
Shot screenshot(const QTemporaryDir& dir, const QString& png, const QStringList& args) {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("QT_QPA_PLATFORM", "offscreen");
  env.insert("XDG_CONFIG_HOME", dir.filePath("config"));  // no saved theme or layout
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(TIRX_STUDIO_BIN), QStringList{"--screenshot", png} + args);
  Shot s;
  if (!p.waitForFinished(180000)) {
    p.kill();
    p.waitForFinished(5000);
    return s;
  }
  s.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  s.err = QString::fromUtf8(p.readAllStandardError());
  s.image.load(png);
  return s;
}

/// The colour most pixels of `image` have.
QColor dominant(const QImage& image) {
  std::map<QRgb, int64_t> counts;
  const QImage img = image.convertToFormat(QImage::Format_RGB32);
  for (int y = 0; y < img.height(); y += 2)
    for (int x = 0; x < img.width(); x += 2) ++counts[img.pixel(x, y)];
  QRgb best = 0;
  int64_t n = -1;
  for (const auto& [rgb, c] : counts)
    if (c > n) best = rgb, n = c;
  return QColor(best);
}

/// How many pixels of `image` are exactly `colour`.
int64_t pixelsOf(const QImage& image, const QColor& colour) {
  const QImage img = image.convertToFormat(QImage::Format_RGB32);
  int64_t n = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) n += img.pixel(x, y) == colour.rgb();
  return n;
}

QString example(const char* name) {
  return QStringLiteral(TIRX_SOURCE_DIR "/resources/examples/") + name;
}

}  // namespace

class TstStudioScreenshots : public QObject {
  Q_OBJECT
 private slots:
  void assemblyInBothThemes_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
  }
  void assemblyInBothThemes() {
    QFETCH(bool, dark);
    QTemporaryDir dir;
    const QString png = dir.filePath("assembly.png");
    const Shot s = screenshot(dir, png,
                              {example("shared_affine.py"), "--dock", "assembly", "--line", "28",
                               "--theme", dark ? "dark" : "light"});
    QVERIFY2(s.code == 0, qPrintable(QString("exit %1: %2").arg(s.code).arg(s.err)));
    QVERIFY2(!s.image.isNull(), qPrintable(png));
    QCOMPARE(s.image.size(), QSize(1600, 1000));
    const ThemeColours& t = themeColours(dark);
    QCOMPARE(dominant(s.image).lightness() < 128, dark);
    // the lines of script line 28 are drawn on the theme's generated-line background, and that
    // background is the table's (readable under the table's syntax colours: tst_theme)
    QVERIFY2(pixelsOf(s.image, t.generatedLine.background) > 2000, qPrintable(s.err));
    QVERIFY(pixelsOf(s.image, themeColours(!dark).generatedLine.background) == 0);
  }

  // The benchmark-sized attention kernel (4096 CTAs, 512 MiB of tensors) compiles and shows S's
  // fragment map without running its check code (`--compile-only`), well inside the timeout.
  void benchmarkKernelCompileOnly() {
    QTemporaryDir dir;
    const QString png = dir.filePath("attention.png");
    QElapsedTimer t;
    t.start();
    const Shot s =
        screenshot(dir, png,
                   {QStringLiteral(TIRX_SOURCE_DIR "/bench/kernels/attention_fwd_bf16_d128.py"),
                    "--dock", "layout", "--line", "126", "--compile-only"});
    QVERIFY2(s.code == 0, qPrintable(QString("exit %1: %2").arg(s.code).arg(s.err)));
    QVERIFY(!s.image.isNull());
    QVERIFY2(t.elapsed() < 120000, qPrintable(QString::number(t.elapsed())));
    QVERIFY(!s.err.contains("timed out"));
  }

  void darkDiffRows() {
    QTemporaryDir dir;
    const QString png = dir.filePath("diff_view-dark.png");
    const QString data = QStringLiteral(TIRX_SOURCE_DIR "/tests/data/diff/");
    const Shot s = screenshot(dir, png,
                              {data + "activation_b.py", "--dock", "diff", "--diff",
                               data + "activation_a.py", "--pick", "ptx", "--theme", "dark"});
    QVERIFY2(s.code == 0, qPrintable(QString("exit %1: %2").arg(s.code).arg(s.err)));
    const ThemeColours& t = themeColours(true);
    QVERIFY(dominant(s.image).lightness() < 128);
    QVERIFY2(
        pixelsOf(s.image, t.diffRemoved.background) + pixelsOf(s.image, t.diffAdded.background) >
            2000,
        qPrintable(s.err));
    QVERIFY2(pixelsOf(s.image, t.diffHeader.background) > 1000, qPrintable(s.err));
    QVERIFY(pixelsOf(s.image, themeColours(false).diffAdded.background) == 0);
  }

  void anEmptyDockFailsTheShot_data() {
    QTest::addColumn<QString>("dock");
    for (const char* dock : {"editor", "layout", "assembly", "results", "diff"})
      QTest::newRow(dock) << dock;
  }
  void anEmptyDockFailsTheShot() {
    // no file: nothing to show in any of these docks (a PNG is still written, to look at)
    QFETCH(QString, dock);
    QTemporaryDir dir;
    const QString png = dir.filePath("empty.png");
    const Shot s = screenshot(dir, png, {"--dock", dock, "--theme", "dark"});
    QCOMPARE(s.code, 4);
    QVERIFY2(s.err.contains("tirx-studio: the " + dock + " dock rendered empty"),
             qPrintable(s.err));
    QVERIFY(!s.image.isNull());
  }

  void gridNoteTakesTheTheme() {
    // the Results grid's "2 of 256 elements outside the tolerance" note was a fixed #c0302f
    // (2.4:1 on the dark window): now the theme's FAIL colour
    applyApplicationTheme(true);
    JobRunner runner;
    Session session(runner);
    ResultsView view(session);
    view.resize(1100, 700);
    view.show();
    view.pickTab("grid");
    QFile f(example("activation.py"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(f.readAll());
    text.replace(
        "np.testing.assert_allclose(out.numpy(), ref",
        "ref = ref.copy()\nref[1, 3, 2] = 7.0\nnp.testing.assert_allclose(out.numpy(), ref");
    QSignalSpy ready(view.outputGrid(), &OutputGridView::gridReady);
    session.loadText(text, "activation.py");
    session.requestCompileAndVerify();
    QVERIFY(ready.wait(120000) || ready.count() > 0);
    const QString note = view.outputGrid()->noteText();
    QVERIFY2(note.contains("1 of 256 elements outside the tolerance"), qPrintable(note));
    QLabel* label = nullptr;
    for (QLabel* l : view.outputGrid()->findChildren<QLabel*>())
      if (l->text() == note) label = l;
    QVERIFY(label);
    const ThemeColours& t = themeColours(true);
    QCOMPARE(label->styleSheet(), styleSheetColour(t.fail.text));
    QVERIFY(contrastRatio(t.fail.text, view.palette().color(QPalette::Window)) >= 4.5);
    applyApplicationTheme(false);
  }

  void anUnwritableShotFails() {
    QTemporaryDir dir;
    const Shot s = screenshot(dir, dir.filePath("no/such/folder/x.png"),
                              {example("shared_affine.py"), "--dock", "layout"});
    QCOMPARE(s.code, 1);
    QVERIFY2(s.err.contains("cannot write"), qPrintable(s.err));
  }
};

QTEST_MAIN(TstStudioScreenshots)
#include "tst_studio_screenshots.moc"
