#pragma once
// A Hugging Face ViT image processor (preprocessor_config.json): resize to the model's size with
// Pillow's filter, rescale bytes to [0, 1], normalise per channel, as ViTImageProcessor does, so
// that a pretrained ViT gets the inputs it was trained on.
#include <array>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {

struct VitImageProcessor {
  bool do_resize = true;
  int height = 224;
  int width = 224;
  bool do_rescale = true;
  double rescale_factor = 1.0 / 255.0;
  bool do_normalize = true;
  std::array<float, 3> mean{0.5f, 0.5f, 0.5f};
  std::array<float, 3> std{0.5f, 0.5f, 0.5f};

  /// Reads preprocessor_config.json; fields it leaves out keep ViTImageProcessor's defaults.
  /// Errors name the file and the field (a resample filter other than bilinear, a size that is
  /// not positive, a mean or std that is not three numbers, a zero std).
  static Expected<VitImageProcessor> fromJson(const nlohmann::json& j, const std::string& source);
  static Expected<VitImageProcessor> fromJsonText(const std::string& text,
                                                  const std::string& source);
  static Expected<VitImageProcessor> read(const std::string& path);

  /// Channel-planar RGB bytes of height × width → channel-planar floats of this->height ×
  /// this->width (or the input's size without do_resize): the model's pixel_values.
  std::vector<float> process(const std::vector<std::uint8_t>& planar_rgb, int image_height,
                             int image_width) const;
};

}  // namespace ascope
