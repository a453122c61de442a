#include "engine/text/pieces/translation_tokenizer.h"

#include <utility>

namespace ascope {

static_assert(TranslationWordTokenizer::kUnkId == SentencePieceModel::kUnkId &&
                  TranslationWordTokenizer::kPadId == SentencePieceModel::kPadId &&
                  TranslationWordTokenizer::kSosId == SentencePieceModel::kSosId &&
                  TranslationWordTokenizer::kEosId == SentencePieceModel::kEosId,
              "words and pieces share their special ids");

TranslationTokenizer::TranslationTokenizer(TranslationWordTokenizer words)
    : tokenizer_(std::move(words)) {}

TranslationTokenizer::TranslationTokenizer(SentencePieceModel pieces)
    : tokenizer_(std::move(pieces)) {}

std::vector<std::int64_t> TranslationTokenizer::encode(std::string_view text) const {
  return std::visit([&](const auto& t) { return t.encode(text); }, tokenizer_);
}

std::size_t TranslationTokenizer::length(std::string_view text) const {
  if (const auto* words = std::get_if<TranslationWordTokenizer>(&tokenizer_)) {
    return words->tokens(text).size();  // the pre-tokenizer alone gives the count
  }
  return encode(text).size();
}

std::string TranslationTokenizer::labelOf(std::int64_t id) const {
  if (const auto* words = std::get_if<TranslationWordTokenizer>(&tokenizer_)) {
    return words->tokenOf(id);
  }
  return std::get<SentencePieceModel>(tokenizer_).labelOf(id);
}

bool TranslationTokenizer::startsWord(std::int64_t id) const {
  if (const auto* pieces = std::get_if<SentencePieceModel>(&tokenizer_)) {
    return pieces->startsWord(id);
  }
  return true;
}

std::string TranslationTokenizer::detokenize(const std::vector<std::int64_t>& ids) const {
  if (const auto* words = std::get_if<TranslationWordTokenizer>(&tokenizer_)) {
    return words->detokenize(ids);
  }
  return std::get<SentencePieceModel>(tokenizer_).decode(ids);
}

std::size_t TranslationTokenizer::vocabSize() const {
  return std::visit([](const auto& t) { return t.vocabSize(); }, tokenizer_);
}

double TranslationTokenizer::unknownShare(const std::vector<std::string_view>& sentences) const {
  std::size_t unknown = 0, all = 0;
  for (const std::string_view sentence : sentences) {
    for (const std::int64_t id : encode(sentence)) {
      unknown += id == TranslationWordTokenizer::kUnkId ? 1 : 0;
      ++all;
    }
  }
  return all == 0 ? 0.0 : static_cast<double>(unknown) / static_cast<double>(all);
}

std::string TranslationTokenizer::fileName(const std::string& language, bool pieces) {
  return pieces ? "pieces_" + language + ".model" : "tokenizer_" + language + ".json";
}

Status TranslationTokenizer::save(const std::string& run_dir, const std::string& language) const {
  const std::string path = run_dir + "/" + fileName(language, usesPieces());
  return std::visit([&](const auto& t) { return t.save(path); }, tokenizer_);
}

std::string TranslationTokenizer::fingerprint() const {
  const auto* pieces = std::get_if<SentencePieceModel>(&tokenizer_);
  return pieces != nullptr ? pieces->sha256() : std::string();
}

Expected<TranslationTokenizer> TranslationTokenizer::load(const std::string& run_dir,
                                                          const std::string& language, bool pieces,
                                                          const Recorded& recorded,
                                                          std::vector<std::string>* warnings) {
  const std::string path = run_dir + "/" + fileName(language, pieces);
  if (pieces) {
    Expected<SentencePieceModel> model = SentencePieceModel::load(path);
    if (!model.ok()) return Error{model.error()};
    if (recorded.sha256.empty()) {
      if (warnings != nullptr) {
        warnings->push_back(
            path +
            ": the run's config.json records no SHA-256 of its pieces (a run made "
            "before they were recorded): that they are the run's own is not checked");
      }
    } else if (model->sha256() != recorded.sha256) {
      return Error{path + ": not the pieces this run was trained with (its SHA-256 is " +
                   model->sha256().substr(0, 12) + "…, config.json recorded " +
                   recorded.sha256.substr(0, 12) +
                   "…): another run's, the other language's, or changed since"};
    }
    return TranslationTokenizer(std::move(*model));
  }
  Expected<TranslationWordTokenizer> words = TranslationWordTokenizer::load(path);
  if (!words.ok()) return Error{words.error()};
  return TranslationTokenizer(std::move(*words));
}

}  // namespace ascope
