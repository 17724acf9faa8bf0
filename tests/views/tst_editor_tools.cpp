// The editor's tools in a real main window, driven by keys and clicks: Ctrl+F finds (next,
// previous, wrap, match case, whole word, "n of m"), Ctrl+H replaces one and all (one undo step
// restores the text), Ctrl+G goes to LINE[:COL] and refuses what is outside the document, Esc
// closes the bars, F12 (one action, not two ambiguous ones) goes to a definition, and the
// Problems dock lists a typed error live with its code and FILE:LINE:COL, jumps there on a
// double-click and empties when the error is fixed.
#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QSettings>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>

#include "views/engine/autosave_manager.h"
#include "views/engine/session.h"
#include "views/widgets/editor_pane.h"
#include "views/widgets/editor_widget.h"
#include "views/widgets/find_bar.h"
#include "views/widgets/goto_line_bar.h"
#include "views/widgets/main_window.h"
#include "views/widgets/problems_panel.h"

using namespace tirx::views;

namespace {
constexpr int kWaitMs = 30000;  // a loaded 2-core CI machine; a passing run never waits this long

const char* kText =
    "alpha = 1\n"
    "Alpha = 2\n"
    "alphabet = alpha + Alpha\n"
    "beta = alpha\n";

const char* kKernel =
    "from tvm.script import tirx as T\n"
    "\n"
    "\n"
    "@T.function\n"
    "def k(A: T.Tensor((32,), \"float32\")):\n"
    "    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))\n"
    "    tid = T.cuda.thread_idx(\"x\")\n"
    "    A[tid] = A[tid] + T.float32(1)\n";

QString selected(EditorWidget* e) {
  return e->selectedText();
}
int caretLine(EditorWidget* e) {
  int line = 0, index = 0;
  e->getCursorPosition(&line, &index);
  return line + 1;
}
int caretCol(EditorWidget* e) {
  int line = 0, index = 0;
  e->getCursorPosition(&line, &index);
  return index + 1;
}
}  // namespace

