#pragma once
// Small validators that name the field and the value, shared by every config.
#include <cstdint>
#include <initializer_list>
#include <sstream>
#include <string>

#include "engine/vocabulary/expected.h"

namespace ascope::config_checks {

inline std::string show(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

inline Status atLeast(const char* field, int64_t value, int64_t minimum) {
  if (value >= minimum) return {};
  return Error{std::string(field) + " must be at least " + std::to_string(minimum) + ", got " +
               std::to_string(value)};
}

inline Status atMost(const char* field, int64_t value, int64_t maximum) {
  if (value <= maximum) return {};
  return Error{std::string(field) + " must be at most " + std::to_string(maximum) + ", got " +
               std::to_string(value)};
}

/// [minimum, maximum]: a value read from config.json is as untrusted as one typed on a command
/// line, and sizes past the maximum overflow arithmetic or allocate without end.
inline Status inRange(const char* field, int64_t value, int64_t minimum, int64_t maximum) {
  if (Status s = atLeast(field, value, minimum); !s.ok()) return s;
  return atMost(field, value, maximum);
}

/// A real number in [minimum, maximum]; NaN is outside every range.
inline Status realInRange(const char* field, double value, double minimum, double maximum) {
  if (value >= minimum && value <= maximum) return {};
  return Error{std::string(field) + " must be in [" + show(minimum) + ", " + show(maximum) +
               "], got " + show(value)};
}

inline Status divisible(const char* field, int64_t value, const char* by_field, int64_t by) {
  if (by > 0 && value % by == 0) return {};
  return Error{std::string(field) + " (" + std::to_string(value) + ") must be divisible by " +
               by_field + " (" + std::to_string(by) + ")"};
}

inline Status probability(const char* field, double value) {
  if (value >= 0.0 && value < 1.0) return {};
  return Error{std::string(field) + " must be in [0, 1), got " + show(value)};
}

inline Status oneOf(const char* field, const std::string& value, const char* a, const char* b) {
  if (value == a || value == b) return {};
  return Error{std::string(field) + " must be \"" + a + "\" or \"" + b + "\", got \"" + value +
               "\""};
}

/// The first failing check, so that a message names the first bad field in declaration order.
inline Status firstError(std::initializer_list<Status> checks) {
  for (const Status& s : checks) {
    if (!s.ok()) return s;
  }
  return {};
}

}  // namespace ascope::config_checks
