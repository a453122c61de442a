// BERT's tokenizer files and text path: the input as tokenizer.json and as vocab.txt, and as text
// for two fixed tokenizers (uncased with accent stripping; cased without cleaning, CJK splitting
// or stripping, with a never_split word). Every id must be in the vocabulary, every word and
// decoded text valid UTF-8, and padding must reach max_length exactly.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/text/bert/bert_basic_tokenizer.h"
#include "engine/text/bert/bert_tokenizer.h"
#include "engine/text/bert/bert_vocab_txt.h"
#include "fuzz_check.h"

namespace {

using ascope::fuzz::check;

constexpr std::string_view kVocab =
    "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\na\nb\nc\nab\n##a\n##b\n##c\n##bc\n.\n,\n!\n'\n\xC3\xA9\n"
    "##\xC3\xA9\n\xE4\xB8\xAD\n\xE1\x84\x92\n##\xE1\x85\xA1\nhello\nworld\n##s\nA\nB\n";

ascope::BertTokenizer makeTokenizer(bool cased) {
  ascope::BertTokenizerSettings settings;
  if (cased) {
    settings.normalization = ascope::BertNormalization{false, false, false, false};
    settings.never_split = {"a.b", "\xC3\xA9!"};
    settings.max_input_chars_per_word = 8;
  }
  auto tokenizer = ascope::BertTokenizer::fromVocabText(kVocab, "fuzz_vocab.txt", settings);
  check(tokenizer.ok());
  return std::move(tokenizer.value());
}

void checkEncoding(const ascope::BertEncoding& encoding, const ascope::BertTokenizer& tokenizer) {
  check(encoding.tokens.size() == encoding.ids.size());
  check(encoding.token_type_ids.size() == encoding.ids.size());
  check(encoding.attention_mask.size() == encoding.ids.size());
  for (std::size_t i = 0; i < encoding.ids.size(); ++i) {
    check(encoding.ids[i] >= 0 &&
          static_cast<std::size_t>(encoding.ids[i]) < tokenizer.vocabSize());
    check(encoding.tokens[i] == tokenizer.tokenOf(encoding.ids[i]));
  }
}

void checkText(const ascope::BertTokenizer& tokenizer, std::string_view text) {
  checkEncoding(tokenizer.encode(text), tokenizer);
  ascope::BertEncodeOptions options;
  options.max_length = 16;
  options.pad_to_max_length = true;
  const ascope::BertEncoding pair =
      tokenizer.encodePair(text, text.substr(text.size() / 2), options);
  checkEncoding(pair, tokenizer);
  check(pair.ids.size() == 16);
  check(pair.ids.front() == tokenizer.clsId());
  ascope::fuzz::checkUtf8(tokenizer.decode(pair.ids));
  ascope::fuzz::checkUtf8(tokenizer.decode(pair.ids, true));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  static const ascope::BertTokenizer uncased = makeTokenizer(false);
  static const ascope::BertTokenizer cased = makeTokenizer(true);
  checkText(uncased, text);
  checkText(cased, text);

  const ascope::BertBasicTokenizer basic;
  for (const std::string& word : basic.tokenize(text)) {
    check(!word.empty());
    ascope::fuzz::checkUtf8(word);
  }

  auto from_json = ascope::BertTokenizer::fromTokenizerJsonText(text, "fuzz.json");
  if (from_json.ok()) {
    check(from_json->vocabSize() > 0);
    checkText(*from_json, text);
  } else {
    check(from_json.error().rfind("fuzz.json: ", 0) == 0);
  }

  auto vocab = ascope::parseVocabTxt(text, "fuzz.txt");
  if (vocab.ok()) {
    for (const std::string& token : *vocab) ascope::fuzz::checkUtf8(token);
    auto from_vocab = ascope::BertTokenizer::create(std::move(*vocab), {}, "fuzz.txt");
    if (from_vocab.ok()) checkText(*from_vocab, text);
  } else {
    check(vocab.error().rfind("fuzz.txt: line ", 0) == 0);
  }
  return 0;
}
