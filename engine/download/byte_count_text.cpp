#include "engine/download/byte_count_text.h"

#include <cstdio>
#include <iterator>

namespace ascope {

std::string byteCountText(std::int64_t bytes) {
  if (bytes < 0) return "size unknown";
  if (bytes < 1000) return std::to_string(bytes) + " B";
  const char* units[] = {"kB", "MB", "GB", "TB"};
  double value = static_cast<double>(bytes) / 1000;
  std::size_t unit = 0;
  while (value >= 1000 && unit + 1 < std::size(units)) {
    value /= 1000;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
  return text;
}

}  // namespace ascope
