#pragma once

#include <QLabel>
#include <QStringList>

namespace ascope {

/// A one-line label that says as much as its width allows: it is given its text in a few
/// versions, longest first ("train 0.412 · validation 0.450 · step 1200", then "0.412 · val 0.450
/// · step 1200", …), shows the longest that fits and, when that is not the first, gives the first
/// in its tooltip and in the property kFullTextProperty (which the window's layout report reads).
/// The last version is elided at the right if even it does not fit. A readout that wraps instead
/// would take the rows of the plot under it; one that is cut off hides figures without saying so.
class FittingLabel : public QLabel {
  Q_OBJECT

 public:
  /// Set on a widget that shows a shortened text: the whole text.
  static constexpr const char* kFullTextProperty = "ascopeFullText";

  explicit FittingLabel(QWidget* parent = nullptr);

  /// `versions`: rich or plain text, longest first; an empty list clears the label.
  void setVersions(const QStringList& versions);
  const QStringList& versions() const { return versions_; }
  /// Index of the version on screen (-1: none, versions().size(): the last one elided).
  int shownVersion() const { return shown_; }

  QSize minimumSizeHint() const override;
  QSize sizeHint() const override;

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  void fit();
  /// Width `text` takes in this label's font (rich text laid out as QLabel does).
  int widthOf(const QString& text) const;

  QStringList versions_;
  int shown_ = -1;
};

}  // namespace ascope
