// Live analysis bounded by what is on screen (issue 22): legal scripts and typed layouts with tiles
// of 2^32 elements never abort the studio. The Layout dock shows a typed huge layout (typed into
// its field, Enter) and a huge tensor of a script in the "too large to tabulate; showing the region
// …" state and moves the region from its field; the worker's analysis of a script with 65536 ×
// 65536 tensors finishes with bounded hovers; the whole studio renders that script under a 4 GiB
// address space (`tirx-studio --screenshot` in a child with RLIMIT_AS); a recovered autosave of a
// grown GEMM (M = 409600) opens safely.
#include <sys/resource.h>

#include <QAbstractButton>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QStandardPaths>
#include <QtTest>

#include "core/layout/tile_layout.h"
#include "views/engine/autosave_manager.h"
#include "views/engine/job_runner.h"
#include "views/engine/script_facts.h"
#include "views/engine/session.h"
#include "views/widgets/layout_panel.h"
#include "views/widgets/main_window.h"

using namespace tirx;
using namespace tirx::views;

namespace {

constexpr int kWaitMs = 60000;

QString readFile(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QString hugeScript() {
  return readFile(TIRX_SOURCE_DIR "/tests/data/bounded/huge_tensor.py");
}

double peakRssMiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024.0;
}

}  // namespace

class TstLayoutBounded : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void typedHugeLayoutShowsTheBoundedState() {
    JobRunner runner;
    Session session(runner);
    LayoutPanel panel(session);
    panel.resize(900, 900);
    panel.show();
    QSignalSpy ready(&panel, &LayoutPanel::modelReady);
    auto* field = panel.findChild<QLineEdit*>("typedLayout");
    QVERIFY(field);
    field->setFocus();
    QTest::keyClicks(field, "S[(65536, 65536) : (65536, 1)]");
    QTest::keyClick(field, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, kWaitMs);
    const LayoutGridModel& m = panel.model();
    QVERIFY(m.bounded());
    QCOMPARE(m.elementCount(), int64_t(65536) * 65536);
    QVERIFY(m.cellCount() <= kMaxOwnershipEntries);
    QCOMPARE(m.rows(), int64_t(1024));
    QCOMPARE(m.cols(), int64_t(1024));
    QVERIFY2(panel.boundedText().startsWith(
                 "too large to tabulate: (65536, 65536) is 4294967296 elements"),
             qPrintable(panel.boundedText()));
    QVERIFY2(panel.boundedText().contains(
                 "showing the region rows 0–1023 × columns 0–1023 of 65536 × 65536"),
             qPrintable(panel.boundedText()));
    QVERIFY(panel.findChild<QLabel*>("boundedState")->isVisible());
    // a cell of the region: its element and owner come from the layout itself
    panel.selectCell(m.flatAt(3, 5));
    QVERIFY2(panel.infoText().contains("(3, 5)"), qPrintable(panel.infoText()));

    // another region, typed into the region field
    auto* region = panel.findChild<QLineEdit*>("regionField");
    QVERIFY(region && region->isVisible());
    region->selectAll();
    QTest::keyClicks(region, "40000, 60000");
    QTest::keyClick(region, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 2, kWaitMs);
    QCOMPARE(panel.model().row0(), int64_t(40000));
    QCOMPARE(panel.model().col0(), int64_t(60000));
    QCOMPARE(panel.model().cols(), int64_t(1024));
    panel.selectCell(0);
    QVERIFY2(panel.infoText().contains("(40000, 60000)"), qPrintable(panel.infoText()));
    QVERIFY2(panel.boundedText().contains("rows 40000–41023 × columns 60000–61023"),
             qPrintable(panel.boundedText()));

