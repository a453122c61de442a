#pragma once
// A small "--key value" parser: every option must be known, every value well-formed; errors are one
// line for a person.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/core/expected.h"

namespace ascope::cli {

class CliOptions {
 public:
  /// `flags` take no value (e.g. --help); every other known option takes exactly one.
  static Expected<CliOptions> parse(const std::vector<std::string>& args,
                                    const std::set<std::string>& with_value,
                                    const std::set<std::string>& flags);

  bool has(const std::string& key) const { return values_.count(key) > 0; }
  std::optional<std::string> text(const std::string& key) const;
  /// Errors name the option and the value: "--batch-size: \"abc\" is not a whole number".
  Expected<std::optional<int64_t>> integer(const std::string& key, int64_t minimum) const;
  Expected<std::optional<double>> number(const std::string& key) const;

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace ascope::cli
