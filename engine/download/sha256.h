#pragma once
// SHA-256 (FIPS 180-4), self-contained so the downloader needs no crypto library. Used to check a
// downloaded archive against the hash pinned in resources/datasets.json, not for security beyond
// that (the catalog itself is trusted).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/core/expected.h"

namespace ascope {

class Sha256 {
 public:
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
  void compressBlock(const std::uint8_t* block);

  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_bytes_ = 0;
};

}  // namespace ascope
