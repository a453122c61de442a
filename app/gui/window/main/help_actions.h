#pragma once
// The Help menu: Keyboard shortcuts (made from the menus' own actions, so it never goes stale,
// plus the keys panels take while they have the focus), a short "first lecture" guide, and About.
#include <QObject>
#include <QString>

class QMainWindow;
class QMenu;
class QMenuBar;

namespace ascope {

class HelpActions : public QObject {
  Q_OBJECT

 public:
  explicit HelpActions(QMainWindow* window);

  void fillMenu(QMenu* help);

  /// Every menu action with a shortcut, menu by menu, and the panels' own keys, as an HTML table.
  static QString shortcutsHtml(const QMenuBar* menus);
  /// The guide (a resource of the program).
  static QString firstLectureHtml();
  /// Help → About: the program, its version (CMakeLists.txt's) and where to start.
  static QString aboutHtml();

  void showShortcuts();
  void showFirstLecture();
  void showAbout();

 private:
  /// A non-modal window with `html`, titled `title`; deleted when closed.
  void showPage(const QString& title, const QString& html, const QString& object_name);

  QMainWindow* window_;
};

}  // namespace ascope
