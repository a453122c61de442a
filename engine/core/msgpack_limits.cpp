#include "engine/core/msgpack_limits.h"

#include <vector>

namespace ascope {
namespace {

/// What one type byte announces.
struct Header {
  std::size_t length_bytes = 0;  ///< size of the big-endian length or count that follows
  std::uint64_t fixed = 0;       ///< payload bytes when there is no length field
  std::uint64_t extra = 0;       ///< bytes between the length field and the payload (ext type)
  int container = 0;             ///< 0 scalar, 1 array, 2 map (a count of pairs)
  bool valid = true;
};

Header headerOf(std::uint8_t type) {
  Header h;
  if (type <= 0x7f || type >= 0xe0) return h;  // positive / negative fixint
  if (type <= 0x8f) return Header{0, type & 0x0fu, 0, 2, true};
  if (type <= 0x9f) return Header{0, type & 0x0fu, 0, 1, true};
  if (type <= 0xbf) return Header{0, type & 0x1fu, 0, 0, true};
  switch (type) {
    case 0xc0:  // nil
    case 0xc2:  // false
    case 0xc3:  // true
      return h;
    case 0xc4:
      return Header{1, 0, 0, 0, true};  // bin 8
    case 0xc5:
      return Header{2, 0, 0, 0, true};  // bin 16
    case 0xc6:
      return Header{4, 0, 0, 0, true};  // bin 32
    case 0xc7:
      return Header{1, 0, 1, 0, true};  // ext 8
    case 0xc8:
      return Header{2, 0, 1, 0, true};  // ext 16
    case 0xc9:
      return Header{4, 0, 1, 0, true};  // ext 32
    case 0xca:
      return Header{0, 4, 0, 0, true};  // float 32
    case 0xcb:
      return Header{0, 8, 0, 0, true};  // float 64
    case 0xcc:
      return Header{0, 1, 0, 0, true};  // uint 8
    case 0xcd:
      return Header{0, 2, 0, 0, true};  // uint 16
    case 0xce:
      return Header{0, 4, 0, 0, true};  // uint 32
    case 0xcf:
      return Header{0, 8, 0, 0, true};  // uint 64
    case 0xd0:
      return Header{0, 1, 0, 0, true};  // int 8
    case 0xd1:
      return Header{0, 2, 0, 0, true};  // int 16
    case 0xd2:
      return Header{0, 4, 0, 0, true};  // int 32
    case 0xd3:
      return Header{0, 8, 0, 0, true};  // int 64
    case 0xd4:
      return Header{0, 2, 0, 0, true};  // fixext 1 (type byte + 1)
    case 0xd5:
      return Header{0, 3, 0, 0, true};  // fixext 2
    case 0xd6:
      return Header{0, 5, 0, 0, true};  // fixext 4
    case 0xd7:
      return Header{0, 9, 0, 0, true};  // fixext 8
    case 0xd8:
      return Header{0, 17, 0, 0, true};  // fixext 16
    case 0xd9:
      return Header{1, 0, 0, 0, true};  // str 8
    case 0xda:
      return Header{2, 0, 0, 0, true};  // str 16
    case 0xdb:
      return Header{4, 0, 0, 0, true};  // str 32
    case 0xdc:
      return Header{2, 0, 0, 1, true};  // array 16
    case 0xdd:
      return Header{4, 0, 0, 1, true};  // array 32
    case 0xde:
      return Header{2, 0, 0, 2, true};  // map 16
    case 0xdf:
      return Header{4, 0, 0, 2, true};  // map 32
    default:
      break;  // 0xc1 is reserved: never valid
  }
  h.valid = false;
  return h;
}

std::string hexByte(std::uint8_t byte) {
  static const char* const digits = "0123456789abcdef";
  return std::string("0x") + digits[byte >> 4] + digits[byte & 0x0f];
}

}  // namespace

Status checkMsgpackLimits(std::string_view bytes, const std::string& name,
                          const MsgpackLimits& limits) {
  const std::uint64_t size = bytes.size();
  const auto at = [](std::uint64_t offset) { return " at byte " + std::to_string(offset); };
  // Values still expected in each open container; the bottom entry is the one top-level value.
  std::vector<std::uint64_t> pending{1};
  std::uint64_t pos = 0;
  std::uint64_t elements = 0;
  while (!pending.empty()) {
    if (pending.back() == 0) {
      pending.pop_back();
      continue;
    }
    --pending.back();
    if (pos >= size) {
      return Error{name + ": MessagePack is cut short" + at(pos) + " (the file has " +
                   std::to_string(size) + " bytes)"};
    }
    if (++elements > limits.max_elements) {
      return Error{name + ": MessagePack holds more than " + std::to_string(limits.max_elements) +
                   " values" + at(pos)};
    }
    const std::uint64_t start = pos;
    const auto type = static_cast<std::uint8_t>(bytes[pos++]);
    const Header h = headerOf(type);
    if (!h.valid) {
      return Error{name + ": byte " + hexByte(type) + at(start) + " is not a MessagePack type"};
    }
    std::uint64_t length = h.fixed;
    if (h.length_bytes > 0) {
      if (size - pos < h.length_bytes) {
        return Error{name + ": MessagePack is cut short in a length field" + at(start)};
      }
      length = 0;
      for (std::size_t i = 0; i < h.length_bytes; ++i) {
        length = (length << 8) | static_cast<std::uint8_t>(bytes[pos++]);
      }
    }
    if (h.container == 0) {
      const std::uint64_t payload = length + h.extra;  // < 2^33: no overflow
      if (payload > size - pos) {
        return Error{name + ": MessagePack length " + std::to_string(length) + at(start) +
                     " runs past the end of the " + std::to_string(size) + "-byte data"};
      }
      pos += payload;
      continue;
    }
    const std::uint64_t items = h.container == 2 ? 2 * length : length;
    // Every value takes at least one byte: a count beyond what is left cannot be honest, and
    // refusing it here keeps a decoder from reserving memory for it.
    if (items > size - pos) {
      return Error{name + ": MessagePack " + (h.container == 2 ? "map" : "array") + " of " +
                   std::to_string(length) + (h.container == 2 ? " pairs" : " values") + at(start) +
                   " runs past the end of the " + std::to_string(size) + "-byte data"};
    }
    // pending holds the top-level slot plus one entry per open container.
    if (pending.size() > limits.max_depth) {
      return Error{name + ": MessagePack nested deeper than " + std::to_string(limits.max_depth) +
                   " levels" + at(start)};
    }
    pending.push_back(items);
  }
  if (pos != size) {
    return Error{name + ": " + std::to_string(size - pos) + " bytes after the MessagePack value" +
                 at(pos)};
  }
  return {};
}

}  // namespace ascope
