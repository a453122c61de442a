#include "engine/download/models/models_folder.h"

#include "engine/download/user_data_folder.h"

namespace ascope {

std::string defaultModelsFolder() {
  const std::string base = userDataFolder();
  return base.empty() ? base : base + "/models";
}

}  // namespace ascope
