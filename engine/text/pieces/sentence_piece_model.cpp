#include "engine/text/pieces/sentence_piece_model.h"

#include <utility>

#include "engine/core/atomic_file.h"
#include "engine/core/printable_text.h"
#include "engine/core/regular_file.h"
#include "engine/text/pieces/piece_model_tables.h"
#include "engine/text/pieces/sentence_piece_library.h"

namespace ascope {
namespace {

constexpr const char* kSpecialPieces[] = {"[UNK]", "[PAD]", "[SOS]", "[EOS]"};
// The word-start mark SentencePiece writes for a space (U+2581).
constexpr std::string_view kWordStart = "\xE2\x96\x81";

const std::string& unknownPiece() {
  static const std::string kUnknown = kSpecialPieces[0];
  return kUnknown;
}

/// The normalisation table this program's trainer writes into every model (SentencePiece's
/// nmt_nfkc, precompiled by the library it was built with), read off a model of a few letters
/// learned once per process (a few milliseconds).
Expected<std::string> ownNormalizationTable(const SentencePieceApi* api) {
  static const Expected<std::string> table = [api]() -> Expected<std::string> {
    const std::vector<std::string_view> sentences = {"abc cab", "bca abc"};
    const std::vector<std::pair<std::string, std::string>> options = {
        {"model_type", "char"},
        {"vocab_size", "12"},
        {"hard_vocab_limit", "false"},
        {"unk_id", "0"},
        {"pad_id", "1"},
        {"bos_id", "2"},
        {"eos_id", "3"},
        {"num_threads", "1"},
        {"minloglevel", "2"},
        {"input_sentence_size", "0"},
        {"shuffle_input_sentence", "false"}};
    std::string model;
    const std::string failed = api->train(sentences, options, 1, &model);
    if (!failed.empty()) return Error{"cannot learn its own normalisation table: " + failed};
    Expected<PieceModelTables> tables = readPieceModelTables(model);
    if (!tables.ok()) return Error{"its own model is unreadable: " + tables.error()};
    return tables->normalizer;
  }();
  return table;
}

/// Refuses a model whose normalisation tables are not the ones this program writes (SentencePiece
/// reads a table without checking it, and one of random bytes crashes the first encode), and one
/// with a piece that is empty or holds a NUL byte (SentencePiece's trie builder throws through
/// the loader).
Status checkTables(const SentencePieceApi* api, const std::string& bytes) {
  Expected<PieceModelTables> tables = readPieceModelTables(bytes);
  if (!tables.ok()) return Error{"not a SentencePiece model (" + tables.error() + ")"};
  if (tables->unusable_piece) {
    return Error{"piece " + std::to_string(*tables->unusable_piece) +
                 " is empty or holds a NUL byte, which no piece model has"};
  }
  if (!tables->denormalizer.empty()) {
    return Error{"it has a denormalisation table, which no piece model of this program has"};
  }
  if (tables->normalizer.empty()) return {};
  Expected<std::string> own = ownNormalizationTable(api);
  if (!own.ok()) return Error{own.error()};
  if (tables->normalizer != *own) {
    return Error{"its normalisation table (" + std::to_string(tables->normalizer.size()) +
                 " bytes) is not the one this program writes: a model made elsewhere, or damaged"};
  }
  return {};
}

}  // namespace

bool SentencePieceModel::available() {
  return SentencePieceLibrary::api().ok();
}

SentencePieceModel::SentencePieceModel(const SentencePieceApi* api,
                                       std::shared_ptr<const void> processor,
                                       std::shared_ptr<const std::string> bytes, std::size_t size)
    : api_(api), processor_(std::move(processor)), bytes_(std::move(bytes)), size_(size) {}

Expected<SentencePieceModel> SentencePieceModel::train(
    const std::vector<std::string_view>& sentences, const PieceTraining& training) {
  Expected<const SentencePieceApi*> api = SentencePieceLibrary::api();
  if (!api.ok()) return Error{api.error()};
  if (sentences.empty()) return Error{"no sentences to learn pieces from"};
  if (training.algorithm != "unigram" && training.algorithm != "bpe") {
    return Error{"piece algorithm must be unigram or bpe, got \"" + training.algorithm + "\""};
  }
  // 4 special pieces + 256 byte pieces + the text's characters + some of its own.
  if (training.vocab_size < 300) {
    return Error{"pieces must be at least 300, got " + std::to_string(training.vocab_size)};
  }
  const std::vector<std::pair<std::string, std::string>> options = {
      {"model_type", training.algorithm},
      {"vocab_size", std::to_string(training.vocab_size)},
      {"character_coverage", "1.0"},
      {"byte_fallback", "true"},  // a character never seen becomes bytes, not [UNK]
      {"split_digits", "true"},
      {"unk_id", "0"},
      {"pad_id", "1"},
      {"bos_id", "2"},
      {"eos_id", "3"},
      {"unk_piece", kSpecialPieces[0]},
      {"pad_piece", kSpecialPieces[1]},
      {"bos_piece", kSpecialPieces[2]},
      {"eos_piece", kSpecialPieces[3]},
      // A run's training sentences are few enough to take all of them, in order: no sampling,
      // and one thread, so the same sentences give the same pieces.
      {"input_sentence_size", "0"},
      {"shuffle_input_sentence", "false"},
      {"max_sentence_length", "16384"},
      {"num_threads", "1"},
      {"minloglevel", "2"},
      // A vocabulary the text cannot fill is an error rather than silently smaller.
      {"hard_vocab_limit", "true"},
  };
  std::string bytes;
  const std::string failed =
      (*api)->train(sentences, options, static_cast<unsigned int>(training.seed), &bytes);
  if (!failed.empty()) {
    return Error{"learning " + std::to_string(training.vocab_size) +
                 " pieces failed: " + printableText(failed)};
  }
  return fromBytes(bytes, "the pieces just learned");
}

Expected<SentencePieceModel> SentencePieceModel::fromBytes(const std::string& bytes,
                                                           const std::string& name) {
  Expected<const SentencePieceApi*> found = SentencePieceLibrary::api();
  if (!found.ok()) return Error{name + ": " + found.error()};
  const SentencePieceApi* api = *found;
  if (bytes.size() > kMaxModelBytes) {
    return Error{name + ": " + std::to_string(bytes.size()) +
                 " bytes is larger than any piece model (at most " +
                 std::to_string(kMaxModelBytes) + ")"};
  }
  if (const Status tables = checkTables(api, bytes); !tables.ok()) {
    return Error{name + ": " + tables.error()};
  }
  std::string error;
  void* loaded = api->load(bytes, &error);
  // SentencePiece's error quotes the file's bytes (a piece it refuses): written out, never raw.
  if (loaded == nullptr) {
    return Error{name + ": not a SentencePiece model (" + printableText(error) + ")"};
  }
  std::shared_ptr<const void> processor(loaded, [api](const void* p) {
    api->release(const_cast<void*>(p));  // NOLINT(cppcoreguidelines-pro-type-const-cast)
  });
  const int size = api->size(loaded);
  if (size < 5) {
    return Error{name + ": " + std::to_string(size) + " pieces; a piece model has at least 5"};
  }
  for (int id = 0; id < 4; ++id) {
    if (api->piece(loaded, id) != kSpecialPieces[id]) {
      return Error{name + ": piece " + std::to_string(id) + " is \"" +
                   printableText(api->piece(loaded, id)) + "\", not " + kSpecialPieces[id]};
    }
  }
  if (api->specialIds(loaded) != std::vector<int>{0, 1, 2, 3}) {
    return Error{name + ": its special ids are not [UNK] 0, [PAD] 1, [SOS] 2, [EOS] 3"};
  }
  return SentencePieceModel(api, std::move(processor), std::make_shared<const std::string>(bytes),
                            static_cast<std::size_t>(size));
}

std::vector<std::int64_t> SentencePieceModel::encode(std::string_view text) const {
  const std::vector<int> ids = api_->encode(processor_.get(), text);
  return {ids.begin(), ids.end()};
}

std::string SentencePieceModel::decode(const std::vector<std::int64_t>& ids) const {
  std::vector<int> kept;
  for (const std::int64_t id : ids) {
    if (id > kEosId && id < static_cast<std::int64_t>(size_)) kept.push_back(static_cast<int>(id));
  }
  return api_->decode(processor_.get(), kept);
}

const std::string& SentencePieceModel::pieceOf(std::int64_t id) const {
  if (id < 0 || id >= static_cast<std::int64_t>(size_)) return unknownPiece();
  return api_->piece(processor_.get(), static_cast<int>(id));
}

std::size_t SentencePieceModel::vocabSize() const {
  return size_;
}

bool SentencePieceModel::startsWord(std::int64_t id) const {
  if (id >= 0 && id <= kEosId) return true;
  const std::string& piece = pieceOf(id);
  return piece.compare(0, kWordStart.size(), kWordStart) == 0;
}

std::string SentencePieceModel::labelOf(std::int64_t id) const {
  const std::string& piece = pieceOf(id);
  if (id >= 0 && id <= kEosId) return piece;
  if (piece.compare(0, kWordStart.size(), kWordStart) == 0) {
    std::string word = piece.substr(kWordStart.size());
    // A lone word start (before a character the pieces lack, spelt in bytes) shows as a space.
    return word.empty() ? std::string(kLoneWordStart) : word;
  }
  // A byte piece of an ASCII character ("<0x7A>") is that character.
  if (piece.size() == 6 && piece.compare(0, 3, "<0x") == 0 && piece.back() == '>') {
    const int byte = std::stoi(piece.substr(3, 2), nullptr, 16);
    if (byte >= 0x21 && byte < 0x7F)
      return kContinuationMark + std::string(1, static_cast<char>(byte));
  }
  return kContinuationMark + piece;
}

std::string SentencePieceModel::sha256() const {
  return api_->sha256(*bytes_);
}

Expected<SentencePieceModel> SentencePieceModel::load(const std::string& path) {
  Expected<std::string> bytes = readRegularFile(path, kMaxModelBytes, Links::kRefuse);
  if (!bytes.ok()) return Error{bytes.error()};
  return fromBytes(*bytes, path);
}

Status SentencePieceModel::save(const std::string& path) const {
  return writeFileAtomically(path, *bytes_);
}

}  // namespace ascope
