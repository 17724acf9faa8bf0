// The studio's wgmma views (issue 11, studio part): the D accumulator and RS-form A fragments in
// FragmentView (labels "W1 T11 r7 / d7" checked against spec/tc-verify/verify.cu's k_wgmma
// formulas), the fragment tables of a wgmma opcode hover, the decoded descriptors of a hover on a
// shared operand or its b_descriptor= (LBO 16, SBO 1024, 128B, start +32 B per k-step: verify.cu
// mode 2), and the Tensor cores dock outlining exactly the elements one sub-operand's descriptor
// reads in the tile's bank image.
#include <QComboBox>
#include <QSpinBox>
#include <QtTest>

#include "studio_test_util.h"
#include "views/engine/job_runner.h"
#include "views/engine/script_facts.h"
#include "views/engine/session.h"
#include "views/widgets/bank_image_view.h"
#include "views/widgets/editor_widget.h"
#include "views/widgets/fragment_view.h"
#include "views/widgets/opcode_hover.h"
#include "views/widgets/tensor_core_panel.h"

using namespace tirx;
using namespace tirx::views;

namespace {

constexpr int kWaitMs = 60000;

QString readExample(const QString& name) {
  QFile f(QStringLiteral(TIRX_SOURCE_DIR) + "/resources/examples/" + name);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(name));
  return QString::fromUtf8(f.readAll());
}

int factIndex(const ScriptFacts& facts, const std::string& role) {
  for (int i = 0; i < static_cast<int>(facts.fragments.size()); ++i)
    if (facts.fragments[size_t(i)].opcode.rfind("wgmma", 0) == 0 &&
        facts.fragments[size_t(i)].role == role)
      return i;
  return -1;
}

}  // namespace

class TstWgmmaViews : public QObject {
  Q_OBJECT

 private slots:
  void accumulatorCellsNameWarpLaneRegister() {
    auto facts = std::make_shared<const ScriptFacts>(
        analyzeScript(readExample("wgmma_m64n64k16.py").toStdString(), "w.py", 90));
    QVERIFY(facts->frontEnd->ok());
    const int d = factIndex(*facts, "d");
    QVERIFY(d >= 0);
    FragmentView view;
    view.resize(1700, 1700);
    view.setFact(facts, d);
    QVERIFY(view.labelsShown());
    for (int th = 0; th < 128; th += 13)
      for (int i = 0; i < 32; i += 5) {
        const int w = th / 32, l = th % 32, g = l >> 2, t = l & 3;
        const int row = 16 * w + g + 8 * ((i >> 1) & 1), col = 8 * (i >> 2) + 2 * t + (i & 1);
        QCOMPARE(view.cellLabel(0, row, col), QString("W%1 T%2 r%3\nd%3").arg(w).arg(l).arg(i));
      }
  }

  void registerAOfTheRsForm() {
    auto facts = std::make_shared<const ScriptFacts>(
        analyzeScript(readExample("wgmma_rs_n256.py").toStdString(), "w.py", 90));
    QVERIFY(facts->frontEnd->ok());
    const int a = factIndex(*facts, "a");
    QVERIFY(a >= 0);
    FragmentView view;
    view.resize(1800, 1800);
    view.setFact(facts, a);
    QVERIFY(view.labelsShown());
    // k-step 2 (repeat index 2 of (1, 4)), thread 37 (warp 1, lane 5: g 1, t 1), element a5
    // at row 16 + 1 + 8·((5/2)%2) = 17, column 2 + 1 + 8 = 11: register 2, bits 16–31
    QCOMPARE(view.cellLabel(2, 17, 11), QString("W1 T5 r2\na5 hi"));
    QVERIFY(!view.cellRect(3, 63, 15).isEmpty());
    QVERIFY(view.cellRect(4, 0, 0).isEmpty());  // four k-steps only
  }