    // a small layout afterwards is whole again
    field->selectAll();
    QTest::keyClicks(field, "S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]");
    QTest::keyClick(field, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 3, kWaitMs);
    QVERIFY(!panel.model().bounded());
    QVERIFY(panel.boundedText().isEmpty());
    QVERIFY(!panel.findChild<QLabel*>("boundedState")->isVisible());
  }

  void windowedTableMatchesTheWholeOne() {
    // the window's owners are the whole table's, cell by cell (a cap of 64 entries forces it)
    TileLayout l;
    l.shard = {{4, 1, "warpid"}, {8, 4, "laneid"}, {4, 1, "laneid"}, {8, 1, "m"}};
    const std::vector<int64_t> shape{32, 32};
    const OwnershipTable whole = ownership(l, shape);
    QCOMPARE(whole.elementCount, int64_t(1024));
    const OwnershipTable capped = ownership(l, shape, 64);
    QVERIFY(capped.tooLarge);
    QCOMPARE(capped.elementCount, int64_t(0));
    const OwnershipTable w = ownershipWindow(l, shape, TableWindow{32, 5, 7, 100, 100}, 64);
    QCOMPARE(w.window.row0, int64_t(5));
    QCOMPARE(w.window.cols, int64_t(25));  // clamped to the fold's 32 columns
    QCOMPARE(w.window.rows, int64_t(2));   // then to 64 entries
    for (int64_t c = 0; c < w.elementCount; ++c) {
      const int64_t flat = w.elementOf(c);
      QCOMPARE(flat, (5 + c / 25) * 32 + 7 + c % 25);
      QCOMPARE(w.ownersOf(c)[0], whole.ownersOf(flat)[0]);
    }
    // the summary of a tile past the cap still counts its threads from the thread axes
    TileLayout big;
    big.shard = {{65536, 2048, "m"}, {4, 1, "warpid"}, {32, 1, "laneid"}, {16, 1, "m"}};
    const OwnershipSummary s = ownershipSummary(big, std::vector<int64_t>{65536, 2048});
    QCOMPARE(s.elements, int64_t(65536) * 2048);
    QVERIFY(!s.tabulated);
    QCOMPARE(s.threadsUsed, int64_t(128));
    QCOMPARE(s.maxSlotsUsed, int64_t(-1));
  }

  void analysisOfHugeTensorsIsBounded() {
    const double before = peakRssMiB();
    const ScriptFacts facts = analyzeScript(hugeScript().toStdString(), "huge_tensor.py", 90);
    QVERIFY(facts.frontEnd->ok());
    const ir::Program& prog = facts.frontEnd->program;
    int a = -1;
    for (int i = 0; i < int(prog.symbols.size()); ++i)
      if (prog.symbols[size_t(i)].name == "A" && prog.symbols[size_t(i)].kernel == "huge") a = i;
    QVERIFY(a >= 0);
    const std::string hover = describeLayoutSymbol(prog, facts.layouts, a);
    QVERIFY2(
        hover.find("4294967296 elements · global memory, 17179869184 bytes") != std::string::npos,
        hover.c_str());
    QVERIFY2(peakRssMiB() - before < 512, qPrintable(QString::number(peakRssMiB() - before)));
  }

  void hugeScriptTensorInTheLayoutDock() {
    JobRunner runner;
    Session session(runner);
    LayoutPanel panel(session);
    panel.resize(900, 900);
    panel.show();
    session.loadText(hugeScript(), QString());
    QTRY_VERIFY_WITH_TIMEOUT(session.facts() != nullptr, kWaitMs);
    QSignalSpy ready(&panel, &LayoutPanel::modelReady);
    QVERIFY(panel.showSymbol("Av"));
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() >= 1 && panel.model().bounded(), kWaitMs);
    QVERIFY2(panel.boundedText().contains("too large to tabulate: (4194304, 8, 32, 4)"),
             qPrintable(panel.boundedText()));
    QVERIFY(panel.model().cellCount() <= kMaxOwnershipEntries);
    // an element far outside the region, selected from elsewhere (Results): the region follows
    const qint64 element = qint64(3000000) * 1024 + 17;
    const ir::Symbol* av = nullptr;  // selected by its buffer, as the Results dock names it
    for (const auto& sym : session.facts()->frontEnd->program.symbols)
      if (sym.name == "Av") av = &sym;
    QVERIFY(av && av->buffer >= 0);
    session.selectElement(QString::fromStdString(av->kernel), av->buffer, element);
    QTRY_VERIFY_WITH_TIMEOUT(panel.model().cellOf(element) >= 0, kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(panel.infoText().contains("(3000000, 0, 4, 1)"), kWaitMs);
  }

  void studioRendersHugeScriptIn4GiB() {
    // the whole studio (every dock, check, compile, verify of the small kernel) in a child process
    // whose address space is capped at 4 GiB: a bad_alloc would abort it
    const QString studio = QFileInfo(QStringLiteral(TIRX_BIN)).dir().filePath("tirx-studio");
    if (!QFileInfo::exists(studio)) QSKIP("tirx-studio is not built");
    QTemporaryDir dir;
    for (const QString dock : {"layout", "editor"}) {
      QProcess p;
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      env.insert("QT_QPA_PLATFORM", "offscreen");
      p.setProcessEnvironment(env);
      p.setChildProcessModifier([] {
        rlimit lim{rlim_t(4) << 30, rlim_t(4) << 30};
        setrlimit(RLIMIT_AS, &lim);
      });
      const QString png = dir.filePath(dock + ".png");
      p.start(studio, {"--screenshot", png, "--dock", dock, "--line", "22",
                       TIRX_SOURCE_DIR "/tests/data/bounded/huge_tensor.py"});
      QVERIFY(p.waitForFinished(240000));
      QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
               qPrintable(QString::fromUtf8(p.readAllStandardError())));
      QVERIFY(QImage(png).width() > 100);
    }
  }

  void recoveredGrownGemmOpensSafely() {
    // The autosave of `M = 409600` in the 4096 GEMM (tensors of 1.7·10^9 elements): recovery is
    // offered, accepted, and the text is analysed and shown within bounded memory.
    QString text = readFile(TIRX_SOURCE_DIR "/bench/kernels/gemm_bf16_4096_ws.py");
    QVERIFY(text.contains("\nM = 4096\n"));
    text.replace("\nM = 4096\n", "\nM = 409600\n");
    {
      JobRunner runner;
      Session crashed(runner);
      AutosaveManager autosave(crashed);
      crashed.setText(text);
      QVERIFY(autosave.writeNow());
      // the writer "crashes": its lock goes with it, its file stays
    }
    QVERIFY(!AutosaveManager::orphans().isEmpty());
    QTimer::singleShot(0, [] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
        box->button(QMessageBox::Yes)->click();
    });
    const double before = peakRssMiB();
    MainWindow w(nullptr, true);
    w.resize(1200, 800);
    w.show();
    QCOMPARE(w.session().text(), text);
    QTRY_VERIFY_WITH_TIMEOUT(
        w.session().facts() && w.session().facts()->source == text.toStdString(), kWaitMs);
    QVERIFY(w.session().facts()->frontEnd->ok());
    QTRY_VERIFY_WITH_TIMEOUT(w.runner().isIdle(), kWaitMs);
    QVERIFY2(peakRssMiB() - before < 1024, qPrintable(QString::number(peakRssMiB() - before)));
    AutosaveManager::discardOrphans();
  }
};

QTEST_MAIN(TstLayoutBounded)
#include "tst_layout_bounded.moc"
