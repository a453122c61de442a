#include "engine/datasets/text_dataset_loader.h"

#include <filesystem>
#include <system_error>
#include <vector>

#include "engine/datasets/acl_imdb_reader.h"
#include "engine/datasets/imdb_csv_reader.h"
#include "engine/datasets/seeded_split.h"

namespace ascope {
namespace fs = std::filesystem;
namespace {

void appendWarnings(std::vector<std::string>& into, std::vector<std::string>& from) {
  into.insert(into.end(), std::make_move_iterator(from.begin()),
              std::make_move_iterator(from.end()));
}

Expected<Loaded<TextDataset>> readTrainTestCsv(const fs::path& train_path,
                                               const fs::path& test_path) {
  auto train = ImdbCsvReader::read(train_path.string());
  if (!train) return Error{train.error()};
  auto test = ImdbCsvReader::read(test_path.string());
  if (!test) return Error{test.error()};
  Loaded<TextDataset> loaded;
  loaded.dataset.train = std::move(train->dataset);
  loaded.dataset.test = std::move(test->dataset);
  appendWarnings(loaded.warnings, train->warnings);
  appendWarnings(loaded.warnings, test->warnings);
  return loaded;
}

Expected<Loaded<TextDataset>> readSingleCsv(const fs::path& path, const TextLoadOptions& options) {
  auto rows = ImdbCsvReader::read(path.string());
  if (!rows) return Error{rows.error()};
  Loaded<TextDataset> loaded;
  auto split = seededSplit(std::move(rows->dataset), options.train_fraction, options.seed);
  loaded.dataset.train = std::move(split.first);
  loaded.dataset.test = std::move(split.second);
  loaded.warnings = std::move(rows->warnings);
  return loaded;
}

Expected<Loaded<TextDataset>> detectAndReadTexts(const std::string& path,
                                                 const TextLoadOptions& options) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return Error{path + ": does not exist"};
  if (!fs::is_directory(path, ec)) return readSingleCsv(path, options);
  if (!AclImdbReader::findRoot(path).empty()) return AclImdbReader::read(path);

  const fs::path folder(path);
  if (fs::is_regular_file(folder / "train.csv", ec) &&
      fs::is_regular_file(folder / "test.csv", ec)) {
    return readTrainTestCsv(folder / "train.csv", folder / "test.csv");
  }
  std::vector<fs::path> csv_files;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) && it->path().extension() == ".csv")
      csv_files.push_back(it->path());
  }
  if (csv_files.size() == 1) return readSingleCsv(csv_files.front(), options);
  return Error{path +
               ": found no IMDB data: expected an aclImdb folder (train/ and test/ with pos/ "
               "and neg/), train.csv with test.csv, or a single .csv file (found " +
               std::to_string(csv_files.size()) + " .csv files)"};
}

}  // namespace

Expected<Loaded<TextDataset>> loadTextDataset(const std::string& path,
                                              const TextLoadOptions& options) {
  return detectAndReadTexts(path, options);
}

}  // namespace ascope
