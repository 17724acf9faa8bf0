// The Profile dock (views/widgets/profile_view.h) on a recorded profile summary
// (tests/data/profile/handwritten_fma/fma.profile.json: `tirx profile` over HAND-WRITTEN ncu pages,
// see the README there): opened through MainWindow::openProfile, the dock shows one row per script
// line with its samples, share and top stall reason, the roofline chart has the ceiling and the
// kernel's point, and the editor's heat gutter marks the lines by share (line 12: 5 of 17 samples,
// the top level); a file that is not a profile is refused with the reason.
#include <Qsci/qsciscintilla.h>

#include <QDockWidget>
#include <QFile>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include "views/widgets/editor_widget.h"
#include "views/widgets/main_window.h"
#include "views/widgets/profile_view.h"

using namespace tirx::views;

namespace {
const QString kProfile =
    QStringLiteral(TIRX_SOURCE_DIR "/tests/data/profile/handwritten_fma/fma.profile.json");
}

class TestProfileView : public QObject {
  Q_OBJECT
 private slots:
  void opensARecordedProfileInTheDockAndTheGutter() {
    MainWindow w(nullptr, false);
    w.resize(1200, 800);
    w.show();
    QFile script(QStringLiteral(TIRX_SOURCE_DIR "/tests/data/sass/fma.py"));
    QVERIFY(script.open(QIODevice::ReadOnly));
    w.editor()->setText(QString::fromUtf8(script.readAll()));
    QVERIFY(w.openProfile(kProfile));
    QVERIFY(w.dock("profile")->isVisible());
    ProfileView* v = w.profileView();
    QTreeWidget* t = v->table();
    QCOMPARE(t->topLevelItemCount(), 4);
    QStringList lines, samples;
    for (int i = 0; i < 4; ++i) {
      lines << t->topLevelItem(i)->text(0);
      samples << t->topLevelItem(i)->text(1);
    }
    QCOMPARE(lines, (QStringList{"8", "11", "12", "13"}));
    QCOMPARE(samples, (QStringList{"3", "4", "5", "5"}));
    QCOMPARE(t->topLevelItem(2)->text(2), QString("29.4%"));
    QCOMPARE(t->topLevelItem(2)->text(3), QString("long_sb 100%"));
    QVERIFY2(v->summaryText().contains("limited by SM") && v->summaryText().contains("17 stall"),
             qPrintable(v->summaryText()));
    QCOMPARE(v->chartSeriesCount(), 2);  // the ceiling and the kernel's point
    QCOMPARE(v->intensity(), 8.0 / 32.0);
    // the heat gutter: line 12 (29 %) at the top level, line 8 (18 %) one below, line 1 none
    QsciScintilla* ed = w.editor();
    const int top = ProfileView::kFirstHeatMarker + 3;
    QVERIFY(ed->markersAtLine(11) & (1u << top));
    QVERIFY(ed->markersAtLine(7) & (1u << (ProfileView::kFirstHeatMarker + 2)));
    QCOMPARE(ed->markersAtLine(0) & (0xfu << ProfileView::kFirstHeatMarker), 0u);
    // in a margin of their own (a marker shown in no margin would paint the whole line red)
    QVERIFY(ed->margins() > 5);
    QCOMPARE(ed->marginMarkerMask(5), int(0xfu << ProfileView::kFirstHeatMarker));
    QVERIFY(ed->marginWidth(5) > 0);
    // a click in the heat margin selects that line's row; a click on a row moves the caret
    emit ed->marginClicked(5, 11, Qt::NoModifier);
    QVERIFY(t->currentItem());
    QCOMPARE(t->currentItem()->text(0), QString("12"));
    QVERIFY(!v->selectLine(2));  // no samples on line 2: no row
    emit t->itemClicked(t->topLevelItem(0), 0);
    int caretLine = -1, caretCol = -1;
    ed->getCursorPosition(&caretLine, &caretCol);
    QCOMPARE(caretLine, 7);  // line 8
    // compared with a copy where line 12 lost 3 of its 5 samples: per-line deltas, then back
    QTemporaryDir dir;
    QFile src(kProfile);
    QVERIFY(src.open(QIODevice::ReadOnly));
    QByteArray b = src.readAll();
    b.replace("\"total_samples\": 17", "\"total_samples\": 14");
    const int at = b.indexOf("\"line\": 12");
    QVERIFY(at > 0);
    const int five = b.indexOf("\"samples\": 5", at);
    QVERIFY(five > at);
    b.replace(five, 12, "\"samples\": 2");
    QFile copy(dir.filePath("b.json"));
    QVERIFY(copy.open(QIODevice::WriteOnly));
    copy.write(b);
    copy.close();
    QString why;
    QVERIFY2(v->compareWith(copy.fileName(), why), qPrintable(why));
    QVERIFY(v->comparing());
    QCOMPARE(t->headerItem()->text(3), QString("change"));
    QCOMPARE(t->topLevelItemCount(), 4);
    QCOMPARE(t->topLevelItem(2)->text(0), QString("12"));
    QCOMPARE(t->topLevelItem(2)->text(1), QString("29.4%"));
    QCOMPARE(t->topLevelItem(2)->text(2), QString("14.3%"));
    QCOMPARE(t->topLevelItem(2)->text(3), QString("-15.1"));
    QCOMPARE(t->topLevelItem(2)->text(4), QString("5 -> 2"));
    QVERIFY(t->topLevelItem(2)->font(0).bold());   // changed
    QVERIFY(!t->topLevelItem(0)->font(0).bold());  // line 8: same samples
    QVERIFY(v->summaryText().size() > 0);
    QVERIFY(!v->compareWith(TIRX_SOURCE_DIR "/tests/data/sass/fma.py", why));
    v->clearComparison();
    QVERIFY(!v->comparing());
    QCOMPARE(t->headerItem()->text(3), QString("stalls"));
    QCOMPARE(t->topLevelItem(2)->text(1), QString("5"));
    QCOMPARE(v->heatText(12), QString("29%"));
    QCOMPARE(v->heatToolTip(12), QString("line 12: 5 of 17 stall samples (29.4%): long_sb 100%"));
  }

  void refusesAFileThatIsNotAProfile() {
    ProfileView v;
    QString why;
    QVERIFY(!v.openFile(QStringLiteral(TIRX_SOURCE_DIR "/tests/data/sass/fma.py"), why));
    QVERIFY(!why.isEmpty());
    QCOMPARE(v.table()->topLevelItemCount(), 0);
  }
};

QTEST_MAIN(TestProfileView)
#include "tst_profile_view.moc"
