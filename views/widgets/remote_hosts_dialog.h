// The "Remote hosts" settings dialog (Run > Remote Hosts…): one `ssh://[user@]host[:port]/cuda[:N]`
// or `…/sim` device per line, checked as typed with core/driver's parser (the line and why a line
// is refused are shown, and OK stays disabled until every line is valid). The hosts are kept in
// QSettings ("devices/remote") and offered by the device picker; keys come from the user's ssh
// agent and config (docs/cli.md, "Remote devices over ssh").
#pragma once

#include <QDialog>
#include <QStringList>

class QDialogButtonBox;
class QLabel;
class QPlainTextEdit;

namespace tirx::views {

class RemoteHostsDialog : public QDialog {
  Q_OBJECT
 public:
  explicit RemoteHostsDialog(const QStringList& hosts, QWidget* parent = nullptr);
  /// The valid, de-duplicated device URLs, in the order typed.
  QStringList hosts() const;
  /// Empty when every line is a valid device, otherwise "line 2: bad port '0' …".
  QString problem() const { return m_problem; }
  QPlainTextEdit* editor() const { return m_edit; }
  QDialogButtonBox* buttons() const { return m_buttons; }

  /// The remote hosts saved in QSettings.
  static QStringList savedHosts();
  static void saveHosts(const QStringList& hosts);

 private:
  void validate();
  QPlainTextEdit* m_edit = nullptr;
  QLabel* m_status = nullptr;
  QDialogButtonBox* m_buttons = nullptr;
  QString m_problem;
};

}  // namespace tirx::views
