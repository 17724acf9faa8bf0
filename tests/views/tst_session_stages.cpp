// The session's two analysis stages (decision LIVE-3): a text's diagnostics are published from the
// engine's check alone (the call `tirx check` makes), before any fragment fact, descriptor, bank
// image or hover summary is computed; those follow as the same facts with `detailed` set; an edit
// made meanwhile drops the old text's details, and the dock that draws them keeps its picture
// until the new ones arrive.
#include <QComboBox>
#include <QtTest>

#include "core/sema/sema.h"
#include "studio_test_util.h"
#include "views/engine/job_runner.h"
#include "views/engine/session.h"
#include "views/widgets/tensor_core_panel.h"

using namespace tirx;
using namespace tirx::views;

namespace {

constexpr int kWaitMs = 60000;

QString readExample(const QString& name) {
  QFile f(QStringLiteral(TIRX_SOURCE_DIR) + "/resources/examples/" + name);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(f.fileName()));
  return QString::fromUtf8(f.readAll());
}

}  // namespace

class TstSessionStages : public QObject {
  Q_OBJECT
 private slots:
  void diagnosticsComeFirstThenDetails() {
    JobRunner runner;
    Session session(runner);
    const QString text = readExample("gemm_wgmma_ws.py");
    std::vector<std::shared_ptr<const ScriptFacts>> checked, detailed;
    connect(&session, &Session::factsChanged, &session,
            [&] { checked.push_back(session.facts()); });
    connect(&session, &Session::detailsChanged, &session,
            [&] { detailed.push_back(session.facts()); });
    session.loadText(text, QString());
    QTRY_COMPARE_WITH_TIMEOUT(int(detailed.size()), 1, kWaitMs);
    QCOMPARE(int(checked.size()), 1);
    // stage 1: exactly what `tirx check` reports, and nothing drawn from it yet
    const ScriptFacts& first = *checked[0];
    QVERIFY(!first.detailed);
    QVERIFY(first.fragments.empty() && first.descriptors.empty() && first.sharedTiles.empty());
    QVERIFY(first.layouts.empty() && first.literals.empty());
    QVERIFY(!first.opcodes.empty());
    const FrontEndResult cli = checkScript(text.toStdString(), "untitled.py", {.sm = 90});
    QCOMPARE(first.frontEnd->diagnostics.size(), cli.diagnostics.size());
    QVERIFY(first.frontEnd->ok());
    QVERIFY(first.checkMillis > 0 && first.checkMillis <= first.millis);
    // stage 2: the same analysis (no second front end shown) with the details added
    const ScriptFacts& second = *detailed[0];
    QVERIFY(second.detailed);
    QCOMPARE(second.frontEnd.get(), first.frontEnd.get());
    QVERIFY(!second.fragments.empty());
    QVERIFY(!second.descriptors.empty());
    QVERIFY(!second.sharedTiles.empty());
    QVERIFY(!second.layouts.empty());
    QCOMPARE(session.facts().get(), detailed[0].get());
  }

  void anEditDropsTheOldTextsDetails() {
    JobRunner runner;
    Session session(runner);
    session.setDebounceMs(0);
    const QString text = readExample("gemm_wgmma_ws.py");
    const QString edited = text + "\n# edited\n";
    int detailsCount = 0;
    bool editedOnce = false;
    connect(&session, &Session::factsChanged, &session, [&] {
      if (editedOnce) return;
      editedOnce = true;
      session.setText(edited);  // typed while the first text's diagnostics are being drawn
    });
    connect(&session, &Session::detailsChanged, &session, [&] { ++detailsCount; });
    session.loadText(text, QString());
    QTRY_VERIFY_WITH_TIMEOUT(session.facts() && session.facts()->detailed && runner.isIdle(),
                             kWaitMs);
    QCOMPARE(session.facts()->source, edited.toStdString());
    QCOMPARE(detailsCount, 1);  // only the edited text's
  }

  void tensorCoreDockKeepsItsPictureUntilTheDetails() {
    JobRunner runner;
    Session session(runner);
    TensorCorePanel panel(session);
    panel.resize(900, 700);
    panel.show();
    session.setDebounceMs(0);
    const QString text = readExample("wgmma_m64n64k16.py");
    session.loadText(text, QString());
    QTRY_VERIFY_WITH_TIMEOUT(panel.picker()->count() > 0 && runner.isIdle(), kWaitMs);
    const int items = panel.picker()->count();
    const QString picked = panel.picker()->currentText();
    // an edit: the new diagnostics arrive first and leave the dock alone, the details refill it
    bool sawCheckOnly = false;
    connect(&session, &Session::factsChanged, &panel, [&] {
      sawCheckOnly = true;
      QCOMPARE(panel.picker()->count(), items);
      QCOMPARE(panel.picker()->currentText(), picked);
    });
    session.setText(text + "\n# edited\n");
    QTRY_VERIFY_WITH_TIMEOUT(session.facts()->detailed &&
                                 session.facts()->source == (text + "\n# edited\n").toStdString(),
                             kWaitMs);
    QVERIFY(sawCheckOnly);
    QCOMPARE(panel.picker()->count(), items);
    QCOMPARE(panel.picker()->currentText(), picked);
  }
};

QTEST_MAIN(TstSessionStages)
#include "tst_session_stages.moc"
