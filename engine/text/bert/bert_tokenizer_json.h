#pragma once
// The parts of a Hugging Face tokenizer.json that a BERT tokenizer uses:
//   model             WordPiece ("type" may be missing): vocab {token: id}, unk_token,
//                     continuing_subword_prefix, max_input_chars_per_word
//   normalizer        BertNormalizer (clean_text, handle_chinese_chars, strip_accents, lowercase),
//                     or null for none
//   pre_tokenizer     BertPreTokenizer
//   added_tokens      [{id, content, …}]: matched in the raw text and kept whole. lstrip, rstrip,
//                     single_word and normalized are not looked at; BERT's own are all false.
//   post_processor    TemplateProcessing "[CLS] $A [SEP]" or BertProcessing: the [CLS] and [SEP]
//                     names; null keeps "[CLS]" and "[SEP]"
//   padding           its pad_token, when there is one
// Anything else (another model, normalizer or pre-tokenizer) is refused with a message naming the
// field, as is every value of the wrong type.
#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

#include "engine/text/bert/bert_tokenizer_settings.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

struct BertTokenizerDefinition {
  std::vector<std::string> vocab;  ///< vocab[id], added tokens included
  BertTokenizerSettings settings;
};

/// Errors start with `name` and the field: "tokenizer.json: model.vocab: \"##s\" has id -3, not
/// a non-negative integer".
Expected<BertTokenizerDefinition> parseBertTokenizerJson(const nlohmann::json& json,
                                                         const std::string& name);

}  // namespace ascope
