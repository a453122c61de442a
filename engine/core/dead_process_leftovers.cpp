#include "engine/core/dead_process_leftovers.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <system_error>

namespace ascope {

bool processAlive(long pid) {
  if (pid <= 0) return false;
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

std::vector<std::string> removeLeftoversOfDeadProcesses(const std::string& folder,
                                                        const std::regex& pattern) {
  namespace fs = std::filesystem;
  std::vector<std::string> removed;
  std::error_code ec;
  std::vector<fs::path> stale;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder, ec)) {
    const std::string name = entry.path().filename().string();
    std::smatch match;
    if (!std::regex_match(name, match, pattern) || match.size() < 2) continue;
    long pid = 0;
    try {
      pid = std::stol(match[1].str());
    } catch (const std::exception&) {
      continue;  // not a process id after all
    }
    if (pid == static_cast<long>(::getpid()) || processAlive(pid)) continue;
    stale.push_back(entry.path());
  }
  for (const fs::path& path : stale) {
    std::error_code remove_error;
    fs::remove_all(path, remove_error);  // symlinks inside are removed, not followed
    if (!remove_error) removed.push_back(path.string());
  }
  return removed;
}

}  // namespace ascope
