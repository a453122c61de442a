#pragma once
// Model repositories on the fixture server, laid out and answering like the Hugging Face hub:
// <endpoint>/<id>/resolve/main/<file>. A file kept in git answers 200 with its size; a file kept in
// LFS answers 302 to its copy on a "CDN" path of the same server, with X-Linked-Size and
// X-Linked-Etag (its SHA-256), as the hub does. Every answer carries X-Repo-Commit; a file the
// repository lacks is a 404.
#include <cstdint>
#include <optional>
#include <string>

#include "tests/download/fixture_http_server.h"

namespace ascope::testing {

class FixtureModelHub {
 public:
  /// What an LFS file's headers claim, when a test wants them to lie.
  struct Claims {
    std::optional<std::string> sha256;
    std::optional<std::int64_t> size;
  };

  static constexpr const char* kCommit = "0123456789abcdef0123456789abcdef01234567";

  explicit FixtureModelHub(FixtureHttpServer& server) : server_(server) {}

  /// The endpoint to give the downloader: "http://127.0.0.1:<port>".
  std::string endpoint() const { return server_.url(""); }

  void addGitFile(const std::string& id, const std::string& file, const std::string& body);
  void addLfsFile(const std::string& id, const std::string& file, const std::string& body,
                  const Claims& claims = {});

  /// "/<id>/resolve/main/<file>": where the HEAD request and a git file's GET go.
  static std::string resolvePath(const std::string& id, const std::string& file);
  /// Where an LFS file's body is served from (the redirect's target).
  static std::string cdnPath(const std::string& id, const std::string& file);

  /// A config.json of that model_type, e.g. "bert" or "vit".
  static std::string configOf(const std::string& model_type);
  /// Weights-like bytes: not compressible, not repetitive, so a wrong offset shows.
  static std::string weights(std::size_t size, unsigned seed = 1);

  /// A BERT-like repository: config.json, tokenizer.json, tokenizer_config.json,
  /// special_tokens_map.json, vocab.txt (git) and model.safetensors (LFS).
  void addBertModel(const std::string& id, std::size_t weight_bytes = 4096);
  /// A ViT repository: config.json, preprocessor_config.json (git), model.safetensors (LFS).
  void addVitModel(const std::string& id, std::size_t weight_bytes = 4096);

 private:
  FixtureHttpServer& server_;
};

}  // namespace ascope::testing
