// The studio's polish (issue 22), through the main window as a user drives it:
// - Open, New and Examples start clean: the Debugger's session, the Layout dock's tile and line
//   links, the Diff dock's comparison, Results, Problems and the editor's scroll, caret and undo
//   history all belong to the new document; a verify still running for the old one never lands.
// - Ctrl+= / Ctrl++ / Ctrl+- / Ctrl+0 zoom the editor and the Assembly panes and type nothing.
// - Every action, button and label reads as plain text: "Compile & Verify", never "&&" or "&amp;".
// - A Stop is CANCELLED: not FAIL, not a fault (Results, Problems, fault markers, status bar).
#include <QAbstractButton>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QStatusBar>
#include <QTextDocument>
#include <QTreeWidget>
#include <QtTest>

#include "views/engine/autosave_manager.h"
#include "views/engine/job_runner.h"
#include "views/engine/session.h"
#include "views/models/layout_grid_model.h"
#include "views/widgets/assembly_view.h"
#include "views/widgets/debugger_panel.h"
#include "views/widgets/diff_view.h"
#include "views/widgets/editor_widget.h"
#include "views/widgets/layout_panel.h"
#include "views/widgets/main_window.h"
#include "views/widgets/problems_panel.h"
#include "views/widgets/results_view.h"

using namespace tirx::views;

namespace {

constexpr int kWaitMs = 120000;

QString source(const char* relative) {
  return QStringLiteral(TIRX_SOURCE_DIR "/") + relative;
}

/// The text a user sees for an action's or button's label: "&&" is one "&", "&x" is an
/// underlined x (QAction / QAbstractButton mnemonics).
QString shownMnemonicText(const QString& text) {
  QString out;
  for (int i = 0; i < text.size(); ++i) {
    if (text[i] == '&' && i + 1 < text.size()) ++i;  // "&&" → "&", "&V" → "V"
    out += text[i];
  }
  return out;
}

int editorZoom(EditorWidget* e) {
  return int(e->SendScintilla(QsciScintillaBase::SCI_GETZOOM));
}

/// The text a label shows: rich text rendered, plain text as it is.
QString shownLabelText(const QLabel* label) {
  const QString t = label->text();
  if (label->textFormat() == Qt::PlainText ||
      (label->textFormat() == Qt::AutoText && !Qt::mightBeRichText(t)))
    return t;
  QTextDocument doc;
  doc.setHtml(t);
  return doc.toPlainText();
}

}  // namespace

