// The main window: docks by name, Save writes the file (QSaveFile) and clears the modified flag,
// autosave writes a recovery file and a clean close removes it, the examples menu is embedded.
#include <QDockWidget>
#include <QtTest>

#include "views/autosave_manager.h"
#include "views/editor_widget.h"
#include "views/main_window.h"
#include "views/session.h"

using namespace tirx::views;

class TstMainWindow : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("TIRxTest");
    QCoreApplication::setApplicationName("tst_main_window");
    AutosaveManager::discardRecovery();
  }

  void docksAndIsolation() {
    MainWindow w(nullptr, false);
    for (const char* name : {"editor", "layout", "assembly", "results"}) QVERIFY(w.dock(name));
    QVERIFY(!w.dock("nope"));
    w.show();
    QVERIFY(w.isolateDock("layout"));
    QVERIFY(w.dock("layout")->isVisible());
    QVERIFY(!w.dock("editor")->isVisible());
  }

  void saveAndAutosave() {
    QTemporaryDir dir;
    MainWindow w(nullptr, false);
    w.show();
    w.editor()->setText("x = 1\n");
    QVERIFY(w.session().isModified());
    QVERIFY(w.windowTitle().startsWith("untitled.py*"));

    AutosaveManager autosave(w.session());
    QVERIFY(autosave.writeNow());
    QVERIFY(AutosaveManager::hasRecovery());
    QString text, original;
    QVERIFY(AutosaveManager::readRecovery(&text, &original));
    QCOMPARE(text, QString("x = 1\n"));

    const QString path = dir.filePath("k.py");
    QVERIFY(w.saveTo(path));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("x = 1\n"));
    QVERIFY(!w.session().isModified());
    QCOMPARE(w.windowTitle(), QString("k.py — TIRx Studio"));
    QVERIFY(!AutosaveManager::hasRecovery());  // saving removes the recovery file

    QVERIFY(w.openFile(path));
    QCOMPARE(w.editor()->text(), QString("x = 1\n"));
    QVERIFY(!w.session().isModified());
  }

  void examplesAreEmbedded() {
    QDir examples(":/examples");
    QDir source(QStringLiteral(TIRX_SOURCE_DIR) + "/resources/examples");
    QCOMPARE(examples.entryList({"*.py"}), source.entryList({"*.py"}));
  }
};

QTEST_MAIN(TstMainWindow)
#include "tst_main_window.moc"
