// The editor's register gutter (views/widgets/register_gutter.h): compile products carrying the
// register facts of the H200 listings in tests/data/sass (measured) or the IR estimate are loaded
// into the session, and the margin text, its level (colour), the spill marker and the tooltip are
// read back from the editor; an edit greys them, an inserted line clears them; a real compile fills
// them.
#include <QFile>
#include <QtTest>

#include "core/driver/register_estimate.h"
#include "core/sema/sema.h"
#include "views/engine/job_runner.h"
#include "views/engine/session.h"
#include "views/widgets/editor_widget.h"
#include "views/widgets/register_gutter.h"

using namespace tirx;
using namespace tirx::views;

namespace {

constexpr int kWaitMs = 120000;

QString readData(const QString& name) {
  QFile f(QStringLiteral(TIRX_SOURCE_DIR "/tests/data/sass/") + name);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(name));
  return QString::fromUtf8(f.readAll());
}

/// Compile products with the facts of the gemm fixture: measured, or the IR estimate.
CompileProducts gemmProducts(bool measured) {
  const std::string script = readData("gemm_wgmma_ws.py").toStdString();
  FrontEndResult fe = checkScript(script, "gemm_wgmma_ws.py", {});
  if (!fe.ok()) qFatal("the gemm fixture does not check");
  toolchain::KernelResources res;
  res.kernel = "gemm_ws";
  res.registers = 168;
  CompileProducts p;
  p.engine.ok = true;
  p.engine.registers =
      measured ? toolchain::measuredRegisterFacts(readData("gemm.g.txt").toStdString(),
                                                  readData("gemm.count.txt").toStdString(),
                                                  "gemm_wgmma_ws.py", {res})
               : driver::estimateRegisterFacts(fe.program, {res}, "no nvdisasm here");
  driver::applyRegisterBudgets(p.engine.registers, fe.program);
  return p;
}

struct Fixture {
  JobRunner runner;
  Session session{runner};
  EditorWidget editor{session};
  Fixture() {
    editor.resize(1000, 800);
    editor.show();
  }
};

}  // namespace

class TstRegisterGutter : public QObject {
  Q_OBJECT

 private slots:
  void measuredFigures() {
    Fixture f;
    f.session.showRecorded(readData("gemm_wgmma_ws.py"), "gemm_wgmma_ws.py", gemmProducts(true),
                           {});
    const RegisterGutter& g = f.editor.registerGutter();
    QVERIFY(f.editor.marginWidth(EditorWidget::RegisterMargin) > 0);
    // Its own margin: a text margin showing no markers (the fold margin's would draw over it).
    QCOMPARE(f.editor.marginType(EditorWidget::RegisterMargin),
             QsciScintilla::TextMarginRightJustified);
    QCOMPARE(
        f.editor.SendScintilla(QsciScintillaBase::SCI_GETMARGINMASKN, EditorWidget::RegisterMargin),
        0L);
    bool foldMargin = false;
    for (int m = 0; m < 5; ++m)
      foldMargin =
          foldMargin || (m != EditorWidget::RegisterMargin &&
                         (f.editor.SendScintilla(QsciScintillaBase::SCI_GETMARGINMASKN, m) &
                          QsciScintillaBase::SC_MASK_FOLDERS) != 0);
    QVERIFY(foldMargin);
    QCOMPARE(g.text(87), QString("135"));
    QCOMPARE(g.text(97), QString("145"));
    QCOMPARE(g.text(72), QString("4"));
    QCOMPARE(g.text(88), QString());            // no instruction of its own
    QCOMPARE(g.level(87), RegisterLevel::Low);  // 135 of 232 (setmaxnreg.inc)
    QCOMPARE(g.level(88), RegisterLevel::None);
    QVERIFY(f.editor.markedLines(EditorWidget::SpillMarker).isEmpty());
    const QString tip = g.toolTip(87);
    QVERIFY2(tip.contains("line 87 · gemm_ws · measured by nvdisasm"), qPrintable(tip));
    QVERIFY(tip.contains("135 registers live at the peak, /*0710*/ LEA"));
    QVERIFY(tip.contains("budget 232 (setmaxnreg.inc 232 (line 77)), 58 %"));
    QVERIFY(tip.contains("67 SASS instruction(s)"));
    QVERIFY(tip.contains("HGMMA live: /*0890*/ 135, /*0a10*/ 135, /*0aa0*/ 134, /*0b40*/ 132"));
    QVERIFY(tip.contains("spills: none on this line"));
    QVERIFY(tip.contains("kernel gemm_ws: 168 registers allocated"));
    QVERIFY(!tip.contains("estimate"));
    QVERIFY(g.toolTip(72).contains("budget 40 (setmaxnreg.dec 40 (line 63))"));

    // A hover over the gutter at line 87 shows that tooltip; over the text, none.
    f.editor.setFirstVisibleLine(80);
    int x = 2;
    for (int m = 0; m < EditorWidget::RegisterMargin; ++m) x += f.editor.marginWidth(m);
    const long pos = f.editor.SendScintilla(QsciScintillaBase::SCI_POSITIONFROMLINE, 86);
    const int y =
        int(f.editor.SendScintilla(QsciScintillaBase::SCI_POINTYFROMPOSITION, 0, pos)) + 3;
    QCOMPARE(f.editor.registerToolTipAt(QPoint(x, y)), tip);
    QCOMPARE(f.editor.registerToolTipAt(QPoint(x + 200, y)), QString());
  }

