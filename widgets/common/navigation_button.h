#pragma once

#include <QPushButton>
#include <QStyle>

namespace ascope {

/// A button of a step-through bar, labelled with a symbol and a word: "⏮ Start", "Next ▶". Media
/// symbols such as ⏮ are missing from many default fonts and would show as empty boxes; without a
/// font for the symbol the style's icon takes its place, on the same side.
class NavigationButton : public QPushButton {
  Q_OBJECT

 public:
  enum class SymbolSide { Leading, Trailing };

  NavigationButton(const QString& symbol, const QString& word, SymbolSide side,
                   QStyle::StandardPixmap fallback_icon, QWidget* parent = nullptr);
};

}  // namespace ascope
