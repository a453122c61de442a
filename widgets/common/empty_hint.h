#pragma once

#include <QLabel>

namespace ascope {

/// The centred note a panel shows before it has data ("Attention appears after the first probe
/// step"), styled like ThemedPlot's empty state so all panels look alike when empty.
class EmptyHint : public QLabel {
  Q_OBJECT

 public:
  explicit EmptyHint(const QString& text, QWidget* parent = nullptr);

  /// Font for empty-state hints: the widget font, slightly larger.
  static QFont hintFont(const QFont& base);
};

}  // namespace ascope
