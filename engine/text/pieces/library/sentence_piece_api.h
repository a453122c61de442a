#pragma once
// The table of functions libattentionscope_sentencepiece.so gives the engine. Debian's
// libsentencepiece carries its own copy of protobuf and exports it; LibTorch loads the system's
// libprotobuf, and with both in the program's global scope the two copies' symbols interpose and
// the program crashes before main(). So SentencePiece lives in this small library, which the
// engine opens with dlopen(RTLD_LOCAL | RTLD_DEEPBIND): each copy of protobuf binds to its own.
// Both sides are this project's C++ built by one compiler against one libstdc++, so the table
// passes standard types; kVersion changes with any change to it.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ascope {

struct SentencePieceApi {
  static constexpr int kVersion = 2;
  /// The name of the function that returns the table.
  static constexpr const char* kEntryName = "ascope_sentencepiece_api";

  int version = kVersion;
  /// Trains on `sentences` with SentencePiece's trainer options; the serialized model in `model`.
  /// Returns an error text, empty on success.
  std::string (*train)(const std::vector<std::string_view>& sentences,
                       const std::vector<std::pair<std::string, std::string>>& options,
                       unsigned int seed, std::string* model) = nullptr;
  /// A processor for a serialized model, or null with `error` set; release() frees it.
  void* (*load)(const std::string& model, std::string* error) = nullptr;
  void (*release)(void* processor) = nullptr;
  int (*size)(const void* processor) = nullptr;
  /// The piece of an id in [0, size).
  const std::string& (*piece)(const void* processor, int id) = nullptr;
  /// [UNK], [PAD], [SOS] and [EOS]'s ids, in that order (-1 for none).
  std::vector<int> (*specialIds)(const void* processor) = nullptr;
  std::vector<int> (*encode)(const void* processor, std::string_view text) = nullptr;
  std::string (*decode)(const void* processor, const std::vector<int>& ids) = nullptr;
  /// The SHA-256 of `bytes` as 64 lowercase hex digits (OpenSSL's libcrypto, linked here so that
  /// a build has pieces exactly when it can fingerprint them): a run folder records its pieces'
  /// and checks them on every load.
  std::string (*sha256)(std::string_view bytes) = nullptr;
};

}  // namespace ascope

extern "C" {
/// The library's one exported entry.
const ascope::SentencePieceApi* ascope_sentencepiece_api();
}
