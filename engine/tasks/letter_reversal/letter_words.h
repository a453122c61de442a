#pragma once
// The letter-reversal task's data: words of lowercase letters, drawn at random (so that reversing
// them takes reading the word, not remembering it), and their token ids.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// Token ids: PAD, the START mark before a word read, the END mark after a word written, then
/// 'a'..'z'.
inline constexpr int64_t kLetterPadId = 0;
inline constexpr int64_t kLetterStartId = 1;
inline constexpr int64_t kLetterEndId = 2;
inline constexpr int64_t kFirstLetterId = 3;
inline constexpr int64_t kLetterVocabulary = kFirstLetterId + 26;

/// `count` words of 3 to `max_letters` letters drawn from `seed` (the same on every machine).
std::vector<std::string> generateLetterWords(int count, int max_letters, std::uint64_t seed);

/// `word` as people type it, checked: lowercase letters a–z only (capitals are lowered, spaces
/// around it dropped), 1 to `max_letters` of them; an error names what is wrong.
Expected<std::string> parseLetterWord(const std::string& text, int max_letters);

/// What the model reads: `word` at the end of `max_letters + 1` positions, START before it, PAD
/// before that. Right-aligned, so that the letter to write at position i (counted from the left)
/// always sits at position max_letters − i: reversing is reading one fixed mirror position.
std::vector<int64_t> letterIds(const std::string& word, int max_letters);
/// What the model should write: the word reversed from the left, END, PAD up to `max_letters + 1`.
std::vector<int64_t> reversedLetterIds(const std::string& word, int max_letters);
/// The letters `ids` starts with, up to the first mark or PAD: what a model wrote.
std::string lettersOf(const std::vector<int64_t>& ids);
/// "a".."z", "START", "END", "PAD": how a token is labelled in the attention views.
std::string letterTokenLabel(int64_t id);

}  // namespace ascope
