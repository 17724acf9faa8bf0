// Runs the built `tirx` binary (TIRX_BIN) for the CLI end-to-end tests and captures its exit code
// and output. A run that does not finish in time is killed and reported with code -1, so a hung
// command fails its test instead of hanging CTest. `env` adds variables (e.g. TIRX_RUNNER, to run
// GPU kernels through the fake runner of tests/cli/fake_runner.cpp).
#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

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
