#pragma once
// What the translation task reads and how it scores (plain C++, no LibTorch), stored in
// config.json under "translation_data"; runs made before kept these as top-level keys of the
// same names.
#include <nlohmann/json.hpp>

#include <string>

#include "engine/vocabulary/expected.h"

namespace ascope {

struct TranslationDataSettings {
  /// Its key in config.json (TrainingConfig::task_settings).
  static constexpr const char* kConfigKey = "translation_data";

  /// Language codes of the pair: which side of a corpus is read as the source, and the names of
  /// the tokenizer files (tokenizer_<code>.json), so plain letters, digits, '_' and '-'.
  std::string source_language = "en";
  std::string target_language = "it";
  int min_freq = 2;  ///< whole-word tokenizers: a word seen fewer times is [UNK]
  /// Validation sentences translated whole at each evaluation for BLEU, chrF, CER and WER.
  int decode_samples = 100;

  Status validate() const;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TranslationDataSettings, source_language,
                                                target_language, min_freq, decode_samples)

}  // namespace ascope