class TstEditorTools : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("TIRxTest");
    QCoreApplication::setApplicationName("tst_editor_tools");
    QSettings().clear();
    AutosaveManager::discardOrphans();
  }

  void findNextPreviousAndOptions() {
    MainWindow w(nullptr, false);
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    EditorWidget* e = w.editor();
    e->setText(kText);
    e->setCursorPosition(0, 0);
    e->setFocus();
    FindBar* bar = w.editorPane()->findBar();
    QVERIFY(!bar->isVisible());

    QTest::keyClick(e, Qt::Key_F, Qt::ControlModifier);
    QVERIFY(bar->isVisible());
    QVERIFY(bar->findEdit()->hasFocus());
    QVERIFY(!bar->replaceEdit()->isVisible());
    QTest::keyClicks(bar->findEdit(), "alpha");
    // case-insensitive by default: alpha, Alpha, alpha(bet), alpha, Alpha, alpha
    QCOMPARE(bar->matches().size(), 6);
    QCOMPARE(selected(e), QString("alpha"));
    QCOMPARE(caretLine(e), 1);
    QCOMPARE(bar->statusText(), QString("1 of 6"));
    // every match carries the highlight indicator
    for (const auto& m : bar->matches()) QVERIFY(e->indicatorAt(FindBar::MatchIndicator, m.first));

    QTest::keyClick(bar->findEdit(), Qt::Key_Return);  // next
    QCOMPARE(selected(e), QString("Alpha"));
    QCOMPARE(caretLine(e), 2);
    QCOMPARE(bar->statusText(), QString("2 of 6"));
    QTest::keyClick(bar->findEdit(), Qt::Key_Return, Qt::ShiftModifier);  // previous
    QCOMPARE(bar->statusText(), QString("1 of 6"));
    QTest::keyClick(bar->findEdit(), Qt::Key_Return, Qt::ShiftModifier);  // wraps to the last
    QCOMPARE(bar->statusText(), QString("6 of 6"));
    QCOMPARE(caretLine(e), 4);
    QTest::keyClick(bar->findEdit(), Qt::Key_F3);  // F3 = next, wraps to the first
    QCOMPARE(bar->statusText(), QString("1 of 6"));

    QTest::mouseClick(bar->matchCaseBox(), Qt::LeftButton);
    QVERIFY(bar->matchCaseBox()->isChecked());
    QCOMPARE(bar->matches().size(), 4);  // alpha ×4 (one inside alphabet)
    QTest::mouseClick(bar->wholeWordBox(), Qt::LeftButton);
    QCOMPARE(bar->matches().size(), 3);  // not inside alphabet
    QTest::mouseClick(bar->findChild<QToolButton*>("findNext"), Qt::LeftButton);
    QCOMPARE(selected(e), QString("alpha"));
    QCOMPARE(caretLine(e), 3);
    QCOMPARE(caretCol(e), 17);  // `alphabet = alpha` — the whole word, not the prefix at 1
    bar->findEdit()->setText("gamma");
    QCOMPARE(bar->statusText(), QString("no matches"));
    QVERIFY(!bar->findNext());

    QTest::keyClick(bar->findEdit(), Qt::Key_Escape);  // closes the bar, focus back to the editor
    QVERIFY(!bar->isVisible());
    QVERIFY(e->hasFocus());
    QVERIFY(!e->indicatorAt(FindBar::MatchIndicator, 0));
  }

  void replaceOneAndAllWithOneUndo() {
    MainWindow w(nullptr, false);
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    EditorWidget* e = w.editor();
    e->setText(kText);
    e->setCursorPosition(0, 0);
    e->setFocus();
    FindBar* bar = w.editorPane()->findBar();
    QTest::keyClick(e, Qt::Key_H, Qt::ControlModifier);
    QVERIFY(bar->isVisible() && bar->replaceMode());
    QVERIFY(bar->replaceEdit()->isVisible());
    QTest::mouseClick(bar->matchCaseBox(), Qt::LeftButton);
    QTest::mouseClick(bar->wholeWordBox(), Qt::LeftButton);
    QTest::keyClicks(bar->findEdit(), "alpha");
    QCOMPARE(bar->matches().size(), 3);
    QTest::keyClicks(bar->replaceEdit(), "a0");
    QTest::keyClick(bar->replaceEdit(), Qt::Key_Return);  // replaces the selected first match
    QCOMPARE(e->text(0), QString("a0 = 1\n"));
    QCOMPARE(selected(e), QString("alpha"));  // and selects the next
    QCOMPARE(caretLine(e), 3);
    QCOMPARE(w.session().text(), e->text());  // the session (live diagnostics) sees the edit

    QTest::mouseClick(bar->findChild<QToolButton*>("replaceAll"), Qt::LeftButton);
    QCOMPARE(bar->statusText(), QString("replaced 2"));
    QCOMPARE(e->text(), QString("a0 = 1\nAlpha = 2\nalphabet = a0 + Alpha\nbeta = a0\n"));
    QCOMPARE(bar->matches().size(), 0);
    e->undo();  // Replace All is one undo step
    QCOMPARE(e->text(), QString("a0 = 1\nAlpha = 2\nalphabet = alpha + Alpha\nbeta = alpha\n"));
    e->undo();  // then the single replacement
    QCOMPARE(e->text(), QString(kText));

    // a read-only editor (a bundle, an example template) is left alone
    e->setReadOnly(true);
    QCOMPARE(bar->replaceAll(), 0);
    QCOMPARE(e->text(), QString(kText));
  }

  void goToLine() {
    MainWindow w(nullptr, false);
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    EditorWidget* e = w.editor();
    e->setText(kText);
    e->setCursorPosition(0, 0);
    e->setFocus();
    GoToLineBar* bar = w.editorPane()->goToLineBar();
    QTest::keyClick(e, Qt::Key_G, Qt::ControlModifier);
    QVERIFY(bar->isVisible());
    QVERIFY(bar->lineEdit()->hasFocus());
    QCOMPARE(bar->lineEdit()->text(), QString("1"));
    QCOMPARE(bar->statusText(), QString("1 – 5"));

    QTest::keyClicks(bar->lineEdit(), "9");  // replaces the selected "1"
    QTest::keyClick(bar->lineEdit(), Qt::Key_Return);
    QVERIFY(bar->isVisible());  // refused, caret unmoved
    QCOMPARE(bar->statusText(), QString("line 9 is outside 1 – 5"));
    QCOMPARE(caretLine(e), 1);
    bar->lineEdit()->setText("3:40");
    QTest::keyClick(bar->lineEdit(), Qt::Key_Return);
    QVERIFY2(bar->statusText().startsWith("column 40 is outside 1 – 25"),
             qPrintable(bar->statusText()));
    bar->lineEdit()->setText("x");
    QTest::keyClick(bar->lineEdit(), Qt::Key_Return);
    QVERIFY(bar->statusText().contains("not a line number"));

    bar->lineEdit()->setText("3:12");
    QTest::keyClick(bar->lineEdit(), Qt::Key_Return);
    QVERIFY(!bar->isVisible());
    QCOMPARE(caretLine(e), 3);
    QCOMPARE(caretCol(e), 12);
    QVERIFY(e->hasFocus());

    QTest::keyClick(e, Qt::Key_G, Qt::ControlModifier);
    QTest::keyClick(bar->lineEdit(), Qt::Key_Escape);
    QVERIFY(!bar->isVisible());
    QCOMPARE(caretLine(e), 3);
  }

  void f12IsOneAction() {
    MainWindow w(nullptr, false);
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    EditorWidget* e = w.editor();
    w.session().loadText(kKernel, QString());
    QTRY_VERIFY_WITH_TIMEOUT(
        w.session().facts() && w.session().facts()->source == e->text().toStdString(), kWaitMs);
    int found = 0;
    for (QAction* a : w.findChildren<QAction*>())
      found += a->shortcut() == QKeySequence(Qt::Key_F12);
    QCOMPARE(found, 1);
    e->setFocus();
    e->setCursorPosition(7, 7);  // on the `tid` of `A[tid] = …`
    QTest::keyClick(e, Qt::Key_F12);
    QCOMPARE(caretLine(e), 7);  // `tid = T.cuda.thread_idx("x")`
  }

  void problemsListLiveAndJump() {
    MainWindow w(nullptr, false);
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QDockWidget* dock = w.dock("problems");
    QVERIFY(dock);
    dock->show();
    dock->raise();
    ProblemsPanel* panel = w.problemsPanel();
    EditorWidget* e = w.editor();
    const QString good = kKernel;
    w.session().loadText(good, "/tmp/probe.py");
    QTRY_VERIFY_WITH_TIMEOUT(
        w.session().facts() && w.session().facts()->source == good.toStdString(), kWaitMs);
    QCOMPARE(panel->tree()->topLevelItemCount(), 0);
    QCOMPARE(panel->summaryText(), QString("no problems"));
    const int before = panel->tree()->topLevelItemCount();
    QCOMPARE(before, panel->errorCount() + panel->warningCount());

    // type an undefined name over `T.float32(1)` on line 8: the front end (interactive lane)
    // reports it, the panel lists it
    e->setFocus();
    e->setSelection(7, 22, 7, 22 + int(strlen("T.float32(1)")));
    QTest::keyClicks(e, "undefined_name");
    QTRY_VERIFY_WITH_TIMEOUT(w.session().facts()->source == e->text().toStdString(), kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(panel->errorCount() >= 1, kWaitMs);
    QTreeWidgetItem* row = nullptr;
    for (int i = 0; i < panel->tree()->topLevelItemCount(); ++i)
      if (panel->tree()
              ->topLevelItem(i)
              ->text(ProblemsPanel::MessageColumn)
              .contains("undefined_name"))
        row = panel->tree()->topLevelItem(i);
    QVERIFY2(row, qPrintable(panel->summaryText()));
    QCOMPARE(row->text(ProblemsPanel::SeverityColumn), QString("error"));
    QVERIFY2(row->text(ProblemsPanel::CodeColumn).startsWith("E0"),
             qPrintable(row->text(ProblemsPanel::CodeColumn)));
    QCOMPARE(row->text(ProblemsPanel::LocationColumn), QString("probe.py:8:23"));
    QVERIFY(panel->summaryText().contains("error"));
    QVERIFY2(dock->windowTitle().startsWith("Problems ("), qPrintable(dock->windowTitle()));

    // double-click jumps the editor to line 8, column 23
    e->setCursorPosition(0, 0);
    const QRect r = panel->tree()->visualItemRect(row);

    QVERIFY(r.isValid());
    QTest::mouseClick(panel->tree()->viewport(), Qt::LeftButton, {},
                      r.center());  // (QTest's double click
    QTest::mouseDClick(panel->tree()->viewport(), Qt::LeftButton, {},
                       r.center());  // lacks the first press)
    QCOMPARE(caretLine(e), 8);
    QCOMPARE(caretCol(e), 23);

    // fixing it empties the list again
    e->setSelection(7, 22, 7, 22 + int(strlen("undefined_name")));
    QTest::keyClicks(e, "A[0]");
    QTRY_VERIFY_WITH_TIMEOUT(w.session().facts()->source == e->text().toStdString(), kWaitMs);
    QCOMPARE(panel->tree()->topLevelItemCount(), before);
    for (int i = 0; i < panel->tree()->topLevelItemCount(); ++i)
      QVERIFY(!panel->tree()
                   ->topLevelItem(i)
                   ->text(ProblemsPanel::MessageColumn)
                   .contains("undefined_name"));
  }
};

QTEST_MAIN(TstEditorTools)
#include "tst_editor_tools.moc"
