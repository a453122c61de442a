#include "engine/download/sha256.h"

#include <openssl/err.h>
#include <openssl/evp.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace ascope {
namespace {

constexpr std::size_t kFileChunkBytes = 1 << 20;

// OpenSSL reports through its own error queue; the newest entry is the one worth showing.
[[noreturn]] void throwOpenSslError(const char* what) {
  char reason[256] = "no reason given";
  if (const unsigned long code = ERR_get_error()) ERR_error_string_n(code, reason, sizeof reason);
  ERR_clear_error();
  throw std::runtime_error(std::string("SHA-256: ") + what + ": " + reason);
}

}  // namespace

void Sha256::ContextDeleter::operator()(evp_md_ctx_st* context) const {
  EVP_MD_CTX_free(context);
}

Sha256::Sha256() : context_(EVP_MD_CTX_new()) {
  if (!context_) throwOpenSslError("cannot allocate a digest context");
  if (EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) != 1) {
    throwOpenSslError("OpenSSL cannot provide it");
  }
}

void Sha256::update(const void* data, std::size_t size) {
  if (EVP_DigestUpdate(context_.get(), data, size) != 1) throwOpenSslError("update failed");
}

std::string Sha256::hexDigest() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(context_.get(), digest, &length) != 1) {
    throwOpenSslError("finishing failed");
  }
  static const char* const kHexDigits = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * length);
  for (unsigned int i = 0; i < length; ++i) {
    hex.push_back(kHexDigits[digest[i] >> 4]);
    hex.push_back(kHexDigits[digest[i] & 0xf]);
  }
  return hex;
}

std::string Sha256::hexOf(std::string_view bytes) {
  Sha256 hash;
  hash.update(bytes);
  return hash.hexDigest();
}

Expected<std::string> Sha256::hexOfFile(const std::string& path) {
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                             &std::fclose);
  if (!file) return Error{path + ": cannot open: " + std::strerror(errno)};
  // Callers already handle an Error here, so an OpenSSL failure becomes one instead of escaping.
  try {
    Sha256 hash;
    std::vector<char> chunk(kFileChunkBytes);
    for (;;) {
      const std::size_t got = std::fread(chunk.data(), 1, chunk.size(), file.get());
      hash.update(chunk.data(), got);
      if (got < chunk.size()) break;
    }
    if (std::ferror(file.get())) return Error{path + ": cannot read: " + std::strerror(errno)};
    return hash.hexDigest();
  } catch (const std::runtime_error& e) {
    return Error{path + ": " + e.what()};
  }
}

bool Sha256::isHexDigest(std::string_view text) {
  if (text.size() != 64) return false;
  for (char c : text) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

}  // namespace ascope
