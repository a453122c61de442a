#pragma once
// Which files of a hub model to fetch after config.json, decided by its model_type: a text model
// needs its tokenizer files, an image model its preprocessor settings, both need their weights.
// Each file has a most it may be, so that a server cannot fill the disk with a "config.json".
#include <cstdint>
#include <string>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// The most a file that is settings only (config.json, preprocessor_config.json, …) may be: the
/// readers take no more (engine/core/json_limits.h).
inline constexpr std::int64_t kMaxSettingsFileBytes = std::int64_t{1} << 20;
/// The most a tokenizer file may be (tokenizer.json, vocab.txt; the readers' limit).
inline constexpr std::int64_t kMaxTokenizerFileBytes = std::int64_t{64} << 20;
/// The most weights may be: far above any model AttentionScope runs (bert-large is 1.3 GB,
/// vit-huge 2.5 GB), far below a disk.
inline constexpr std::int64_t kMaxWeightsFileBytes = std::int64_t{64} << 30;

/// One file a model needs, or the first the hub has of a few alternatives.
struct HubFileChoice {
  /// Tried in order; the first the hub has is fetched.
  std::vector<std::string> candidates;
  /// When the hub has none of them: an error if true, nothing fetched otherwise.
  bool required = true;
  /// Told when a candidate other than the first had to be taken.
  std::string fallback_warning;
  /// The most the file may be, whatever the server declares or sends.
  std::int64_t max_bytes = kMaxSettingsFileBytes;
  /// The weights: a person is told when their SHA-256 cannot be checked.
  bool weights = false;
};

class ModelFilePlan {
 public:
  /// Reads model_type from config.json's text. Errors name config.json and what is wrong with it,
  /// e.g. a model_type outside the BERT-like and ViT families, listing those that are known.
  static Expected<ModelFilePlan> fromConfig(const std::string& config_json);

  /// config.json itself, fetched before the plan is known.
  static HubFileChoice config();
  /// Every name a downloaded model folder may hold, whatever its kind: config.json, each kind's
  /// files and their alternatives. The rest of a folder is the user's.
  static std::vector<std::string> allModelFileNames();

  /// config.json's model_type, e.g. "bert" or "vit".
  const std::string& modelType() const { return model_type_; }
  /// The files after config.json, in the order to fetch them (weights last: the largest).
  const std::vector<HubFileChoice>& files() const { return files_; }

 private:
  ModelFilePlan(std::string model_type, std::vector<HubFileChoice> files);

  std::string model_type_;
  std::vector<HubFileChoice> files_;
};

}  // namespace ascope
