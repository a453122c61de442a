#include <gtest/gtest.h>

#include <cmath>

#include "engine/scoring/edit_distance.h"
#include "engine/tasks/translation/translation_scores.h"

namespace ascope {
namespace {

TEST(TranslationMetrics, PerfectTranslationsScoreFull) {
  const std::vector<std::string> refs{"il gatto vede la palla rossa", "tre cani grandi corrono"};
  const TranslationScores s = scoreTranslations(refs, refs);
  EXPECT_DOUBLE_EQ(s.bleu, 100.0);
  EXPECT_DOUBLE_EQ(s.cer, 0.0);
  EXPECT_DOUBLE_EQ(s.wer, 0.0);
  EXPECT_DOUBLE_EQ(s.exact_match, 1.0);
}

TEST(TranslationMetrics, KnownValues) {
  // One substituted word of six: WER 1/6; bigrams 4/5, trigrams 3/4, 4-grams 2/3, unigrams 5/6.
  const TranslationScores s =
      scoreTranslations({"il gatto vede la palla blu"}, {"il gatto vede la palla rossa"});
  EXPECT_NEAR(s.wer, 1.0 / 6, 1e-12);
  const double expected_bleu = 100.0 * std::pow(5.0 / 6 * 4.0 / 5 * 3.0 / 4 * 2.0 / 3, 0.25);
  EXPECT_NEAR(s.bleu, expected_bleu, 1e-9);
  EXPECT_DOUBLE_EQ(s.exact_match, 0.0);
  // "rossa" → "blu": 5 characters replaced by 3 = 3 substitutions + 2 deletions.
  EXPECT_NEAR(s.cer, 5.0 / 28, 1e-12);
}

TEST(TranslationMetrics, BrevityPenaltyAndEmptyInput) {
  const TranslationScores s =
      scoreTranslations({"il gatto vede la"}, {"il gatto vede la palla rossa"});
  EXPECT_NEAR(s.bleu, 100.0 * std::exp(1.0 - 6.0 / 4), 1e-9);
  EXPECT_DOUBLE_EQ(scoreTranslations({}, {}).bleu, 0.0);
  EXPECT_EQ(editDistance(std::string("kitten"), std::string("sitting")), 3u);
}

TEST(TranslationMetrics, TranslationScoresUseTheRawReference) {
  // A hypothesis detokenized like the reference scores as the reference does; one rebuilt with
  // spaces around every apostrophe (what joining word tokens gives) does not.
  const std::string reference = "signora presidente, l'ordine del giorno reca la discussione.";
  EXPECT_DOUBLE_EQ(scoreTranslations({reference}, {reference}).bleu, 100.0);
  const TranslationScores spaced = scoreTranslations(
      {"signora presidente , l ' ordine del giorno reca la discussione ."}, {reference});
  EXPECT_LT(spaced.bleu, 80.0);
  EXPECT_DOUBLE_EQ(spaced.exact_match, 0.0);
  EXPECT_DOUBLE_EQ(scoreTranslations({"  a   b "}, {"a b"}).exact_match, 1.0);
}

TEST(TranslationMetrics, FiguresAreTheDeclaredOnesWithBleuTheHeadline) {
  const TranslationScores s =
      scoreTranslations({"il gatto vede la palla blu"}, {"il gatto vede la palla rossa"});
  const Figures tracked = translationFigures(s, false);
  const Figures all = translationFigures(s, true);
  const std::vector<MetricInfo> declared = translationMetrics();
  for (const Figure& f : all) EXPECT_NE(findMetric(declared, f.key), nullptr) << f.key;
  for (const Figure& f : tracked) EXPECT_TRUE(findMetric(declared, f.key)->tracked) << f.key;
  EXPECT_EQ(tracked.size(), 5u);
  EXPECT_GT(all.size(), tracked.size());
  EXPECT_DOUBLE_EQ(*tracked.get("bleu"), s.bleu);
  EXPECT_DOUBLE_EQ(*all.get("brevity_penalty"), s.bleu_details.brevity_penalty);
  EXPECT_TRUE(findMetric(declared, "bleu")->headline);
  EXPECT_EQ(findMetric(declared, "cer")->better, Better::kLower);
}

}  // namespace
}  // namespace ascope
