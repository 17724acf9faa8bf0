// AutosaveManager: a timer, two small files, QSaveFile for atomic writes.
#include "views/autosave_manager.h"

#include <QDir>
#include <QFileInfo>
#include <QFile>
#include <QSaveFile>
#include <QStandardPaths>

#include "views/session.h"

namespace tirx::views {

AutosaveManager::AutosaveManager(Session& session, QObject* parent)
    : QObject(parent), m_session(session) {
  m_timer.setInterval(5000);
  connect(&m_timer, &QTimer::timeout, this, &AutosaveManager::writeNow);
  connect(&m_session, &Session::modifiedChanged, this, [this](bool modified) {
    if (modified) {
      if (!m_timer.isActive()) m_timer.start();
    } else {
      m_timer.stop();
      discardRecovery();
    }
  });
}

QString AutosaveManager::recoveryPath() {
  QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/recovery";
  return dir + "/autosave.py";
}

bool AutosaveManager::hasRecovery() { return QFile::exists(recoveryPath()); }

bool AutosaveManager::readRecovery(QString* text, QString* originalPath) {
  QFile f(recoveryPath());
  if (!f.open(QIODevice::ReadOnly)) return false;
  *text = QString::fromUtf8(f.readAll());
  QFile p(recoveryPath() + ".path");
  *originalPath = p.open(QIODevice::ReadOnly) ? QString::fromUtf8(p.readAll()) : QString();
  return true;
}

void AutosaveManager::discardRecovery() {
  QFile::remove(recoveryPath());
  QFile::remove(recoveryPath() + ".path");
}

bool AutosaveManager::writeNow() {
  if (!m_session.isModified()) return false;
  QDir().mkpath(QFileInfo(recoveryPath()).absolutePath());
  QSaveFile f(recoveryPath());
  if (!f.open(QIODevice::WriteOnly)) return false;
  f.write(m_session.text().toUtf8());
  if (!f.commit()) return false;
  QSaveFile p(recoveryPath() + ".path");
  if (p.open(QIODevice::WriteOnly)) {
    p.write(m_session.filePath().toUtf8());
    p.commit();
  }
  return true;
}

}  // namespace tirx::views
