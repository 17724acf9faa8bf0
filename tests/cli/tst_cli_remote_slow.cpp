// Remote runs over OpenSSH against a real sshd that the test starts on 127.0.0.1 (a free port, a
// generated host key and user key, its own config): `--device ssh://user@127.0.0.1:PORT/sim` runs
// and verifies on the remote simulator; `…/cuda` goes through the remote runner with the fake GPU
// runner (TIRX_REMOTE_TIRX sets TIRX_RUNNER on the far side); remote faults come back at their
// script lines; a timeout, a cancel (Ctrl-C) and a dropped connection (the sshd session killed)
// end the remote runner child; `tirx profile` runs on the host and its report comes back; refused
// connections, failed authentication, a remote tirx of
// another version and a host without tirx are environment errors (exit 3). Skipped, saying so,
// when sshd (Debian's openssh-server) is not installed. Labelled slow (about 15 s: some thirty ssh
// connections), so it runs in scripts/test.sh but not in the sanitizer build.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "tirx_process.h"

namespace {

QString src(const QString& rel) {
  return QStringLiteral(TIRX_SOURCE_DIR "/") + rel;
}

int freePort() {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  int port = 0;
  if (::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  ::close(s);
  return port;
}

bool accepts(int port) {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(uint16_t(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(s);
  return ok;
}

bool gone(pid_t pid, int ms = 10000) {
  for (int t = 0; t < ms; t += 20) {
    if (::kill(pid, 0) != 0 && errno == ESRCH) return true;
    QTest::qWait(20);
  }
  return false;
}

/// The parent of `pid` (from /proc), 0 when unknown.
pid_t parentOf(pid_t pid) {
  QFile f(QString("/proc/%1/stat").arg(pid));
  if (!f.open(QIODevice::ReadOnly)) return 0;
  const QByteArray s = f.readAll();
  const int close = s.lastIndexOf(')');
  const QList<QByteArray> fields = s.mid(close + 2).split(' ');
  return fields.size() > 1 ? pid_t(fields[1].toInt()) : 0;
}

QString commOf(pid_t pid) {
  QFile f(QString("/proc/%1/comm").arg(pid));
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).trimmed() : QString();
}

bool writeText(const QString& path, const QString& text) {
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
  f.write(text.toUtf8());
  return true;
}

QString readText(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

bool run(const QString& exe, const QStringList& args) {
  QProcess p;
  p.start(exe, args);
  return p.waitForFinished(30000) && p.exitCode() == 0;
}

}  // namespace

class TestCliRemote : public QObject {
  Q_OBJECT

  QTemporaryDir m_dir;
  QProcess m_sshd;
  int m_port = 0;
  QString m_url, m_user;

  QProcessEnvironment env(const QString& remoteTirx = QStringLiteral(TIRX_BIN),
                          const QString& config = "ssh_config") {
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.insert("TIRX_SSH_OPTIONS", "-F " + m_dir.filePath(config));
    e.insert("TIRX_REMOTE_TIRX", remoteTirx);
    e.remove("TIRX_RUNNER");
    return e;
  }
  /// The remote tirx with the fake GPU runner in `mode` (and a pid file) on the far side.
  QProcessEnvironment fakeGpuEnv(const QString& mode, const QString& pidFile = {}) {
    QString cmd = "env TIRX_RUNNER=" TIRX_FAKE_RUNNER " TIRX_FAKE_RUNNER_MODE=" + mode;
    if (!pidFile.isEmpty()) cmd += " TIRX_FAKE_RUNNER_PIDFILE=" + pidFile;
    return env(cmd + " " TIRX_BIN);
  }

 private slots:
  void initTestCase() {
    if (!QFile::exists("/usr/sbin/sshd"))
      QSKIP(
          "/usr/sbin/sshd is not installed (Debian package openssh-server): the remote-run tests "
          "need it");
    if (!QDir().mkpath("/run/sshd"))
      QSKIP("cannot create sshd's privilege-separation directory /run/sshd (not root?)");
    QVERIFY(m_dir.isValid());
    for (const char* k : {"host_key", "user_key", "other_key"})
      QVERIFY(run("ssh-keygen", {"-q", "-t", "ed25519", "-N", "", "-f", m_dir.filePath(k)}));
    QVERIFY(QFile::copy(m_dir.filePath("user_key.pub"), m_dir.filePath("authorized_keys")));
    m_user = QString::fromLocal8Bit(::getpwuid(::getuid())->pw_name);
    m_port = freePort();
    QVERIFY(m_port > 0);
    QVERIFY(writeText(
        m_dir.filePath("sshd_config"),
        QString("Port %1\nListenAddress 127.0.0.1\nHostKey %2\nAuthorizedKeysFile %3\nPidFile %4\n"
                "StrictModes no\nUsePAM no\nPermitRootLogin "
                "prohibit-password\nPasswordAuthentication no\n"
                "KbdInteractiveAuthentication no\nPubkeyAuthentication yes\nLogLevel ERROR\n"
                "MaxStartups 100\nMaxSessions 100\n")
            .arg(m_port)
            .arg(m_dir.filePath("host_key"), m_dir.filePath("authorized_keys"),
                 m_dir.filePath("sshd.pid"))));
    m_sshd.setStandardErrorFile(m_dir.filePath("sshd.log"));
    m_sshd.start("/usr/sbin/sshd", {"-D", "-e", "-f", m_dir.filePath("sshd_config")});
    QVERIFY(m_sshd.waitForStarted());
    for (int t = 0; t < 10000 && !accepts(m_port); t += 50) QTest::qWait(50);
    QVERIFY2(accepts(m_port), "sshd did not start listening");
    const QString hostKey = readText(m_dir.filePath("host_key.pub")).section(' ', 0, 1);
    QVERIFY(writeText(m_dir.filePath("known_hosts"),
                      QString("[127.0.0.1]:%1 %2\n").arg(m_port).arg(hostKey)));
    const QString common =
        "  UserKnownHostsFile " + m_dir.filePath("known_hosts") +
        "\n  StrictHostKeyChecking yes\n  IdentitiesOnly yes\n  LogLevel ERROR\n";
    QVERIFY(
        writeText(m_dir.filePath("ssh_config"),
                  "Host 127.0.0.1\n  IdentityFile " + m_dir.filePath("user_key") + "\n" + common));
    QVERIFY(
        writeText(m_dir.filePath("other_config"),
                  "Host 127.0.0.1\n  IdentityFile " + m_dir.filePath("other_key") + "\n" + common));
    m_url = QString("ssh://%1@127.0.0.1:%2").arg(m_user).arg(m_port);
  }

  void cleanupTestCase() {
    if (m_sshd.state() != QProcess::NotRunning) {
      m_sshd.terminate();
      m_sshd.waitForFinished(5000);
    }
  }

  void runsOnTheRemoteSimulator() {
    const Run r = runTirx(
        {"run", src("resources/examples/activation.py"), "--device", m_url + "/sim"}, 60000, env());
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.startsWith("activation on simulator (" + m_url + "/sim): ran"),
             qPrintable(r.out));
    // The same numbers as a local simulator run.
    const Run local = runTirx({"run", src("resources/examples/activation.py")});
    QCOMPARE(r.out.section('\n', 1, 1), local.out.section('\n', 1, 1));
  }

  void verifiesOnTheRemoteSimulator() {
    const Run r =
        runTirx({"verify", src("resources/examples/activation.py"), "--device", m_url + "/sim"},
                60000, env());
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains("PASS  activation") && r.out.contains("verified: 1/1 checks passed") &&
                 r.out.contains(" errors on " + m_url + "/sim ("),
             qPrintable(r.out));
  }

  void remoteFaultsComeBackAtTheirLines() {
    const Run r =
        runTirx({"run", src("tests/data/sim/race.py"), "--device", m_url + "/sim"}, 60000, env());
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("race.py:27:5: error: shared-memory race on 'S'") &&
                 r.err.contains("[E0701]") &&
                 r.err.contains("race.py:29:9: note: read here by cta 0 thread 0"),
             qPrintable(r.err));
  }

