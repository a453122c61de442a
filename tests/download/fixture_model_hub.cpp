#include "tests/download/fixture_model_hub.h"

#include "engine/download/sha256.h"

namespace ascope::testing {

std::string FixtureModelHub::resolvePath(const std::string& id, const std::string& file) {
  return "/" + id + "/resolve/main/" + file;
}

std::string FixtureModelHub::cdnPath(const std::string& id, const std::string& file) {
  return "/cdn/" + id + "/" + file;
}

void FixtureModelHub::addGitFile(const std::string& id, const std::string& file,
                                 const std::string& body) {
  const std::string path = resolvePath(id, file);
  server_.serve(path, body);
  server_.addHeader(path, std::string("X-Repo-Commit: ") + kCommit);
  // The hub's ETag of a git file is its git blob hash: 40 hex digits, not a SHA-256.
  server_.addHeader(path, "ETag: \"" + Sha256::hexOf(body).substr(0, 40) + "\"");
}

void FixtureModelHub::addLfsFile(const std::string& id, const std::string& file,
                                 const std::string& body, const Claims& claims) {
  const std::string path = resolvePath(id, file);
  const std::string sha256 = claims.sha256.value_or(Sha256::hexOf(body));
  const std::int64_t size = claims.size.value_or(static_cast<std::int64_t>(body.size()));
  server_.redirect(path, server_.url(cdnPath(id, file)));
  server_.addHeader(path, std::string("X-Repo-Commit: ") + kCommit);
  server_.addHeader(path, "X-Linked-Size: " + std::to_string(size));
  server_.addHeader(path, "X-Linked-Etag: \"" + sha256 + "\"");
  server_.addHeader(path, "ETag: \"" + sha256 + "\"");
  server_.serve(cdnPath(id, file), body);
}

std::string FixtureModelHub::configOf(const std::string& model_type) {
  return "{\n  \"model_type\": \"" + model_type + "\",\n  \"hidden_size\": 32\n}\n";
}

std::string FixtureModelHub::weights(std::size_t size, unsigned seed) {
  std::string bytes(size, '\0');
  unsigned state = seed * 2654435761u + 1;
  for (char& byte : bytes) {
    state = state * 1664525u + 1013904223u;
    byte = static_cast<char>(state >> 24);
  }
  return bytes;
}

void FixtureModelHub::addBertModel(const std::string& id, std::size_t weight_bytes) {
  addGitFile(id, "config.json", configOf("bert"));
  addGitFile(id, "tokenizer.json", "{\"model\": {\"type\": \"WordPiece\"}}\n");
  addGitFile(id, "tokenizer_config.json", "{\"do_lower_case\": true}\n");
  addGitFile(id, "special_tokens_map.json", "{\"cls_token\": \"[CLS]\"}\n");
  addGitFile(id, "vocab.txt", "[PAD]\n[UNK]\n[CLS]\n[SEP]\nthe\n");
  addLfsFile(id, "model.safetensors", weights(weight_bytes));
}

void FixtureModelHub::addVitModel(const std::string& id, std::size_t weight_bytes) {
  addGitFile(id, "config.json", configOf("vit"));
  addGitFile(id, "preprocessor_config.json", "{\"size\": 224, \"image_mean\": [0.5, 0.5, 0.5]}\n");
  addLfsFile(id, "model.safetensors", weights(weight_bytes, 2));
}

}  // namespace ascope::testing
