#pragma once
// A fixed set of strings → ids, for the lookups that dominate WordPiece: one flat array probed
// linearly, with the keys in one buffer. std::unordered_map spends most of a lookup following a
// pointer to a separately allocated node; here a lookup touches one slot and one key.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ascope {

class TokenIndex {
 public:
  /// Adds `key` with `id` (0 or more); false, changing nothing, when `key` is already there.
  bool insert(std::string_view key, std::int32_t id);
  /// The id of `key`, or -1.
  std::int32_t find(std::string_view key) const;
  std::size_t size() const { return size_; }
  void clear();

 private:
  struct Slot {
    std::uint32_t hash = 0;  // the key's hash, compared before its bytes
    std::uint32_t offset = 0;
    std::uint32_t length = 0;
    std::int32_t id = -1;  // -1: empty
  };

  static std::uint64_t hashOf(std::string_view key);
  void grow();

  std::vector<Slot> slots_;  // a power of two long, at most half full
  std::string keys_;
  std::size_t size_ = 0;
};

}  // namespace ascope
