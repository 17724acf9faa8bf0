// The pieces of remote runs that need no ssh: the ssh:// device syntax (and what it refuses, e.g.
// a host that would be read as an ssh option), the ssh command line with the environment's
// options, stream frames over a socket pair (files round trip; unsafe names, oversized headers and
// truncated payloads refused), and the version 3 request/response members (mode sim, faults).
#include <sys/socket.h>
#include <unistd.h>

#include <QTemporaryDir>
#include <QtTest>
#include <thread>

#include "core/driver/device.h"
#include "core/driver/remote.h"
#include "core/driver/runner_protocol.h"
#include "core/driver/stream_io.h"

using namespace tirx;
using namespace tirx::driver;

namespace {
/// An ssh:// device through the one device parser (core/driver/device.h): false with `why` for
/// text it refuses and for devices that are not remote.
bool parseSshDevice(const char* text, SshTarget& t, std::string& why) {
  auto d = parseDevice(text);
  if (!d) return why = d.error().message, false;
  if (!d->remote) return why = "not an ssh:// device", false;
  t = *d->remote;
  return true;
}
}  // namespace

class TestRemoteProtocol : public QObject {
  Q_OBJECT

 private slots:
  void deviceUrls() {
    SshTarget t;
    std::string why;
    QVERIFY(parseSshDevice("ssh://me@gpu.lan:2222/cuda:3", t, why));
    QCOMPARE(t.user, std::string("me"));
    QCOMPARE(t.host, std::string("gpu.lan"));
    QCOMPARE(t.port, 2222);
    QVERIFY(!t.sim);
    QCOMPARE(t.device, 3);
    QCOMPARE(t.text(), std::string("ssh://me@gpu.lan:2222/cuda:3"));
    QVERIFY(parseSshDevice("ssh://box/sim", t, why));
    QVERIFY(t.sim && t.user.empty() && t.port == 0);
    QCOMPARE(t.text(), std::string("ssh://box/sim"));
    QVERIFY(parseSshDevice("ssh://box/cuda", t, why) && t.device == 0);
    for (const char* bad :
         {"ssh://", "ssh://box", "ssh://box/", "ssh://box/gpu", "ssh://-oProxyCommand=x/sim",
          "ssh://-me@box/sim", "ssh://box:0/sim", "ssh://box:65536/sim", "ssh://box:22x/sim",
          "ssh://box/cuda:1024", "ssh://box/cuda:-1", "ssh://b ox/sim", "ssh://me@/sim",
          "ssh://box;rm -rf/sim", "cuda:0"}) {
      why.clear();
      QVERIFY2(!parseSshDevice(bad, t, why), bad);
      QVERIFY(!why.empty());
    }
  }

  void sshCommandLine() {
    qputenv("TIRX_SSH_OPTIONS", "-F /tmp/cfg  -J bastion");
    qputenv("TIRX_REMOTE_TIRX", "/opt/tirx/bin/tirx");
    qunsetenv("TIRX_SSH");
    SshTarget t;
    std::string why;
    QVERIFY(parseSshDevice("ssh://me@gpu:2222/cuda:1", t, why));
    QCOMPARE(sshArgv(t),
             (std::vector<std::string>{
                 "ssh", "-F", "/tmp/cfg", "-J", "bastion", "-o", "BatchMode=yes", "-o",
                 "ConnectTimeout=10", "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3",
                 "-T", "-p", "2222", "--", "me@gpu", "/opt/tirx/bin/tirx runner --stdio"}));
    qunsetenv("TIRX_SSH_OPTIONS");
    qunsetenv("TIRX_REMOTE_TIRX");
    QVERIFY(parseSshDevice("ssh://gpu/sim", t, why));
    const auto v = sshArgv(t);
    QCOMPARE(v.back(), std::string("tirx runner --stdio"));
    QCOMPARE(v[v.size() - 2], std::string("gpu"));
  }

