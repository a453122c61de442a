#include "engine/datasets/cifar10_binary_reader.h"

#include <filesystem>
#include <system_error>

#include "engine/core/file_bytes.h"
#include "engine/core/text_lines.h"
#include "engine/text/unicode/utf8_repair.h"

namespace ascope {
namespace fs = std::filesystem;
namespace {

const char* const kTrainFiles[] = {"data_batch_1.bin", "data_batch_2.bin", "data_batch_3.bin",
                                   "data_batch_4.bin", "data_batch_5.bin"};
const char* const kTestFile = "test_batch.bin";
const char* const kMetaFile = "batches.meta.txt";
const char* const kFolderName = "cifar-10-batches-bin";

bool hasAnyBatch(const fs::path& folder) {
  std::error_code ec;
  if (fs::is_regular_file(folder / kTestFile, ec)) return true;
  for (const char* file : kTrainFiles) {
    if (fs::is_regular_file(folder / file, ec)) return true;
  }
  return false;
}

Status appendBatch(const fs::path& file, std::vector<ImageSample>& into) {
  auto bytes = readFileBytes(file.string());
  if (!bytes) return Error{bytes.error()};
  auto samples = Cifar10BinaryReader::parseBatch(*bytes, file.string());
  if (!samples) return Error{samples.error()};
  into.insert(into.end(), std::make_move_iterator(samples->begin()),
              std::make_move_iterator(samples->end()));
  return {};
}

}  // namespace

std::string Cifar10BinaryReader::findBatchFolder(const std::string& path) {
  const fs::path root(path);
  std::error_code ec;
  if (fs::is_directory(root / kFolderName, ec)) return (root / kFolderName).string();
  if (root.filename() == kFolderName || hasAnyBatch(root)) return root.string();
  return {};
}

Expected<Loaded<ImageDataset>> Cifar10BinaryReader::read(const std::string& path) {
  const std::string found = findBatchFolder(path);
  const fs::path folder(found.empty() ? path : found);
  std::vector<std::string> missing;
  std::error_code ec;
  for (const char* file : kTrainFiles) {
    if (!fs::is_regular_file(folder / file, ec)) missing.emplace_back(file);
  }
  if (!fs::is_regular_file(folder / kTestFile, ec)) missing.emplace_back(kTestFile);
  if (!fs::is_regular_file(folder / kMetaFile, ec)) missing.emplace_back(kMetaFile);
  if (!missing.empty()) {
    std::string list;
    for (const auto& file : missing) list += (list.empty() ? "" : ", ") + file;
    return Error{folder.string() + ": not a complete CIFAR-10 binary folder, missing " + list};
  }

  Loaded<ImageDataset> loaded;
  ImageDataset& dataset = loaded.dataset;
  dataset.height = kSide;
  dataset.width = kSide;
  const fs::path meta_path = folder / kMetaFile;
  auto meta = readFileBytes(meta_path.string());
  if (!meta) return Error{meta.error()};
  auto names = parseClassNames(*meta, meta_path.string());
  if (!names) return Error{names.error()};
  dataset.class_names = std::move(*names);

  dataset.train.reserve(50000);
  for (const char* file : kTrainFiles) {
    if (Status status = appendBatch(folder / file, dataset.train); !status) {
      return Error{status.error()};
    }
  }
  if (Status status = appendBatch(folder / kTestFile, dataset.test); !status) {
    return Error{status.error()};
  }
  return loaded;
}

Expected<std::vector<ImageSample>> Cifar10BinaryReader::parseBatch(std::string_view bytes,
                                                                   const std::string& name) {
  if (bytes.empty()) return Error{name + ": file is empty"};
  if (bytes.size() % kRecordBytes != 0) {
    return Error{name + ": size " + std::to_string(bytes.size()) +
                 " bytes is not a multiple of the " + std::to_string(kRecordBytes) +
                 "-byte CIFAR-10 record (" + std::to_string(bytes.size() / kRecordBytes) +
                 " whole records and " + std::to_string(bytes.size() % kRecordBytes) +
                 " bytes left over)"};
  }
  const std::size_t count = bytes.size() / kRecordBytes;
  std::vector<ImageSample> samples(count);
  for (std::size_t i = 0; i < count; ++i) {
    const auto* record = reinterpret_cast<const std::uint8_t*>(bytes.data() + i * kRecordBytes);
    if (record[0] >= kClasses) {
      return Error{name + ": record " + std::to_string(i) + " has label " +
                   std::to_string(record[0]) + ", but CIFAR-10 labels are 0 to 9"};
    }
    samples[i].label = record[0];
    samples[i].pixels.assign(record + 1, record + kRecordBytes);
  }
  return samples;
}

Expected<std::vector<std::string>> Cifar10BinaryReader::parseClassNames(std::string_view text,
                                                                        const std::string& name) {
  std::vector<std::string> names;
  for (std::string_view line : splitLines(text)) {
    line = trimSpace(line);
    if (!line.empty()) names.push_back(repairUtf8(line));
  }
  if (names.size() != static_cast<std::size_t>(kClasses)) {
    return Error{name + ": expected " + std::to_string(kClasses) +
                 " class names, one per line, found " + std::to_string(names.size())};
  }
  return names;
}

}  // namespace ascope
