#include "app/cli/explain_choice.h"

#include <cctype>
#include <cstdlib>
#include <vector>

namespace ascope::cli {
namespace {

constexpr char kShape[] = "GROUP:LAYER:HEAD[:QUERY:KEY] or LAYER:HEAD[:QUERY:KEY]";

/// A whole number from 0, digits only ("+1", "-1" and "1.0" are not one).
bool indexOf(const std::string& field, int& out) {
  if (field.empty() || field.size() > 9) return false;
  for (char ch : field) {
    if (!std::isdigit(static_cast<unsigned char>(ch))) return false;
  }
  out = std::atoi(field.c_str());
  return true;
}

}  // namespace

Expected<ExplainChoice> parseExplainChoice(const std::string& text) {
  std::vector<std::string> fields;
  std::string::size_type begin = 0;
  for (;;) {
    const std::string::size_type end = text.find(':', begin);
    fields.push_back(text.substr(begin, end - begin));
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  ExplainChoice choice;
  choice.text = text;
  int first = 0;
  // A first field that is no number names the group: group names are words ("decoder self").
  if (!indexOf(fields.front(), first)) {
    choice.group = fields.front();
    fields.erase(fields.begin());
    if (choice.group.empty()) return Error{"\"" + text + "\" names no group before its ':'"};
  }
  if (fields.size() != 2 && fields.size() != 4) {
    return Error{"\"" + text + "\" is not " + kShape + " (e.g. 0:1, or encoder:0:1:3:5)"};
  }
  int* const targets[] = {&choice.layer, &choice.head, &choice.query, &choice.key};
  static const char* const kNames[] = {"layer", "head", "query", "key"};
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (!indexOf(fields[i], *targets[i])) {
      return Error{"\"" + text + "\": the " + kNames[i] + " \"" + fields[i] +
                   "\" is not a whole number from 0"};
    }
  }
  return choice;
}

const CLI::Validator kExplainChoice(
    [](std::string& input) -> std::string {
      Expected<ExplainChoice> parsed = parseExplainChoice(input);
      return parsed.ok() ? std::string() : parsed.error();
    },
    "GROUP:LAYER:HEAD[:QUERY:KEY]");

}  // namespace ascope::cli
