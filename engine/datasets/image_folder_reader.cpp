#include "engine/datasets/image_folder_reader.h"

#include <algorithm>
#include <filesystem>
#include <string_view>
#include <system_error>

#ifdef ATTENTIONSCOPE_WITH_OPENCV
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#endif

#include "engine/core/regular_file.h"
#include "engine/core/text_lines.h"
#include "engine/datasets/record_tally.h"
#include "engine/datasets/seeded_split.h"
#include "engine/imaging/image_header.h"
#include "engine/imaging/ppm_image.h"
#include "engine/text/unicode/utf8_repair.h"

namespace ascope {
namespace fs = std::filesystem;
namespace {

constexpr int kMaxDecodedSide = 4096;

/// Sorted names of the visible subfolders of `folder`.
std::vector<std::string> subfolders(const fs::path& folder) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_directory(ec) && !name.empty() && name.front() != '.') names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool isImageName(const fs::path& path) {
  const std::string extension = lowerAscii(path.extension().string());
  return extension == ".png" || extension == ".jpg" || extension == ".jpeg";
}

/// Sorted image files of one class folder.
std::vector<fs::path> imageFiles(const fs::path& folder) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) && isImageName(it->path())) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// ImageFolderReader::decode; `too_large` (when given) tells whether the header announced an
/// image over the limits, which the folder reader counts apart from files that do not decode.
/// A `height` and `width` of 0 decode the image at its own size, which `own_size` then gets.
Expected<std::vector<std::uint8_t>> decodeImage(const std::string& file, int height, int width,
                                                bool* too_large, ImageSize* own_size = nullptr) {
  const bool at_own_size = height == 0 && width == 0;
  if (!at_own_size &&
      (height < 1 || height > kMaxDecodedSide || width < 1 || width > kMaxDecodedSide)) {
    return Error{"image size " + std::to_string(height) + "x" + std::to_string(width) +
                 " is outside 1.." + std::to_string(kMaxDecodedSide)};
  }
  Expected<std::string> bytes = readRegularFile(file, kMaxImageFileBytes);
  if (!bytes.ok()) return Error{bytes.error()};
  // The size in the header is checked before any decoder allocates the pixels it announces.
  Expected<ImageSize> size = checkImageHeader(*bytes, file);
  if (!size.ok()) {
    if (too_large != nullptr) *too_large = readImageSize(*bytes, file).ok();
    return Error{size.error()};
  }
  if (at_own_size) {
    // Within 16384 per side and 64 M pixels: checkImageHeader refuses more.
    height = static_cast<int>(size->height);
    width = static_cast<int>(size->width);
    if (own_size != nullptr) *own_size = *size;
  }
  if (looksLikePpm(*bytes)) {
    // PPM needs no OpenCV, so even the GPU server's build can classify an image file.
    Expected<InterleavedRgbImage> image = decodePpm(*bytes, file);
    if (!image.ok()) return Error{image.error()};
    return toPlanar(*image, height, width);
  }
#ifdef ATTENTIONSCOPE_WITH_OPENCV
  try {
    // Decoded from the bytes already read, so the file checked above is the file decoded.
    const cv::Mat raw(1, static_cast<int>(bytes->size()), CV_8UC1, bytes->data());
    const cv::Mat bgr = cv::imdecode(raw, cv::IMREAD_COLOR);  // 8-bit, 3 channels, BGR order
    if (bgr.empty() || bgr.type() != CV_8UC3) return Error{file + ": cannot decode the image"};
    cv::Mat sized = bgr;
    if (bgr.rows != height || bgr.cols != width) {
      const bool shrinking = bgr.rows > height || bgr.cols > width;
      cv::resize(bgr, sized, cv::Size(width, height), 0, 0,
                 shrinking ? cv::INTER_AREA : cv::INTER_LINEAR);
    }
    const std::size_t plane = static_cast<std::size_t>(height) * static_cast<std::size_t>(width);
    std::vector<std::uint8_t> pixels(3 * plane);
    for (int y = 0; y < height; ++y) {
      const auto* row = sized.ptr<cv::Vec3b>(y);
      for (int x = 0; x < width; ++x) {
        const std::size_t at = static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                               static_cast<std::size_t>(x);
        pixels[at] = row[x][2];              // R
        pixels[plane + at] = row[x][1];      // G
        pixels[2 * plane + at] = row[x][0];  // B
      }
    }
    return pixels;
  } catch (const std::exception& e) {  // cv::Exception derives from std::exception
    return Error{file + ": cannot decode the image: " + e.what()};
  }
#else
  return Error{file +
               ": cannot decode PNG/JPEG: this build has no OpenCV (ATTENTIONSCOPE_WITH_OPENCV "
               "is off); convert the image to binary PPM (P6) or rebuild with OpenCV"};
#endif
}

