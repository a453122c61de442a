#include "engine/datasets/image_dataset_loader.h"

#include <filesystem>
#include <system_error>

#include "engine/datasets/cifar10_binary_reader.h"
#include "engine/datasets/image_folder_reader.h"

namespace ascope {
namespace {

Expected<Loaded<ImageDataset>> detectAndReadImages(const std::string& path,
                                                   const ImageLoadOptions& options) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return Error{path + ": does not exist"};
  if (!std::filesystem::is_directory(path, ec)) {
    return Error{path + ": expected a folder (cifar-10-batches-bin/ or one subfolder per class)"};
  }
  if (!Cifar10BinaryReader::findBatchFolder(path).empty()) return Cifar10BinaryReader::read(path);
  return ImageFolderReader::read(path, options);
}

}  // namespace

Expected<Loaded<ImageDataset>> loadImageDataset(const std::string& path,
                                                const ImageLoadOptions& options) {
  return detectAndReadImages(path, options);
}

}  // namespace ascope
