// tirx-studio: starts the main window.
#include <QApplication>

#include "views/main_window.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  tirx::views::MainWindow w;
  w.show();
  return app.exec();
}