/// Decodes the images of every class folder under `root`/`split` into `out`; what fails is counted
/// under its path relative to `root`.
void readSplit(const fs::path& root, const std::string& split,
               const std::vector<std::string>& classes, const ImageLoadOptions& options,
               std::vector<ImageSample>& out, RecordTally& undecodable, RecordTally& oversized,
               RecordTally& empty_classes) {
  for (std::size_t label = 0; label < classes.size(); ++label) {
    const std::string shown = (split.empty() ? "" : split + "/") + classes[label];
    const std::vector<fs::path> files = imageFiles(root / split / classes[label]);
    if (files.empty()) empty_classes.add(shown);
    for (const fs::path& file : files) {
      bool too_large = false;
      auto pixels = decodeImage(file.string(), options.height, options.width, &too_large);
      if (!pixels) {
        (too_large ? oversized : undecodable).add(shown + "/" + file.filename().string());
        continue;
      }
      out.push_back(ImageSample{std::move(*pixels), static_cast<int>(label)});
    }
  }
}

}  // namespace

bool ImageFolderReader::canDecode() {
#ifdef ATTENTIONSCOPE_WITH_OPENCV
  return true;
#else
  return false;
#endif
}

Expected<std::vector<std::uint8_t>> ImageFolderReader::decode(const std::string& file, int height,
                                                              int width) {
  return decodeImage(file, height, width, nullptr);
}

Expected<ImageBuffer> ImageFolderReader::decodeAtOwnSize(const std::string& file) {
  ImageSize size;
  Expected<std::vector<std::uint8_t>> pixels = decodeImage(file, 0, 0, nullptr, &size);
  if (!pixels.ok()) return Error{pixels.error()};
  return ImageBuffer{static_cast<int>(size.width), static_cast<int>(size.height),
                     std::move(*pixels)};
}

Expected<Loaded<ImageDataset>> ImageFolderReader::read(const std::string& path,
                                                       const ImageLoadOptions& options) {
  if (!canDecode()) {
    return Error{path +
                 ": cannot read an image folder: this build has no OpenCV "
                 "(ATTENTIONSCOPE_WITH_OPENCV is off); use CIFAR-10 binary batches or "
                 "rebuild with OpenCV"};
  }
  if (options.height < 1 || options.height > kMaxDecodedSide || options.width < 1 ||
      options.width > kMaxDecodedSide) {
    return Error{"image size " + std::to_string(options.height) + "x" +
                 std::to_string(options.width) + " is outside 1.." +
                 std::to_string(kMaxDecodedSide)};
  }
  const fs::path root(path);
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return Error{path + ": is not a folder"};
  const bool has_splits =
      fs::is_directory(root / "train", ec) && fs::is_directory(root / "test", ec);

  Loaded<ImageDataset> loaded;
  ImageDataset& dataset = loaded.dataset;
  dataset.height = options.height;
  dataset.width = options.width;
  dataset.class_names = subfolders(has_splits ? root / "train" : root);
  if (dataset.class_names.empty()) {
    return Error{path + ": no class subfolders (expected one folder of PNG/JPEG images per class" +
                 std::string(has_splits ? ", inside train/)" : ")")};
  }
  for (const std::string& name : dataset.class_names) {
    // Class names go into classes.json, and JSON holds UTF-8 only: such a folder failed later with
    // nlohmann's "[json.exception.type_error.316]".
    std::size_t replaced = 0;
    const std::string shown = repairUtf8(name, &replaced);
    if (replaced > 0) {
      return Error{repairUtf8((has_splits ? root / "train" : root).string()) +
                   ": the name of class folder \"" + shown +
                   "\" holds bytes that are not UTF-8 text (shown as �): class names are kept in "
                   "classes.json, which holds UTF-8 only; rename the folder"};
    }
  }
  RecordTally undecodable("images skipped because they could not be decoded");
  RecordTally oversized("images skipped for being over " + std::to_string(kMaxImageSide) +
                        " pixels per side or " + std::to_string(kMaxImagePixels) + " pixels");
  RecordTally empty_classes("class folders without any PNG/JPEG image");
  if (has_splits) {
    for (const std::string& name : subfolders(root / "test")) {
      if (!std::binary_search(dataset.class_names.begin(), dataset.class_names.end(), name)) {
        return Error{(root / "test" / name).string() + ": class \"" + name +
                     "\" is not among the classes in train/"};
      }
    }
    readSplit(root, "train", dataset.class_names, options, dataset.train, undecodable, oversized,
              empty_classes);
    readSplit(root, "test", dataset.class_names, options, dataset.test, undecodable, oversized,
              empty_classes);
  } else {
    std::vector<ImageSample> all;
    readSplit(root, "", dataset.class_names, options, all, undecodable, oversized, empty_classes);
    auto split = seededSplit(std::move(all), options.train_fraction, options.seed);
    dataset.train = std::move(split.first);
    dataset.test = std::move(split.second);
  }
  undecodable.appendWarning(path, loaded.warnings);
  oversized.appendWarning(path, loaded.warnings);
  empty_classes.appendWarning(path, loaded.warnings);
  if (dataset.train.empty() && dataset.test.empty()) {
    return Error{withWarnings(path + ": no image could be read", path, loaded.warnings)};
  }
  return loaded;
}

}  // namespace ascope
