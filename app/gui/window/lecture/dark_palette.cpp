#include "app/gui/window/lecture/dark_palette.h"

#include "app/gui/window/lecture/palette_from_roles.h"

namespace ascope {

QPalette darkPalette() {
  const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xe6, 0xe6, 0xe6),
      button(0x3c, 0x3f, 0x41);
  return paletteFromRoles(
      {
          {QPalette::Window, window},
          {QPalette::WindowText, text},
          {QPalette::Base, base},
          {QPalette::AlternateBase, window},
          {QPalette::Text, text},
          {QPalette::Button, button},
          {QPalette::ButtonText, text},
          {QPalette::ToolTipBase, button},
          {QPalette::ToolTipText, text},
          {QPalette::Highlight, QColor(0x3d, 0x8e, 0xe6)},
          {QPalette::HighlightedText, Qt::white},
          {QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a)},
          {QPalette::Light, QColor(0x4a, 0x4d, 0x50)},
          {QPalette::Midlight, QColor(0x40, 0x43, 0x46)},
          {QPalette::Mid, QColor(0x55, 0x58, 0x5c)},
          {QPalette::Dark, QColor(0x1a, 0x1b, 0x1d)},
          {QPalette::Shadow, Qt::black},
          {QPalette::Link, QColor(0x6c, 0xb4, 0xff)},
      },
      QColor(0x80, 0x80, 0x80));
}

}  // namespace ascope
