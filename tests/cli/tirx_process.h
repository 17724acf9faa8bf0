// Runs the built `tirx` binary (TIRX_BIN) for the CLI end-to-end tests and captures its exit code
// and output. A run that does not finish in time is killed and reported with code -1, so a hung
// command fails its test instead of hanging CTest. `env` adds variables (e.g. TIRX_RUNNER, to run
// GPU kernels through the fake runner of tests/cli/fake_runner.cpp).
#pragma once

#include <sys/types.h>

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTest>

struct Run {
  int code = -1;  ///< exit code; -1 when the process crashed or timed out
  QString out, err;
};

inline Run runTirx(const QStringList& args, int timeoutMs = 180000,
                   const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
  QProcess p;
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(TIRX_BIN), args);
  Run r;
  if (!p.waitForFinished(timeoutMs)) {
    p.kill();
    p.waitForFinished(5000);
    return r;
  }
  r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  r.out = QString::fromUtf8(p.readAllStandardOutput());
  r.err = QString::fromUtf8(p.readAllStandardError());
  return r;
}

/// The system environment with the GPU runner replaced by the fake one in `mode`.
inline QProcessEnvironment fakeRunnerEnv(const QString& mode) {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("TIRX_RUNNER", QStringLiteral(TIRX_FAKE_RUNNER));
  env.insert("TIRX_FAKE_RUNNER_MODE", mode);
  return env;
}

/// Waits for the fake runner (mode `hang` with TIRX_FAKE_RUNNER_PIDFILE) to write its pid, serving
/// events meanwhile; 0 when it never does.
inline pid_t waitForPid(const QString& pidFile, int ms = 120000) {
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < ms) {
    QFile f(pidFile);
    if (f.open(QIODevice::ReadOnly)) {
      const QByteArray b = f.readAll();
      if (b.endsWith('\n')) return pid_t(b.trimmed().toLongLong());
    }
    QTest::qWait(20);
  }
  return 0;
}
