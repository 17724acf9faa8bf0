// Autosave and crash recovery, one recovery file per window: while the window's session has
// unsaved changes, its text is written every few seconds (QSaveFile) to its own
// `recovery/autosave-<id>.py` under QStandardPaths::AppDataLocation, with the original path in a
// `.path` companion, and a QLockFile (`.lock`) held for the window's lifetime. Two windows, or two
// running studios, therefore never write the same file, and a recovery file is an orphan —
// offered for recovery at start-up — only when no live process holds its lock (the process that
// wrote it crashed or was killed). Saving or closing cleanly deletes the window's file.
#pragma once

#include <QLockFile>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <memory>

namespace tirx::views {

class Session;

class AutosaveManager : public QObject {
  Q_OBJECT
 public:
  AutosaveManager(Session& session, QObject* parent = nullptr);
  ~AutosaveManager() override;

  /// This window's recovery file (…/recovery/autosave-<id>.py).
  QString path() const { return m_path; }
  /// The directory holding every window's recovery file.
  static QString recoveryDir();
  /// Recovery files whose writer is gone (no live lock), newest first.
  static QStringList orphans();
  /// The text and original path of a recovery file; false when it cannot be read.
  static bool readRecovery(const QString& file, QString* text, QString* originalPath);
  /// Delete a recovery file and its companions.
  static void discardRecovery(const QString& file);
  /// Delete every orphaned recovery file (a declined recovery; tests).
  static void discardOrphans();

  /// Write this window's recovery file now if the session is modified; true when written.
  bool writeNow();
  /// Delete this window's recovery file (after a save or a clean close).
  void discard();
  void setInterval(int ms) { m_timer.setInterval(ms); }

 private:
  Session& m_session;
  QTimer m_timer;
  QString m_path;
  std::unique_ptr<QLockFile> m_lock;
};

}  // namespace tirx::views
