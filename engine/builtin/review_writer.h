#pragma once
// Writes one generated movie review for a given label. The label is decided by these rules alone
// (no label noise), and every rule can be read off a few neighbouring words:
//   * An opinion clause holds exactly one sentiment word (sentiment_lexicon.h). Its polarity is
//     that word's, flipped when a negation ("not", "never", "hardly") comes before it in the same
//     clause: "not very good" is negative, "hardly boring" and "i was never bored" are positive.
//   * Contrast sentences pair a main clause with a concessive one of the opposite polarity:
//       "<concessive> , but <main> ."  "although <concessive> , <main> ."
//       "<main> , even though <concessive> ."
//     The main clause wins: the clause after "but", the one not introduced by "although" or
//     "even though".
//   * Every main clause of the review (including simple, "and"-joined ones) has the review's
//     polarity; filler sentences about the plot, the cast or the evening carry none.
// Tokens are lowercase and space-separated, punctuation included as its own token; a review has
// 5 to 60 tokens.
#include <string>
#include <vector>

#include "engine/builtin/seeded_random.h"

namespace ascope {

class ReviewWriter {
 public:
  /// Longest and shortest review, in tokens (words and punctuation).
  static constexpr int kMinTokens = 5;
  static constexpr int kMaxTokens = 60;

  explicit ReviewWriter(SeededRandom& random) : random_(random) {}

  /// A review whose sentiment is `positive`.
  std::string write(bool positive);

 private:
  using Tokens = std::vector<std::string>;

  Tokens opinionSentence(bool positive);
  Tokens contrastSentence(bool positive);
  Tokens clause(bool positive);
  Tokens copularClause(bool word_positive, bool negated);
  Tokens attributiveClause(bool word_positive, bool negated);
  Tokens verbClause(bool word_positive, bool negated);
  Tokens fillerSentence();

  SeededRandom& random_;
};

}  // namespace ascope
