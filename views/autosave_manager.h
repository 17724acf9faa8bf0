// Autosave and crash recovery: while the session has unsaved changes, its text is written every
// few seconds (QSaveFile) to a recovery file under QStandardPaths::AppDataLocation, with the
// original path beside it. A clean exit removes the file; finding it at start-up means the last
// session ended without closing, and the main window offers to recover it.
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

namespace tirx::views {

class Session;

class AutosaveManager : public QObject {
  Q_OBJECT
 public:
  AutosaveManager(Session& session, QObject* parent = nullptr);

  /// The recovery file (…/recovery/autosave.py) and its companion holding the original path.
  static QString recoveryPath();
  /// True when a recovery file from an earlier session exists.
  static bool hasRecovery();
  /// The recovered text and original path; false when there is none.
  static bool readRecovery(QString* text, QString* originalPath);
  /// Delete the recovery file (after a clean exit, a save, or a declined recovery).
  static void discardRecovery();

  /// Write the recovery file now if the session is modified; returns true when written.
  bool writeNow();
  void setInterval(int ms) { m_timer.setInterval(ms); }

 private:
  Session& m_session;
  QTimer m_timer;
};

}  // namespace tirx::views
