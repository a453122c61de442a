#include "widgets/common/empty_hint.h"

namespace ascope {

EmptyHint::EmptyHint(const QString& text, QWidget* parent) : QLabel(text, parent) {
  setAlignment(Qt::AlignCenter);
  setWordWrap(true);
  setMargin(16);
  setFont(hintFont(font()));
  setForegroundRole(QPalette::PlaceholderText);
  setBackgroundRole(QPalette::Base);
  setAutoFillBackground(true);
}

QFont EmptyHint::hintFont(const QFont& base) {
  QFont font = base;
  if (font.pointSizeF() > 0) font.setPointSizeF(font.pointSizeF() * 1.15);
  return font;
}

}  // namespace ascope
