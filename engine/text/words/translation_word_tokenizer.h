#pragma once
// The word-level tokenizer of the reference translation model (Hugging Face WordLevel + Whitespace
// pre-tokenizer + WordLevelTrainer): special tokens first, then every token seen at least
// min_frequency times, most frequent first and ties by byte order — the trainer's own order.
// Special ids: [UNK] = 0, [PAD] = 1, [SOS] = 2, [EOS] = 3. One tokenizer per language.
// Saved as JSON in the run folder:
//   {"type": "TranslationWordTokenizer", "version": 1, "lowercase": false, "min_frequency": 2,
//    "vocab": ["[UNK]", "[PAD]", "[SOS]", "[EOS]", ".", "the", …],   ("vocab"[i] has id i)
//    "spacing": {"attach_left": [",", ".", …], "attach_right": ["'", "(", …]}}
// "spacing" (engine/text/words/token_spacing.h) is what detokenize() writes text with; files
// written before it was learned lack it and get the usual rules of punctuation.
#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/text/words/token_spacing.h"
#include "engine/text/words/word_vocabulary.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

class TranslationWordTokenizer {
 public:
  static constexpr std::int64_t kUnkId = 0;
  static constexpr std::int64_t kPadId = 1;
  static constexpr std::int64_t kSosId = 2;
  static constexpr std::int64_t kEosId = 3;
  static constexpr std::size_t kSpecialCount = 4;
  static constexpr const char* kSpecialTokens[kSpecialCount] = {"[UNK]", "[PAD]", "[SOS]", "[EOS]"};
  static constexpr int kDefaultMinFrequency = 2;

  /// Only the special tokens.
  TranslationWordTokenizer();

  /// Builds the vocabulary from the sentences of one language. `lowercase` is off by default, as in
  /// the reference (no normalizer).
  static TranslationWordTokenizer fit(const std::vector<std::string_view>& sentences,
                                      int min_frequency = kDefaultMinFrequency,
                                      bool lowercase = false);

  /// Token ids of `text`, no special tokens added; unknown tokens are kUnkId.
  std::vector<std::int64_t> encode(std::string_view text) const;
  /// The tokens behind encode(), as written (lowercased if the tokenizer lowercases), for labels.
  std::vector<std::string> tokens(std::string_view text) const;
  /// The tokens of `ids` joined by spaces, special tokens and unknown ids left out (HF decode with
  /// skip_special_tokens).
  std::string decode(const std::vector<std::int64_t>& ids) const;
  /// The tokens of `ids` written as text, spaced as the training sentences space them (no space
  /// before a comma, none around an Italian apostrophe), special and unknown ids left out: what a
  /// translation reads like and what BLEU compares with the raw reference.
  std::string detokenize(const std::vector<std::int64_t>& ids) const;

  std::size_t vocabSize() const { return vocabulary_.size(); }
  /// kUnkId when `token` is not in the vocabulary.
  std::int64_t idOf(std::string_view token) const { return vocabulary_.idOf(token); }
  /// "[UNK]" for ids out of range.
  const std::string& tokenOf(std::int64_t id) const { return vocabulary_.wordOf(id); }
  bool lowercase() const { return lowercase_; }
  int minFrequency() const { return vocabulary_.minFrequency(); }

  nlohmann::json toJson() const;
  /// Never throws; the error names `name` and what is wrong in the JSON.
  static Expected<TranslationWordTokenizer> fromJson(const nlohmann::json& json,
                                                     const std::string& name);
  static Expected<TranslationWordTokenizer> fromJsonText(std::string_view text,
                                                         const std::string& name);
  /// Written atomically (temp file + rename).
  Status save(const std::string& path) const;
  static Expected<TranslationWordTokenizer> load(const std::string& path);

 private:
  TranslationWordTokenizer(WordVocabulary vocabulary, bool lowercase, TokenSpacing spacing);

  WordVocabulary vocabulary_;  // the special tokens, then the fitted ones; ids from 0
  bool lowercase_ = false;
  TokenSpacing spacing_;
};

}  // namespace ascope
