#pragma once
// Everything a BERT tokenizer needs besides its vocabulary, as Hugging Face's files spell it
// (tokenizer.json, tokenizer_config.json). The defaults are bert-base-uncased's.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engine/text/bert/bert_basic_tokenizer.h"

namespace ascope {

struct BertTokenizerSettings {
  BertNormalization normalization;
  std::string unk_token = "[UNK]";
  std::string sep_token = "[SEP]";
  std::string pad_token = "[PAD]";
  std::string cls_token = "[CLS]";
  std::string mask_token = "[MASK]";
  /// Tokens found in the raw text before any normalization and kept whole, like the five above
  /// (which always are): tokenizer.json's added_tokens, tokenizer_config.json's
  /// additional_special_tokens. Each must be in the vocabulary.
  std::vector<std::string> added_tokens;
  /// Whole words the basic tokenizer leaves alone (BasicTokenizer's never_split).
  std::vector<std::string> never_split;
  std::string continuing_subword_prefix = "##";
  std::size_t max_input_chars_per_word = 100;
  /// The longest input the model takes (tokenizer_config.json's model_max_length); unset when
  /// unknown or when the file gives Hugging Face's "no limit" value (1e30).
  std::optional<std::size_t> model_max_length;
};

}  // namespace ascope
