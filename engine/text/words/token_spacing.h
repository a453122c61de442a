#pragma once
// Turning a translation's word tokens back into text: the model speaks in the tokens of
// WhitespacePreTokenizer ("l", "'", "uomo", ","), a reader and sacreBLEU read text ("l'uomo,").
// Joining with spaces everywhere would score against the raw reference as if every apostrophe and
// comma were a mistake, so each token learns from the training sentences whether it is usually
// written against the token before it (",", ".", "'") and against the token after it ("'", "(").
// Tokens seen too rarely to tell follow the usual rules of Western punctuation.
#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {

class TokenSpacing {
 public:
  /// The usual rules only (run folders written before spacing was learned).
  TokenSpacing() = default;

  /// Learns from `sentences` (raw text) and their tokens (`tokens_of(sentence)`, the tokenizer's
  /// own, which may be lowercased): a token attaches to a side when at least half of its
  /// occurrences with a neighbour there had no space in between, over at least kMinSeen of them.
  template <typename TokensOf>
  static TokenSpacing learn(const std::vector<std::string_view>& sentences, TokensOf tokens_of) {
    Tally tally;
    for (std::string_view sentence : sentences) tally.add(sentence, tokens_of(sentence));
    return tally.spacing();
  }

  /// `tokens` joined as they are usually written.
  std::string join(const std::vector<std::string>& tokens) const;

  /// {"attach_left": [...], "attach_right": [...]}, the learned tokens only; null when nothing
  /// was learned (the usual rules), so that a file keeps nothing it would read back as learned.
  nlohmann::json toJson() const;
  /// Reads toJson's object; a missing one (older files) gives the usual rules.
  static Expected<TokenSpacing> fromJson(const nlohmann::json& json, const std::string& name);

  bool attachesLeft(const std::string& token) const;
  bool attachesRight(const std::string& token) const;

  /// Occurrences a token needs before its own spacing overrides the usual rules.
  static constexpr std::size_t kMinSeen = 3;

 private:
  class Tally {
   public:
    void add(std::string_view sentence, const std::vector<std::string>& tokens);
    TokenSpacing spacing() const;

   private:
    struct Counts {
      std::size_t with_left = 0, glued_left = 0, with_right = 0, glued_right = 0;
    };
    std::vector<std::string> order_;
    std::vector<Counts> counts_;
    std::unordered_map<std::string, std::size_t> index_;
  };

  bool learned_ = false;
  std::unordered_set<std::string> left_, right_;  // learned: attach to the left, to the right
};

}  // namespace ascope
