#include <QApplication>
#include <QMainWindow>

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QMainWindow window;
  window.setWindowTitle("AttentionScope");
  window.resize(1600, 1000);
  window.show();
  return QApplication::exec();
}
