#include "app/gui/window/lecture/palette_from_roles.h"

namespace ascope {

QPalette paletteFromRoles(std::initializer_list<std::pair<QPalette::ColorRole, QColor>> roles,
                          const QColor& disabled_text) {
  QPalette palette;
  for (const auto& [role, colour] : roles) palette.setColor(role, colour);
  for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
    palette.setColor(QPalette::Disabled, role, disabled_text);
  }
  return palette;
}

}  // namespace ascope
