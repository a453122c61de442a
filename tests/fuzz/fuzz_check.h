#pragma once
// Invariants the fuzz targets check besides "no crash": a broken one aborts, which libFuzzer
// reports as a crash with the input that caused it.
#include <cstdlib>
#include <string_view>

#include "engine/text/unicode/utf8_repair.h"

namespace ascope::fuzz {

inline void check(bool condition) {
  if (!condition) std::abort();
}

/// Text a loader hands on must be valid UTF-8: repairing it again changes nothing.
inline void checkUtf8(std::string_view text) {
  std::size_t replaced = 0;
  repairUtf8(text, &replaced);
  check(replaced == 0);
}

}  // namespace ascope::fuzz
