#pragma once
// The image processor a pretrained ViT folder's images go through, checked against the model:
// fine-tuning, inference of a fine-tuned run and `inspect --image` resize alike (inspect
// decoded to the model's size with OpenCV's area filter instead, and ignored a preprocessor size
// that train refused).
#include <string>

#include "engine/imaging/vit_image_processor.h"
#include "engine/pretrained/hf_model_config.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// `folder`/preprocessor_config.json, or ViTImageProcessor's defaults at the model's size where
/// there is none; refused, naming the file, when it would feed the model another size than its
/// image_size.
Expected<VitImageProcessor> vitProcessorForModel(const std::string& folder, const VitConfig& model);

}  // namespace ascope
