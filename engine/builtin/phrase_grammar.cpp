#include "engine/builtin/phrase_grammar.h"

#include <vector>

#include "engine/builtin/italian_lexicon.h"

namespace ascope {
namespace {

bool isVowel(char c) {
  return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u';
}

/// Italian words that take lo / gli / uno: s + consonant, z, gn, ps.
bool needsLo(const std::string& word) {
  if (word.empty()) return false;
  if (word[0] == 'z') return true;
  if (word.size() < 2) return false;
  if (word[0] == 's' && !isVowel(word[1])) return true;
  return word.compare(0, 2, "gn") == 0 || word.compare(0, 2, "ps") == 0;
}

std::string join(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) {
    if (word.empty()) continue;
    if (!text.empty()) text += ' ';
    text += word;
  }
  return text;
}

std::string englishIndefinite(const std::string& next) {
  return !next.empty() && isVowel(next[0]) ? "an" : "a";
}

std::string italianIndefinite(bool feminine, const std::string& next) {
  if (feminine) return "una";
  return needsLo(next) ? "uno" : "un";
}

}  // namespace

std::string italianDefiniteArticle(bool feminine, bool plural, const std::string& next) {
  if (feminine) return plural ? "le" : "la";
  if (needsLo(next)) return plural ? "gli" : "lo";
  return plural ? "i" : "il";
}

bool isValid(const NounPhrase& phrase) {
  const auto in = [](int index, std::size_t size) {
    return index >= 0 && static_cast<std::size_t>(index) < size;
  };
  if (!in(phrase.noun, nouns().size())) return false;
  if (phrase.adjective != -1 && !in(phrase.adjective, adjectives().size())) return false;
  switch (phrase.determiner) {
    case Determiner::kThe:
      return true;
    case Determiner::kA:
      return !phrase.plural;
    case Determiner::kPossessive:
      return in(phrase.possessive, possessives().size());
    case Determiner::kNumber:
    case Determiner::kTheNumber:
      return phrase.plural && in(phrase.number, numberWords().size());
    case Determiner::kPossessiveNumber:
      return phrase.plural && in(phrase.number, numberWords().size()) &&
             in(phrase.possessive, possessives().size());
  }
  return false;
}

PhrasePair renderNounPhrase(const NounPhrase& phrase) {
  const Noun& noun = nouns()[static_cast<std::size_t>(phrase.noun)];
  const bool feminine = noun.gender == Gender::kFeminine;
  const auto agreement = static_cast<std::size_t>(agreementIndex(noun.gender, phrase.plural));
  const std::string en_noun = phrase.plural ? noun.english_plural : noun.english;
  const std::string it_noun = phrase.plural ? noun.italian_plural : noun.italian;
  std::string en_adjective;
  std::string it_adjective;
  if (phrase.adjective >= 0) {
    const Adjective& adjective = adjectives()[static_cast<std::size_t>(phrase.adjective)];
    en_adjective = adjective.english;
    it_adjective = adjective.italian[agreement];
  }
  std::string en_possessive;
  std::string it_possessive;
  if (phrase.possessive >= 0) {
    const Possessive& possessive = possessives()[static_cast<std::size_t>(phrase.possessive)];
    en_possessive = possessive.english;
    it_possessive = possessive.italian[agreement];
  }
  std::string en_number;
  std::string it_number;
  if (phrase.number >= 0) {
    en_number = numberWords()[static_cast<std::size_t>(phrase.number)].english;
    it_number = numberWords()[static_cast<std::size_t>(phrase.number)].italian;
  }
  // English: determiner, adjective, noun. Italian: determiner, noun, adjective.
  const std::string en_tail = join({en_adjective, en_noun});
  const std::string it_tail = join({it_noun, it_adjective});
  switch (phrase.determiner) {
    case Determiner::kThe:
      return {join({"the", en_tail}),
              join({italianDefiniteArticle(feminine, phrase.plural, it_noun), it_tail})};
    case Determiner::kA:
      return {join({englishIndefinite(en_tail), en_tail}),
              join({italianIndefinite(feminine, it_noun), it_tail})};
    case Determiner::kPossessive:
      return {join({en_possessive, en_tail}),
              join({italianDefiniteArticle(feminine, phrase.plural, it_possessive), it_possessive,
                    it_tail})};
    case Determiner::kNumber:
      return {join({en_number, en_tail}), join({it_number, it_tail})};
    case Determiner::kTheNumber:
      return {join({"the", en_number, en_tail}),
              join({italianDefiniteArticle(feminine, true, it_number), it_number, it_tail})};
    case Determiner::kPossessiveNumber:
      return {join({en_possessive, en_number, en_tail}),
              join({italianDefiniteArticle(feminine, true, it_possessive), it_possessive, it_number,
                    it_tail})};
  }
  return {};
}

PhrasePair renderDate(const Date& date) {
  const std::string day = std::to_string(date.day);
  const auto& month = months()[static_cast<std::size_t>(date.month)];
  const std::string english =
      date.month_first ? join({"on", month[0], day}) : join({"on", day, month[0]});
  return {english, join({"il", day, month[1]})};
}

PhrasePair renderSentence(const Sentence& sentence) {
  const Verb& verb = verbs()[static_cast<std::size_t>(sentence.verb)];
  std::string en_subject;
  std::string it_subject;  // stays empty for pronouns: Italian drops them
  int person = kThirdSingular;
  bool english_third = true;
  if (sentence.subject_pronoun >= 0) {
    const Pronoun& pronoun = pronouns()[static_cast<std::size_t>(sentence.subject_pronoun)];
    en_subject = pronoun.english;
    person = pronoun.person;
    english_third = person == kThirdSingular;
  } else {
    const PhrasePair subject = renderNounPhrase(sentence.subject);
    en_subject = subject.english;
    it_subject = subject.italian;
    person = sentence.subject.plural ? kThirdPlural : kThirdSingular;
    english_third = !sentence.subject.plural;
  }
  const PhrasePair object = renderNounPhrase(sentence.object);
  PhrasePair date;
  if (sentence.has_date) date = renderDate(sentence.date);
  const std::string en_core =
      join({en_subject, english_third ? verb.english_third : verb.english, object.english});
  const std::string it_core =
      join({it_subject, verb.italian[static_cast<std::size_t>(person)], object.italian});
  if (sentence.date_first) return {join({date.english, en_core}), join({date.italian, it_core})};
  return {join({en_core, date.english}), join({it_core, date.italian})};
}

}  // namespace ascope
