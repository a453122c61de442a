#include "engine/download/user_data_folder.h"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>

namespace ascope {

std::string userDataFolder() {
  constexpr const char* kSubfolder = "/attentionscope";
  // The spec says a relative XDG_DATA_HOME is invalid and must be ignored.
  const char* xdg_data_home = std::getenv("XDG_DATA_HOME");
  if (xdg_data_home != nullptr && xdg_data_home[0] == '/') {
    return std::string(xdg_data_home) + kSubfolder;
  }
  std::string home;
  if (const char* env_home = std::getenv("HOME"); env_home != nullptr && env_home[0] != '\0') {
    home = env_home;
  } else if (const passwd* user = ::getpwuid(::getuid()); user != nullptr && user->pw_dir) {
    home = user->pw_dir;
  }
  return home.empty() ? std::string() : home + "/.local/share" + kSubfolder;
}

}  // namespace ascope
