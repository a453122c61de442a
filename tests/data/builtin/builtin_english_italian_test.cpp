#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine/builtin/english_italian_phrases.h"
#include "engine/builtin/italian_lexicon.h"
#include "engine/builtin/phrase_grammar.h"

namespace ascope {
namespace {

using Words = std::vector<std::string>;

Words wordsOf(const std::string& text) {
  std::istringstream stream(text);
  Words words;
  for (std::string word; stream >> word;) words.push_back(word);
  return words;
}

NounPhrase phrase(const std::string& noun, bool plural, Determiner determiner,
                  const std::string& adjective = "", const std::string& possessive = "",
                  const std::string& number = "") {
  NounPhrase result;
  result.noun = findNoun(noun);
  result.plural = plural;
  result.determiner = determiner;
  result.adjective = adjective.empty() ? -1 : findAdjective(adjective);
  result.possessive = possessive.empty() ? -1 : findPossessive(possessive);
  result.number = number.empty() ? -1 : findNumberWord(number);
  EXPECT_TRUE(isValid(result)) << noun;
  return result;
}

void expectPair(const PhrasePair& pair, const std::string& english, const std::string& italian) {
  EXPECT_EQ(pair.english, english);
  EXPECT_EQ(pair.italian, italian) << "for " << english;
}

TEST(BuiltinEnglishItalian, AdjectivesFollowTheNounAndAgree) {
  using D = Determiner;
  expectPair(renderNounPhrase(phrase("car", false, D::kThe, "red")), "the red car",
             "la macchina rossa");
  expectPair(renderNounPhrase(phrase("car", true, D::kThe, "red")), "the red cars",
             "le macchine rosse");
  expectPair(renderNounPhrase(phrase("cat", false, D::kThe, "black")), "the black cat",
             "il gatto nero");
  expectPair(renderNounPhrase(phrase("cat", true, D::kThe, "white")), "the white cats",
             "i gatti bianchi");
  expectPair(renderNounPhrase(phrase("shoe", true, D::kThe, "white")), "the white shoes",
             "le scarpe bianche");
  expectPair(renderNounPhrase(phrase("key", true, D::kThe, "green")), "the green keys",
             "le chiavi verdi");
}

TEST(BuiltinEnglishItalian, ArticlesDependOnGenderNumberAndTheNextWord) {
  using D = Determiner;
  expectPair(renderNounPhrase(phrase("mirror", false, D::kThe, "old")), "the old mirror",
             "lo specchio vecchio");
  expectPair(renderNounPhrase(phrase("mirror", true, D::kThe, "old")), "the old mirrors",
             "gli specchi vecchi");
  expectPair(renderNounPhrase(phrase("backpack", false, D::kA, "old")), "an old backpack",
             "uno zaino vecchio");
  expectPair(renderNounPhrase(phrase("dog", false, D::kA, "small")), "a small dog",
             "un cane piccolo");
  expectPair(renderNounPhrase(phrase("apple", false, D::kA)), "an apple", "una mela");
  // The article agrees with the word right after it: "il mio zaino", "i tre studenti".
  expectPair(renderNounPhrase(phrase("backpack", false, D::kPossessive, "", "my")), "my backpack",
             "il mio zaino");
  expectPair(renderNounPhrase(phrase("student", true, D::kTheNumber, "", "", "three")),
             "the three students", "i tre studenti");
  EXPECT_EQ(italianDefiniteArticle(false, false, "zaino"), "lo");
  EXPECT_EQ(italianDefiniteArticle(false, true, "studenti"), "gli");
  EXPECT_EQ(italianDefiniteArticle(false, false, "sole"), "il");
  EXPECT_EQ(italianDefiniteArticle(true, true, "case"), "le");
}

TEST(BuiltinEnglishItalian, PossessivesNumbersAndDates) {
  using D = Determiner;
  expectPair(renderNounPhrase(phrase("house", false, D::kPossessive, "old", "my")), "my old house",
             "la mia casa vecchia");
  expectPair(renderNounPhrase(phrase("bicycle", false, D::kPossessive, "new", "his")),
             "his new bicycle", "la sua bicicletta nuova");
  expectPair(renderNounPhrase(phrase("hat", false, D::kPossessive, "", "her")), "her hat",
             "il suo cappello");
  expectPair(renderNounPhrase(phrase("shoe", true, D::kPossessive, "white", "their")),
             "their white shoes", "le loro scarpe bianche");
  expectPair(renderNounPhrase(phrase("dog", true, D::kNumber, "big", "", "three")),
             "three big dogs", "tre cani grandi");
  expectPair(renderNounPhrase(phrase("cat", true, D::kPossessiveNumber, "", "my", "two")),
             "my two cats", "i miei due gatti");
  expectPair(renderDate({5, 2, false}), "on 5 march", "il 5 marzo");
  expectPair(renderDate({5, 2, true}), "on march 5", "il 5 marzo");
}

TEST(BuiltinEnglishItalian, SentencesConjugateAndDropPronouns) {
  using D = Determiner;
  Sentence sentence;
  sentence.subject = phrase("cat", false, D::kThe);
  sentence.verb = findVerb("see");
  sentence.object = phrase("ball", false, D::kThe, "red");
  expectPair(renderSentence(sentence), "the cat sees the red ball", "il gatto vede la palla rossa");

  sentence.subject = phrase("girl", true, D::kThe);
  sentence.verb = findVerb("want");
  sentence.object = phrase("key", false, D::kPossessive, "", "your");
  expectPair(renderSentence(sentence), "the girls want your key",
             "le ragazze vogliono la tua chiave");

  sentence.subject_pronoun = findPronoun("we");
  sentence.verb = findVerb("buy");
  sentence.object = phrase("car", true, D::kNumber, "new", "", "two");
  sentence.has_date = true;
  sentence.date = {12, 6, true};
  expectPair(renderSentence(sentence), "we buy two new cars on july 12",
             "compriamo due macchine nuove il 12 luglio");
  sentence.subject_pronoun = findPronoun("she");
  sentence.date_first = true;
  expectPair(renderSentence(sentence), "on july 12 she buys two new cars",
             "il 12 luglio compra due macchine nuove");
}

TranslationDataset defaults() {
  return generateEnglishItalianPhrases(TranslationPhrasesOptions{});
}

TEST(BuiltinEnglishItalian, CountsSeedsAndNoValidationLeak) {
  const TranslationDataset data = defaults();
  ASSERT_EQ(data.train.size(), 12000u);
  ASSERT_EQ(data.validation.size(), 1000u);
  EXPECT_EQ(data.source_language, "en");
  EXPECT_EQ(data.target_language, "it");
  std::set<std::string> train;
  for (const TranslationPair& pair : data.train) train.insert(pair.source);
  EXPECT_EQ(train.size(), data.train.size());
  std::set<std::string> validation;
  for (const TranslationPair& pair : data.validation) {
    EXPECT_EQ(train.count(pair.source), 0u) << pair.source;
    validation.insert(pair.source);
  }
  EXPECT_EQ(validation.size(), data.validation.size());

  TranslationPhrasesOptions options;
  options.train_count = 100;
  options.validation_count = 10;
  const TranslationDataset again = generateEnglishItalianPhrases(options);
  options.seed = 2;
  const TranslationDataset other = generateEnglishItalianPhrases(options);
  int same = 0;
  for (std::size_t i = 0; i < again.train.size(); ++i) {
    EXPECT_EQ(again.train[i].source, data.train[i].source);
    EXPECT_EQ(again.train[i].target, data.train[i].target);
    if (other.train[i].source == again.train[i].source) ++same;
  }
  EXPECT_LT(same, 10);
}

TEST(BuiltinEnglishItalian, TextIsLowercaseWordsWithSingleSpaces) {
  const TranslationDataset data = defaults();
  for (const TranslationPair& pair : data.train) {
    for (const std::string* text : {&pair.source, &pair.target}) {
      ASSERT_FALSE(text->empty());
      EXPECT_NE(text->front(), ' ');
      EXPECT_NE(text->back(), ' ');
      EXPECT_EQ(text->find("  "), std::string::npos);
      for (char c : *text) {
        ASSERT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == ' ') << *text;
      }
    }
    const std::size_t words = wordsOf(pair.source).size();
    EXPECT_GE(words, 3u);
    EXPECT_LE(words, 10u);
  }
}

TEST(BuiltinEnglishItalian, GeneratedPairsReorderAndAgree) {
  // Every English "adjective noun" becomes Italian "noun adjective" with the agreeing forms, and
  // every article in front of an Italian noun agrees with it.
  const TranslationDataset data = defaults();
  int reordered = 0, articles = 0;
  for (const TranslationPair& pair : data.train) {
    const Words en = wordsOf(pair.source);
    const Words it = wordsOf(pair.target);
    const std::string italian = " " + pair.target + " ";
    for (std::size_t i = 0; i + 1 < en.size(); ++i) {
      const int adjective = findAdjective(en[i]);
      if (adjective < 0) continue;
      for (const Noun& noun : nouns()) {
        const bool plural = en[i + 1] == noun.english_plural;
        if (en[i + 1] != noun.english && !plural) continue;
        const std::string form =
            adjectives()[static_cast<std::size_t>(adjective)]
                .italian[static_cast<std::size_t>(agreementIndex(noun.gender, plural))];
        const std::string expected =
            " " + (plural ? noun.italian_plural : noun.italian) + " " + form + " ";
        EXPECT_NE(italian.find(expected), std::string::npos)
            << pair.source << " -> " << pair.target;
        ++reordered;
      }
    }
    for (std::size_t i = 1; i < it.size(); ++i) {
      for (const Noun& noun : nouns()) {
        const bool plural = it[i] == noun.italian_plural && it[i] != noun.italian;
        if (it[i] != noun.italian && !plural) continue;
        const std::string& article = it[i - 1];
        const bool feminine = noun.gender == Gender::kFeminine;
        if (article == "il" || article == "lo" || article == "la" || article == "i" ||
            article == "gli" || article == "le") {
          EXPECT_EQ(article, italianDefiniteArticle(feminine, plural, it[i])) << pair.target;
          ++articles;
        } else if (article == "un" || article == "uno" || article == "una") {
          EXPECT_FALSE(plural) << pair.target;
          const bool lo = italianDefiniteArticle(feminine, false, it[i]) == "lo";
          EXPECT_EQ(article, feminine ? "una" : lo ? "uno" : "un") << pair.target;
          ++articles;
        }
      }
    }
  }
  EXPECT_GT(reordered, 3000);
  EXPECT_GT(articles, 5000);
}

TEST(BuiltinEnglishItalian, SubjectPronounsAreDroppedAndVerbsConjugated) {
  const TranslationDataset data = defaults();
  int checked = 0;
  for (const TranslationPair& pair : data.train) {
    const Words en = wordsOf(pair.source);
    const Words it = wordsOf(pair.target);
    const int pronoun = findPronoun(en[0]);
    if (pronoun < 0) continue;
    const int verb = findVerb(en[1]) >= 0 ? findVerb(en[1]) : -1;
    int third = -1;
    for (std::size_t v = 0; v < verbs().size(); ++v) {
      if (verbs()[v].english_third == en[1]) third = static_cast<int>(v);
    }
    const int index = verb >= 0 ? verb : third;
    ASSERT_GE(index, 0) << pair.source;
    const int person = pronouns()[static_cast<std::size_t>(pronoun)].person;
    EXPECT_EQ(it[0],
              verbs()[static_cast<std::size_t>(index)].italian[static_cast<std::size_t>(person)])
        << pair.source << " -> " << pair.target;
    ++checked;
  }
  EXPECT_GT(checked, 1000);
}

}  // namespace
}  // namespace ascope
