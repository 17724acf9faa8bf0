// Helpers shared by the studio's widget tests: read a script of tests/data, find a byte offset.
#pragma once

#include <QFile>
#include <QString>

inline QString readTestData(const QString& relative) {
  QFile f(QStringLiteral(TIRX_SOURCE_DIR) + "/tests/data/" + relative);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(f.fileName()));
  return QString::fromUtf8(f.readAll());
}

/// Byte offset of the `nth` (0-based) occurrence of `needle` in `text` (UTF-8), -1 if absent.
inline int byteOffsetOf(const QString& text, const QString& needle, int nth = 0) {
  QByteArray t = text.toUtf8(), n = needle.toUtf8();
  int pos = -1;
  for (int i = 0; i <= nth; ++i) {
    pos = t.indexOf(n, pos + 1);
    if (pos < 0) return -1;
  }
  return pos;
}
