#include "engine/scoring/tokenizer_13a.h"

#include "engine/text/unicode/bert_unicode.h"
#include "engine/text/unicode/utf8_code_points.h"

namespace ascope {
namespace {

void replaceAll(std::u32string& s, std::u32string_view from, std::u32string_view to) {
  for (std::size_t at = s.find(from); at != std::u32string::npos; at = s.find(from, at)) {
    s.replace(at, from.size(), to);
    at += to.size();
  }
}

bool isDigit(char32_t c) {
  return c >= U'0' && c <= U'9';
}
bool isPeriodOrComma(char32_t c) {
  return c == U'.' || c == U',';
}

/// The class [\{-\~\[-\` -\&\(-\+\:-\@\/] of the first 13a rule.
bool isSetApart(char32_t c) {
  return (c >= U'{' && c <= U'~') || (c >= U'[' && c <= U'`') || (c >= U' ' && c <= U'&') ||
         (c >= U'(' && c <= U'+') || (c >= U':' && c <= U'@') || c == U'/';
}

/// re.sub(r'(A)(B)', replacement, s) for one-character groups A and B: the leftmost match, then
/// the next one after it (matches do not overlap), as Python's re.sub scans.
template <typename First, typename Second, typename Emit>
std::u32string substitutePairs(const std::u32string& s, First first, Second second, Emit emit) {
  std::u32string out;
  out.reserve(s.size() + s.size() / 2);
  std::size_t i = 0;
  while (i < s.size()) {
    if (i + 1 < s.size() && first(s[i]) && second(s[i + 1])) {
      emit(s[i], s[i + 1], out);
      i += 2;
    } else {
      out.push_back(s[i++]);
    }
  }
  return out;
}

}  // namespace

std::u32string codePoints(std::string_view text) {
  std::u32string out;
  appendCodePoints(text, out);
  return out;
}

std::vector<std::u32string> splitOnWhitespace(std::u32string_view text) {
  std::vector<std::u32string> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && bert_unicode::isWhitespace(text[i])) ++i;
    const std::size_t start = i;
    while (i < text.size() && !bert_unicode::isWhitespace(text[i])) ++i;
    if (i > start) words.emplace_back(text.substr(start, i - start));
  }
  return words;
}

std::string tokenize13a(std::string_view line) {
  std::u32string s = codePoints(line);
  // BLEU's _preprocess_segment: sent.rstrip()
  while (!s.empty() && bert_unicode::isWhitespace(s.back())) s.pop_back();
  replaceAll(s, U"<skipped>", U"");
  replaceAll(s, U"-\n", U"");
  replaceAll(s, U"\n", U" ");
  replaceAll(s, U"&quot;", U"\"");
  replaceAll(s, U"&amp;", U"&");
  replaceAll(s, U"&lt;", U"<");
  replaceAll(s, U"&gt;", U">");
  s = U" " + s + U" ";

  std::u32string apart;
  apart.reserve(s.size() * 2);
  for (char32_t c : s) {
    if (isSetApart(c)) {
      apart += U' ';
      apart += c;
      apart += U' ';
    } else {
      apart += c;
    }
  }
  // period and comma unless preceded by a digit: ([^0-9])([\.,]) → \1 \2 (space after)
  s = substitutePairs(
      apart, [](char32_t c) { return !isDigit(c); }, isPeriodOrComma,
      [](char32_t a, char32_t b, std::u32string& out) {
        out += {a, U' ', b, U' '};
      });
  // period and comma unless followed by a digit: ([\.,])([^0-9]) → ' \1 \2'
  s = substitutePairs(
      s, isPeriodOrComma, [](char32_t c) { return !isDigit(c); },
      [](char32_t a, char32_t b, std::u32string& out) {
        out += {U' ', a, U' ', b};
      });
  // dash when preceded by a digit: ([0-9])(-) → \1 \2 (space after)
  s = substitutePairs(
      s, isDigit, [](char32_t c) { return c == U'-'; },
      [](char32_t a, char32_t b, std::u32string& out) {
        out += {a, U' ', b, U' '};
      });

  std::string out;
  for (const std::u32string& word : splitOnWhitespace(s)) {
    if (!out.empty()) out.push_back(' ');
    for (char32_t c : word) appendUtf8(c, out);
  }
  return out;
}

}  // namespace ascope
