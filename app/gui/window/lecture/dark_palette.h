#pragma once
// A dark palette for --dark (screenshots of the dark theme on systems that default to light).
#include <QPalette>

namespace ascope {

QPalette darkPalette();

}  // namespace ascope