  void framesRoundTrip() {
    QTemporaryDir a, b;
    QVERIFY(writeWholeFile(a.filePath("x.bin").toStdString(), "\0\1\2\3", 4));
    std::string big(3 << 20, 'q');
    QVERIFY(writeWholeFile(a.filePath("big.bin").toStdString(), big.data(), big.size()));
    int sv[2];
    QVERIFY(::socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    std::string whyW;
    IoResult w = IoResult::Error;
    std::thread writer([&] {
      StreamIo out(sv[0]);
      w = writeFrame(out, R"({"type":"t"})", a.path().toStdString(), {"x.bin", "big.bin"}, whyW);
      ::close(sv[0]);
    });
    StreamIo in(sv[1]);
    std::string header, why;
    std::vector<std::string> files;
    const IoResult r = readFrame(in, header, b.path().toStdString(), files, why);
    writer.join();
    ::close(sv[1]);
    QVERIFY2(r == IoResult::Ok, why.c_str());
    QVERIFY(w == IoResult::Ok);
    QCOMPARE(files, (std::vector<std::string>{"x.bin", "big.bin"}));
    std::string got;
    QVERIFY(readWholeFile(b.filePath("big.bin").toStdString(), got));
    QVERIFY(got == big);
    QVERIFY(readWholeFile(b.filePath("x.bin").toStdString(), got));
    QCOMPARE(got, std::string("\0\1\2\3", 4));
  }

  void badFrames_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("result");
    QTest::addColumn<QString>("why");
    QTest::newRow("path") << QByteArray(R"({"files":[{"name":"../etc/passwd","bytes":1}]})"
                                        "\nx")
                          << int(IoResult::Error) << "unsafe file name '../etc/passwd'";
    QTest::newRow("dot") << QByteArray(R"({"files":[{"name":".bashrc","bytes":1}]})"
                                       "\nx")
                         << int(IoResult::Error) << "unsafe file name '.bashrc'";
    QTest::newRow("huge") << QByteArray(R"({"files":[{"name":"a","bytes":99999999999999}]})"
                                        "\n")
                          << int(IoResult::Error) << "a is larger than 64 GiB";
    QTest::newRow("types") << QByteArray(R"({"files":[{"name":1,"bytes":"2"}]})"
                                         "\n")
                           << int(IoResult::Error) << "each file needs a 'name' and 'bytes'";
    QTest::newRow("not json") << QByteArray("hello there\n") << int(IoResult::Error)
                              << "not JSON: 'hello there'";
    QTest::newRow("truncated") << QByteArray(R"({"files":[{"name":"a","bytes":10}]})"
                                             "\nabc")
                               << int(IoResult::Eof) << "";
    QTest::newRow("no newline") << QByteArray(R"({"files":[)") << int(IoResult::Eof) << "";
  }
  void badFrames() {
    QFETCH(QByteArray, bytes);
    QFETCH(int, result);
    QFETCH(QString, why);
    QTemporaryDir d;
    int sv[2];
    QVERIFY(::socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    QCOMPARE(::write(sv[0], bytes.data(), size_t(bytes.size())), ssize_t(bytes.size()));
    ::close(sv[0]);
    StreamIo in(sv[1]);
    std::string header, w;
    std::vector<std::string> files;
    QCOMPARE(int(readFrame(in, header, d.path().toStdString(), files, w)), result);
    ::close(sv[1]);
    QCOMPARE(QString::fromStdString(w), why);
    QVERIFY(!QFile::exists(d.filePath("../etc/passwd")) || QFile::exists("/etc/passwd"));
  }

  void simRequestAndFaults() {
    RunnerRequest q;
    q.kernel = "k";
    q.mode = "sim";
    q.script = "print('x')\n";
    q.scriptFile = "s.py";
    q.sm = 100;
    auto p = parseRequest(requestToJson(q));
    QVERIFY(p.ok());
    QCOMPARE(p->version, 3);
    QCOMPARE(p->mode, std::string("sim"));
    QCOMPARE(p->script, q.script);
    QCOMPARE(p->sm, 100);
    QVERIFY(!parseRequest(R"({"version": 3, "kernel": "k", "mode": "fpga", "args": []})").ok());
    QCOMPARE(
        parseRequest(R"({"version": 3, "kernel": "k", "mode": "sim", "args": []})").error().message,
        std::string("the request has no 'script'"));
    QVERIFY(
        parseRequest(R"({"version": 2, "kernel": "k", "args": []})").ok());  // version 2 still read
    RunnerResponse r;
    r.ok = true;
    Diagnostic d = makeError("E0701", {27, 5, 10, 100}, "race");
    d.notes.push_back({{29, 9, 3, 150}, "read here"});
    r.faults.push_back({"race", d});
    auto back = parseResponse(responseToJson(r));
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    QVERIFY(!back->ran);
    QCOMPARE(back->faults.size(), size_t(1));
    QCOMPARE(back->faults[0].kind, std::string("race"));
    QCOMPARE(back->faults[0].diag.span, d.span);
    QCOMPARE(back->faults[0].diag.notes.at(0).span.line, 29);
    QCOMPARE(back->faults[0].diag.notes[0].message, std::string("read here"));
    QVERIFY(
        !parseResponse(
             R"({"ok": true, "outputs": [], "faults": [{"kind": "race", "diagnostic": {"code": 1}}]})")
             .ok());
  }
};

QTEST_APPLESS_MAIN(TestRemoteProtocol)
#include "tst_remote_protocol.moc"
