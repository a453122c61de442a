#pragma once
// The small English-Italian vocabulary behind the built-in translation data. Every Italian form
// is spelled out (no morphology rules to get wrong), and the lists avoid words that would need an
// elided article (l'uccello, l'8 marzo), so that the output never contains an apostrophe.
#include <array>
#include <string>
#include <vector>

namespace ascope {

enum class Gender { kMasculine, kFeminine };

/// Index into the four-form Italian arrays: agreement with gender and number.
int agreementIndex(Gender gender, bool plural);

/// What a noun denotes; adjectives and verbs say which kinds they make sense with, so the data
/// has no "yellow girls" or "dogs buying cars".
enum NounKind : unsigned { kPerson = 1, kAnimal = 2, kThing = 4 };

struct Noun {
  std::string english;
  std::string english_plural;
  std::string italian;
  std::string italian_plural;
  Gender gender = Gender::kMasculine;
  NounKind kind = kThing;
};

struct Adjective {
  std::string english;
  /// Masculine singular, feminine singular, masculine plural, feminine plural.
  std::array<std::string, 4> italian;
  /// NounKind bits of the nouns it fits.
  unsigned fits = kThing;
};

/// The persons a verb is conjugated in: io, tu, lui/lei, noi, loro ("you" is always tu).
constexpr int kPersonCount = 5;
constexpr int kThirdSingular = 2;
constexpr int kThirdPlural = 4;

struct Verb {
  std::string english;        ///< base form: "see"
  std::string english_third;  ///< "sees"
  std::array<std::string, kPersonCount> italian;
  /// NounKind bits of plausible subjects and objects.
  unsigned subjects = kPerson;
  unsigned objects = kThing;
};

struct Pronoun {
  std::string english;  ///< "i", "you", "he", "she", "we", "they"
  int person = 0;       ///< index into Verb::italian; the Italian pronoun itself is dropped
};

struct Possessive {
  std::string english;                 ///< "my"
  std::array<std::string, 4> italian;  ///< agreement forms, as Adjective::italian
};

struct NumberWord {
  int value = 0;
  std::string english;
  std::string italian;
};

const std::vector<Noun>& nouns();
const std::vector<Adjective>& adjectives();
const std::vector<Verb>& verbs();
const std::vector<Pronoun>& pronouns();
const std::vector<Possessive>& possessives();
const std::vector<NumberWord>& numberWords();
/// English and Italian month names, January first.
const std::vector<std::array<std::string, 2>>& months();
/// Days of the month that take "il" (all but 1, 8 and 11: "il primo", "l'8", "l'11").
const std::vector<int>& dateDays();

/// Index of the entry whose English (singular/base) form is `english`, or -1.
int findNoun(const std::string& english);
int findAdjective(const std::string& english);
int findVerb(const std::string& english);
int findPronoun(const std::string& english);
int findPossessive(const std::string& english);
int findNumberWord(const std::string& english);

}  // namespace ascope
