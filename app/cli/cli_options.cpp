#include "app/cli/cli_options.h"

#include <cmath>
#include <cstdlib>

namespace ascope::cli {

Expected<CliOptions> CliOptions::parse(const std::vector<std::string>& args,
                                       const std::set<std::string>& with_value,
                                       const std::set<std::string>& flags) {
  CliOptions options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (flags.count(arg) > 0) {
      options.values_[arg] = "";
      continue;
    }
    if (with_value.count(arg) == 0) {
      return Error{arg.rfind("--", 0) == 0 ? "unknown option " + arg
                                           : "unexpected argument \"" + arg + "\""};
    }
    if (i + 1 >= args.size()) return Error{arg + " needs a value"};
    options.values_[arg] = args[++i];
  }
  return options;
}

std::optional<std::string> CliOptions::text(const std::string& key) const {
  const auto it = values_.find(key);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

Expected<std::optional<int64_t>> CliOptions::integer(const std::string& key, int64_t minimum) const {
  const auto value = text(key);
  if (!value) return std::optional<int64_t>();
  char* end = nullptr;
  errno = 0;
  const long long parsed = std::strtoll(value->c_str(), &end, 10);
  if (value->empty() || *end != '\0' || errno != 0) {
    return Error{key + ": \"" + *value + "\" is not a whole number"};
  }
  if (parsed < minimum) {
    return Error{key + ": " + *value + " is below the minimum " + std::to_string(minimum)};
  }
  return std::optional<int64_t>(parsed);
}

Expected<std::optional<double>> CliOptions::number(const std::string& key) const {
  const auto value = text(key);
  if (!value) return std::optional<double>();
  char* end = nullptr;
  const double parsed = std::strtod(value->c_str(), &end);
  if (value->empty() || *end != '\0' || !std::isfinite(parsed)) {
    return Error{key + ": \"" + *value + "\" is not a number"};
  }
  return std::optional<double>(parsed);
}

}  // namespace ascope::cli
