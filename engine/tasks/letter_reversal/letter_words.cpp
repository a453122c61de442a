#include "engine/tasks/letter_reversal/letter_words.h"

#include <algorithm>
#include <cctype>

#include "engine/builtin/seeded_random.h"

namespace ascope {

std::vector<std::string> generateLetterWords(int count, int max_letters, std::uint64_t seed) {
  SeededRandom random(seed);
  std::vector<std::string> words;
  words.reserve(static_cast<std::size_t>(std::max(count, 0)));
  for (int i = 0; i < count; ++i) {
    const int length = random.between(3, max_letters);
    std::string word;
    for (int k = 0; k < length; ++k) word.push_back(static_cast<char>('a' + random.below(26)));
    words.push_back(std::move(word));
  }
  return words;
}

Expected<std::string> parseLetterWord(const std::string& text, int max_letters) {
  const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  const auto first = std::find_if_not(text.begin(), text.end(), space);
  const auto last = std::find_if_not(text.rbegin(), text.rend(), space).base();
  std::string word;
  for (auto it = first; it < last; ++it) {
    const auto u = static_cast<unsigned char>(*it);
    if (std::isspace(u) != 0) return Error{"type one word: \"" + text + "\" has a space inside"};
    if (u >= 0x80 || std::isalpha(u) == 0) {
      return Error{"type letters a–z only: \"" + text + "\" has other characters"};
    }
    word.push_back(static_cast<char>(std::tolower(u)));
  }
  if (word.empty()) return Error{"type a word of letters a–z"};
  if (static_cast<int>(word.size()) > max_letters) {
    return Error{"this model reverses words of at most " + std::to_string(max_letters) +
                 " letters; \"" + word + "\" has " + std::to_string(word.size())};
  }
  return word;
}

std::vector<int64_t> letterIds(const std::string& word, int max_letters) {
  const std::size_t width = static_cast<std::size_t>(max_letters + 1);
  std::vector<int64_t> ids(width, kLetterPadId);
  const std::size_t letters = std::min(word.size(), width - 1);
  const std::size_t first = width - letters;
  ids[first - 1] = kLetterStartId;
  for (std::size_t i = 0; i < letters; ++i) ids[first + i] = kFirstLetterId + (word[i] - 'a');
  return ids;
}

std::vector<int64_t> reversedLetterIds(const std::string& word, int max_letters) {
  const std::size_t width = static_cast<std::size_t>(max_letters + 1);
  std::vector<int64_t> ids(width, kLetterPadId);
  const std::size_t letters = std::min(word.size(), width - 1);
  for (std::size_t i = 0; i < letters; ++i) ids[i] = kFirstLetterId + (word[letters - 1 - i] - 'a');
  ids[letters] = kLetterEndId;
  return ids;
}

std::string lettersOf(const std::vector<int64_t>& ids) {
  std::string letters;
  for (const int64_t id : ids) {
    if (id < kFirstLetterId || id >= kLetterVocabulary) break;
    letters.push_back(static_cast<char>('a' + (id - kFirstLetterId)));
  }
  return letters;
}

std::string letterTokenLabel(int64_t id) {
  if (id == kLetterStartId) return "START";
  if (id == kLetterEndId) return "END";
  if (id < kFirstLetterId || id >= kLetterVocabulary) return "PAD";
  return std::string(1, static_cast<char>('a' + (id - kFirstLetterId)));
}

}  // namespace ascope
