// Completion in the editor, typed as a user types: `T.cuda.t` offers `thread_idx` and `tile` with
// the signature and description of the highlighted item beside the list (core/sema's
// builtinDocs), choosing one inserts it; inside `T.ptx["ld.glo` the next PTX tokens come from
// core/ptx's ptxCompletions with the table's descriptions; nothing opens inside a comment or an
// ordinary string; '(' after a builtin shows its signature as a call tip. The Qt-free helpers
// (completeCode, completePtx, dottedBefore, ptxStringBefore) are checked directly too.
#include <QtTest>

#include "views/engine/completion_source.h"
#include "views/engine/job_runner.h"
#include "views/engine/session.h"
#include "views/widgets/editor_widget.h"

using namespace tirx::views;

namespace {
QStringList texts(const CompletionList& l) {
  QStringList out;
  for (const auto& i : l.items) out << QString::fromStdString(i.text);
  return out;
}

/// Put the caret at the end of the document and type `keys`.
void typeAtEnd(EditorWidget& e, const QString& keys) {
  e.setFocus();
  e.SendScintilla(QsciScintillaBase::SCI_DOCUMENTEND);
  QTest::keyClicks(&e, keys);
}
}  // namespace

class TstEditorCompletion : public QObject {
  Q_OBJECT
 private slots:
  void sourcesFromTheEngine() {
    CompletionList c = completeCode("T.cuda.t");
    QCOMPARE(texts(c), QStringList({"thread_idx", "tile"}));
    QCOMPARE(c.replaceLength, 1);
    QCOMPARE(texts(completeCode("T.cuda.ti")), QStringList({"tile"}));
    QCOMPARE(c.items[0].detail, std::string("T.cuda.thread_idx(\"x\")"));
    QCOMPARE(c.items[1].doc, std::string("namespace"));
    QCOMPARE(texts(completeCode("T.cuda.tile.")), QStringList({"apply", "ewise"}));
    QVERIFY(texts(completeCode("T.ex")) == QStringList({"exp", "exp2"}));
    QCOMPARE(texts(completeCode("la")), QStringList({"laneid"}));
    QVERIFY(completeCode("l").items.empty());  // a bare word needs two characters
    QCOMPARE(texts(completeCode("l", 0)), QStringList({"laneid"}));  // unless asked (Ctrl+Space)
    QVERIFY(completeCode("T.nothing.").items.empty());
    // T.ptx is a builtin and a namespace (T.ptx.cp.async_…): one entry, the builtin's
    CompletionList ptx = completeCode("T.pt");
    QCOMPARE(texts(ptx), QStringList({"ptx"}));
    QCOMPARE(ptx.items[0].detail, std::string("T.ptx[\"opcode\"]"));
    QVERIFY(texts(completeCode("T.ptx.cp.")).contains("async_"));

    CompletionList p = completePtx("ld.glo");
    QCOMPARE(texts(p), QStringList({".global"}));
    QCOMPARE(p.replaceLength, 4);  // ".glo"
    QVERIFY(!p.items[0].doc.empty());
    QVERIFY(texts(completePtx("ld.global.v")) == QStringList({".v2", ".v4", ".v8"}));
    QVERIFY(completePtx("lod.").items.empty());
    QVERIFY(callTipFor("T.alloc_shared").rfind("T.alloc_shared(shape, dtype", 0) == 0);
    QVERIFY(callTipFor("x.alloc_shared").empty());

    QCOMPARE(dottedBefore("    x = T.cuda.ti", 17), std::string("T.cuda.ti"));
    QCOMPARE(dottedBefore("f(a, T.e", 8), std::string("T.e"));
    std::string typed;
    QVERIFY(ptxStringBefore("    T.cuda.tile.apply(T.ptx[\"ld.glo", 35, &typed));
    QCOMPARE(typed, std::string("ld.glo"));
    QVERIFY(!ptxStringBefore("    T.ptx[\"ld.global.v4.b32\"], R", 33, &typed));
    QVERIFY(!ptxStringBefore("    s = \"ld.glo", 15, &typed));
  }

  void typingOpensTheListWithDocs() {
    JobRunner runner;
    Session session(runner);
    EditorWidget e(session);
    e.resize(900, 600);
    e.show();
    QVERIFY(QTest::qWaitForWindowExposed(&e));
    e.setText("from tvm.script import tirx as T\n\n    x = ");
    typeAtEnd(e, "T.cuda.t");
    QVERIFY(e.isListActive());
    QCOMPARE(e.completionItems(), QStringList({"thread_idx", "tile"}));
    QVERIFY2(e.completionDocText().startsWith("T.cuda.thread_idx(\"x\")\nthreadIdx"),
             qPrintable(e.completionDocText()));
    QTest::keyClick(&e, Qt::Key_Down);  // the doc follows the highlighted item
    QVERIFY2(e.completionDocText().startsWith("T.cuda.tile.…"), qPrintable(e.completionDocText()));
    QTest::keyClick(&e, Qt::Key_Up);
    QTest::keyClick(&e, Qt::Key_Tab);  // choose thread_idx
    QVERIFY(!e.isListActive());
    QCOMPARE(e.text(2), QString("    x = T.cuda.thread_idx"));
    QVERIFY(e.completionDocText().isEmpty());
    QTest::keyClicks(&e, "(");  // the call tip: signature and description
    QVERIFY(e.isCallTipActive());
    QCOMPARE(e.callTipText(), QString("T.cuda.thread_idx(\"x\")\nthreadIdx.x / .y / .z"));
  }

  void ptxStringsCompleteOpcodeTokens() {
    JobRunner runner;
    Session session(runner);
    EditorWidget e(session);
    e.resize(900, 600);
    e.show();
    QVERIFY(QTest::qWaitForWindowExposed(&e));
    e.setText("from tvm.script import tirx as T\n\n    T.cuda.tile.apply(");
    typeAtEnd(e, "T.ptx[\"ld.glo");
    QVERIFY(e.isListActive());
    QCOMPARE(e.completionItems(), QStringList({".global"}));
    QVERIFY2(e.completionDocText().startsWith(".global\n"), qPrintable(e.completionDocText()));
    QTest::keyClick(&e, Qt::Key_Return);
    QCOMPARE(e.text(2), QString("    T.cuda.tile.apply(T.ptx[\"ld.global"));
    QTest::keyClicks(&e, ".v");
    QCOMPARE(e.completionItems(), QStringList({".v2", ".v4", ".v8"}));
  }

  void nothingInCommentsOrStrings() {
    JobRunner runner;
    Session session(runner);
    EditorWidget e(session);
    e.resize(900, 600);
    e.show();
    QVERIFY(QTest::qWaitForWindowExposed(&e));
    e.setText("from tvm.script import tirx as T\n\n# see ");
    typeAtEnd(e, "T.cuda.ti");
    QVERIFY(!e.isListActive());
    QVERIFY(!e.showCompletions(true));  // not even on request
    e.setText("from tvm.script import tirx as T\n\nname = \"");
    typeAtEnd(e, "T.cuda.ti");
    QVERIFY(!e.isListActive());
    QTest::keyClicks(&e, "(");
    QVERIFY(!e.isCallTipActive());
    e.setText("from tvm.script import tirx as T\n\nname = \"a\"  # T.ex\ny = ");  // code after both
    typeAtEnd(e, "T.ex");
    QCOMPARE(e.completionItems(), QStringList({"exp", "exp2"}));
  }
};

QTEST_MAIN(TstEditorCompletion)
#include "tst_editor_completion.moc"