  void estimateIsMarked() {
    Fixture f;
    f.session.showRecorded(readData("gemm_wgmma_ws.py"), "gemm_wgmma_ws.py", gemmProducts(false),
                           {});
    const RegisterGutter& g = f.editor.registerGutter();
    QCOMPARE(g.text(87), QString("~136"));
    QCOMPARE(g.text(96), QString("~200"));
    QCOMPARE(g.level(96), RegisterLevel::High);  // 200 of 232: over 80 %
    const QString tip = g.toolTip(87);
    QVERIFY2(tip.contains("estimate, not measured"), qPrintable(tip));
    QVERIFY(tip.contains("~136 registers: acc 128 + 8 (scalars)"));
    QVERIFY(tip.contains("wgmma here: ~136 live (estimate)"));
    QVERIFY(tip.contains("spills: unknown"));
    QVERIFY(tip.contains("no nvdisasm here"));
    // Every figure in the gutter carries the estimate mark.
    for (int line = 1; line <= f.editor.lines(); ++line)
      if (!g.text(line).isEmpty()) QVERIFY2(g.text(line).startsWith('~'), qPrintable(g.text(line)));
  }

  void levelsAndSpills() {
    Fixture f;
    CompileProducts p;
    p.engine.ok = true;
    p.engine.registers.source = toolchain::RegisterSource::Measured;
    p.engine.registers.status = "hand-made";
    auto line = [&](int n, int live, int budget, int spills) {
      toolchain::LineRegisters l;
      l.line = n;
      l.kernel = "k";
      l.maxLive = live;
      l.budget = budget;
      l.budgetSource = "test";
      l.spillStores = spills;
      l.peakAddress = 0x10;
      l.peakOpcode = spills ? "STL" : "MOV";
      p.engine.registers.lines.push_back(l);
    };
    line(2, 40, 168, 0);   // 24 %
    line(3, 140, 168, 0);  // 83 %
    line(4, 170, 168, 0);  // over
    line(5, 60, 168, 2);   // spills
    f.session.showRecorded("a\nb\nc\nd\ne\nf\n", "k.py", p, {});
    const RegisterGutter& g = f.editor.registerGutter();
    QCOMPARE(g.level(2), RegisterLevel::Low);
    QCOMPARE(g.level(3), RegisterLevel::High);
    QCOMPARE(g.level(4), RegisterLevel::Over);
    QCOMPARE(g.level(5), RegisterLevel::Over);
    QCOMPARE(f.editor.markedLines(EditorWidget::SpillMarker), QList<int>{5});
    QVERIFY(g.toolTip(5).contains("spills: 0 LDL, 2 STL on this line"));
    // The levels are drawn in different colours.
    auto back = [&](int l) {
      const long style = f.editor.SendScintilla(QsciScintillaBase::SCI_MARGINGETSTYLE, l - 1);
      return f.editor.SendScintilla(QsciScintillaBase::SCI_STYLEGETBACK, style);
    };
    QVERIFY(back(2) != back(3) && back(3) != back(4));
  }

