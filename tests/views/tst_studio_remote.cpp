// The studio's side of issue 14: the Remote Hosts dialog (validated line by line, canonical and
// de-duplicated), remote hosts in the device picker from the settings, the sanitizer picker (local
// GPUs only), File > Export Bundle (written on the batch lane through QSaveFile) and File > Open
// Bundle (a new read-only window whose Results and Assembly docks hold the recorded run, while the
// window it was opened from keeps its unsaved edits), with the Profile dock filled when the bundle
// carries a tirx profile; a malformed bundle is refused with a message.
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFile>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "core/verify/bundle.h"
#include "views/engine/engine_products.h"
#include "views/engine/session.h"
#include "views/widgets/editor_widget.h"
#include "views/widgets/main_window.h"
#include "views/widgets/profile_view.h"
#include "views/widgets/remote_hosts_dialog.h"

using namespace tirx::views;

namespace {
QString example(const char* name) {
  QFile f(QStringLiteral(TIRX_SOURCE_DIR "/resources/examples/") + name);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}
}  // namespace

class TstStudioRemote : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("TIRxTest");
    QCoreApplication::setApplicationName("tst_studio_remote");
    QSettings().clear();
  }

  void remoteHostsDialogValidates() {
    RemoteHostsDialog d({"ssh://me@gpu:2222/cuda:1"});
    QVERIFY(d.problem().isEmpty());
    QVERIFY(d.buttons()->button(QDialogButtonBox::Ok)->isEnabled());
    d.editor()->setPlainText("ssh://me@gpu/cuda\n\nssh://box:0/sim\n");
    QCOMPARE(d.problem(), QString("line 3: bad port '0' (expected 1 to 65535)"));
    QVERIFY(!d.buttons()->button(QDialogButtonBox::Ok)->isEnabled());
    d.editor()->setPlainText("ssh://me@gpu/cuda\n  ssh://me@gpu/cuda:0  \nssh://box/sim");
    QVERIFY(d.problem().isEmpty());
    QCOMPARE(d.hosts(), (QStringList{"ssh://me@gpu/cuda:0", "ssh://box/sim"}));
    QVERIFY(d.buttons()->button(QDialogButtonBox::Ok)->isEnabled());
  }

  void devicePickerOffersRemoteHostsAndTheSanitizer() {
    RemoteHostsDialog::saveHosts({"ssh://me@gpu/cuda:0", "ssh://box/sim"});
    MainWindow w(nullptr, false);
    QComboBox* devices = w.devicePicker();
    const int remote = devices->findData("ssh://box/sim");
    QVERIFY(remote > 0);
    QCOMPARE(devices->itemText(remote), QString("ssh://box/sim (remote)"));
    QVERIFY(devices->findData("ssh://me@gpu/cuda:0") > 0);
    QVERIFY(!w.sanitizePicker()->isEnabled());  // the simulator
    devices->setCurrentIndex(remote);
    QCOMPARE(w.session().device(), QString("ssh://box/sim"));
    QVERIFY(!w.sanitizePicker()->isEnabled());  // remote: the sanitizer runs on local GPUs only
    devices->addItem("cuda:0 — test", "cuda:0");
    devices->setCurrentIndex(devices->count() - 1);
    QVERIFY(w.sanitizePicker()->isEnabled());
    w.sanitizePicker()->setCurrentIndex(w.sanitizePicker()->findData("racecheck"));
    QCOMPARE(w.session().sanitize(), QString("racecheck"));
    QCOMPARE(QString::fromStdString(w.session().verifyRequest().sanitize), QString("racecheck"));
    // The selection survives a refill (e.g. after editing the hosts).
    devices->setCurrentIndex(devices->findData("ssh://box/sim"));
    w.fillDevices();
    QCOMPARE(devices->currentData().toString(), QString("ssh://box/sim"));
    RemoteHostsDialog::saveHosts({});
  }

  void exportThenOpenReadOnlyKeepsEdits() {
    QTemporaryDir dir;
    const QString path = dir.filePath("activation.tirxb");
    const QString script = example("activation.py");
    QVERIFY(!script.isEmpty());
    MainWindow a(nullptr, false);
    a.session().loadText(script, QString());
    QSignalSpy exported(&a, &MainWindow::bundleExported);
    a.exportBundleTo(path);
    QVERIFY(exported.wait(120000));
    QVERIFY2(exported.at(0).at(1).toBool(), qPrintable(exported.at(0).at(2).toString()));
    QVERIFY(exported.at(0).at(2).toString().contains("1 launch on simulator, 1/1 checks passed"));
    QVERIFY(QFile(path).size() > 1000);
    // Unsaved edits in the window the bundle is opened from.
    a.session().setText(script + "# my edit\n");
    QVERIFY(a.session().isModified());
    QSignalSpy opened(&a, &MainWindow::bundleOpened);
    a.openBundle(path);
    QVERIFY(opened.wait(60000));
    auto* b = opened.at(0).at(0).value<MainWindow*>();
    QVERIFY2(b, qPrintable(opened.at(0).at(1).toString()));
    QVERIFY(b != &a);
    QVERIFY(b->isBundleView());
    QCOMPARE(b->session().text(), script);
    QVERIFY(b->editor()->isReadOnly());
    QVERIFY(!b->session().isModified());
    QVERIFY(b->windowTitle().contains("activation.tirxb (bundle, read-only)"));
    QVERIFY(b->session().report());
    QCOMPARE(b->session().report()->engine.checks.size(), size_t(1));
    QVERIFY(b->session().report()->engine.checks[0].pass);
    QVERIFY(b->session().report()->summary.find("bundle recorded on simulator") == 0);
    QVERIFY(b->session().products());
    QVERIFY(b->session().products()->engine.ptx.find(".entry activation") != std::string::npos);
    QVERIFY(!b->session().products()->engine.cuda.empty());
    QCOMPARE(a.session().text(), script + "# my edit\n");
    QVERIFY(a.session().isModified());
    b->close();
  }

  void bundleWithAProfileFillsTheProfileDock() {
    // A bundle that carries a tirx profile (tirx bundle --profile) opens with the Profile dock
    // filled and the heat margin painted on the recorded script.
    QTemporaryDir dir;
    const QString path = dir.filePath("fma.tirxb");
    QFile script(TIRX_SOURCE_DIR "/tests/data/sass/fma.py");
    QFile report(TIRX_SOURCE_DIR "/tests/data/profile/handwritten_fma/fma.profile.json");
    QVERIFY(script.open(QIODevice::ReadOnly) && report.open(QIODevice::ReadOnly));
    tirx::verify::BundleOptions bo;
    bo.fileName = "fma.py";
    tirx::verify::Bundle b = tirx::verify::makeBundle(script.readAll().toStdString(), bo);
    tirx::toolchain::Profile p;
    std::string why;
    QVERIFY(tirx::toolchain::profileFromJson(nlohmann::json::parse(report.readAll().toStdString()),
                                             p, why));
    b.profile = p;
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QByteArray::fromStdString(tirx::verify::bundleToJson(b)));
    out.close();
    MainWindow a(nullptr, false);
    QSignalSpy opened(&a, &MainWindow::bundleOpened);
    a.openBundle(path);
    QVERIFY(opened.wait(60000));
    auto* w = opened.at(0).at(0).value<MainWindow*>();
    QVERIFY2(w, qPrintable(opened.at(0).at(1).toString()));
    QCOMPARE(w->profileView()->table()->topLevelItemCount(), 4);
    QVERIFY(w->dock("profile")->isVisible());
    QVERIFY(w->editor()->markersAtLine(11) & (1u << (ProfileView::kFirstHeatMarker + 3)));
    w->close();
  }

  void malformedBundleIsRefused() {
    QTemporaryDir dir;
    const QString path = dir.filePath("bad.tirxb");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"format\": \"tirx-bundle\", \"version\": 9}");
    f.close();
    MainWindow a(nullptr, false);
    QSignalSpy opened(&a, &MainWindow::bundleOpened);
    a.openBundle(path);
    QVERIFY(opened.wait(30000));
    QVERIFY(!opened.at(0).at(0).value<MainWindow*>());
    const QString why = opened.at(0).at(1).toString();
    QVERIFY2(why.contains("the bundle has version 9, newer than the version 2 this tirx reads"),
             qPrintable(why));
  }
};

QTEST_MAIN(TstStudioRemote)
#include "tst_studio_remote.moc"
