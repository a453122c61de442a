// Loading tokenizer.json: both tokenizers' fromJsonText on arbitrary bytes. What loads must encode,
// decode and survive a save/load round trip unchanged.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "engine/text/words/imdb_word_tokenizer.h"
#include "engine/text/words/translation_word_tokenizer.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ascope::fuzz::check;
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  auto imdb = ascope::ImdbWordTokenizer::fromJsonText(text, "imdb.json");
  if (imdb.ok()) {
    auto again = ascope::ImdbWordTokenizer::fromJson(imdb->toJson(), "again.json");
    check(again.ok() && again->vocabSize() == imdb->vocabSize());
    for (std::size_t id = 1; id < imdb->vocabSize(); ++id) {
      const auto signed_id = static_cast<std::int64_t>(id);
      check(imdb->idOf(imdb->wordOf(signed_id)) == signed_id);
    }
    check(imdb->encode(text, 8).size() == 8);
  } else {
    check(imdb.error().rfind("imdb.json: ", 0) == 0);
  }

  auto translation = ascope::TranslationWordTokenizer::fromJsonText(text, "tr.json");
  if (translation.ok()) {
    check(translation->vocabSize() >= ascope::TranslationWordTokenizer::kSpecialCount);
    const std::string dumped =
        translation->toJson().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    auto again = ascope::TranslationWordTokenizer::fromJsonText(dumped, "again.json");
    check(again.ok() && again->vocabSize() == translation->vocabSize());
    const auto ids = translation->encode(text);
    translation->decode(ids);
    for (const auto id : ids)
      check(id >= 0 && static_cast<std::size_t>(id) < translation->vocabSize());
  } else {
    check(translation.error().rfind("tr.json: ", 0) == 0);
  }
  return 0;
}
