#include "engine/builtin/review_writer.h"

#include <algorithm>

#include "engine/builtin/sentiment_lexicon.h"

namespace ascope {
namespace {

using Tokens = std::vector<std::string>;

void append(Tokens& tokens, const Tokens& more) {
  tokens.insert(tokens.end(), more.begin(), more.end());
}

/// "a" or "an" for the word that follows.
std::string indefiniteArticle(const std::string& next) {
  return next.find_first_of("aeiou") == 0 ? "an" : "a";
}

/// Splits multi-word entries ("the plot") so that every element is one token.
Tokens flatten(const Tokens& phrases) {
  Tokens tokens;
  for (const std::string& phrase : phrases) {
    std::size_t start = 0;
    while (start <= phrase.size()) {
      const std::size_t end = std::min(phrase.find(' ', start), phrase.size());
      if (end > start) tokens.push_back(phrase.substr(start, end - start));
      start = end + 1;
    }
  }
  return tokens;
}

std::string joinTokens(const std::vector<Tokens>& sentences) {
  std::string text;
  for (const Tokens& sentence : sentences) {
    for (const std::string& token : sentence) {
      if (!text.empty()) text += ' ';
      text += token;
    }
  }
  return text;
}

const Tokens kSingularSubjects{"the plot",        "the acting",      "the soundtrack", "the script",
                               "the ending",      "the dialogue",    "the story",      "the film",
                               "this movie",      "the pacing",      "the direction",  "the music",
                               "the camera work", "the final scene", "the first half"};
const Tokens kPluralSubjects{"the actors",  "the characters", "the jokes",
                             "the effects", "the costumes",   "the fight scenes"};
const Tokens kWorkNouns{"film", "movie", "story", "thriller", "comedy"};
const Tokens kPositiveVerbsPast{"loved", "enjoyed", "liked", "admired"};
const Tokens kPositiveVerbsBase{"love", "enjoy", "like"};
const Tokens kNegativeVerbsPast{"hated", "disliked"};
const Tokens kNegativeStates{"bored", "disappointed"};
// Intensifiers that read well between "a" and an adjective ("a so good film" does not).
const Tokens kAttributiveIntensifiers{"very",      "really",     "truly",
                                      "extremely", "incredibly", "pretty"};
const Tokens kOpeners{"overall", "honestly", "in the end", "to be fair", "all in all"};

// Neutral sentences; none of their words is in the sentiment lexicon or a negation.
const Tokens kFillerStarts{"i watched it", "we saw it", "i went to see it",
                           "my friends watched it"};
const Tokens kFillerTimes{"last night",       "on a sunday", "with my family", "at the cinema",
                          "on a long flight", "after work",  "at home",        "twice"};
const Tokens kFillerFacts{"the film is about a family in a small town",
                          "the story follows two brothers on a road trip",
                          "it is based on a novel from the sixties",
                          "the main character is a young teacher",
                          "the plot is about a detective and a missing painting",
                          "it runs for about two hours",
                          "most of it takes place at night",
                          "the director also wrote the script",
                          "the actors are mostly unknown",
                          "the soundtrack uses a lot of old songs",
                          "there is a long scene on a train",
                          "it came out last year",
                          "the story is set during a war",
                          "the film was shot in three countries",
                          "the cast includes a famous singer",
                          "the ending takes place at a wedding",
                          "my sister picked it for us"};

}  // namespace

std::string ReviewWriter::write(bool positive) {
  std::vector<Tokens> sentences;
  // Mostly two or three opinions that agree: the redundancy keeps the task learnable for a small
  // model, while single-opinion reviews still need the negation and contrast rules.
  const int opinions = random_.chance(1, 5) ? 1 : random_.between(2, 3);
  int length = 0;
  for (int i = 0; i < opinions; ++i) {
    sentences.push_back(opinionSentence(positive));
    length += static_cast<int>(sentences.back().size());
  }
  // Fillers at random places until a random target length, so lengths spread over the whole range
  // and padding really matters.
  // A random cap, then a length under it: favours shorter reviews a little, as on review sites.
  const int longest = random_.between(kMinTokens + 15, kMaxTokens);
  const int target = random_.between(kMinTokens, longest);
  while (length < target) {
    Tokens filler = fillerSentence();
    if (length + static_cast<int>(filler.size()) > kMaxTokens) break;
    length += static_cast<int>(filler.size());
    const auto at = static_cast<std::ptrdiff_t>(random_.index(sentences.size() + 1));
    sentences.insert(sentences.begin() + at, std::move(filler));
  }
  return joinTokens(sentences);
}

ReviewWriter::Tokens ReviewWriter::opinionSentence(bool positive) {
  // One sentence in six is a contrast; rarer would teach nothing, more would drown the rest.
  if (random_.chance(1, 6)) return flatten(contrastSentence(positive));
  Tokens sentence;
  if (random_.chance(1, 6)) {
    sentence.push_back(random_.pick(kOpeners));
    sentence.push_back(",");
  }
  append(sentence, clause(positive));
  if (random_.chance(1, 6)) {
    sentence.push_back("and");
    append(sentence, clause(positive));
  }
  sentence.push_back(random_.chance(1, 8) ? "!" : ".");
  return flatten(sentence);
}

ReviewWriter::Tokens ReviewWriter::contrastSentence(bool positive) {
  const Tokens main = clause(positive);
  const Tokens concessive = clause(!positive);
  Tokens sentence;
  switch (random_.below(3)) {
    case 0:
      sentence = concessive;
      append(sentence, {",", "but"});
      append(sentence, main);
      break;
    case 1:
      sentence = {"although"};
      append(sentence, concessive);
      sentence.push_back(",");
      append(sentence, main);
      break;
    default:
      sentence = main;
      append(sentence, {",", "even", "though"});
      append(sentence, concessive);
      break;
  }
  sentence.push_back(".");
  return sentence;
}

ReviewWriter::Tokens ReviewWriter::clause(bool positive) {
  // A quarter of the clauses reach their polarity through a negated word of the opposite one.
  const bool negated = random_.chance(1, 4);
  const bool word_positive = positive != negated;
  switch (random_.below(4)) {
    case 0:
      return attributiveClause(word_positive, negated);
    case 1:
      return verbClause(word_positive, negated);
    default:
      return copularClause(word_positive, negated);
  }
}

ReviewWriter::Tokens ReviewWriter::copularClause(bool word_positive, bool negated) {
  const bool plural = random_.chance(1, 4);
  Tokens tokens{plural ? random_.pick(kPluralSubjects) : random_.pick(kSingularSubjects)};
  const bool past = random_.chance(1, 2);
  tokens.push_back(plural ? (past ? "were" : "are") : (past ? "was" : "is"));
  std::string negation;
  if (negated) {
    negation = random_.pick(negationWords());
    tokens.push_back(negation);
  }
  // "hardly very good" is not English; the other negations take an intensifier.
  if (negation != "hardly" && random_.chance(1, 3)) tokens.push_back(random_.pick(intensifiers()));
  tokens.push_back(random_.pick(word_positive ? positiveAdjectives() : negativeAdjectives()));
  return tokens;
}

ReviewWriter::Tokens ReviewWriter::attributiveClause(bool word_positive, bool negated) {
  Tokens tokens{"it", random_.chance(1, 2) ? "was" : "is"};
  if (negated) tokens.push_back(random_.pick(negationWords()));
  Tokens phrase;
  if (random_.chance(1, 3)) phrase.push_back(random_.pick(kAttributiveIntensifiers));
  phrase.push_back(random_.pick(word_positive ? positiveAdjectives() : negativeAdjectives()));
  phrase.push_back(random_.pick(kWorkNouns));
  tokens.push_back(indefiniteArticle(phrase.front()));
  append(tokens, phrase);
  return tokens;
}

ReviewWriter::Tokens ReviewWriter::verbClause(bool word_positive, bool negated) {
  Tokens tokens{"i"};
  if (word_positive) {
    if (random_.chance(1, 3)) {
      // "i would recommend it", "i would not recommend it", "i would never recommend it".
      tokens.push_back("would");
      if (negated) tokens.push_back(random_.chance(1, 2) ? "not" : "never");
      tokens.push_back("recommend");
      tokens.push_back("it");
      if (random_.chance(1, 3)) append(tokens, {"to", "anyone"});
    } else if (negated) {
      if (random_.chance(1, 2)) {
        append(tokens, {"did", "not"});
        if (random_.chance(1, 3)) tokens.push_back("really");
        tokens.push_back(random_.pick(kPositiveVerbsBase));
      } else {
        tokens.push_back("never");
        tokens.push_back(random_.pick(kPositiveVerbsPast));
      }
      tokens.push_back("it");
    } else {
      if (random_.chance(1, 3)) tokens.push_back("really");
      tokens.push_back(random_.pick(kPositiveVerbsPast));
      tokens.push_back("it");
    }
    return tokens;
  }
  if (!negated && random_.chance(1, 2)) {
    if (random_.chance(1, 3)) tokens.push_back("really");
    tokens.push_back(random_.pick(kNegativeVerbsPast));
    tokens.push_back("it");
    return tokens;
  }
  // "i was bored", "i was never bored", "i was not disappointed".
  tokens.push_back("was");
  if (negated) tokens.push_back(random_.pick(negationWords()));
  if (!negated && random_.chance(1, 3)) tokens.push_back(random_.pick(intensifiers()));
  tokens.push_back(random_.pick(kNegativeStates));
  return tokens;
}

ReviewWriter::Tokens ReviewWriter::fillerSentence() {
  Tokens sentence;
  if (random_.chance(1, 3)) {
    sentence.push_back(random_.pick(kFillerStarts));
    sentence.push_back(random_.pick(kFillerTimes));
  } else {
    sentence.push_back(random_.pick(kFillerFacts));
  }
  sentence.push_back(".");
  return flatten(sentence);
}

}  // namespace ascope
