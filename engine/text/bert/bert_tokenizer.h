#pragma once
// BERT's tokenizer as Hugging Face's BertTokenizer runs it: special tokens are cut out of the raw
// text first ("[MASK]" stays one token), the rest goes through the basic tokenizer
// (bert_basic_tokenizer.h) and WordPiece (wordpiece_tokenizer.h); encode() adds [CLS] … [SEP]
// (pairs: [CLS] a [SEP] b [SEP], token type 0 then 1), truncates longest-first and pads.
//
// Loads from Hugging Face's files: vocab.txt, tokenizer.json, or a save_pretrained folder
// (tokenizer.json, else vocab.txt, then tokenizer_config.json's settings on top, as the fast
// tokenizer's constructor applies them).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/text/bert/bert_basic_tokenizer.h"
#include "engine/text/bert/bert_tokenizer_settings.h"
#include "engine/text/bert/wordpiece_tokenizer.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// One encoded input, all four lists of the same length.
struct BertEncoding {
  std::vector<std::int64_t> ids;
  /// The token of each id, for labels ("[CLS]", "play", "##ing", "[SEP]", "[PAD]").
  std::vector<std::string> tokens;
  std::vector<std::int64_t> token_type_ids;
  /// 1 for real tokens, 0 for padding.
  std::vector<std::int64_t> attention_mask;
};

struct BertEncodeOptions {
  bool add_special_tokens = true;
  /// The length to truncate and pad to; 0 takes the tokenizer's model_max_length (no limit when
  /// it has none).
  std::size_t max_length = 0;
  /// Cut the input to max_length: a single text from its end, a pair longest-first (one token at
  /// a time from the longer one, from the second on a tie), as Hugging Face's default. Special
  /// tokens are never cut, so a max_length below their count (2, 3 for pairs) leaves only them.
  bool truncate = true;
  /// Append [PAD] (attention mask 0, token type 0) up to max_length.
  bool pad_to_max_length = false;
};

class BertTokenizer {
 public:
  /// `vocab[id]` is the token with that id. Fails (the message starting with `name`) on a
  /// duplicate token, or when the unknown, [CLS], [SEP] or [PAD] token or an added token is not in
  /// the vocabulary.
  static Expected<BertTokenizer> create(std::vector<std::string> vocab,
                                        BertTokenizerSettings settings, const std::string& name);
  /// vocab.txt: one token per line, the id is the line number counted from 0.
  static Expected<BertTokenizer> fromVocabFile(const std::string& path,
                                               BertTokenizerSettings settings = {});
  static Expected<BertTokenizer> fromVocabText(std::string_view text, const std::string& name,
                                               BertTokenizerSettings settings = {});
  /// tokenizer.json of a BERT model (WordPiece, BertNormalizer, BertPreTokenizer).
  static Expected<BertTokenizer> fromTokenizerJsonFile(const std::string& path);
  static Expected<BertTokenizer> fromTokenizerJsonText(std::string_view text,
                                                       const std::string& name);
  /// A save_pretrained folder: tokenizer.json or vocab.txt, and tokenizer_config.json if there.
  static Expected<BertTokenizer> fromFolder(const std::string& folder);

  /// The tokens of `text` without special tokens (Hugging Face's tokenize()), read back from the
  /// ids: a never_split word missing from the vocabulary shows as the unknown token, where
  /// Hugging Face shows it as written (the ids are the same).
  std::vector<std::string> tokenize(std::string_view text) const;
  /// The ids of `text` without special tokens, truncation or padding.
  std::vector<std::int64_t> encodeIds(std::string_view text) const;
  BertEncoding encode(std::string_view text, const BertEncodeOptions& options = {}) const;
  BertEncoding encodePair(std::string_view first, std::string_view second,
                          const BertEncodeOptions& options = {}) const;
  /// Text back from ids as Hugging Face's decode(): tokens joined by spaces, "##" pieces glued to
  /// the token before, and its clean-up of spaces before punctuation and English contractions.
  /// skip_special_tokens drops [CLS], [SEP], [PAD], [MASK], [UNK] and the added tokens.
  std::string decode(const std::vector<std::int64_t>& ids, bool skip_special_tokens = false) const;

  /// The id of a whole token, or -1.
  std::int64_t idOf(std::string_view token) const { return word_piece_.idOf(token); }
  /// The token with `id`; the unknown token for ids out of range.
  const std::string& tokenOf(std::int64_t id) const { return word_piece_.tokenOf(id); }
  std::size_t vocabSize() const { return word_piece_.vocabSize(); }
  std::int64_t unkId() const { return word_piece_.unkId(); }
  std::int64_t clsId() const { return cls_id_; }
  std::int64_t sepId() const { return sep_id_; }
  std::int64_t padId() const { return pad_id_; }
  /// -1 when the vocabulary has no mask token.
  std::int64_t maskId() const { return mask_id_; }
  const BertTokenizerSettings& settings() const { return settings_; }

 private:
  struct AddedToken {
    std::string text;
    std::int64_t id = 0;
  };

  BertTokenizer() = default;
  void appendIds(std::string_view text, BertBasicTokenizer::Words& words,
                 std::vector<std::int64_t>& ids) const;
  void appendPlainIds(std::string_view text, BertBasicTokenizer::Words& words,
                      std::vector<std::int64_t>& ids) const;
  BertEncoding assemble(std::vector<std::int64_t> first, const std::vector<std::int64_t>* second,
                        const BertEncodeOptions& options) const;
  bool isSpecialId(std::int64_t id) const;

  BertTokenizerSettings settings_;
  BertBasicTokenizer basic_;
  WordPieceTokenizer word_piece_;
  std::vector<AddedToken> added_;  // longest first, so that the longest match wins
  std::array<bool, 256> added_first_bytes_{};
  std::int64_t cls_id_ = 0;
  std::int64_t sep_id_ = 0;
  std::int64_t pad_id_ = 0;
  std::int64_t mask_id_ = -1;
};

}  // namespace ascope
