#include "engine/builtin/english_italian_phrases.h"

#include <algorithm>
#include <unordered_set>

#include "engine/builtin/italian_lexicon.h"
#include "engine/builtin/phrase_grammar.h"
#include "engine/builtin/seeded_random.h"

namespace ascope {
namespace {

constexpr int kMinSourceWords = 3;
constexpr int kMaxSourceWords = 10;
// Draws per requested pair before giving up on finding new ones; far above what the grammar
// (millions of distinct sentences) ever needs, but it keeps the loop finite.
constexpr int kAttemptsPerPair = 50;

int wordCount(const std::string& text) {
  return text.empty() ? 0 : static_cast<int>(std::count(text.begin(), text.end(), ' ')) + 1;
}

int pickIndex(SeededRandom& random, std::size_t size) {
  return static_cast<int>(random.index(size));
}

/// A noun of one of the `kinds` (NounKind bits), with an adjective that fits it
/// `adjective_tenths` / 10 of the time.
NounPhrase randomNounPhrase(SeededRandom& random, unsigned kinds, std::uint64_t adjective_tenths) {
  NounPhrase phrase;
  do {
    phrase.noun = pickIndex(random, nouns().size());
  } while ((nouns()[static_cast<std::size_t>(phrase.noun)].kind & kinds) == 0);
  const NounKind kind = nouns()[static_cast<std::size_t>(phrase.noun)].kind;
  phrase.plural = random.chance(2, 5);
  if (random.chance(adjective_tenths, 10)) {
    do {
      phrase.adjective = pickIndex(random, adjectives().size());
    } while ((adjectives()[static_cast<std::size_t>(phrase.adjective)].fits & kind) == 0);
  }
  // "my girl" and "your three boys" read oddly; people get no possessives.
  static const Determiner kSingular[] = {Determiner::kThe, Determiner::kA, Determiner::kPossessive};
  static const Determiner kPlural[] = {Determiner::kThe,        Determiner::kThe,
                                       Determiner::kNumber,     Determiner::kTheNumber,
                                       Determiner::kPossessive, Determiner::kPossessiveNumber};
  const std::uint64_t choices =
      (phrase.plural ? 6 : 3) - (kind == kPerson ? (phrase.plural ? 2 : 1) : 0);
  phrase.determiner =
      phrase.plural ? kPlural[random.below(choices)] : kSingular[random.below(choices)];
  if (phrase.determiner == Determiner::kPossessive ||
      phrase.determiner == Determiner::kPossessiveNumber) {
    phrase.possessive = pickIndex(random, possessives().size());
  }
  if (phrase.determiner == Determiner::kNumber || phrase.determiner == Determiner::kTheNumber ||
      phrase.determiner == Determiner::kPossessiveNumber) {
    phrase.number = pickIndex(random, numberWords().size());
  }
  return phrase;
}

Date randomDate(SeededRandom& random) {
  Date date;
  date.day = random.pick(dateDays());
  date.month = pickIndex(random, months().size());
  date.month_first = random.chance(1, 2);
  return date;
}

/// One pair: 30% lone noun phrases, 8% lone dates, the rest subject-verb-object sentences.
PhrasePair randomPair(SeededRandom& random) {
  const std::uint64_t kind = random.below(100);
  if (kind < 30) return renderNounPhrase(randomNounPhrase(random, kPerson | kAnimal | kThing, 8));
  if (kind < 38) return renderDate(randomDate(random));
  Sentence sentence;
  sentence.verb = pickIndex(random, verbs().size());
  const Verb& verb = verbs()[static_cast<std::size_t>(sentence.verb)];
  if (random.chance(1, 3)) {
    sentence.subject_pronoun = pickIndex(random, pronouns().size());
  } else {
    sentence.subject = randomNounPhrase(random, verb.subjects, 4);
  }
  sentence.object = randomNounPhrase(random, verb.objects, 6);
  sentence.has_date = random.chance(1, 4);
  if (sentence.has_date) {
    sentence.date = randomDate(random);
    sentence.date_first = random.chance(1, 4);
  }
  return renderSentence(sentence);
}

/// Draws `count` new pairs not in `seen` (and adds them to it), or fewer when attempts run out.
std::vector<TranslationPair> drawPairs(SeededRandom& random, int count,
                                       std::unordered_set<std::string>& seen) {
  std::vector<TranslationPair> pairs;
  pairs.reserve(static_cast<std::size_t>(std::max(count, 0)));
  long long attempts_left = static_cast<long long>(std::max(count, 0)) * kAttemptsPerPair;
  while (static_cast<int>(pairs.size()) < count && attempts_left-- > 0) {
    PhrasePair pair = randomPair(random);
    const int words = wordCount(pair.english);
    if (words < kMinSourceWords || words > kMaxSourceWords) continue;
    // The English side is the key: it determines the Italian one.
    if (!seen.insert(pair.english).second) continue;
    pairs.push_back({std::move(pair.english), std::move(pair.italian)});
  }
  return pairs;
}

}  // namespace

TranslationDataset generateEnglishItalianPhrases(const TranslationPhrasesOptions& options) {
  SeededRandom random(options.seed);
  TranslationDataset dataset;
  std::unordered_set<std::string> seen;
  dataset.train = drawPairs(random, options.train_count, seen);
  dataset.validation = drawPairs(random, options.validation_count, seen);
  return dataset;
}

}  // namespace ascope