  void remoteGpuThroughTheRunner() {
    Run r = runTirx({"verify", src("tests/data/gpu/partial_zeros.py"), "--device", m_url + "/cuda"},
                    60000, fakeGpuEnv("half"));
    QVERIFY2(r.code == 0 && r.out.contains("PASS  zero_first_half"), qPrintable(r.out + r.err));
    r = runTirx({"run", src("tests/data/gpu/partial_zeros.py"), "--device", m_url + "/cuda:0"},
                60000, fakeGpuEnv("cudafault"));
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("kernel 'zero_first_half' failed on " + m_url +
                            "/cuda:0 at run: cuCtxSynchronize: "
                            "CUDA_ERROR_ILLEGAL_ADDRESS"),
             qPrintable(r.err));
    r = runTirx({"run", src("tests/data/gpu/partial_zeros.py"), "--device", m_url + "/cuda"}, 60000,
                fakeGpuEnv("segv"));
    QCOMPARE(r.code, 1);
    QVERIFY2(
        r.err.contains(
            "the runner for kernel 'zero_first_half' was killed by SIGSEGV without a response") &&
            r.err.contains("[E0952]"),
        qPrintable(r.err));
  }

  // `tirx profile` on the host through real OpenSSH, with the fake ncu on the far side: the
  // report's bytes survive the connection, the summary is the fixture's.
  void profilesOnTheHost() {
    QTemporaryDir out;
    const QString rep = out.filePath("fma");
    const Run r = runTirx(
        {"profile", src("tests/data/sass/fma.py"), "--device", m_url + "/cuda:0", "--sass",
         src("tests/data/sass/fma.g.txt"), "-o", rep},
        60000,
        env("env TIRX_NCU=" + src("tests/cli/fake_ncu.sh") +
            " TIRX_FAKE_NCU_DIR=" + src("tests/data/profile/handwritten_fma") + " " TIRX_BIN));
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("stall samples 17 (0 outside the script's lines)") &&
                 r.out.contains("profiled on " + m_url + "/cuda:0; saved " + rep + ".json"),
             qPrintable(r.out + r.err));
    QFile ncuRep(rep + ".ncu-rep");
    QVERIFY(ncuRep.open(QIODevice::ReadOnly));
    QVERIFY(ncuRep.readAll().startsWith("NCU-REP fake report of "));
  }

  void timeoutKillsTheRemoteRunner() {
    const QString pidFile = m_dir.filePath("timeout.pid");
    const Run r = runTirx({"run", src("tests/data/gpu/partial_zeros.py"), "--device",
                           m_url + "/cuda", "--timeout", "3"},
                          60000, fakeGpuEnv("hang", pidFile));
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("was stopped on " + m_url +
                            "/cuda:0: the run took longer than its time limit of 3 s") &&
                 r.err.contains("[E0951]"),
             qPrintable(r.err));
    const pid_t remote = waitForPid(pidFile, 1000);
    QVERIFY(remote > 0);
    QVERIFY2(gone(remote), "the remote runner child survived the timeout");
  }

  void cancelKillsTheRemoteRunner() {
    const QString pidFile = m_dir.filePath("cancel.pid");
    QProcess p;
    p.setProcessEnvironment(fakeGpuEnv("hang", pidFile));
    p.start(QStringLiteral(TIRX_BIN),
            {"run", src("tests/data/gpu/partial_zeros.py"), "--device", m_url + "/cuda"});
    QVERIFY(p.waitForStarted());
    const pid_t remote = waitForPid(pidFile, 30000);
    QVERIFY(remote > 0);
    ::kill(pid_t(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 130);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains("was stopped on " + m_url +
                          "/cuda:0: the run was cancelled; the runner was killed [E0953]"),
             qPrintable(err));
    QVERIFY2(gone(remote), "the remote runner child survived the cancel");
  }

  // The connection drops mid-run: the sshd process serving it is killed.
  void droppedConnection() {
    const QString pidFile = m_dir.filePath("drop.pid");
    QProcess p;
    p.setProcessEnvironment(fakeGpuEnv("hang", pidFile));
    p.start(QStringLiteral(TIRX_BIN),
            {"run", src("tests/data/gpu/partial_zeros.py"), "--device", m_url + "/cuda"});
    QVERIFY(p.waitForStarted());
    const pid_t remote = waitForPid(pidFile, 30000);
    QVERIFY(remote > 0);
    pid_t session = parentOf(remote);
    while (session > 1 && !commOf(session).startsWith("sshd")) session = parentOf(session);
    QVERIFY2(session > 1 && session != pid_t(m_sshd.processId()),
             "no sshd session process above the remote runner");
    ::kill(session, SIGKILL);
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 1);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains("the connection to " + m_url +
                          "/cuda:0 dropped while kernel 'zero_first_half' ran") &&
                 err.contains("[E0954]"),
             qPrintable(err));
    QVERIFY2(gone(remote), "the remote runner child survived the dropped connection");
  }

  void connectionErrors_data() {
    QTest::addColumn<QString>("device");
    QTest::addColumn<QString>("config");
    QTest::addColumn<QString>("remote");
    QTest::addColumn<QString>("message");
    QTest::newRow("refused") << QString("ssh://%1@127.0.0.1:%2/sim").arg(m_user).arg(freePort())
                             << "ssh_config" << TIRX_BIN
                             << "connection refused (is sshd running there?)";
    QTest::newRow("auth")
        << m_url + "/sim"
        << "other_config" << TIRX_BIN
        << QString("ssh authentication to %1@127.0.0.1:%2 failed (").arg(m_user).arg(m_port);
    QTest::newRow("version") << m_url + "/sim"
                             << "ssh_config" << src("tests/cli/fake_remote_old.sh")
                             << "version skew: this tirx is 0.1.0 (protocol 3), the one on " +
                                    m_url +
                                    "/sim is 0.0.1 (protocol 3); install the same version on both";
    QTest::newRow("no tirx")
        << m_url + "/sim"
        << "ssh_config"
        << "/nonexistent/tirx"
        << QString("the host %1@127.0.0.1:%2 has no tirx to run").arg(m_user).arg(m_port);
  }
  void connectionErrors() {
    QFETCH(QString, device);
    QFETCH(QString, config);
    QFETCH(QString, remote);
    QFETCH(QString, message);
    const Run r = runTirx({"run", src("resources/examples/activation.py"), "--device", device},
                          60000, env(remote, config));
    QVERIFY2(r.code == 3, qPrintable(QString::number(r.code) + r.out + r.err));
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    if (QTest::currentDataTag() != QString("version"))
      return;  // verify reports them the same way: once is enough
    const Run v = runTirx({"verify", src("resources/examples/activation.py"), "--device", device},
                          60000, env(remote, config));
    QCOMPARE(v.code, 3);
    QVERIFY2(v.out.contains(message), qPrintable(v.out));
  }

  void badDeviceUrls() {
    for (const QString& d :
         {QString("ssh://host"), QString("ssh://-oProxyCommand=x/sim"), QString("ssh://h:0/sim"),
          QString("ssh://h/gpu"), QString("ssh://u@h:99999/cuda")}) {
      const Run r = runTirx({"run", src("resources/examples/activation.py"), "--device", d});
      QVERIFY2(r.code == 2, qPrintable(d + ": " + r.err));
      QVERIFY(r.err.contains("--device"));
    }
  }
};

QTEST_APPLESS_MAIN(TestCliRemote)
#include "tst_cli_remote_slow.moc"
