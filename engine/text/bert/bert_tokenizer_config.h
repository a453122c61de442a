#pragma once
// tokenizer_config.json, the settings Hugging Face's BertTokenizer(Fast) takes as constructor
// arguments: do_lower_case, strip_accents, tokenize_chinese_chars, never_split, model_max_length,
// the special tokens (unk/sep/pad/cls/mask_token, a string or an AddedToken object with
// "content"), additional_special_tokens and added_tokens_decoder. They win over tokenizer.json's
// normalizer, as in the fast tokenizer's constructor. Other keys are ignored; do_basic_tokenize
// false is refused.
#include <nlohmann/json_fwd.hpp>

#include <string>

#include "engine/text/bert/bert_tokenizer_settings.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// Applies the settings of tokenizer_config.json `json` to `settings`. Errors start with `name`
/// and the key: "tokenizer_config.json: do_lower_case must be true or false, not \"yes\"".
Status applyBertTokenizerConfig(const nlohmann::json& json, const std::string& name,
                                BertTokenizerSettings& settings);

}  // namespace ascope
