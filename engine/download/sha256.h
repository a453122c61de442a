#pragma once
// SHA-256 through OpenSSL's EVP interface: a vetted, CPU-accelerated implementation instead of a
// hand-written one. Used to check a downloaded archive against the hash pinned in
// resources/datasets.json, not for security beyond that (the catalog itself is trusted). OpenSSL
// stays out of this header so that callers need not find or link it themselves.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "engine/vocabulary/expected.h"

// The struct behind OpenSSL's EVP_MD_CTX, declared so that <openssl/evp.h> stays private.
struct evp_md_ctx_st;

namespace ascope {

class Sha256 {
 public:
  /// Throws std::runtime_error when OpenSSL cannot provide SHA-256 (e.g. a broken openssl.cnf).
  Sha256();

  /// Feeds more bytes; may be called any number of times before hexDigest().
  void update(const void* data, std::size_t size);
  void update(std::string_view bytes) { update(bytes.data(), bytes.size()); }

  /// Finishes the hash and returns it as 64 lowercase hex digits. Call once.
  std::string hexDigest();

  /// The hash of `bytes`, e.g. hexOf("abc") == "ba7816bf…15ad".
  static std::string hexOf(std::string_view bytes);

  /// The hash of the file at `path`, read in chunks; an error names the file and the reason.
  static Expected<std::string> hexOfFile(const std::string& path);

  /// True when `text` is 64 hex digits (either case).
  static bool isHexDigest(std::string_view text);

 private:
  struct ContextDeleter {
    void operator()(evp_md_ctx_st* context) const;
  };

  std::unique_ptr<evp_md_ctx_st, ContextDeleter> context_;
};

}  // namespace ascope
