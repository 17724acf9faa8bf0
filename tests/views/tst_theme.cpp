// The themes (views/models/theme.h): every text/background pair either theme defines — the
// debugger's current line, the assembly lines of the selected script line, the Diff dock's changed
// rows and headers, annotations, the register gutter's levels, verdicts — has a WCAG contrast ratio
// of at least 4.5, and so has every syntax colour on every background code is drawn on. Then the
// docks are checked to draw with those colours in the dark theme: the Diff dock's rows (text and
// background, read back from the panes) and the debugger's current line in the editor (read back
// from the painted pixels).
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QtTest>

#include "views/engine/job_runner.h"
#include "views/engine/session.h"
#include "views/models/theme.h"
#include "views/widgets/application_theme.h"
#include "views/widgets/diff_view.h"
#include "views/widgets/editor_widget.h"

using namespace tirx::views;

namespace {

QString describe(const char* what, const QColor& text, const QColor& back) {
  return QString("%1: %2 on %3 is %4:1")
      .arg(what, text.name(), back.name())
      .arg(contrastRatio(text, back), 0, 'f', 2);
}

}  // namespace

class TstTheme : public QObject {
  Q_OBJECT
 private slots:
  void contrastRatioIsWcags() {
    // the formula's fixed points, and a pair from the WCAG examples (#767676 on white: 4.54)
    QCOMPARE(qRound(contrastRatio(Qt::black, Qt::white) * 100), 2100);
    QCOMPARE(contrastRatio(QColor("#336699"), QColor("#336699")), 1.0);
    QCOMPARE(qRound(contrastRatio(QColor("#767676"), Qt::white) * 100), 454);
    QCOMPARE(contrastRatio(Qt::white, QColor("#767676")),
             contrastRatio(QColor("#767676"), Qt::white));
    // the old dark theme's failures, as the issue found them: the Diff dock's light rows under
    // the dark palette's light text, and the light debugger line under the dark syntax colours
    QVERIFY(contrastRatio(QColor(220, 220, 220), QColor(255, 215, 215)) < 1.5);
    QVERIFY(contrastRatio(QColor("#7a8a7a"), QColor(60, 70, 30)) < 4.5);
  }

  void everyHighlightReads_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
  }
  void everyHighlightReads() {
    QFETCH(bool, dark);
    const ThemeColours& t = themeColours(dark);
    QCOMPARE(t.dark, dark);
    QVERIFY(t.highlights().size() >= 20);
    for (const auto& [name, h] : t.highlights()) {
      QVERIFY2(h.text.isValid() && h.background.isValid(), name);
      QVERIFY2(contrastRatio(h.text, h.background) >= 4.5,
               qPrintable(describe(name, h.text, h.background)));
    }
    // syntax-coloured code keeps its colours on the caret line, the debugger's line and the
    // highlighted generated lines
    for (const auto& [backName, back] : t.codeBackgrounds())
      for (const auto& [name, colour] : t.syntax.all())
        QVERIFY2(contrastRatio(colour, back) >= 4.5,
                 qPrintable(describe(name, colour, back) + " (" + backName + ")"));
    // the dark theme is dark and the light one light: text and backgrounds on the right side
    QCOMPARE(t.base.lightness() < 128, dark);
    QCOMPARE(t.diffAdded.background.lightness() < 128, dark);
    QCOMPARE(t.debugLine.background.lightness() < 128, dark);
  }

  void estimateOverflowIsNotTheMeasuredRed() {
    for (bool dark : {false, true}) {
      const ThemeColours& t = themeColours(dark);
      QVERIFY(t.registersEstimatedOver.background != t.registersOver.background);
      QVERIFY(t.registersEstimatedOver.text != t.registersOver.text);
      QVERIFY(t.registersEstimatedOver.background != t.registersHigh.background);
    }
  }

  void diffRowsTakeTheDarkTheme() {
    applyApplicationTheme(true);
    JobRunner runner;
    Session session(runner);
    DiffView view(session);
    view.resize(1200, 900);
    view.show();
    view.setVerify(false);
    QSignalSpy ready(&view, &DiffView::diffReady);
    view.compareFiles(QStringLiteral(TIRX_SOURCE_DIR "/tests/data/diff/activation_a.py"),
                      QStringLiteral(TIRX_SOURCE_DIR "/tests/data/diff/activation_b.py"));
    QVERIFY(ready.wait(60000));
    QVERIFY(view.data());
    const ThemeColours& t = themeColours(true);
    int changed = 0, headers = 0;
    for (QPlainTextEdit* pane : {view.leftPane(), view.rightPane()})
      for (const QTextEdit::ExtraSelection& s : pane->extraSelections()) {
        if (!s.cursor.hasSelection()) continue;  // the full-width background of the row
        const QColor back = s.format.background().color(), text = s.format.foreground().color();
        QVERIFY2(contrastRatio(text, back) >= 4.5, qPrintable(describe("row", text, back)));
        QVERIFY2(back.lightness() < 128, qPrintable(back.name()));  // a dark row, not a light one
        changed += back == t.diffRemoved.background || back == t.diffAdded.background;
        headers += back == t.diffHeader.background;
        // the text colour applies to the row's text: the selection covers the line
        QCOMPARE(s.cursor.selectionEnd() - s.cursor.selectionStart(),
                 s.cursor.block().text().size());
      }
    QVERIFY(changed > 0);
    QVERIFY(headers > 0);
    // back to the light theme: the rows follow (PaletteChange)
    applyApplicationTheme(false);
    QCoreApplication::processEvents();
    for (const QTextEdit::ExtraSelection& s : view.leftPane()->extraSelections())
      QVERIFY2(s.format.background().color().lightness() >= 128,
               qPrintable(s.format.background().color().name()));
  }

  void debuggerLineIsDarkInTheDarkTheme() {
    JobRunner runner;
    Session session(runner);
    EditorWidget editor(session);
    editor.resize(800, 400);
    editor.show();
    session.loadText("x = 1\ny = 2  # the stop\nz = 3\n", QString());
    for (bool dark : {true, false}) {
      applyApplicationTheme(dark);
      editor.applyTheme(dark);
      session.setDebugLine(2);
      QCOMPARE(editor.markedLines(EditorWidget::DebugLineMarker), QList<int>{2});
      const long pos = editor.SendScintilla(QsciScintillaBase::SCI_POSITIONFROMLINE, 1);
      const int y =
          int(editor.SendScintilla(QsciScintillaBase::SCI_POINTYFROMPOSITION, 0, pos)) + 3;
      const QImage shot = editor.grab().toImage();
      // far right of the line, past its text: the marker's background alone
      const QWidget* vp = editor.viewport();
      const QColor painted = shot.pixelColor(vp->x() + vp->width() - 20, vp->y() + y);
      QCOMPARE(painted.name(), themeColours(dark).debugLine.background.name());
      session.setDebugLine(0);
    }
  }
};

QTEST_MAIN(TstTheme)
#include "tst_theme.moc"
