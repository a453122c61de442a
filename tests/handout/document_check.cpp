#include "tests/handout/document_check.h"

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>

#include "test_paths.h"

namespace ascope::testing {

DocumentCheck checkHandoutDocument(const std::string& document, const std::string& scratch_dir) {
  const std::string file = scratch_dir + "/handout_document.json";
  std::ofstream(file, std::ios::binary) << document;
  const std::string script =
      std::string(test_paths::fixturesDir()) + "/../handout/check_handout_document.py";
  const std::string schema =
      std::string(test_paths::resourcesDir()) + "/handout/handout.schema.json";
  // Debian's interpreter: python3-jsonschema is installed for it, whatever python3 is first.
  const std::string command =
      "/usr/bin/python3 '" + script + "' '" + schema + "' '" + file + "' 2>&1";
  DocumentCheck check;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) {
    check.output = "could not start " + command;
    return check;
  }
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    check.output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  check.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return check;
}

}  // namespace ascope::testing
