// The text path of an aclImdb review file: cleanReviewText (UTF-8 repair, <br /> removal), then the
// IMDB word splitter and tokenizer on the result and on the raw bytes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/text/words/imdb_word_splitter.h"
#include "engine/text/words/imdb_word_tokenizer.h"
#include "engine/text/words/review_text.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ascope::fuzz::check;
  const std::string_view raw(reinterpret_cast<const char*>(data), size);

  std::size_t replaced = 0;
  const std::string text = ascope::cleanReviewText(raw, replaced);
  ascope::fuzz::checkUtf8(text);
  // Not "no <br /> left": one pass over "<br<br/>/>" leaves "<br />", as Python's str.replace
  // in the reference does too (the first crash this target found was that wrong check).
  check(text.size() <= 3 * raw.size());
  if (raw.find('<') == std::string_view::npos) check(replaced > 0 || text == raw);
  check(replaced <= size);

  for (const std::string_view input : {raw, std::string_view(text)}) {
    ascope::ImdbWordSplitter splitter(input);
    std::string_view word;
    std::size_t words = 0;
    while (splitter.next(word)) {
      check(!word.empty());
      for (const char c : word) check((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'));
      check(++words <= input.size());
    }
  }

  const std::vector<std::string_view> texts = {text, raw};
  const auto tokenizer = ascope::ImdbWordTokenizer::fit(texts, 1);
  const std::vector<std::int64_t> ids = tokenizer.encode(raw, 16);
  check(ids.size() == 16);
  const std::vector<std::string> tokens = tokenizer.tokens(raw, 16);
  check(tokens.size() <= 16);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    check(ids[i] > 0 && tokenizer.wordOf(ids[i]) == tokens[i]);  // every word was seen in fit
  }
  for (std::size_t i = tokens.size(); i < ids.size(); ++i) check(ids[i] == 0);
  return 0;
}
