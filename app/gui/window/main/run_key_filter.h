#pragma once
// The keys a lecturer presses for the run act on the run, whatever has the focus: Space pauses or
// resumes (the Pause action's shortcut) and never clicks the focused button — after Esc the focus
// sat on Start, and Space started a new run over the finished one. A text field keeps its keys;
// Esc there gives the focus back to the window, so the next Space is the run's again.
#include <QObject>

class QWidget;

namespace ascope {

class RunKeyFilter : public QObject {
  Q_OBJECT

 public:
  /// Filters the key presses of `window` and its docks (installed on the application; a dialog
  /// of the window keeps its own keys).
  explicit RunKeyFilter(QWidget* window);

  /// A widget that takes typed text: a line edit, a spin box, an editable combo box or text area.
  static bool isTextField(const QWidget* widget);
  /// Takes the keyboard focus out of a text field of the window (after presentation mode or a
  /// value sent with Enter, where a Space typed into the field instead of pausing).
  void leaveTextField();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  /// Whether `widget` is the window or inside it or one of its docks (not in a dialog).
  bool belongsToWindow(const QWidget* widget) const;

  QWidget* window_;
};

}  // namespace ascope
