#include "engine/pretrained/vit_processor_for_model.h"

#include <filesystem>
#include <system_error>

namespace ascope {

Expected<VitImageProcessor> vitProcessorForModel(const std::string& folder,
                                                 const VitConfig& model) {
  const std::filesystem::path path = std::filesystem::path(folder) / "preprocessor_config.json";
  std::error_code ec;
  VitImageProcessor processor;
  processor.height = processor.width = static_cast<int>(model.image_size);
  if (std::filesystem::exists(path, ec)) {
    Expected<VitImageProcessor> read = VitImageProcessor::read(path.string());
    if (!read.ok()) return Error{read.error()};
    processor = *read;
  }
  if (processor.do_resize &&
      (processor.height != model.image_size || processor.width != model.image_size)) {
    return Error{path.string() + ": size " + std::to_string(processor.height) + "×" +
                 std::to_string(processor.width) + " is not the model's image_size " +
                 std::to_string(model.image_size) + " (config.json)"};
  }
  return processor;
}

}  // namespace ascope
