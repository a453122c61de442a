#include "widgets/common/navigation_button.h"

#include <QGlyphRun>
#include <QTextLayout>

namespace ascope {
namespace {

// Whether `text` renders with real glyphs, font fallback included.
bool fontShows(const QFont& font, const QString& text) {
  QTextLayout layout(text, font);
  layout.beginLayout();
  layout.createLine();
  layout.endLayout();
  for (const QGlyphRun& run : layout.glyphRuns())
    for (quint32 glyph : run.glyphIndexes())
      if (glyph == 0) return false;
  return true;
}

}  // namespace

NavigationButton::NavigationButton(const QString& symbol, const QString& word, SymbolSide side,
                                   QStyle::StandardPixmap fallback_icon, QWidget* parent)
    : QPushButton(parent) {
  setAutoDefault(false);
  // Focus stays on the view being stepped, so its arrow keys keep working after a click.
  setFocusPolicy(Qt::NoFocus);
  const bool symbol_first = side == SymbolSide::Leading;
  if (fontShows(font(), symbol)) {
    setText(symbol_first ? symbol + QLatin1Char(' ') + word : word + QLatin1Char(' ') + symbol);
  } else {
    setText(word);
    setIcon(style()->standardIcon(fallback_icon));
    if (!symbol_first) setLayoutDirection(Qt::RightToLeft);
  }
}

}  // namespace ascope
