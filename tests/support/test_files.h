#pragma once
// Reading, writing and searching the small text files the tests make and check: one copy for every
// suite (the suites compile their files in batches, where two copies of a helper would clash).
#include <fstream>
#include <sstream>
#include <string>

namespace ascope::testing {

/// Whether `text` holds `part`.
inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// The bytes of the file at `path`; empty when it cannot be read.
inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

/// Writes `bytes` to `path`, replacing what was there.
inline void writeFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace ascope::testing
