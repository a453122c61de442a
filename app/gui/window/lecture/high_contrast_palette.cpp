#include "app/gui/window/lecture/high_contrast_palette.h"

#include "app/gui/window/lecture/palette_from_roles.h"

namespace ascope {

QPalette highContrastPalette() {
  const QColor black(Qt::black), white(Qt::white), yellow(0xff, 0xd7, 0x00),
      button(0x1a, 0x1a, 0x1a);
  return paletteFromRoles(
      {
          {QPalette::Window, black},
          {QPalette::WindowText, white},
          {QPalette::Base, black},
          {QPalette::AlternateBase, button},
          {QPalette::Text, white},
          {QPalette::BrightText, yellow},
          {QPalette::Button, button},
          {QPalette::ButtonText, white},
          {QPalette::ToolTipBase, black},
          {QPalette::ToolTipText, white},
          {QPalette::Highlight, yellow},
          {QPalette::HighlightedText, black},
          {QPalette::PlaceholderText, QColor(0xc8, 0xc8, 0xc8)},
          // Frames and separators are drawn with these: light enough to be seen on black.
          {QPalette::Light, white},
          {QPalette::Midlight, QColor(0xd0, 0xd0, 0xd0)},
          {QPalette::Mid, QColor(0xa0, 0xa0, 0xa0)},
          {QPalette::Dark, QColor(0x80, 0x80, 0x80)},
          {QPalette::Shadow, QColor(0x60, 0x60, 0x60)},
          {QPalette::Link, QColor(0x66, 0xe0, 0xff)},
          {QPalette::LinkVisited, QColor(0xff, 0x99, 0xff)},
      },
      QColor(0xb0, 0xb0, 0xb0));
}

}  // namespace ascope
