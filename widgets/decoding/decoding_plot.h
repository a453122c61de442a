#pragma once

#include "widgets/common/themed_plot.h"

namespace ascope {

/// What the plots of the decoding steps share: a left-aligned title row above the axis rect, so an
/// exported figure still says what it shows, tokens cut to a length that cannot crowd out the
/// rest, and text that stays legible on any fill.
class DecodingPlot : public ThemedPlot {
  Q_OBJECT

 public:
  /// Px left and right of the title and of a strip's cells.
  static constexpr int kSideMargin = 10;

  explicit DecodingPlot(QWidget* parent = nullptr);

  /// `token`, cut with an ellipsis when it is long.
  static QString shortToken(const QString& token);

 protected:
  /// Sets the title in the theme's current foreground colour.
  void setTitle(const QString& text);
  /// Height the title row needs, measured the way QCPTextElement measures itself plus margins.
  int titleHeight() const;
  /// Black on bright fills, white on dark ones, so values stay legible on every part of the
  /// colour map.
  static QColor textOn(const QColor& fill);

 private:
  QCPTextElement* title_ = nullptr;
};

}  // namespace ascope
