// The translation tokenizer on arbitrary text: the Whitespace pre-tokenizer, fit on the input's
// lines, encode, decode and the seq_len filter.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/text_lines.h"
#include "engine/text/pieces/translation_pair_filter.h"
#include "engine/text/words/translation_word_tokenizer.h"
#include "engine/text/words/whitespace_pre_tokenizer.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ascope::TranslationWordTokenizer;
  using ascope::fuzz::check;
  if (size < 1) return 0;
  const bool lowercase = (data[0] & 1) != 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

  const std::vector<std::string> tokens = ascope::WhitespacePreTokenizer::split(text, lowercase);
  std::size_t token_bytes = 0;
  for (const auto& token : tokens) {
    check(!token.empty());
    token_bytes += token.size();
  }
  check(token_bytes <= 3 * text.size() + 3);  // U+FFFD for a bad byte, or a longer lowercase form

  const std::vector<std::string_view> lines = ascope::splitLines(text);
  const auto tokenizer = TranslationWordTokenizer::fit(lines, 1, lowercase);
  const std::vector<std::int64_t> ids = tokenizer.encode(text);
  check(ids.size() == tokens.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    check(ids[i] >= static_cast<std::int64_t>(TranslationWordTokenizer::kSpecialCount));
    check(tokenizer.tokenOf(ids[i]) == tokens[i]);
  }
  tokenizer.decode(ids);

  std::vector<ascope::TranslationPair> pairs;
  for (std::size_t i = 0; i + 1 < lines.size(); i += 2) {
    pairs.push_back({std::string(lines[i]), std::string(lines[i + 1])});
  }
  const auto filtered = ascope::filterPairsBySeqLen(pairs, tokenizer, tokenizer, 6);
  check(filtered.kept.size() + filtered.dropped == pairs.size());
  return 0;
}
