#pragma once
// How an image task reads its training images (plain C++, no LibTorch), stored in config.json
// under "image_data"; runs made before kept the one setting as a top-level "augment".
#include <nlohmann/json.hpp>

namespace ascope {

struct ImageDataSettings {
  /// Its key in config.json (TrainingConfig::task_settings).
  static constexpr const char* kConfigKey = "image_data";

  bool augment = true;  ///< random crop (pad 4) and horizontal flip of every training image
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ImageDataSettings, augment)

}  // namespace ascope
