#include "engine/tasks/translation/translation_data_settings.h"

#include "engine/vocabulary/config_checks.h"

namespace ascope {

Status TranslationDataSettings::validate() const {
  using namespace config_checks;
  if (Status s = inRange("min_freq", min_freq, 1, 100'000'000); !s.ok()) return s;
  if (Status s = inRange("decode_samples", decode_samples, 0, 1'000'000); !s.ok()) return s;
  for (const std::string* code : {&source_language, &target_language}) {
    // The codes become file names (tokenizer_<code>.json, Books.en-it.<code>).
    const bool plain = !code->empty() && code->size() <= 16 &&
                       code->find_first_not_of(
                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                           "0123456789_-") == std::string::npos;
    if (!plain) {
      return Error{std::string(code == &source_language ? "source_language" : "target_language") +
                   " must be a language code such as en or it, got \"" + *code + "\""};
    }
  }
  if (source_language == target_language) {
    return Error{"source_language and target_language must differ, both are \"" + source_language +
                 "\""};
  }
  return {};
}

}  // namespace ascope
