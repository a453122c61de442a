#pragma once
// A decimal-comma locale for tests of locale-independent number text, made on the spot with
// localedef (LC_NUMERIC only, the rest copied from POSIX) into a folder of this process and found
// through LOCPATH, so that no system locale needs to be installed.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace ascope::testing {

/// The name to give setlocale() or LC_ALL (with LOCPATH set to `folder`): "xx_COMMA.UTF-8", or
/// "" when localedef is not there or fails.
inline std::string makeCommaLocale(const std::string& folder) {
  std::filesystem::create_directories(folder);
  const std::string source = folder + "/comma.src";
  std::ofstream(source) << "comment_char %\nescape_char /\n"
                           "LC_CTYPE\ncopy \"POSIX\"\nEND LC_CTYPE\n"
                           "LC_NUMERIC\ndecimal_point \"<U002C>\"\nthousands_sep \"<U002E>\"\n"
                           "grouping 3;3\nEND LC_NUMERIC\n";
  const std::string name = "xx_COMMA.UTF-8";
  // -c: the other categories are missing on purpose; localedef warns and writes the locale.
  const std::string command =
      "localedef -c -i '" + source + "' -f UTF-8 '" + folder + "/" + name + "' >/dev/null 2>&1";
  // Its exit status says little (it warns and still writes); whether the locale is there says all.
  if (const int status = std::system(command.c_str()); status == -1) return {};
  if (!std::filesystem::exists(folder + "/" + name + "/LC_NUMERIC")) return {};
  return name;
}

}  // namespace ascope::testing
