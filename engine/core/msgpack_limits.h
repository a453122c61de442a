#pragma once
// A first look at MessagePack bytes before a recursive decoder sees them. nlohmann's from_msgpack
// recurses once per nesting level, so 300,000 nested one-element arrays (300 KB) overflow a
// thread's stack; a length field of 4 GiB in a 100-byte file makes it try to allocate that much.
// This scanner walks the bytes iteratively (an explicit stack of counts, no recursion) and accepts
// only what a decoder can take safely: bounded nesting, a bounded number of elements, every
// length inside the buffer, exactly one value and nothing after it. It allocates at most one
// counter per nesting level.
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/vocabulary/expected.h"

namespace ascope {

struct MsgpackLimits {
  /// Containers inside containers; an attention snapshot needs 5.
  std::size_t max_depth = 32;
  /// Values of every kind, map keys included.
  std::uint64_t max_elements = std::uint64_t{64} << 20;
};

/// Bigger MessagePack files are refused before they are read: an attention snapshot of the
/// largest preset is a few MiB.
inline constexpr std::uint64_t kMaxMsgpackFileBytes = std::uint64_t{512} << 20;

/// OK when `bytes` hold one well-formed MessagePack value within `limits`. Errors start with
/// `name` and give the byte offset: "step_10.msgpack: MessagePack nested deeper than 32 levels at
/// byte 32".
Status checkMsgpackLimits(std::string_view bytes, const std::string& name,
                          const MsgpackLimits& limits = {});

}  // namespace ascope
