#pragma once
// The app's own palettes (--dark, View → High contrast) are tables of colours by role; this turns
// such a table into a QPalette, greying the text of disabled widgets the same way in each.
#include <QColor>
#include <QPalette>

#include <initializer_list>
#include <utility>

namespace ascope {

/// A palette with `roles` for every colour group, and `disabled_text` for the window, base and
/// button text of disabled widgets.
QPalette paletteFromRoles(std::initializer_list<std::pair<QPalette::ColorRole, QColor>> roles,
                          const QColor& disabled_text);

}  // namespace ascope
