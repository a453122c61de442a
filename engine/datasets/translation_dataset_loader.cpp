#include "engine/datasets/translation_dataset_loader.h"

#include <filesystem>
#include <system_error>
#include <vector>

#include "engine/core/file_bytes.h"
#include "engine/core/text_lines.h"
#include "engine/datasets/json_lines_pair_reader.h"
#include "engine/datasets/moses_pair_reader.h"
#include "engine/datasets/seeded_split.h"
#include "engine/datasets/tsv_pair_reader.h"

namespace ascope {
namespace fs = std::filesystem;
namespace {

using Pairs = Loaded<std::vector<TranslationPair>>;

bool isJsonLinesName(const fs::path& path) {
  const auto extension = path.extension();
  return extension == ".jsonl" || extension == ".json" || extension == ".ndjson";
}

Expected<Pairs> readByContent(const std::string& path, const TranslationLoadOptions& options) {
  auto bytes = readFileBytes(path);
  if (!bytes) return Error{bytes.error()};
  const std::string_view text = trimSpace(*bytes);
  if (text.empty()) return Error{path + ": file is empty"};
  if (text.front() == '{') {
    return JsonLinesPairReader::parse(*bytes, path, options.source_language,
                                      options.target_language);
  }
  if (text.substr(0, text.find('\n')).find('\t') != std::string_view::npos) {
    return TsvPairReader::parse(*bytes, path);
  }
  return Error{path + ": cannot tell the format: expected a moses file ending in ." +
               options.source_language + " or ." + options.target_language +
               " with its partner beside it, TSV (source TAB target) or JSON lines"};
}

Expected<Pairs> readFile(const fs::path& path, const TranslationLoadOptions& options) {
  const auto [source, target] = MosesPairReader::completePair(
      path.string(), options.source_language, options.target_language);
  if (!source.empty()) return MosesPairReader::read(source, target);
  if (isJsonLinesName(path)) {
    return JsonLinesPairReader::read(path.string(), options.source_language,
                                     options.target_language);
  }
  if (path.extension() == ".tsv") return TsvPairReader::read(path.string());
  return readByContent(path.string(), options);
}

Expected<Pairs> readFolder(const fs::path& folder, const TranslationLoadOptions& options) {
  auto moses = MosesPairReader::findPairInFolder(folder.string(), options.source_language,
                                                 options.target_language);
  if (moses) return MosesPairReader::read(moses->first, moses->second);
  std::vector<fs::path> candidates;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) &&
        (isJsonLinesName(it->path()) || it->path().extension() == ".tsv")) {
      candidates.push_back(it->path());
    }
  }
  if (candidates.size() == 1) return readFile(candidates.front(), options);
  return Error{moses.error() + ", and " + std::to_string(candidates.size()) +
               " .jsonl/.json/.tsv files where exactly one would be read"};
}

Expected<Loaded<TranslationDataset>> splitPairs(Expected<Pairs> pairs,
                                                const TranslationLoadOptions& options) {
  if (!pairs) return Error{pairs.error()};
  Loaded<TranslationDataset> loaded;
  loaded.dataset.source_language = options.source_language;
  loaded.dataset.target_language = options.target_language;
  auto split = seededSplit(std::move(pairs->dataset), options.train_fraction, options.seed);
  loaded.dataset.train = std::move(split.first);
  loaded.dataset.validation = std::move(split.second);
  loaded.warnings = std::move(pairs->warnings);
  return loaded;
}

Status checkLanguages(const TranslationLoadOptions& options) {
  if (options.source_language.empty() || options.target_language.empty()) {
    return Error{"translation languages must not be empty (source \"" + options.source_language +
                 "\", target \"" + options.target_language + "\")"};
  }
  if (options.source_language == options.target_language) {
    return Error{"source and target language are both \"" + options.source_language + "\""};
  }
  return {};
}

}  // namespace

Expected<Loaded<TranslationDataset>> loadTranslationDataset(const std::string& path,
                                                            const TranslationLoadOptions& options) {
  if (Status status = checkLanguages(options); !status) return Error{status.error()};
  std::error_code ec;
  if (!fs::exists(path, ec)) return Error{path + ": does not exist"};
  if (fs::is_directory(path, ec)) return splitPairs(readFolder(path, options), options);
  return splitPairs(readFile(path, options), options);
}

Expected<Loaded<TranslationDataset>> loadTranslationDataset(const std::string& source_path,
                                                            const std::string& target_path,
                                                            const TranslationLoadOptions& options) {
  if (Status status = checkLanguages(options); !status) return Error{status.error()};
  return splitPairs(MosesPairReader::read(source_path, target_path), options);
}

}  // namespace ascope
