#include "engine/text/words/token_spacing.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "engine/text/words/whitespace_pre_tokenizer.h"

namespace ascope {
namespace {

// The usual rules: closing punctuation follows a word directly, opening punctuation precedes one,
// and an apostrophe does both ("l'uomo", "don't").
const std::unordered_set<std::string>& usualLeft() {
  static const std::unordered_set<std::string> kLeft{
      ".", ",", ";", ":", "!", "?", ")", "]", "}", "%", "'", "...", "?!", "!?", "»", "”", "’"};
  return kLeft;
}
const std::unordered_set<std::string>& usualRight() {
  static const std::unordered_set<std::string> kRight{"(", "[", "{", "'", "«", "“",
                                                      "‘", "¿", "¡", "$", "€", "£"};
  return kRight;
}

/// The first and the last UTF-8 character of `token` (a whole one; empty for an empty token).
std::string firstCharacter(const std::string& token) {
  std::size_t n = token.empty() ? 0 : 1;
  while (n < token.size() && (static_cast<unsigned char>(token[n]) & 0xc0) == 0x80) ++n;
  return token.substr(0, n);
}
std::string lastCharacter(const std::string& token) {
  std::size_t at = token.empty() ? 0 : token.size() - 1;
  while (at > 0 && (static_cast<unsigned char>(token[at]) & 0xc0) == 0x80) --at;
  return token.substr(at);
}

// A run of punctuation is one token (")." "),"): it is written as its first character is
// against the token before it, and as its last character is against the token after it.
bool usuallyAttachesLeft(const std::string& token) {
  return usualLeft().count(token) > 0 || usualLeft().count(firstCharacter(token)) > 0;
}
bool usuallyAttachesRight(const std::string& token) {
  return usualRight().count(token) > 0 || usualRight().count(lastCharacter(token)) > 0;
}

bool isSpaceByte(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

}  // namespace

void TokenSpacing::Tally::add(std::string_view sentence, const std::vector<std::string>& tokens) {
  // Where each token sits in the raw sentence: the pre-tokenizer's tokens are its substrings, in
  // order (lowercasing aside, so the raw split is searched and the tokenizer's tokens counted).
  const std::vector<std::string> raw = WhitespacePreTokenizer::split(sentence, false);
  if (raw.size() != tokens.size()) return;
  std::vector<bool> space_before(raw.size(), true);
  std::size_t at = 0;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const std::size_t found = sentence.find(raw[i], at);
    if (found == std::string_view::npos) return;  // replaced bytes: this sentence cannot tell
    bool space = false;
    for (std::size_t k = at; k < found; ++k) space = space || isSpaceByte(sentence[k]);
    space_before[i] = space || found > at;
    at = found + raw[i].size();
  }
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const auto [it, added] = index_.try_emplace(tokens[i], counts_.size());
    if (added) {
      order_.push_back(tokens[i]);
      counts_.emplace_back();
    }
    Counts& c = counts_[it->second];
    if (i > 0) {
      ++c.with_left;
      c.glued_left += space_before[i] ? 0 : 1;
    }
    if (i + 1 < tokens.size()) {
      ++c.with_right;
      c.glued_right += space_before[i + 1] ? 0 : 1;
    }
  }
}

TokenSpacing TokenSpacing::Tally::spacing() const {
  TokenSpacing s;
  s.learned_ = true;
  for (std::size_t i = 0; i < order_.size(); ++i) {
    const Counts& c = counts_[i];
    const std::string& token = order_[i];
    // Seen too rarely: the usual rules decide (attachesLeft/Right fall back to them).
    if (c.with_left >= kMinSeen ? 2 * c.glued_left >= c.with_left : usuallyAttachesLeft(token)) {
      s.left_.insert(token);
    }
    if (c.with_right >= kMinSeen ? 2 * c.glued_right >= c.with_right
                                 : usuallyAttachesRight(token)) {
      s.right_.insert(token);
    }
  }
  return s;
}

bool TokenSpacing::attachesLeft(const std::string& token) const {
  return learned_ ? left_.count(token) > 0 : usuallyAttachesLeft(token);
}

bool TokenSpacing::attachesRight(const std::string& token) const {
  return learned_ ? right_.count(token) > 0 : usuallyAttachesRight(token);
}

std::string TokenSpacing::join(const std::vector<std::string>& tokens) const {
  std::string text;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (i > 0 && !attachesRight(tokens[i - 1]) && !attachesLeft(tokens[i])) text.push_back(' ');
    text += tokens[i];
  }
  return text;
}

nlohmann::json TokenSpacing::toJson() const {
  if (!learned_) return nullptr;  // the usual rules: nothing to store
  auto sorted = [](const std::unordered_set<std::string>& set) {
    std::vector<std::string> v(set.begin(), set.end());
    std::sort(v.begin(), v.end());
    return v;
  };
  return {{"attach_left", sorted(left_)}, {"attach_right", sorted(right_)}};
}

Expected<TokenSpacing> TokenSpacing::fromJson(const nlohmann::json& json, const std::string& name) {
  TokenSpacing s;
  if (json.is_null()) return s;
  if (!json.is_object()) return Error{name + ": \"spacing\" must be an object"};
  s.learned_ = true;
  for (const auto& [key, into] :
       {std::pair<const char*, std::unordered_set<std::string>*>{"attach_left", &s.left_},
        {"attach_right", &s.right_}}) {
    const auto list = json.find(key);
    if (list == json.end() || !list->is_array()) {
      return Error{name + ": \"spacing\"." + key + " must be an array of tokens"};
    }
    for (const nlohmann::json& token : *list) {
      if (!token.is_string()) {
        return Error{name + ": \"spacing\"." + key + " holds something that is not a token"};
      }
      into->insert(token.get<std::string>());
    }
  }
  return s;
}

}  // namespace ascope
