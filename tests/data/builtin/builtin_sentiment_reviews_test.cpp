#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine/builtin/sentiment_lexicon.h"
#include "engine/builtin/sentiment_reviews.h"

namespace ascope {
namespace {

using Tokens = std::vector<std::string>;

Tokens reviewTokens(const std::string& text) {
  std::istringstream stream(text);
  Tokens tokens;
  for (std::string token; stream >> token;) tokens.push_back(token);
  return tokens;
}

bool containsWord(const std::vector<std::string>& words, const std::string& word) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

/// Polarity of one clause, re-derived from the text: +1 / -1, or 0 when it carries no sentiment.
/// Fails the test when a clause has more than one sentiment word (the writer promises one).
int clausePolarity(const Tokens& clause, bool* negated_out = nullptr) {
  int polarity = 0;
  bool negated = false;
  for (const std::string& token : clause) {
    if (containsWord(negationWords(), token)) negated = true;
    const int word = containsWord(positiveWords(), token)   ? 1
                     : containsWord(negativeWords(), token) ? -1
                                                            : 0;
    if (word == 0) continue;
    EXPECT_EQ(polarity, 0) << "two sentiment words in one clause";
    polarity = negated ? -word : word;
  }
  if (negated_out) *negated_out = negated;
  return polarity;
}

/// What the rules in review_writer.h say about one review.
struct Reading {
  std::vector<int> main;        ///< polarities of the main clauses
  std::vector<int> concessive;  ///< polarities of the clauses that lose a contrast
  int negated_clauses = 0;
  bool has_contrast = false;
};

Reading read(const std::string& text) {
  Reading reading;
  Tokens sentence;
  const auto finish = [&] {
    // Parts between commas; a part with no sentiment word is an opener such as "overall".
    std::vector<Tokens> parts(1);
    for (const std::string& token : sentence) {
      if (token == ",") {
        parts.emplace_back();
      } else {
        parts.back().push_back(token);
      }
    }
    std::vector<int> polarities;
    std::vector<bool> concessive;
    for (const Tokens& part : parts) {
      // "and" joins clauses of the same role.
      Tokens clause;
      const bool is_concessive = (!part.empty() && part[0] == "although") ||
                                 (part.size() > 1 && part[0] == "even" && part[1] == "though");
      bool after_but = !part.empty() && part[0] == "but";
      if (after_but || is_concessive) reading.has_contrast = true;
      for (std::size_t i = 0; i <= part.size(); ++i) {
        if (i < part.size() && part[i] != "and") {
          clause.push_back(part[i]);
          continue;
        }
        bool negated = false;
        const int polarity = clausePolarity(clause, &negated);
        clause.clear();
        if (polarity == 0) continue;
        if (negated) ++reading.negated_clauses;
        polarities.push_back(polarity);
        concessive.push_back(is_concessive);
        // The clause before "but" loses.
        if (after_but && polarities.size() >= 2) concessive[concessive.size() - 2] = true;
        after_but = false;
      }
    }
    for (std::size_t i = 0; i < polarities.size(); ++i) {
      (concessive[i] ? reading.concessive : reading.main).push_back(polarities[i]);
    }
    sentence.clear();
  };
  for (const std::string& token : reviewTokens(text)) {
    if (token == "." || token == "!") {
      finish();
    } else {
      sentence.push_back(token);
    }
  }
  EXPECT_TRUE(sentence.empty()) << "review does not end with a full stop: " << text;
  return reading;
}

TextDataset dataset(std::uint64_t seed, int train = 2000, int test = 500) {
  SentimentReviewsOptions options;
  options.train_count = train;
  options.test_count = test;
  options.seed = seed;
  return generateSentimentReviews(options);
}

TEST(BuiltinSentimentReviews, SameSeedSameTextOtherSeedOtherText) {
  const TextDataset a = dataset(3, 300, 100);
  const TextDataset b = dataset(3, 300, 100);
  const TextDataset c = dataset(4, 300, 100);
  ASSERT_EQ(a.train.size(), 300u);
  int same_as_other_seed = 0;
  for (std::size_t i = 0; i < a.train.size(); ++i) {
    EXPECT_EQ(a.train[i].text, b.train[i].text);
    EXPECT_EQ(a.train[i].label, b.train[i].label);
    if (a.train[i].text == c.train[i].text) ++same_as_other_seed;
  }
  EXPECT_LT(same_as_other_seed, 3);
}

TEST(BuiltinSentimentReviews, DefaultsAreBalancedAndTestIsNotInTrain) {
  const TextDataset data = generateSentimentReviews(SentimentReviewsOptions{});
  ASSERT_EQ(data.train.size(), 8000u);
  ASSERT_EQ(data.test.size(), 2000u);
  EXPECT_EQ(data.class_names, (std::vector<std::string>{"negative", "positive"}));
  const auto positives = [](const std::vector<TextSample>& samples) {
    return std::count_if(samples.begin(), samples.end(),
                         [](const TextSample& s) { return s.label == 1; });
  };
  EXPECT_EQ(positives(data.train), 4000);
  EXPECT_EQ(positives(data.test), 1000);
  std::set<std::string> train;
  for (const TextSample& sample : data.train) train.insert(sample.text);
  for (const TextSample& sample : data.test) EXPECT_EQ(train.count(sample.text), 0u) << sample.text;
}

TEST(BuiltinSentimentReviews, LengthsSpreadFromShortToLong) {
  const TextDataset data = dataset(5);
  std::size_t shortest = 1000, longest = 0, under_fifteen = 0, over_forty = 0;
  for (const TextSample& sample : data.train) {
    const std::size_t length = reviewTokens(sample.text).size();
    shortest = std::min(shortest, length);
    longest = std::max(longest, length);
    if (length < 15) ++under_fifteen;
    if (length > 40) ++over_forty;
    for (char c : sample.text) {
      ASSERT_TRUE((c >= 'a' && c <= 'z') || c == ' ' || c == '.' || c == ',' || c == '!')
          << sample.text;
    }
  }
  EXPECT_GE(shortest, 5u);
  EXPECT_LE(shortest, 7u);
  EXPECT_LE(longest, 60u);
  EXPECT_GE(longest, 55u);
  EXPECT_GT(under_fifteen, data.train.size() / 20);
  EXPECT_GT(over_forty, data.train.size() / 20);
}

TEST(BuiltinSentimentReviews, EveryLabelFollowsTheDocumentedRules) {
  const TextDataset data = dataset(7);
  int negated = 0, contrasts = 0;
  for (const auto* split_samples : {&data.train, &data.test}) {
    for (const TextSample& sample : *split_samples) {
      const Reading reading = read(sample.text);
      const int expected = sample.label == 1 ? 1 : -1;
      ASSERT_FALSE(reading.main.empty()) << sample.text;
      for (int polarity : reading.main) EXPECT_EQ(polarity, expected) << sample.text;
      for (int polarity : reading.concessive) EXPECT_EQ(polarity, -expected) << sample.text;
      negated += reading.negated_clauses;
      contrasts += reading.has_contrast ? 1 : 0;
    }
  }
  // The hard cases are frequent enough to matter for training.
  EXPECT_GT(negated, 1000);
  EXPECT_GT(contrasts, 300);
}

TEST(BuiltinSentimentReviews, NegationFlipsTheWordItPrecedes) {
  // Reviews whose only opinion is one negated clause: the label is the opposite of the word's.
  const TextDataset data = dataset(11, 8000, 0);
  int flipped_negative = 0, flipped_positive = 0;
  for (const TextSample& sample : data.train) {
    const Tokens tokens = reviewTokens(sample.text);
    int sentiment_words = 0;
    std::size_t where = 0;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      if (containsWord(positiveWords(), tokens[i]) || containsWord(negativeWords(), tokens[i])) {
        ++sentiment_words;
        where = i;
      }
    }
    if (sentiment_words != 1 || where == 0) continue;
    // "was hardly boring", "is not good", "was never very dull".
    const bool right_before = containsWord(negationWords(), tokens[where - 1]);
    const bool one_between = where >= 2 && containsWord(negationWords(), tokens[where - 2]) &&
                             containsWord(intensifiers(), tokens[where - 1]);
    if (!right_before && !one_between) continue;
    if (containsWord(positiveWords(), tokens[where])) {
      EXPECT_EQ(sample.label, 0) << sample.text;
      ++flipped_negative;
    } else {
      EXPECT_EQ(sample.label, 1) << sample.text;
      ++flipped_positive;
    }
  }
  EXPECT_GT(flipped_negative, 50);
  EXPECT_GT(flipped_positive, 50);
}

TEST(BuiltinSentimentReviews, TheClauseAfterButWins) {
  const TextDataset data = dataset(12, 8000, 0);
  int checked = 0;
  for (const TextSample& sample : data.train) {
    const Tokens tokens = reviewTokens(sample.text);
    const auto but = std::find(tokens.begin(), tokens.end(), "but");
    if (but == tokens.end()) continue;
    // The sentence's "but" clause: up to the next full stop.
    const auto end =
        std::find_if(but, tokens.end(), [](const std::string& t) { return t == "." || t == "!"; });
    const int polarity = clausePolarity(Tokens(but + 1, end));
    ASSERT_NE(polarity, 0) << sample.text;
    EXPECT_EQ(polarity == 1 ? 1 : 0, sample.label) << sample.text;
    ++checked;
  }
  EXPECT_GT(checked, 300);
}

TEST(BuiltinSentimentReviews, LexiconListsAreDisjoint) {
  for (const std::string& word : positiveWords()) {
    EXPECT_FALSE(containsWord(negativeWords(), word)) << word;
    EXPECT_FALSE(containsWord(negationWords(), word)) << word;
    EXPECT_FALSE(containsWord(intensifiers(), word)) << word;
  }
  for (const std::string& word : negativeWords()) EXPECT_FALSE(containsWord(intensifiers(), word));
}

}  // namespace
}  // namespace ascope
