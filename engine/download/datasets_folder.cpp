#include "engine/download/datasets_folder.h"

#include "engine/download/user_data_folder.h"

namespace ascope {

std::string defaultDatasetsFolder() {
  const std::string base = userDataFolder();
  return base.empty() ? base : base + "/datasets";
}

}  // namespace ascope
