// Runs the built `tirx` binary (TIRX_BIN) for the CLI end-to-end tests and captures its exit code
// and output. A run that does not finish in time is killed and reported with code -1, so a hung
// command fails its test instead of hanging CTest.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

struct Run {
  int code = -1;  ///< exit code; -1 when the process crashed or timed out
  QString out, err;
};

inline Run runTirx(const QStringList& args, int timeoutMs = 180000) {
  QProcess p;
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
