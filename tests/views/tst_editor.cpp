// The editor: typing produces live diagnostics at the right line (squiggle indicator, margin
// marker, annotation), computed off the GUI thread; hovers on layouts and opcode strings;
// go-to-definition from program.symbols.
#include <QtTest>

#include "studio_test_util.h"
#include "views/engine/job_runner.h"
#include "views/engine/session.h"
#include "views/widgets/editor_widget.h"

using namespace tirx::views;

namespace {
/// Generous: CI runs this on a loaded 2-core machine; a passing run never waits this long.
constexpr int kWaitMs = 30000;

/// True when the newest delivered facts were computed from `text` (not an older snapshot).
bool factsAreFor(const Session& session, const QString& text) {
  auto facts = session.facts();
  return facts && facts->source == text.toStdString();
}
}  // namespace

class TstEditor : public QObject {
  Q_OBJECT
  QString m_script;

 private slots:
  void initTestCase() { m_script = readTestData("kernels/affine_relu.py"); }

  void typingShowsDiagnosticAtLine() {
    JobRunner runner;
    Session session(runner);
    EditorWidget editor(session);
    editor.resize(900, 700);
    editor.show();
    session.loadText(m_script, QString());
    QTRY_VERIFY_WITH_TIMEOUT(session.facts() != nullptr, kWaitMs);
    QVERIFY2(session.facts()->frontEnd->ok(), "the acceptance script must check cleanly");
    QCOMPARE(editor.markersAtLine(15) & (1 << EditorWidget::ErrorMarker), 0u);

    // line 15 (1-based) is `T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], registers, A, ...)`;
    // type an undefined name over `registers` on that line
    const int line0 = 14;
    QString lineText = editor.text(line0);
    int col = lineText.indexOf("registers, A");
    QVERIFY(col > 0);
    editor.setSelection(line0, col, line0, col + int(strlen("registers")));
    editor.setFocus();
    QTest::keyClicks(&editor, "regsiters");
    QCOMPARE(editor.text(line0).contains("regsiters, A"), true);

    const int pos = editor.positionFromLineIndex(line0, col);
    // On a loaded machine the debounce may fire between two keystrokes, so facts for "r", "re",
    // … can arrive first (they squiggle the same place): wait for the facts of the final text.
    QTRY_VERIFY_WITH_TIMEOUT(factsAreFor(session, editor.text()), kWaitMs);
    QVERIFY(editor.indicatorAt(EditorWidget::ErrorIndicator, pos));
    QVERIFY(editor.markersAtLine(line0) & (1 << EditorWidget::ErrorMarker));
    QString note = editor.annotation(line0);
    QVERIFY2(note.startsWith("error E"), qPrintable(note));
    QVERIFY2(note.contains("regsiters"), qPrintable(note));
    // the box is drawn in the tinted error style, not Scintilla's default (white) style
    long style = editor.SendScintilla(QsciScintillaBase::SCI_ANNOTATIONGETSTYLE, line0) +
                 editor.SendScintilla(QsciScintillaBase::SCI_ANNOTATIONGETSTYLEOFFSET);
    long back = editor.SendScintilla(QsciScintillaBase::SCI_STYLEGETBACK, style);
    QCOMPARE(QColor(back & 0xff, (back >> 8) & 0xff, (back >> 16) & 0xff), QColor(255, 232, 232));
    QCOMPARE(editor.annotationBackground(true), QColor(255, 232, 232));
    // nothing on the lines around it
    QCOMPARE(editor.annotation(line0 - 1), QString());
    QVERIFY(!editor.indicatorAt(EditorWidget::ErrorIndicator,
                                editor.positionFromLineIndex(line0 - 1, 4)));

    // fixing the typo clears it
    editor.setSelection(line0, col, line0, col + int(strlen("regsiters")));
    QTest::keyClicks(&editor, "registers");
    QCOMPARE(editor.text(line0).contains("registers, A"), true);
    QTRY_VERIFY_WITH_TIMEOUT(factsAreFor(session, editor.text()), kWaitMs);
    QVERIFY(!editor.indicatorAt(EditorWidget::ErrorIndicator, pos));
    QCOMPARE(editor.annotation(line0), QString());
    QVERIFY(session.facts()->frontEnd->ok());
  }