  void estimateOverBudgetIsNotAMeasuredOverflow() {
    // The same figures, measured and estimated: over the budget, a measurement is the red
    // overflow; an estimate is only estimated to exceed it (its own colour, italics, the tooltip).
    auto products = [](toolchain::RegisterSource source) {
      CompileProducts p;
      p.engine.ok = true;
      p.engine.registers.source = source;
      p.engine.registers.status = "hand-made";
      for (auto [n, live] : {std::pair{2, 260}, std::pair{3, 100}}) {
        toolchain::LineRegisters l;
        l.line = n;
        l.kernel = "k";
        l.maxLive = live;
        l.budget = 232;
        l.budgetSource = "setmaxnreg";
        p.engine.registers.lines.push_back(l);
      }
      return p;
    };
    toolchain::LineRegisters over;
    over.maxLive = 260;
    over.budget = 232;
    QCOMPARE(registerLevelOf(over, toolchain::RegisterSource::Measured), RegisterLevel::Over);
    QCOMPARE(registerLevelOf(over, toolchain::RegisterSource::Estimate),
             RegisterLevel::EstimatedOver);
    over.spillStores = 1;  // spill instructions are measured facts: red either way
    QCOMPARE(registerLevelOf(over, toolchain::RegisterSource::Measured), RegisterLevel::Over);

    auto back = [](EditorWidget& e, int l) {
      const long style = e.SendScintilla(QsciScintillaBase::SCI_MARGINGETSTYLE, l - 1);
      return e.SendScintilla(QsciScintillaBase::SCI_STYLEGETBACK, style);
    };
    auto italic = [](EditorWidget& e, int l) {
      const long style = e.SendScintilla(QsciScintillaBase::SCI_MARGINGETSTYLE, l - 1);
      return e.SendScintilla(QsciScintillaBase::SCI_STYLEGETITALIC, style) != 0;
    };
    Fixture measured;
    measured.session.showRecorded("a\nb\nc\nd\n", "k.py",
                                  products(toolchain::RegisterSource::Measured), {});
    Fixture estimated;
    estimated.session.showRecorded("a\nb\nc\nd\n", "k.py",
                                   products(toolchain::RegisterSource::Estimate), {});
    const RegisterGutter& m = measured.editor.registerGutter();
    const RegisterGutter& e = estimated.editor.registerGutter();
    QCOMPARE(m.text(2), QString("260"));
    QCOMPARE(m.level(2), RegisterLevel::Over);
    QCOMPARE(e.text(2), QString("~260"));
    QCOMPARE(e.level(2), RegisterLevel::EstimatedOver);
    QCOMPARE(e.level(3), RegisterLevel::Low);
    QVERIFY(back(estimated.editor, 2) != back(measured.editor, 2));  // not the overflow's red
    QVERIFY(italic(estimated.editor, 2));
    QVERIFY(!italic(measured.editor, 2));
    const QString tip = e.toolTip(2);
    QVERIFY2(tip.contains("estimated to exceed the budget"), qPrintable(tip));
    QVERIFY(tip.contains("estimate, not measured"));
    QVERIFY(!m.toolTip(2).contains("estimated"));
  }

  void editsMakeItStale() {
    Fixture f;
    f.session.showRecorded(readData("gemm_wgmma_ws.py"), "gemm_wgmma_ws.py", gemmProducts(true),
                           {});
    const RegisterGutter& g = f.editor.registerGutter();
    QCOMPARE(g.level(87), RegisterLevel::Low);
    // An edit inside a line: the figures stay where they are, greyed, and the tooltip says so.
    f.editor.setCursorPosition(49, 4);
    f.editor.insert("x");
    QVERIFY(f.session.productsStale());
    QVERIFY(g.stale());
    QCOMPARE(g.text(87), QString("135"));
    QCOMPARE(g.level(87), RegisterLevel::Stale);
    QVERIFY(g.toolTip(87).startsWith("stale:"));
    // A new line would put them on the wrong lines: cleared until the next compile.
    f.editor.insert("\n");
    QCOMPARE(g.text(87), QString());
    QCOMPARE(g.text(88), QString());
    QCOMPARE(f.editor.marginWidth(EditorWidget::RegisterMargin), 0);
    // Fresh products draw again.
    f.session.showRecorded(readData("gemm_wgmma_ws.py"), "gemm_wgmma_ws.py", gemmProducts(true),
                           {});
    QCOMPARE(g.text(87), QString("135"));
    QCOMPARE(g.level(87), RegisterLevel::Low);
  }

  void compileFillsTheGutter() {
    // Through the real engine: without nvdisasm the estimate, with it (the H200) the measurement.
    Fixture f;
    f.session.loadText(readData("gemm_wgmma_ws.py"), QString());
    f.session.requestCompile();
    QTRY_VERIFY_WITH_TIMEOUT(f.session.products() != nullptr, kWaitMs);
    const auto& facts = f.session.products()->engine.registers;
    QVERIFY2(facts.source != toolchain::RegisterSource::None, facts.status.c_str());
    const QString t = f.editor.registerGutter().text(87);
    if (facts.source == toolchain::RegisterSource::Estimate)
      QCOMPARE(t, QString("~136"));
    else
      QCOMPARE(t, QString::number(facts.findLine(87)->maxLive));
  }
};

QTEST_MAIN(TstRegisterGutter)
#include "tst_register_gutter.moc"
