// The main window: docks by name, Save writes the file (QSaveFile) and clears the modified flag,
// autosave writes a recovery file and a clean close removes it, the examples menu is embedded.
#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QChartView>
#include <QDockWidget>
#include <QFileDialog>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPalette>
#include <QSettings>
#include <QtTest>
#include <memory>

#include "views/engine/autosave_manager.h"
#include "views/engine/session.h"
#include "views/widgets/editor_widget.h"
#include "views/widgets/main_window.h"
#include "views/widgets/results_view.h"

using namespace tirx::views;

class TstMainWindow : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("TIRxTest");
    QCoreApplication::setApplicationName("tst_main_window");
    AutosaveManager::discardOrphans();
  }
  // a window destroyed without close() leaves its recovery file, as a crash does: start each test
  // with none
  void init() { AutosaveManager::discardOrphans(); }

  /// Click `button` of the next modal message box (an unsaved-changes prompt on close).
  static void answerNextBox(QMessageBox::StandardButton button) {
    auto* poll = new QTimer;
    poll->setInterval(20);
    QObject::connect(poll, &QTimer::timeout, [poll, button] {
      auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
      if (!box) return;
      poll->stop();
      poll->deleteLater();
      if (QAbstractButton* b = box->button(button)) b->click();
    });
    poll->start();
  }

  void docksAndIsolation() {
    MainWindow w(nullptr, false);
    for (const char* name :
         {"editor", "layout", "assembly", "results", "tensorcores", "pipeline", "debugger"})
      QVERIFY(w.dock(name));
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

    AutosaveManager* autosave = w.autosave();
    QVERIFY(autosave->writeNow());
    QVERIFY(QFile::exists(autosave->path()));
    QVERIFY(AutosaveManager::orphans().isEmpty());  // its window is alive: not offered to others
    QString text, original;
    QVERIFY(AutosaveManager::readRecovery(autosave->path(), &text, &original));
    QCOMPARE(text, QString("x = 1\n"));

    const QString path = dir.filePath("k.py");
    QVERIFY(w.saveTo(path));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("x = 1\n"));
    QVERIFY(!w.session().isModified());
    QCOMPARE(w.windowTitle(), QString("k.py — TIRx Studio"));
    QVERIFY(!QFile::exists(autosave->path()));  // saving removes the recovery file

    QVERIFY(w.openFile(path));
    QCOMPARE(w.editor()->text(), QString("x = 1\n"));
    QVERIFY(!w.session().isModified());
  }

  /// Write a recovery file the way a window that then crashed leaves it (text + ".path"
  /// companion, no live lock).
  static void writeCrashRecovery(const QString& text, const QString& original) {
    QDir().mkpath(AutosaveManager::recoveryDir());
    const QString file = AutosaveManager::recoveryDir() + "/autosave-crashed.py";
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text.toUtf8());
    f.close();
    QFile p(file + ".path");
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
    QCOMPARE(AutosaveManager::orphans().size(), 1);
    std::unique_ptr<MainWindow> w;
    const QString offered = answerRecoveryOffer(QMessageBox::Yes, &w);
    QVERIFY2(offered.contains("Recover the unsaved script"), qPrintable(offered));
    QVERIFY(offered.contains("/tmp/lost_kernel.py"));
    QCOMPARE(w->editor()->text(), text);
    QCOMPARE(w->session().filePath(), QString("/tmp/lost_kernel.py"));
    QVERIFY(w->session().isModified());             // recovered text still needs saving
    QVERIFY(AutosaveManager::orphans().isEmpty());  // adopted: now the window's own file
    QString kept, original;
    QVERIFY(AutosaveManager::readRecovery(w->autosave()->path(), &kept, &original));
    QCOMPARE(kept, text);
    w.reset();
  }

  void crashRecoveryDeclined() {
    writeCrashRecovery("y = 7\n", QString());
    std::unique_ptr<MainWindow> w;
    const QString offered = answerRecoveryOffer(QMessageBox::No, &w);
    QVERIFY(!offered.isEmpty());
    QCOMPARE(w->editor()->text(), QString());
    QVERIFY(AutosaveManager::orphans().isEmpty());  // declining discards the file
  }

  void noOfferWithoutRecovery() {
    AutosaveManager::discardOrphans();
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
    // the charts and links follow the theme (they were unreadable on a dark palette)
    QCOMPARE(w.resultsView()->valuesChart()->chart()->theme(), QChart::ChartThemeDark);
    QVERIFY(QApplication::palette().color(QPalette::Link).lightness() > 128);
    // the Run button reads on the dark toolbar: its icon's centre is the saturated green, far from
    // the window colour (Fusion's black media icon was grey on grey)
    QAction* run = w.findChild<QAction*>("runAction");
    QVERIFY(run);
    const QImage icon = run->icon().pixmap(32, 32).toImage();
    const QColor centre = icon.pixelColor(14, 16);
    QVERIFY2(centre.green() > 140 && centre.red() < 100 && centre.alpha() == 255,
             qPrintable(centre.name()));
    const QColor window = QApplication::palette().color(QPalette::Window);
    QVERIFY(std::abs(centre.lightness() - window.lightness()) > 40 || centre.saturation() > 150);
    {
      MainWindow again(nullptr, false);  // the saved choice is applied at start-up
      QCOMPARE(editorPaper(again.editor()), QColor("#1e1f22"));
    }

    dark->trigger();
    QVERIFY(!dark->isChecked());
    QCOMPARE(editorPaper(w.editor()), QColor("#ffffff"));
    QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 180);
    QVERIFY(QApplication::palette().color(QPalette::Text).lightness() < 80);
    QCOMPARE(w.resultsView()->valuesChart()->chart()->theme(), QChart::ChartThemeLight);
    QCOMPARE(QSettings().value("view/dark").toBool(), false);
  }

  // Two windows (or two studios) autosave to different files; a window that is open is never
  // offered to another; a window that dies with unsaved work leaves the one file it wrote.
  void oneAutosavePerWindow() {
    AutosaveManager::discardOrphans();
    auto a = std::make_unique<MainWindow>(nullptr, false);
    auto b = std::make_unique<MainWindow>(nullptr, false);
    a->editor()->setText("a = 1\n");
    b->editor()->setText("b = 2\n");
    QVERIFY(a->autosave()->writeNow());
    QVERIFY(b->autosave()->writeNow());
    QVERIFY(a->autosave()->path() != b->autosave()->path());
    QString text, original;
    QVERIFY(AutosaveManager::readRecovery(a->autosave()->path(), &text, &original));
    QCOMPARE(text, QString("a = 1\n"));
    QVERIFY(AutosaveManager::readRecovery(b->autosave()->path(), &text, &original));
    QCOMPARE(text, QString("b = 2\n"));
    // a third window starting now finds nothing to recover: both writers are alive
    QCOMPARE(AutosaveManager::orphans(), QStringList());
    std::unique_ptr<MainWindow> c;
    QCOMPARE(answerRecoveryOffer(QMessageBox::Yes, &c), QString());
    // b goes away without closing (as in a crash: no closeEvent): its file, and only it, is offered
    const QString bFile = b->autosave()->path();
    b.reset();
    QCOMPARE(AutosaveManager::orphans(), QStringList({bFile}));
    std::unique_ptr<MainWindow> d;
    QVERIFY(!answerRecoveryOffer(QMessageBox::Yes, &d).isEmpty());
    QCOMPARE(d->editor()->text(), QString("b = 2\n"));
    QVERIFY(AutosaveManager::readRecovery(a->autosave()->path(), &text, &original));
    QCOMPARE(text, QString("a = 1\n"));   // a's file untouched
    answerNextBox(QMessageBox::Discard);  // "a = 1" is unsaved: discard it
    QVERIFY(a->close());                  // a clean close removes a's file only
    QVERIFY(!QFile::exists(a->autosave()->path()));
    QVERIFY(QFile::exists(d->autosave()->path()));
    d->session().setModified(false);
    QVERIFY(!QFile::exists(d->autosave()->path()));
  }

  // File > Examples: one line per example from its header (the engine's scriptSummary); opening
  // one shows it read-only under its real name; Ctrl+Shift+S saves the user's copy, which is then
  // editable and no longer a template.
  void examplesAsTemplatesAndSaveAs() {
    QTemporaryDir dir;
    QSettings().setValue("files/lastDir", dir.path());
    MainWindow w(nullptr, false);
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QMenu* examples = nullptr;
    for (QMenu* m : w.menuBar()->findChildren<QMenu*>())
      if (m->title() == "&Examples") examples = m;
    QVERIFY(examples);
    QAction* fma = nullptr;
    for (QAction* a : examples->actions()) {
      QVERIFY2(a->text().contains(" — "),
               qPrintable(a->text()));  // every example has a description
      if (a->data().toString() == "fma.py") fma = a;
    }
    QVERIFY(fma);
    QCOMPARE(fma->text(), QString("fma.py — Fused multiply-add: Out = 2 * A + 1 with fma.rn.f32, "
                                  "one rounding per result…"));
    QVERIFY(fma->toolTip().endsWith("(not a mul followed by an add)."));

    fma->trigger();
    QVERIFY(w.session().isTemplate());
    QCOMPARE(w.session().displayName(), QString("fma.py"));
    QVERIFY(w.windowTitle().startsWith("fma.py (example, read-only"));
    QVERIFY(w.editor()->isReadOnly());
    QVERIFY(w.editor()->text().startsWith("# Fused multiply-add"));
    w.editor()->setFocus();
    const QString before = w.editor()->text();
    QTest::keyClicks(w.editor(), "zzz");  // typing into the template changes nothing
    QCOMPARE(w.editor()->text(), before);
    QVERIFY(!w.session().isModified());
    QTRY_VERIFY_WITH_TIMEOUT(
        w.session().facts() && w.session().facts()->source == before.toStdString(), 30000);
    QVERIFY(w.session().facts()->frontEnd->ok());  // checked under its real name, cleanly

    // Ctrl+Shift+S: the dialog suggests fma.py in the last folder; accept it
    QString suggested;
    QTimer poll;
    poll.setInterval(20);
    QObject::connect(&poll, &QTimer::timeout, [&] {
      auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
      if (!dialog) return;
      poll.stop();
      suggested = dialog->selectedFiles().value(0);
      QMetaObject::invokeMethod(dialog, "accept");  // (protected; a slot)
    });
    poll.start();
    QTest::keyClick(w.editor(), Qt::Key_S, Qt::ControlModifier | Qt::ShiftModifier);
    poll.stop();
    QCOMPARE(suggested, QDir(dir.path()).filePath("fma.py"));
    QFile saved(dir.filePath("fma.py"));
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(saved.readAll()), before);
    QVERIFY(!w.session().isTemplate());
    QVERIFY(!w.editor()->isReadOnly());
    QCOMPARE(w.windowTitle(), QString("fma.py — TIRx Studio"));
    QTest::keyClicks(w.editor(), "#");  // the user's copy takes edits
    QVERIFY(w.session().isModified());
    w.session().setModified(false);
  }

  void examplesAreEmbedded() {
    QDir examples(":/examples");
    QDir source(QStringLiteral(TIRX_SOURCE_DIR) + "/resources/examples");
    QCOMPARE(examples.entryList({"*.py"}), source.entryList({"*.py"}));
  }
};

QTEST_MAIN(TstMainWindow)
#include "tst_main_window.moc"