  void wgmmaOpcodeHoverShowsDAndATables() {
    JobRunner runner;
    Session session(runner);
    EditorWidget editor(session);
    editor.resize(1000, 800);
    editor.show();
    const QString text = readExample("wgmma_m64n64k16.py");
    session.loadText(text, QString());
    QTRY_VERIFY_WITH_TIMEOUT(session.facts() != nullptr, kWaitMs);
    const int pos = byteOffsetOf(text, "wgmma.mma_async.sync") + 6;
    QVERIFY(pos > 6);
    editor.hoverAt(pos);
    OpcodeHoverPopup* popup = editor.opcodePopup();
    QVERIFY(popup && popup->isVisible());
    QVERIFY(!popup->picture().isNull());
    const auto& tables =
        session.facts()->opcodes[size_t(opcodeAt(session.facts()->opcodes, pos))].fragments;
    QCOMPARE(int(tables.size()), 2);
    // D: (row g + 8·((i>>1)&1), col 8·(i>>2) + 2t + (i&1)) of warp 0 → (9, 13): g 1, t 2, i 7
    QCOMPARE(tables[0].lane(9, 13), 6);
    QCOMPARE(tables[0].label(9, 13), std::string("d7"));
    // A: (row g + 8·((i/2)%2), col 2t + (i&1) + 8·(i≥4)) → (10, 13): g 2, t 2, i 7
    QCOMPARE(tables[1].lane(10, 13), 10);
    QCOMPARE(tables[1].label(10, 13), std::string("a7"));
  }

  void descriptorHoverDecodesEverySubOperand() {
    JobRunner runner;
    Session session(runner);
    EditorWidget editor(session);
    const QString text = readExample("wgmma_m64n64k16.py");
    session.loadText(text, QString());
    // the hover summaries and descriptors are the session's second stage (decision LIVE-3)
    QTRY_VERIFY_WITH_TIMEOUT(session.facts() != nullptr && session.facts()->detailed, kWaitMs);
    const int kw = byteOffsetOf(text, "b_descriptor=(16, 1024, 3)") + 15;
    const QString tip = editor.hoverTextAt(kw);
    QVERIFY2(tip.contains("b_descriptor of 'Bs'"), qPrintable(tip));
    for (int k = 0; k < 4; ++k)
      QVERIFY2(
          tip.contains(QString("k-step %1: start +%2 B · LBO 16 B · SBO 1024 B · base offset 0 · "
                               "swizzle 128B · 0x%3")
                           .arg(k)
                           .arg(32 * k)
                           .arg(QString::number((uint64_t(1) << 62) | (uint64_t(1024 >> 4) << 32) |
                                                    (uint64_t(16 >> 4) << 16) | uint64_t(2 * k),
                                                16)
                                    .rightJustified(16, '0'))),
          qPrintable(tip));
    // verify.cu off_sw128: row q of the first core matrix at 128q + 16q
    QVERIFY2(tip.contains("rows 0–7 × k 0–7: 0, 144, 288, 432, 576, 720, 864, 1008"),
             qPrintable(tip));
    // the A operand itself (the word "As" in the call) shows A's descriptors
    const int as = byteOffsetOf(text, "acc, As, Bs") + 6;
    QVERIFY(editor.hoverTextAt(as).contains("a_descriptor of 'As'"));
  }

  void dockOutlinesTheElementsOneDescriptorReads() {
    JobRunner runner;
    Session session(runner);
    TensorCorePanel panel(session);
    panel.resize(900, 900);
    panel.show();
    session.loadText(readExample("wgmma_m64n64k16.py"), QString());
    QTRY_VERIFY_WITH_TIMEOUT(session.facts() != nullptr && panel.picker()->count() > 0, kWaitMs);
    QVERIFY(panel.pick("b descriptor ('Bs')"));
    QCOMPARE(panel.bankView()->tile()->name, std::string("Bs"));
    QVERIFY(panel.subOperandBox()->isVisible());
    panel.subOperandBox()->setValue(2);
    // k-step 2 reads columns 32..47 of every row: 64 × 16 elements
    QCOMPARE(panel.bankView()->highlightedCount(), int64_t(64 * 16));
    QVERIFY(panel.bankView()->isHighlighted(5, 32));
    QVERIFY(panel.bankView()->isHighlighted(63, 47));
    QVERIFY(!panel.bankView()->isHighlighted(5, 31));
    QVERIFY(!panel.bankView()->isHighlighted(5, 48));
    QVERIFY2(panel.summary().contains("1024 elements of 'Bs'"), qPrintable(panel.summary()));
    QVERIFY(panel.summary().contains("start +64 B"));
    // a plain tile item clears the outline
    QVERIFY(panel.pick("tile Bs"));
    QCOMPARE(panel.bankView()->highlightedCount(), int64_t(0));
  }
};

QTEST_MAIN(TstWgmmaViews)
#include "tst_wgmma_views.moc"
