#pragma once

#include <QString>

class QComboBox;

namespace ascope {

/// A combo box narrower than its text shows it elided; its tooltip then says it whole. Keeps the
/// tooltip at "<current text>" followed by `description` (what the choice is for), from now on.
void followCurrentTextInToolTip(QComboBox* box, const QString& description);
/// Brings the tooltip up to date after the box changed with its signals blocked.
void refreshCurrentTextToolTip(QComboBox* box);

}  // namespace ascope
