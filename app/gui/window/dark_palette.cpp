#include "app/gui/window/dark_palette.h"

namespace ascope {

QPalette darkPalette() {
  const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xe6, 0xe6, 0xe6),
      button(0x3c, 0x3f, 0x41), disabled(0x80, 0x80, 0x80);
  QPalette p;
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, window);
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, button);
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::ToolTipBase, button);
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xe6));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
  p.setColor(QPalette::Light, QColor(0x4a, 0x4d, 0x50));
  p.setColor(QPalette::Midlight, QColor(0x40, 0x43, 0x46));
  p.setColor(QPalette::Mid, QColor(0x55, 0x58, 0x5c));
  p.setColor(QPalette::Dark, QColor(0x1a, 0x1b, 0x1d));
  p.setColor(QPalette::Shadow, Qt::black);
  p.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xff));
  for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
    p.setColor(QPalette::Disabled, role, disabled);
  }
  return p;
}

}  // namespace ascope