  void hoversAndDefinition() {
    JobRunner runner;
    Session session(runner);
    EditorWidget editor(session);
    session.loadText(m_script, QString());
    // the hover summaries and descriptors are the session's second stage (decision LIVE-3)
    QTRY_VERIFY_WITH_TIMEOUT(session.facts() != nullptr && session.facts()->detailed, kWaitMs);

    // hover on the use of register_layout in alloc_local
    int use = byteOffsetOf(m_script, "register_layout", 1);
    QVERIFY(use > 0);
    QString hover = editor.hoverTextAt(use + 3);
    QVERIFY2(hover.contains("64 threads × 4 registers per thread"), qPrintable(hover));
    QVERIFY2(hover.contains("256 elements"), qPrintable(hover));
    // a global tensor is memory: bytes, not "1 threads × 256 registers per thread"
    const int param = byteOffsetOf(m_script, "A: T.Tensor");
    QVERIFY(param > 0);
    hover = editor.hoverTextAt(param);
    QVERIFY2(hover.contains("256 elements · global memory, 1024 bytes"), qPrintable(hover));
    QVERIFY2(!hover.contains("threads"), qPrintable(hover));

    // an axis name inside a layout literal: the axis, then the literal's ownership (sema's
    // layoutLiterals, tabulated on the worker)
    const int axis = byteOffsetOf(m_script, "laneid, 1)");
    QVERIFY(axis > 0);
    hover = editor.hoverTextAt(axis + 2);
    QVERIFY2(hover.startsWith("laneid — thread axis: lane inside a warp (0–31)"),
             qPrintable(hover));
    QVERIFY2(hover.contains("layout S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]"), qPrintable(hover));
    QVERIFY2(hover.contains("256 elements · 64 threads × 4 registers per thread"),
             qPrintable(hover));
    // the axis name in the import line is no layout: no axis hover there
    QVERIFY(
        !editor.hoverTextAt(byteOffsetOf(m_script, "laneid, warpid") + 2).contains("thread axis"));

    // hover on an opcode string
    int op = byteOffsetOf(m_script, "ld.global.v4.b32");
    QString opHover = editor.hoverTextAt(op + 2);
    QVERIFY2(opHover.contains("atom 4"), qPrintable(opHover));
    // the token under the mouse first (describePtxTokens), then the instruction
    QVERIFY2(opHover.startsWith(".global: "), qPrintable(opHover));
    QVERIFY2(opHover.contains("\nld.global.v4.b32"), qPrintable(opHover));
    QVERIFY2(editor.hoverTextAt(op + 10).startsWith(".v4: "),
             qPrintable(editor.hoverTextAt(op + 10)));
    QVERIFY(editor.indicatorAt(EditorWidget::OpcodeIndicator, op + 2));

    // the opcode strings are sema's (ir::Program::opcodeSites): an asynchronous statement's
    // spelling is a valid opcode (the view's own AST walk used to box it red: the PTX table has
    // no tile op of that name)
    {
      QFile f(TIRX_SOURCE_DIR "/tests/data/diagnostics/async_statements_ok.py");
      QVERIFY(f.open(QIODevice::ReadOnly));
      const QString async = QString::fromUtf8(f.readAll());
      Session s2(runner);
      EditorWidget e2(s2);
      s2.loadText(async, QString());
      QTRY_VERIFY_WITH_TIMEOUT(s2.facts() != nullptr, kWaitMs);
      const int at = byteOffsetOf(async, "mbarrier.init.shared::cta.b64");
      QVERIFY(at > 0);
      QVERIFY(e2.indicatorAt(EditorWidget::OpcodeIndicator, at + 3));
      QVERIFY(!e2.indicatorAt(EditorWidget::BadOpcodeIndicator, at + 3));
      QVERIFY2(e2.hoverTextAt(at + 3).contains(
                   "asynchronous statement: PTX mbarrier.init.shared::cta.b64"),
               qPrintable(e2.hoverTextAt(at + 3)));
    }

    // F12 on that use jumps to line 6, the definition
    editor.setCursorPosition(20, 0);
    QVERIFY(editor.goToDefinitionAt(use + 3));
    int line, index;
    editor.getCursorPosition(&line, &index);
    QCOMPARE(line + 1, 6);
    QCOMPARE(index, 0);
    QVERIFY(!editor.goToDefinitionAt(byteOffsetOf(m_script, "import torch") + 2));
  }

  // An editor destroyed right after construction (the crash of the old QsciAPIs worker).
  void shortLivedEditors() {
    JobRunner runner;
    Session session(runner);
    for (int i = 0; i < 20; ++i) {
      EditorWidget editor(session);
      session.loadText(m_script, QString());
    }
    QTRY_VERIFY_WITH_TIMEOUT(runner.isIdle(), kWaitMs);
  }
};

QTEST_MAIN(TstEditor)
#include "tst_editor.moc"
