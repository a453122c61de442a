// Our BLEU and chrF against the values sacreBLEU's own test suite publishes (test/test_bleu.py,
// test/test_chrf.py of github.com/mjpost/sacrebleu, 2.x): same sentences, same settings, same
// expected scores, to the same tolerance.
#include <gtest/gtest.h>

#include "engine/scoring/corpus_bleu.h"
#include "engine/scoring/corpus_chrf.h"
#include "engine/scoring/tokenizer_13a.h"

namespace ascope {
namespace {

constexpr double kBleuEpsilon = 1e-8;  // test_bleu.py's EPSILON (scores are 0..100 there too)
constexpr double kChrfEpsilon = 1e-4;  // test_chrf.py's EPSILON

using Streams = std::vector<std::vector<std::string>>;
using S = BleuOptions::Smoothing;

// sacreBLEU's README example: three hypotheses, two reference streams.
const std::vector<std::string> kHyps{"The dog bit the man.", "It wasn't surprising.",
                                     "The man had just bitten him."};
const Streams kRefs{
    {"The dog bit the man.", "It was not unexpected.", "The man bit him first."},
    {"The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."}};

/// raw_corpus_bleu: floor smoothing, no tokenization, effective order.
BleuOptions rawOptions(double floor) {
  BleuOptions o;
  o.smoothing = S::kFloor;
  o.smooth_value = floor;
  o.tokenize_13a = false;
  o.effective_order = true;
  return o;
}

TEST(SacreBleu, CorpusBleuOfTheReadmeExample) {
  EXPECT_NEAR(corpusBleu(kHyps, kRefs).score, 48.530827, kBleuEpsilon);
  BleuOptions none;
  none.tokenize_13a = false;
  EXPECT_NEAR(corpusBleu(kHyps, kRefs, none).score, 49.1919566, kBleuEpsilon);
  BleuOptions unsmoothed;
  unsmoothed.smoothing = S::kNone;
  EXPECT_NEAR(corpusBleu(kHyps, kRefs, unsmoothed).score, 48.530827, kBleuEpsilon);
  // Empty hypotheses are scored, not dropped.
  EXPECT_EQ(corpusBleu({"", "", ""}, kRefs).score, 0.0);
}

TEST(SacreBleu, RawCorpusBleu) {
  // Without a single matching n-gram the score is 0 whatever the smoothing (sacreBLEU #141).
  EXPECT_EQ(
      corpusBleu({"this is a test", "another test"}, {{"ref1", "ref2"}}, rawOptions(0.01)).score,
      0.0);
  EXPECT_NEAR(corpusBleu({"this is a test"}, {{"this is a test"}}, rawOptions(0.01)).score / 100,
              1.0, kBleuEpsilon);
  EXPECT_NEAR(corpusBleu({"this is a fest"}, {{"this is a test"}}, rawOptions(0.01)).score / 100,
              0.223606797749979, kBleuEpsilon);
}

TEST(SacreBleu, EffectiveOrder) {
  EXPECT_NEAR(corpusBleu({"test"}, {{"a test"}}, rawOptions(0.01)).score / 100, 0.3678794411714425,
              kBleuEpsilon);
  EXPECT_NEAR(corpusBleu({"a test"}, {{"a test"}}, rawOptions(0.01)).score / 100, 1.0,
              kBleuEpsilon);
  EXPECT_NEAR(corpusBleu({"a little test"}, {{"a test"}}, rawOptions(0.01)).score / 100,
              0.03218297948685433, kBleuEpsilon);
}

TEST(SacreBleu, StatisticsAndOffset) {
  const BleuScore s = corpusBleu({"am I am a character sequence"},
                                 {{"I am a symbol string sequence a a"}}, rawOptions(0.01));
  EXPECT_EQ(s.counts, (std::array<double, 4>{4, 2, 1, 0}));
  EXPECT_EQ(s.totals, (std::array<double, 4>{6, 5, 4, 3}));
  // raw_corpus_bleu with floor 0 and with the default floor 0.1.
  EXPECT_NEAR(corpusBleu({"am I am a character sequence"}, {{"I am a symbol string sequence a a"}},
                         rawOptions(0.0))
                  .score,
              0.0, kBleuEpsilon);
  EXPECT_NEAR(corpusBleu({"am I am a character sequence"}, {{"I am a symbol string sequence a a"}},
                         rawOptions(-1))
                      .score /
                  100,
              0.1555722182, kBleuEpsilon);
}

TEST(SacreBleu, ScoringFromStatistics) {
  BleuOptions unsmoothed;
  unsmoothed.smoothing = S::kNone;
  EXPECT_NEAR(bleuFromStatistics({9, 7, 5, 3}, {10, 8, 6, 4}, 11, 11, unsmoothed).score / 100,
              0.8375922397, kBleuEpsilon);
  // test_degenerate_statistics: floor smoothing with the given offset.
  struct Case {
    std::array<double, 4> counts, totals;
    long long sys, ref;
    double offset;
  };
  for (const Case& c :
       {Case{{0, 0, 0, 0}, {4, 4, 2, 1}, 0, 1, 0.0},
        Case{{0, 0, 0, 0}, {10, 11, 12, 0}, 14, 10, 0.0},
        Case{{0, 0, 0, 0}, {0, 0, 0, 0}, 0, 0, 0.0}, Case{{6, 5, 4, 0}, {6, 5, 4, 3}, 6, 6, 0.0},
        Case{{0, 0, 0, 0}, {0, 0, 0, 0}, 0, 0, 0.1},
        Case{{0, 0, 0, 0}, {0, 0, 0, 0}, 1, 5, 0.01}}) {
    BleuOptions floor;
    floor.smoothing = S::kFloor;
    floor.smooth_value = c.offset;
    EXPECT_EQ(bleuFromStatistics(c.counts, c.totals, c.sys, c.ref, floor).score, 0.0);
  }
}

TEST(SacreBleu, Tokenizer13a) {
  EXPECT_EQ(tokenize13a("The dog bit the man."), "The dog bit the man .");
  EXPECT_EQ(tokenize13a("It wasn't surprising."), "It wasn't surprising .");
  EXPECT_EQ(tokenize13a("signora presidente, l'ordine del giorno."),
            "signora presidente , l'ordine del giorno .");
  EXPECT_EQ(tokenize13a("costs $5,000.50-6 &amp; more  "), "costs $ 5,000.50 - 6 & more");
  // Python's re.sub: "e." and "g." are both split (a letter before each period).
  EXPECT_EQ(tokenize13a("(e.g. \"quoted\")"), "( e . g . \" quoted \" )");
  EXPECT_EQ(tokenize13a("a.,b x..y 1.,2"), "a . , b x . . y 1 . , 2");
  EXPECT_EQ(tokenize13a("più  lunga\tcosì"), "più lunga così");
}

ChrfOptions chrf(double beta, bool eps, bool whitespace = false) {
  ChrfOptions o;
  o.beta = beta;
  o.eps_smoothing = eps;
  o.keep_whitespace = whitespace;
  return o;
}

TEST(SacreBleu, ChrfWithEpsilonSmoothing) {
  struct Case {
    std::vector<std::string> hyps, refs;
    double expected;
  };
  const std::vector<Case> cases{
      {{"abcdefg"}, {"hijklmnop"}, 0.0},
      {{"a"}, {"b"}, 0.0},
      {{""}, {"b"}, 0.0},
      {{""}, {"ref"}, 0.0},
      {{""}, {"reference"}, 0.0},
      {{"aa"}, {"ab"}, 8.3333},
      {{"a", "b"}, {"a", "c"}, 8.3333},
      {{"a"}, {"a"}, 16.6667},
      {{"a b c"}, {"a b c"}, 50.0},
      {{"a b c"}, {"abc"}, 50.0},
      {{" risk assessment must be made of those who are qualified and expertise in the sector - "
        "these are the scientists ."},
       {"risk assessment has to be undertaken by those who are qualified and expert in that area "
        "- that is the scientists ."},
       63.361730},
      {{" Die    Beziehung zwischen  Obama und Netanjahu ist nicht gerade  freundlich. "},
       {"Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."},
       64.1302698},
      {{"Niemand hat die Absicht, eine Mauer zu errichten"},
       {"Niemand hat die Absicht, eine Mauer zu errichten"},
       100.0}};
  for (const Case& c : cases) {
    EXPECT_NEAR(corpusChrf(c.hyps, {c.refs}, chrf(3, true)), c.expected, kChrfEpsilon) << c.hyps[0];
  }
}

TEST(SacreBleu, ChrfWithEffectiveOrder) {
  struct Case {
    std::vector<std::string> hyps, refs;
    double expected;
  };
  for (const Case& c :
       {Case{{"a"}, {"a"}, 100.0}, Case{{""}, {"reference"}, 0.0},
        Case{{"a b c"}, {"a b c"}, 100.0}, Case{{"a b c"}, {"abc"}, 100.0}, Case{{""}, {"c"}, 0.0},
        Case{{"a", "b"}, {"a", "c"}, 50.0}, Case{{"aa"}, {"ab"}, 25.0}}) {
    EXPECT_NEAR(corpusChrf(c.hyps, {c.refs}, chrf(3, false)), c.expected, kChrfEpsilon)
        << c.hyps[0];
  }
}

TEST(SacreBleu, ChrfKeepingWhitespace) {
  EXPECT_NEAR(
      corpusChrf(
          {"Die Beziehung zwischen Obama und Netanjahu ist nicht gerade freundlich."},
          {{"Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."}},
          chrf(3, false, true)),
      67.3481606, kChrfEpsilon);
  EXPECT_NEAR(
      corpusChrf({"risk assessment must be made of those who are qualified and expertise in the "
                  "sector - these are the scientists ."},
                 {{"risk assessment has to be undertaken by those who are qualified and expert in "
                   "that area - that is the scientists ."}},
                 chrf(3, false, true)),
      65.2414427, kChrfEpsilon);
}

TEST(SacreBleu, SentenceChrf) {
  // sentence_chrf with its defaults but epsilon smoothing: beta 2, six character orders.
  struct Case {
    std::string hyp, ref;
    double expected;
  };
  for (const Case& c :
       {Case{"Co nás nejvíc trápí, protože lékaři si vybírají, kdo bude žít a kdo zemře.",
             "Nejvíce smutní jsme z toho, že musíme rozhodovat o tom, kdo bude žít a kdo zemře.",
             39.14078509},
        Case{"Nebo prostě nemají vybavení, které by jim pomohlo, uvedli lékaři.",
             "A někdy nemáme ani potřebný materiál, abychom jim pomohli, popsali lékaři.",
             31.22557079},
        Case{"Lapali po dechu, jejich životy skončily dřív, než skutečně začaly.",
             "Lapali po dechu a pak jejich život skončil - dřív, než skutečně mohl začít, "
             "připomněli.",
             57.15704367}}) {
    EXPECT_NEAR(corpusChrf({c.hyp}, {{c.ref}}, chrf(2, true)), c.expected, kChrfEpsilon) << c.hyp;
  }
}

}  // namespace
}  // namespace ascope
