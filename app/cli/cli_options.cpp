#include "app/cli/cli_options.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "app/cli/commands.h"
#include "engine/core/regular_file.h"

namespace ascope::cli {
namespace {

constexpr std::size_t kNameColumn = 26;
constexpr std::size_t kLineWidth = 100;
constexpr char kUnbreakableSpace = '\x01';  // a space that wrapped() does not break at

/// `text` broken at spaces into lines of at most `width` characters.
std::string wrapped(const std::string& text, std::size_t width) {
  std::string out, line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    start = end + 1;
  }
  return out + line;
}

class HouseFormatter : public CLI::Formatter {
 public:
  HouseFormatter() {
    label("Usage", "usage");
    label("OPTIONS", "options");
    label("SUBCOMMAND", "<command>");
    column_width(kNameColumn);
  }

  // CLI11 puts the description above the usage line; a reader looks for the usage first.
  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override {
    if (mode == CLI::AppFormatMode::Sub) return make_expanded(app);
    return make_usage(app, name) + make_description(app) + make_positionals(app) +
           make_groups(app, mode) + make_subcommands(app, mode) + "\n" + make_footer(app);
  }

  // The value's name only ("--batch-size N"); its range and exclusions go with the description,
  // where they do not push it onto a line of its own.
  std::string make_option_opts(const CLI::Option* option) const override {
    if (option->get_type_size() == 0) return {};
    const std::string type = option->get_type_name();
    return " " + type.substr(0, type.find(':')) + (option->get_required() ? " (required)" : "");
  }

  std::string make_option_desc(const CLI::Option* option) const override {
    std::string text = option->get_description();
    const std::string type = option->get_type_name();
    for (std::size_t colon = type.find(':'); colon != std::string::npos;) {
      const std::size_t next = type.find(':', colon + 1);
      // Kept on one line: "(INT in [1 - 65536])" reads badly when broken.
      std::string range = type.substr(colon + 1, next - colon - 1);
      std::replace(range.begin(), range.end(), ' ', kUnbreakableSpace);
      text += " (" + range + ")";
      colon = next;
    }
    std::vector<std::string> excluded;
    for (const CLI::Option* other : option->get_excludes()) excluded.push_back(other->get_name());
    std::sort(excluded.begin(), excluded.end());
    for (std::size_t i = 0; i < excluded.size(); ++i) {
      text += (i == 0 ? "; not with " : ", ") + excluded[i];
    }
    text = wrapped(text, kLineWidth - kNameColumn);
    std::replace(text.begin(), text.end(), kUnbreakableSpace, ' ');
    return text;
  }
};

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

/// CLI11 messages may span lines; a usage error is one.
std::string oneLine(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

/// The full name of the subcommand `app` ran, "" for none: "train" for the help hint of an error.
std::string selectedCommand(const CLI::App& app) {
  std::string name;
  for (const CLI::App* command = &app; !command->get_subcommands().empty();) {
    command = command->get_subcommands().front();
    name += (name.empty() ? "" : " ") + command->get_name();
  }
  return name;
}

}  // namespace

void useHouseHelpLayout(CLI::App& app) {
  app.formatter(std::make_shared<HouseFormatter>());
}

std::optional<int> parseCommandLine(CLI::App& app, const std::vector<std::string>& args) {
  // CLI11 takes the arguments last first.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help() << std::flush;
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All) << std::flush;
    return 0;
  } catch (const CLI::CallForVersion& version) {
    std::cout << version.what() << std::endl;
    return 0;
  } catch (const CLI::ParseError& e) {
    return usageError(oneLine(e.what()), selectedCommand(app));
  }
  return std::nullopt;
}

CLI::Validator dataPath(bool builtin) {
  return CLI::Validator(
      [builtin](std::string& path) -> std::string {
        if (builtin && path == "builtin") return {};
        struct stat st {};
        if (path.empty() || ::stat(path.c_str(), &st) != 0) {
          return (path.empty() ? std::string("\"\"") : path) + ": no such file or folder";
        }
        if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) return {};
        return path + " is " + fileKindName(st.st_mode) + ", not a data file or folder";
      },
      "");
}

const CLI::Validator kWholeNumber(
    [](std::string& input) -> std::string {
      char* end = nullptr;
      errno = 0;
      std::strtoll(input.c_str(), &end, 10);
      if (input.empty() || *end != '\0') return "\"" + input + "\" is not a whole number";
      if (errno == ERANGE) return input + " is out of range";
      return {};
    },
    "");

CLI::Validator realIn(double minimum, double maximum, bool open) {
  const std::string range = open ? "(" + number(minimum) + " - " + number(maximum) + ")"
                                 : "[" + number(minimum) + " - " + number(maximum) + "]";
  return CLI::Validator(
      [=](std::string& input) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(input.c_str(), &end);
        if (input.empty() || *end != '\0' || !std::isfinite(value)) {
          return "\"" + input + "\" is not a number";
        }
        const bool inside =
            open ? value > minimum && value < maximum : value >= minimum && value <= maximum;
        if (!inside) return "Value " + input + " not in range " + range;
        return {};
      },
      "FLOAT in " + range);
}

std::string joinWithOr(const std::vector<std::string>& items) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) text += i + 1 == items.size() ? " or " : ", ";
    text += items[i];
  }
  return text;
}

}  // namespace ascope::cli
