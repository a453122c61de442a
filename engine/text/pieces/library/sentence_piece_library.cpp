// libattentionscope_sentencepiece.so: SentencePiece behind the table of sentence_piece_api.h.
#include <openssl/evp.h>
#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <exception>
#include <memory>
#include <unordered_map>

#include "engine/text/pieces/library/sentence_piece_api.h"

namespace {

using Processor = sentencepiece::SentencePieceProcessor;

/// Hands the training sentences to the trainer without writing them to a file first.
class SentenceList : public sentencepiece::SentenceIterator {
 public:
  explicit SentenceList(const std::vector<std::string_view>& sentences) : sentences_(sentences) {
    load();
  }
  bool done() const override { return at_ >= sentences_.size(); }
  void Next() override {
    ++at_;
    load();
  }
  const std::string& value() const override { return current_; }
  sentencepiece::util::Status status() const override { return {}; }

 private:
  void load() {
    if (!done()) current_.assign(sentences_[at_]);
  }
  const std::vector<std::string_view>& sentences_;
  std::size_t at_ = 0;
  std::string current_;
};

std::string train(const std::vector<std::string_view>& sentences,
                  const std::vector<std::pair<std::string, std::string>>& options,
                  unsigned int seed, std::string* model) {
  sentencepiece::SetRandomGeneratorSeed(seed);
  const std::unordered_map<std::string, std::string> kwargs(options.begin(), options.end());
  SentenceList list(sentences);
  const sentencepiece::util::Status trained =
      sentencepiece::SentencePieceTrainer::Train(kwargs, &list, model);
  return trained.ok() ? std::string() : trained.ToString();
}

void* load(const std::string& model, std::string* error) {
  auto processor = std::make_unique<Processor>();
  // Parts of SentencePiece throw on models they cannot take (its trie builder on an empty
  // piece): an exception must not cross this library's C-like table into the program.
  try {
    const sentencepiece::util::Status loaded = processor->LoadFromSerializedProto(model);
    if (loaded.ok()) return processor.release();
    *error = loaded.ToString();
  } catch (const std::exception& e) {
    *error = e.what();
  } catch (...) {
    *error = "SentencePiece failed without saying why";
  }
  return nullptr;
}

void release(void* processor) {
  delete static_cast<Processor*>(processor);
}

const Processor& of(const void* processor) {
  return *static_cast<const Processor*>(processor);
}

int size(const void* processor) {
  return of(processor).GetPieceSize();
}

const std::string& piece(const void* processor, int id) {
  return of(processor).IdToPiece(id);
}

std::vector<int> specialIds(const void* processor) {
  const Processor& p = of(processor);
  return {p.unk_id(), p.pad_id(), p.bos_id(), p.eos_id()};
}

std::vector<int> encode(const void* processor, std::string_view text) {
  std::vector<int> ids;
  if (!of(processor).Encode(text, &ids).ok()) ids.clear();
  return ids;
}

std::string decode(const void* processor, const std::vector<int>& ids) {
  std::string text;
  if (!of(processor).Decode(ids, &text).ok()) text.clear();
  return text;
}

std::string sha256(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &size, EVP_sha256(), nullptr) != 1) {
    return {};  // OpenSSL refused (a broken openssl.cnf): matches no recorded fingerprint
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < size; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 15];
  }
  return hex;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) const ascope::SentencePieceApi*
ascope_sentencepiece_api() {
  static const ascope::SentencePieceApi kApi = [] {
    ascope::SentencePieceApi api;
    api.train = train;
    api.load = load;
    api.release = release;
    api.size = size;
    api.piece = piece;
    api.specialIds = specialIds;
    api.encode = encode;
    api.decode = decode;
    api.sha256 = sha256;
    return api;
  }();
  return &kApi;
}