class TstStudioPolish : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("TIRxTest");
    QCoreApplication::setApplicationName("tst_studio_polish");
    QSettings().clear();
    AutosaveManager::discardOrphans();
  }

  void openNewAndExamplesStartClean_data() {
    QTest::addColumn<QString>("how");
    QTest::newRow("open") << "open";
    QTest::newRow("new") << "new";
    QTest::newRow("example") << "example";
  }
  void openNewAndExamplesStartClean() {
    QFETCH(QString, how);
    MainWindow w(nullptr, false);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openFile(source("resources/examples/gemm_ldmatrix_swizzled.py")));
    QTRY_VERIFY_WITH_TIMEOUT(w.session().facts() != nullptr, kWaitMs);

    // The old document's state in every dock: a debugger stop, a shown tile with its line
    // links, a comparison, an edit to undo, the editor scrolled down with the caret there.
    w.dock("debugger")->show();
    w.dock("debugger")->raise();
    DebuggerPanel* debugger = w.debuggerPanel();
    {
      QSignalSpy ready(debugger, &DebuggerPanel::viewReady);
      debugger->start();
      QVERIFY(ready.wait(kWaitMs));
      ready.clear();
      debugger->stepForward();
      QVERIFY(ready.wait(kWaitMs));
    }
    QVERIFY(debugger->active());
    QVERIFY(w.session().debugLine() > 0);
    QVERIFY(!w.editor()->markedLines(EditorWidget::DebugLineMarker).isEmpty());
    w.dock("layout")->show();
    w.dock("layout")->raise();
    LayoutPanel* layout = w.layoutPanel();
    {
      QSignalSpy ready(layout, &LayoutPanel::modelReady);
      QVERIFY(layout->showSymbol("acc"));
      QVERIFY(ready.wait(kWaitMs));
    }
    layout->selectCell(0);
    QVERIFY2(layout->infoText().contains("line"), qPrintable(layout->infoText()));
    QVERIFY(layout->model().cellCount() > 0);
    DiffView* diff = w.diffView();
    diff->setVerify(false);
    {
      QSignalSpy ready(diff, &DiffView::diffReady);
      diff->compareWithFile(source("tests/data/diff/activation_a.py"));
      QVERIFY(ready.wait(kWaitMs));
    }
    QVERIFY(diff->data());
    w.editor()->setCursorPosition(60, 4);
    w.editor()->insert("# an edit\n");
    QVERIFY(w.editor()->isUndoAvailable());
    w.editor()->setFirstVisibleLine(40);
    // a compile and verify of the old document, still running when the new one arrives
    w.compileAndVerify();
    QVERIFY(w.runner().isBatchBusy());
    w.session().setModified(false);  // no "save changes?" question

    if (how == "open")
      QVERIFY(w.openFile(source("tests/data/sim/race.py")));
    else if (how == "new")
      w.newFile();
    else
      QVERIFY(w.openExample(":/examples/fma.py"));

    // Debugger: no session, no stop, no grid, no line highlighted.
    QVERIFY(!debugger->active());
    QVERIFY2(debugger->statusText().startsWith("Not debugging"),
             qPrintable(debugger->statusText()));
    QCOMPARE(debugger->model().cellCount(), qint64(0));
    QCOMPARE(debugger->infoText(), QString());
    QCOMPARE(w.session().debugLine(), 0);
    QVERIFY(w.editor()->markedLines(EditorWidget::DebugLineMarker).isEmpty());
    // Layout: not the old tile, no old line links.
    QCOMPARE(layout->infoText(), QString());
    QVERIFY(layout->model().cellCount() == 0 || how != "new");
    // Diff: the old comparison is gone.
    QVERIFY(!diff->data());
    QVERIFY(diff->leftPane()->toPlainText().isEmpty());
    QVERIFY(diff->statusText().startsWith("Pick the version"));
    // Editor: at the top, caret at the start, nothing to undo back into the old file.
    QCOMPARE(w.editor()->firstVisibleLine(), 0);
    int line = -1, col = -1;
    w.editor()->getCursorPosition(&line, &col);
    QCOMPARE(line, 0);
    QCOMPARE(col, 0);
    QVERIFY(!w.editor()->isUndoAvailable());
    // The old verify never lands in the new document; Results say it has not run.
    QTRY_VERIFY_WITH_TIMEOUT(!w.runner().isBatchBusy(), kWaitMs);
    QTest::qWait(50);
    QVERIFY(!w.session().report());
    QVERIFY(!w.session().products());
    QVERIFY2(w.resultsView()->verdictText().startsWith("Not run yet"),
             qPrintable(w.resultsView()->verdictText()));
    // Problems: only the new document's (race.py and fma.py have none; an empty document has
    // the one a fresh window shows for its empty document).
    w.dock("problems")->show();
    w.dock("problems")->raise();
    QTRY_VERIFY_WITH_TIMEOUT(w.session().facts() != nullptr, kWaitMs);
    QString expected = QStringLiteral("no problems");
    if (how == "new") {
      MainWindow fresh(nullptr, false);
      fresh.show();
      QTRY_VERIFY_WITH_TIMEOUT(fresh.session().facts() != nullptr, kWaitMs);
      fresh.dock("problems")->show();
      fresh.dock("problems")->raise();
      QTest::qWait(50);
      expected = fresh.problemsPanel()->summaryText();
    }
    QTRY_COMPARE(w.problemsPanel()->summaryText(), expected);
  }

  void zoomKeysZoomAndTypeNothing() {
    MainWindow w(nullptr, false);
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openFile(source("tests/data/sim/race.py")));
    EditorWidget* editor = w.editor();
    editor->setFocus();
    QTRY_VERIFY(editor->hasFocus());
    const QString text = editor->text();
    QCOMPARE(editorZoom(editor), 0);
    QTest::keyClick(editor, Qt::Key_Equal, Qt::ControlModifier);
    QCOMPARE(editorZoom(editor), 1);
    QTest::keyClick(editor, Qt::Key_Plus, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(editorZoom(editor), 2);
    QTest::keyClick(editor, Qt::Key_Plus, Qt::ControlModifier | Qt::KeypadModifier);
    QCOMPARE(editorZoom(editor), 3);
    QTest::keyClick(editor, Qt::Key_Minus, Qt::ControlModifier);
    QCOMPARE(editorZoom(editor), 2);
    QTest::keyClick(editor, Qt::Key_0, Qt::ControlModifier);
    QCOMPARE(editorZoom(editor), 0);
    QCOMPARE(editor->text(), text);  // nothing typed
    QVERIFY(!w.session().isModified());

    // The Assembly panes zoom together; the key is not typed into the pane.
    w.dock("assembly")->show();
    w.dock("assembly")->raise();
    AssemblyView* assembly = w.assemblyView();
    QPlainTextEdit* ptx = assembly->text(AssemblyView::PtxTab);
    assembly->showTab(AssemblyView::PtxTab);
    ptx->setFocus();
    QTRY_VERIFY(ptx->hasFocus());
    const QString ptxText = ptx->toPlainText();
    const int points = assembly->fontPointSize();
    QTest::keyClick(ptx, Qt::Key_Equal, Qt::ControlModifier);
    QTest::keyClick(ptx, Qt::Key_Plus, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(assembly->zoom(), 2);
    QCOMPARE(assembly->fontPointSize(), points + 2);
    QCOMPARE(assembly->text(AssemblyView::SassTab)->font().pointSize(), points + 2);
    QCOMPARE(editorZoom(editor), 0);  // the focused view zooms, not the editor
    QTest::keyClick(ptx, Qt::Key_Minus, Qt::ControlModifier);
    QCOMPARE(assembly->fontPointSize(), points + 1);
    QTest::keyClick(ptx, Qt::Key_0, Qt::ControlModifier);
    QCOMPARE(assembly->fontPointSize(), points);
    QCOMPARE(ptx->toPlainText(), ptxText);

    // From another dock's focus, the window's View > Zoom actions zoom the editor.
    w.dock("diff")->show();
    w.dock("diff")->raise();
    w.diffView()->pathAField()->setFocus();
    QTRY_VERIFY(w.diffView()->pathAField()->hasFocus());
    QTest::keyClick(w.diffView()->pathAField(), Qt::Key_Equal, Qt::ControlModifier);
    QCOMPARE(editorZoom(editor), 1);
    QCOMPARE(w.diffView()->pathAField()->text(), QString());
  }

  void labelsArePlainText() {
    MainWindow w(nullptr, false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QStringList bad;
    auto check = [&bad](const QString& where, const QString& shown) {
      if (shown.contains("&&") || shown.contains("&amp;")) bad << where + ": " + shown;
    };
    int actions = 0, buttons = 0, labels = 0;
    bool sawCompileAndVerify = false;
    for (QAction* a : w.findChildren<QAction*>()) {
      ++actions;
      const QString shown = shownMnemonicText(a->text());
      check("action", shown);
      check("action tooltip", a->toolTip());
      sawCompileAndVerify |= shown == "Compile & Verify";
    }
    for (QMenu* m : w.menuBar()->findChildren<QMenu*>())
      for (QAction* a : m->actions()) check("menu item", shownMnemonicText(a->text()));
    for (QAbstractButton* b : w.findChildren<QAbstractButton*>()) {
      ++buttons;
      check("button", shownMnemonicText(b->text()));
      check("button tooltip", b->toolTip());
    }
    for (QLabel* l : w.findChildren<QLabel*>()) {  // hidden banners included
      ++labels;
      check(l->objectName().isEmpty() ? "label" : l->objectName(), shownLabelText(l));
    }
    QVERIFY2(bad.isEmpty(), qPrintable(bad.join("\n")));
    QVERIFY(sawCompileAndVerify);
    QVERIFY(actions > 20 && buttons > 20 && labels > 20);
    // the banners that said "Compile && Verify" and "Compile &amp; Verify"
    QLabel* banner = w.assemblyView()->findChild<QLabel*>("staleBanner");
    QVERIFY(banner);
    QVERIFY(shownLabelText(banner).contains("Compile & Verify (Ctrl+Return)"));
  }

  void stopIsCancelledNotFail() {
    MainWindow w(nullptr, false);
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    // tests/data/sim/budget_loop.py: `endless` runs until its budget: only a Stop ends it soon
    QVERIFY(w.openFile(source("tests/data/sim/budget_loop.py")));
    QSignalSpy reported(&w.session(), &Session::reportChanged);
    reported.clear();
    w.compileAndVerify();
    QTRY_VERIFY_WITH_TIMEOUT(w.stopAction()->isEnabled(), kWaitMs);
    QTest::qWait(800);  // the verify itself runs
    w.editor()->setFocus();
    QTest::keyClick(w.editor(), Qt::Key_Escape);
    QTRY_VERIFY_WITH_TIMEOUT(w.session().report() != nullptr, kWaitMs);
    const auto report = w.session().report();
    QVERIFY(report->cancelled);
    ResultsView* results = w.resultsView();
    w.dock("results")->show();
    w.dock("results")->raise();
    QTRY_COMPARE(results->verdictText(), QString("CANCELLED"));
    for (int i = 0; i < results->checksTree()->topLevelItemCount(); ++i)
      QCOMPARE(results->checksTree()->topLevelItem(i)->text(1), QString("cancelled"));
    // where the Stop ended the run: one row saying so, not a red E0740 fault
    bool stopRow = false;
    for (int i = 0; i < results->faultsTree()->topLevelItemCount(); ++i) {
      const QString text = results->faultsTree()->topLevelItem(i)->text(1);
      QVERIFY2(!text.startsWith("E0740"), qPrintable(text));
      stopRow |= text.startsWith("stopped here: the run was cancelled");
    }
    QVERIFY(stopRow);
    // not a problem of the script, no fault marker, and the status bar says cancelled
    w.dock("problems")->show();
    w.dock("problems")->raise();
    QTRY_COMPARE(w.problemsPanel()->summaryText(), QString("no problems"));
    QVERIFY(w.editor()->markedLines(EditorWidget::FaultMarker).isEmpty());
    QVERIFY2(QString::fromStdString(report->summary).startsWith("cancelled on sim"),
             report->summary.c_str());
    QVERIFY(!QString::fromStdString(report->summary).contains("FAIL"));
    QVERIFY(!QString::fromStdString(report->summary).contains("fault"));
  }
};

QTEST_MAIN(TstStudioPolish)
#include "tst_studio_polish.moc"
