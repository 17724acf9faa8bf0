// The studio's main window (placeholder until the studio issue): a QMainWindow with the title
// and an editor area, so that scripts/run.sh starts something real.
#pragma once

#include <QMainWindow>

namespace tirx::views {

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
};

}  // namespace tirx::views
