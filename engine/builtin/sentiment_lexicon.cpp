#include "engine/builtin/sentiment_lexicon.h"

namespace ascope {
namespace {

std::vector<std::string> concatenated(const std::vector<std::string>& a,
                                      const std::vector<std::string>& b) {
  std::vector<std::string> all = a;
  all.insert(all.end(), b.begin(), b.end());
  return all;
}

}  // namespace

const std::vector<std::string>& positiveAdjectives() {
  static const std::vector<std::string> kWords{
      "good",      "great",    "wonderful", "moving",     "brilliant", "superb",
      "charming",  "funny",    "gripping",  "beautiful",  "clever",    "excellent",
      "enjoyable", "touching", "fresh",     "convincing", "memorable", "delightful"};
  return kWords;
}

const std::vector<std::string>& negativeAdjectives() {
  static const std::vector<std::string> kWords{
      "bad",         "boring",   "awful",       "dull",  "terrible",  "weak",
      "clumsy",      "tedious",  "predictable", "bland", "poor",      "messy",
      "forgettable", "lifeless", "annoying",    "silly", "confusing", "flat"};
  return kWords;
}

const std::vector<std::string>& positiveWords() {
  // Verbs of the "i loved it" and "i would recommend it" clauses, in every form the writer uses.
  static const std::vector<std::string> kWords =
      concatenated(positiveAdjectives(),
                   {"loved", "enjoyed", "liked", "admired", "love", "enjoy", "like", "recommend"});
  return kWords;
}

const std::vector<std::string>& negativeWords() {
  static const std::vector<std::string> kWords =
      concatenated(negativeAdjectives(), {"hated", "disliked", "bored", "disappointed"});
  return kWords;
}

const std::vector<std::string>& negationWords() {
  static const std::vector<std::string> kWords{"not", "never", "hardly"};
  return kWords;
}

const std::vector<std::string>& intensifiers() {
  static const std::vector<std::string> kWords{"very",       "really", "extremely", "truly",
                                               "incredibly", "quite",  "so",        "pretty"};
  return kWords;
}

}  // namespace ascope
