// The main window: docks by name, Save writes the file (QSaveFile) and clears the modified flag,
// autosave writes a recovery file and a clean close removes it, the examples menu is embedded.
#include <memory>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPalette>
#include <QSettings>
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
    for (const char* name : {"editor", "layout", "assembly", "results", "tensorcores", "pipeline"}) QVERIFY(w.dock(name));
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

  /// Write a recovery file the way AutosaveManager::writeNow does (text + ".path" companion).
  static void writeCrashRecovery(const QString& text, const QString& original) {
    QDir().mkpath(QFileInfo(AutosaveManager::recoveryPath()).absolutePath());
    QFile f(AutosaveManager::recoveryPath());
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text.toUtf8());
    f.close();
    QFile p(AutosaveManager::recoveryPath() + ".path");
    QVERIFY(p.open(QIODevice::WriteOnly));
    p.write(original.toUtf8());
  }

  /// Start a MainWindow while a recovery file exists and answer the modal offer with `button`.
  /// Returns the offer's text (empty when no box appeared).
  static QString answerRecoveryOffer(QMessageBox::StandardButton button,
                                     std::unique_ptr<MainWindow>* window) {
    QString offered;
    QTimer poll;
    poll.setInterval(20);
    QObject::connect(&poll, &QTimer::timeout, [&] {
      auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
      if (!box) return;
      poll.stop();
      offered = box->text();
      if (QAbstractButton* b = box->button(button)) b->click();
    });
    poll.start();
    window->reset(new MainWindow(nullptr, true));
    poll.stop();
    return offered;
  }

  void crashRecoveryRestores() {
    const QString text = "# recovered after a crash\nx = 42\n";
    writeCrashRecovery(text, "/tmp/lost_kernel.py");
    QVERIFY(AutosaveManager::hasRecovery());
    std::unique_ptr<MainWindow> w;
    const QString offered = answerRecoveryOffer(QMessageBox::Yes, &w);
    QVERIFY2(offered.contains("Recover the unsaved script"), qPrintable(offered));
    QVERIFY(offered.contains("/tmp/lost_kernel.py"));
    QCOMPARE(w->editor()->text(), text);
    QCOMPARE(w->session().filePath(), QString("/tmp/lost_kernel.py"));
    QVERIFY(w->session().isModified());  // recovered text still needs saving
    w.reset();
    AutosaveManager::discardRecovery();
  }

  void crashRecoveryDeclined() {
    writeCrashRecovery("y = 7\n", QString());
    std::unique_ptr<MainWindow> w;
    const QString offered = answerRecoveryOffer(QMessageBox::No, &w);
    QVERIFY(!offered.isEmpty());
    QCOMPARE(w->editor()->text(), QString());
    QVERIFY(!AutosaveManager::hasRecovery());  // declining discards the file
  }

  void noOfferWithoutRecovery() {
    AutosaveManager::discardRecovery();
    std::unique_ptr<MainWindow> w;
    QCOMPARE(answerRecoveryOffer(QMessageBox::Yes, &w), QString());
    QCOMPARE(w->editor()->text(), QString());
  }

  /// The editor's default paper as Scintilla draws it (SCI_STYLEGETBACK is 0xBBGGRR).
  static QColor editorPaper(EditorWidget* e) {
    const long bgr = e->SendScintilla(QsciScintillaBase::SCI_STYLEGETBACK,
                                      static_cast<unsigned long>(QsciScintillaBase::STYLE_DEFAULT));
    return QColor(bgr & 0xff, (bgr >> 8) & 0xff, (bgr >> 16) & 0xff);
  }

  void darkThemeFromMenu() {
    QSettings().setValue("view/dark", false);
    MainWindow w(nullptr, false);
    w.show();
    w.editor()->setText("x = 1\n");
    QAction* dark = nullptr;
    for (QAction* a : w.menuBar()->findChildren<QAction*>())
      if (a->text() == "&Dark Theme") dark = a;
    QVERIFY(dark);
    QVERIFY(dark->isCheckable());
    QVERIFY(!dark->isChecked());
    QCOMPARE(editorPaper(w.editor()), QColor("#ffffff"));
    QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 180);

    dark->trigger();
    QVERIFY(dark->isChecked());
    QCOMPARE(editorPaper(w.editor()), QColor("#1e1f22"));
    QCOMPARE(QApplication::palette().color(QPalette::Window), QColor(43, 45, 48));
    QCOMPARE(QApplication::palette().color(QPalette::Base), QColor(30, 31, 34));
    QCOMPARE(QApplication::palette().color(QPalette::Text), QColor(220, 220, 220));
    QCOMPARE(QSettings().value("view/dark").toBool(), true);
    {
      MainWindow again(nullptr, false);  // the saved choice is applied at start-up
      QCOMPARE(editorPaper(again.editor()), QColor("#1e1f22"));
    }

    dark->trigger();
    QVERIFY(!dark->isChecked());
    QCOMPARE(editorPaper(w.editor()), QColor("#ffffff"));
    QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 180);
    QVERIFY(QApplication::palette().color(QPalette::Text).lightness() < 80);
    QCOMPARE(QSettings().value("view/dark").toBool(), false);
  }

  void examplesAreEmbedded() {
    QDir examples(":/examples");
    QDir source(QStringLiteral(TIRX_SOURCE_DIR) + "/resources/examples");
    QCOMPARE(examples.entryList({"*.py"}), source.entryList({"*.py"}));
  }
};

QTEST_MAIN(TstMainWindow)
#include "tst_main_window.moc"
