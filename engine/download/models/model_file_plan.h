#pragma once
// Which files of a hub model to fetch after config.json, decided by its model_type: a text model
// needs its tokenizer files, an image model its preprocessor settings, both need their weights.
#include <string>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// One file a model needs, or the first the hub has of a few alternatives.
struct HubFileChoice {
  /// Tried in order; the first the hub has is fetched.
  std::vector<std::string> candidates;
  /// When the hub has none of them: an error if true, nothing fetched otherwise.
  bool required = true;
  /// Told when a candidate other than the first had to be taken.
  std::string fallback_warning;
};

class ModelFilePlan {
 public:
  /// Reads model_type from config.json's text. Errors name config.json and what is wrong with it,
  /// e.g. a model_type outside the BERT-like and ViT families, listing those that are known.
  static Expected<ModelFilePlan> fromConfig(const std::string& config_json);

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
