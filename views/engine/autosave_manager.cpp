// AutosaveManager: a timer, a per-window file pair under a lock, QSaveFile for atomic writes.
#include "views/engine/autosave_manager.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUuid>

#include "views/engine/session.h"

namespace tirx::views {

namespace {
QString lockPathOf(const QString& file) {
  return file + ".lock";
}
}  // namespace

AutosaveManager::AutosaveManager(Session& session, QObject* parent)
    : QObject(parent), m_session(session) {
  QDir().mkpath(recoveryDir());
  m_path = recoveryDir() + "/autosave-" +
           QUuid::createUuid().toString(QUuid::WithoutBraces).left(8) + ".py";
  m_lock = std::make_unique<QLockFile>(lockPathOf(m_path));
  m_lock->setStaleLockTime(0);  // only a dead owner makes it stale, never age
  m_lock->tryLock(0);
  m_timer.setInterval(5000);
  connect(&m_timer, &QTimer::timeout, this, &AutosaveManager::writeNow);
  connect(&m_session, &Session::modifiedChanged, this, [this](bool modified) {
    if (modified) {
      if (!m_timer.isActive()) m_timer.start();
    } else {
      m_timer.stop();
      discard();
    }
  });
}

AutosaveManager::~AutosaveManager() {
  // the file stays only if the window goes away with unsaved work (closeEvent discards it
  // otherwise); the lock is released so that the next start-up offers it
  m_lock.reset();
}

QString AutosaveManager::recoveryDir() {
  return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/recovery";
}

QStringList AutosaveManager::orphans() {
  QDir dir(recoveryDir());
  const QFileInfoList files = dir.entryInfoList({"autosave*.py"}, QDir::Files, QDir::Time);
  QStringList out;
  for (const QFileInfo& f : files) {
    QLockFile probe(lockPathOf(f.absoluteFilePath()));
    probe.setStaleLockTime(0);
    // a live writer (this process or another) holds the lock; a dead one's lock is stale
    if (probe.tryLock(0)) {
      probe.unlock();
      out << f.absoluteFilePath();
    }
  }
  return out;
}

bool AutosaveManager::readRecovery(const QString& file, QString* text, QString* originalPath) {
  QFile f(file);
  if (!f.open(QIODevice::ReadOnly)) return false;
  *text = QString::fromUtf8(f.readAll());
  QFile p(file + ".path");
  *originalPath = p.open(QIODevice::ReadOnly) ? QString::fromUtf8(p.readAll()) : QString();
  return true;
}

void AutosaveManager::discardRecovery(const QString& file) {
  QFile::remove(file);
  QFile::remove(file + ".path");
}

void AutosaveManager::discardOrphans() {
  for (const QString& f : orphans()) discardRecovery(f);
}

void AutosaveManager::discard() {
  discardRecovery(m_path);
}

bool AutosaveManager::writeNow() {
  if (!m_session.isModified()) return false;
  QDir().mkpath(recoveryDir());
  QSaveFile f(m_path);
  if (!f.open(QIODevice::WriteOnly)) return false;
  f.write(m_session.text().toUtf8());
  if (!f.commit()) return false;
  QSaveFile p(m_path + ".path");
  if (p.open(QIODevice::WriteOnly)) {
    p.write(m_session.filePath().toUtf8());
    p.commit();
  }
  return true;
}

}  // namespace tirx::views
