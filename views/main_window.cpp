// Placeholder main window.
#include "views/main_window.h"

#include <QPlainTextEdit>

namespace tirx::views {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle("TIRx Studio");
  setCentralWidget(new QPlainTextEdit(this));
  resize(1280, 800);
}

}  // namespace tirx::views
