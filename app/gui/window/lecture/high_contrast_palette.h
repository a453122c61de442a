#pragma once
// White on black with a yellow highlight (View → High contrast): readable on a washed-out
// projector. Plots follow, since their theme is built from the palette (PlotTheme::fromPalette).
#include <QPalette>

namespace ascope {

QPalette highContrastPalette();

}  // namespace ascope
