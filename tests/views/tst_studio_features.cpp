// Studio features across docks: after Compile & Verify of a script whose reference is wrong,
// clicking a worst element in the Results dock moves the editor to the line of the tile op that
// wrote the element and selects the owning tile and cell in the Layout dock.
#include <QDockWidget>
#include <QFile>
#include <QTreeWidget>
#include <QtTest>

#include "views/engine/autosave_manager.h"
#include "views/engine/engine_products.h"
#include "views/engine/session.h"
#include "views/widgets/editor_widget.h"
#include "views/widgets/layout_canvas.h"
#include "views/widgets/layout_panel.h"
#include "views/widgets/main_window.h"
#include "views/widgets/results_view.h"

using namespace tirx::views;

class TstStudioFeatures : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("TIRxTest");
    QCoreApplication::setApplicationName("tst_studio_features");
    AutosaveManager::discardOrphans();
  }

  void worstElementSelectsLineAndCell() {
    QFile f(QStringLiteral(TIRX_SOURCE_DIR) + "/tests/data/verify/wrong_reference_torch.py");
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString script = QString::fromUtf8(f.readAll());

    MainWindow w(nullptr, false);
    w.resize(1400, 900);
    w.show();
    QSignalSpy reported(&w.session(), &Session::reportChanged);
    w.session().loadText(script, QString());
    reported.clear();
    w.compileAndVerify();
    QTRY_VERIFY_WITH_TIMEOUT(reported.count() >= 1, 30000);
    QCOMPARE(w.resultsView()->verdictText(), QString("FAIL"));

    QTreeWidget* worst = w.resultsView()->worstTree();
    QTRY_VERIFY_WITH_TIMEOUT(worst->topLevelItemCount() > 0, 30000);
    QVERIFY(worst->topLevelItemCount() >= 2);
    const int lastRow = worst->topLevelItemCount() - 1;
    QVERIFY(worst->topLevelItem(0)->text(0) != worst->topLevelItem(lastRow)->text(0));
    // The first and the last worst rows: each must lead to its own line and cell.
    for (int r : {0, lastRow}) {
      QTreeWidgetItem* row = worst->topLevelItem(r);
      // "[i, j, k]": register_layout puts i on the warp, j on the lane, k in register slot k.
      const QStringList idx = row->text(0).mid(1, row->text(0).size() - 2).split(", ");
      QCOMPARE(idx.size(), 3);
      const int i = idx[0].toInt(), j = idx[1].toInt(), k = idx[2].toInt();
      const QString owners = QString("w%1 l%2 r%3").arg(i).arg(j).arg(k);
      QCOMPARE(row->text(4), owners);
      QCOMPARE(row->text(5), QString("20"));  // the max.f32 apply wrote the register last
      // the engine's structured producer, formatted by core/verify (no "R[2]" parsed back)
      QVERIFY2(row->toolTip(4).startsWith(
                   QString("cta 0, warp %1, lane %2, register registers[%3]").arg(i).arg(j).arg(k)),
               qPrintable(row->toolTip(4)));

      w.editor()->setCursorPosition(0, 0);  // start elsewhere so following is visible
      w.session().selectLine(1);
      worst->setCurrentItem(row);
      emit worst->itemClicked(row, 0);

      int line = -1, col = -1;
      QTRY_VERIFY_WITH_TIMEOUT((w.editor()->getCursorPosition(&line, &col), line == 19), 30000);
      QCOMPARE(w.session().selectedLine(), 20);
      QVERIFY(w.editor()->text(line).contains("T.ptx[\"max.f32\"]"));

      const qint64 flat = (i * 32 + j) * 4 + k;
      QTRY_COMPARE_WITH_TIMEOUT(w.layoutPanel()->canvas()->selectedCell(), flat, 30000);
      const QString info = w.layoutPanel()->infoText();
      QVERIFY2(info.startsWith(QString("<b>%1</b> — element (%2, %3, %4) (flat %5)")
                                   .arg(owners)
                                   .arg(i)
                                   .arg(j)
                                   .arg(k)
                                   .arg(flat)),
               qPrintable(info));
      QVERIFY2(info.contains(QString("thread %1, register slot %2").arg(i * 32 + j).arg(k)),
               qPrintable(info));
      // The shown symbol is the tile `registers`: the lines touching it are its alloc (14), the
      // load (15), the view (16) and the store (21).
      QVERIFY2(
          info.contains("touched by lines <a href=\"line:14\">14</a>, <a href=\"line:15\">15</a>, "
                        "<a href=\"line:16\">16</a>, <a href=\"line:21\">21</a>"),
          qPrintable(info));
    }
  }
};

QTEST_MAIN(TstStudioFeatures)
#include "tst_studio_features.moc"
