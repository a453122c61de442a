#pragma once
// Base64 (RFC 4648, with padding): how the handout carries its packed bytes inside the page, which
// the page turns back into bytes with atob().
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ascope {

std::string base64Encode(const void* data, std::size_t size);
inline std::string base64Encode(std::string_view bytes) {
  return base64Encode(bytes.data(), bytes.size());
}
/// The characters base64Encode gives for `size` bytes.
constexpr std::size_t base64Size(std::size_t size) {
  return (size + 2) / 3 * 4;
}
/// The bytes of `text`; nullopt for anything base64Encode would not write.
std::optional<std::string> base64Decode(std::string_view text);

}  // namespace ascope
