#pragma once
// What every command's CLI11 parser shares: the help layout, the parse that turns CLI11's errors
// into the CLI's one-line usage errors, and the checks CLI11 lacks. No LibTorch and no engine
// beyond engine/core, so that tests/download's driver can build it with the download command.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ascope::cli {

/// "usage:" first, then the description, the options and the footer.
void useHouseHelpLayout(CLI::App& app);

/// Parses `args` (after the program name) into `app`. nullopt: go on and run the command that was
/// parsed. Otherwise the exit code: 0 after --help (printed on stdout), 2 after a usage error
/// (one line on stderr that names the option and value).
std::optional<int> parseCommandLine(CLI::App& app, const std::vector<std::string>& args);

/// Refuses a value that is not a whole number with "\"abc\" is not a whole number" (CLI11's own
/// range check would call it out of range). Check it before CLI::Range.
extern const CLI::Validator kWholeNumber;

/// A data set's path: "builtin" when `builtin` is allowed, else an existing file or folder. A
/// device, FIFO or socket is refused by name ("/dev/zero is a character device, not a data file or
/// folder"): reading it would never end (or never begin).
CLI::Validator dataPath(bool builtin);

/// A real number in [minimum, maximum], or in (minimum, maximum) when `open`; CLI::Range's
/// message prints reals with six decimals ("10000000.000000").
CLI::Validator realIn(double minimum, double maximum, bool open = false);

/// "a, b or c"
std::string joinWithOr(const std::vector<std::string>& items);

}  // namespace ascope::cli
