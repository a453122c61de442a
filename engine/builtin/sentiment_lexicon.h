#pragma once
// The word lists behind the generated movie reviews. Exposed so that tests (and curious readers)
// can re-derive every label from the text alone: a word carries sentiment if and only if it is in
// positiveWords() or negativeWords(), and polarity flips only through negationWords().
#include <string>
#include <vector>

namespace ascope {

/// Positive adjectives and verbs ("good", "moving", "loved", "recommend", ...).
const std::vector<std::string>& positiveWords();

/// Negative adjectives and verbs ("boring", "awful", "hated", "disappointed", ...).
const std::vector<std::string>& negativeWords();

/// Words that flip the polarity of the sentiment word after them in the same clause.
const std::vector<std::string>& negationWords();

/// Subsets used by the review writer; all in positiveWords()/negativeWords().
const std::vector<std::string>& positiveAdjectives();
const std::vector<std::string>& negativeAdjectives();

/// Neutral words that only scale what follows ("very", "really", ...).
const std::vector<std::string>& intensifiers();

}  // namespace ascope
