#pragma once
// English and Italian renderings of the structures behind the built-in translation data. The
// Italian side differs in ways a cross-attention map can show: adjectives follow the noun, articles
// and adjectives agree with the noun's gender and number, the article's form depends on the next
// word (il/lo, i/gli, un/uno), possessives take an article, subject pronouns are dropped, and
// "on march 5" becomes "il 5 marzo".
#include <string>

namespace ascope {

enum class Determiner {
  kThe,               ///< "the red car" -> "la macchina rossa"
  kA,                 ///< singular only: "an old mirror" -> "uno specchio vecchio"
  kPossessive,        ///< "my old house" -> "la mia casa vecchia"
  kNumber,            ///< plural only: "three big dogs" -> "tre cani grandi"
  kTheNumber,         ///< plural only: "the three students" -> "i tre studenti"
  kPossessiveNumber,  ///< plural only: "my two cats" -> "i miei due gatti"
};

/// Indices refer to the lists in italian_lexicon.h; -1 means "none".
struct NounPhrase {
  int noun = 0;
  bool plural = false;
  Determiner determiner = Determiner::kThe;
  int adjective = -1;
  int possessive = -1;  ///< for kPossessive and kPossessiveNumber
  int number = -1;      ///< for the number determiners
};

struct Date {
  int day = 2;
  int month = 0;             ///< 0 = january
  bool month_first = false;  ///< "on march 5" rather than "on 5 march"
};

/// Subject, verb, object and optionally a date, at the start or at the end.
struct Sentence {
  int subject_pronoun = -1;  ///< index into pronouns(), or -1 for `subject`
  NounPhrase subject;
  int verb = 0;
  NounPhrase object;
  bool has_date = false;
  Date date;
  bool date_first = false;
};

struct PhrasePair {
  std::string english;
  std::string italian;
};

/// Whether the combination is valid (e.g. no "a" with a plural, indices in range).
bool isValid(const NounPhrase& phrase);

PhrasePair renderNounPhrase(const NounPhrase& phrase);
PhrasePair renderDate(const Date& date);
PhrasePair renderSentence(const Sentence& sentence);

/// The Italian definite article for a noun phrase whose next word is `next`: il, lo, la, i, gli,
/// le.
std::string italianDefiniteArticle(bool feminine, bool plural, const std::string& next);

}  // namespace ascope
