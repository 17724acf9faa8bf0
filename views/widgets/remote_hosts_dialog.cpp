// RemoteHostsDialog: a plain-text list of ssh:// devices validated line by line.
#include "views/widgets/remote_hosts_dialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

#include "core/driver/device.h"

namespace tirx::views {

RemoteHostsDialog::RemoteHostsDialog(const QStringList& hosts, QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Remote hosts"));
  auto* layout = new QVBoxLayout(this);
  auto* intro = new QLabel(
      tr("One device per line: ssh://[user@]host[:port]/cuda[:N] for a GPU of that host, "
         "ssh://[user@]host[:port]/sim for its simulator. The host needs tirx on its PATH "
         "(or TIRX_REMOTE_TIRX); keys come from your ssh agent and ~/.ssh/config."),
      this);
  intro->setWordWrap(true);
  layout->addWidget(intro);
  m_edit = new QPlainTextEdit(this);
  m_edit->setObjectName("remoteHosts");
  m_edit->setPlainText(hosts.join('\n'));
  layout->addWidget(m_edit);
  m_status = new QLabel(this);
  m_status->setObjectName("remoteHostsStatus");
  m_status->setWordWrap(true);
  layout->addWidget(m_status);
  m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  layout->addWidget(m_buttons);
  connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(m_edit, &QPlainTextEdit::textChanged, this, &RemoteHostsDialog::validate);
  validate();
}

void RemoteHostsDialog::validate() {
  m_problem.clear();
  const QStringList lines = m_edit->toPlainText().split('\n');
  for (int i = 0; i < lines.size() && m_problem.isEmpty(); ++i) {
    const QString line = lines[i].trimmed();
    if (line.isEmpty()) continue;
    if (auto d = driver::parseDevice(line.toStdString()); !d)
      m_problem = tr("line %1: %2").arg(i + 1).arg(QString::fromStdString(d.error().message));
    else if (!d->remote)
      m_problem = tr("line %1: expected ssh://[user@]host[:port]/cuda[:N] or "
                     "ssh://[user@]host[:port]/sim, found '%2'")
                      .arg(i + 1)
                      .arg(line);
  }
  m_status->setText(m_problem.isEmpty() ? tr("%n host(s)", nullptr, int(hosts().size()))
                                        : m_problem);
  m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_problem.isEmpty());
}

QStringList RemoteHostsDialog::hosts() const {
  QStringList out;
  for (const QString& l : m_edit->toPlainText().split('\n')) {
    const QString line = l.trimmed();
    if (line.isEmpty()) continue;
    auto d = driver::parseDevice(line.toStdString());
    if (!d || !d->remote) continue;
    const QString canonical = QString::fromStdString(d->text());
    if (!out.contains(canonical)) out << canonical;
  }
  return out;
}

QStringList RemoteHostsDialog::savedHosts() {
  return QSettings().value("devices/remote").toStringList();
}

void RemoteHostsDialog::saveHosts(const QStringList& hosts) {
  QSettings().setValue("devices/remote", hosts);
}

}  // namespace tirx::views
