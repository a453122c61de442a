#include "engine/text/words/token_index.h"

#include <functional>

namespace ascope {

std::uint64_t TokenIndex::hashOf(std::string_view key) {
  return std::hash<std::string_view>{}(key);
}

void TokenIndex::clear() {
  slots_.clear();
  keys_.clear();
  size_ = 0;
}

void TokenIndex::grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.empty() ? 16 : old.size() * 2, Slot{});
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.id < 0) continue;
    const std::string_view key(keys_.data() + slot.offset, slot.length);
    std::size_t at = static_cast<std::size_t>(hashOf(key)) & mask;
    while (slots_[at].id >= 0) at = (at + 1) & mask;
    slots_[at] = slot;
  }
}

bool TokenIndex::insert(std::string_view key, std::int32_t id) {
  if (find(key) >= 0) return false;
  if ((size_ + 1) * 2 > slots_.size()) grow();
  const std::uint64_t hash = hashOf(key);
  const std::size_t mask = slots_.size() - 1;
  std::size_t at = static_cast<std::size_t>(hash) & mask;
  while (slots_[at].id >= 0) at = (at + 1) & mask;
  slots_[at] =
      Slot{static_cast<std::uint32_t>(hash >> 32), static_cast<std::uint32_t>(keys_.size()),
           static_cast<std::uint32_t>(key.size()), id};
  keys_.append(key);
  ++size_;
  return true;
}

std::int32_t TokenIndex::find(std::string_view key) const {
  if (slots_.empty()) return -1;
  const std::uint64_t hash = hashOf(key);
  const auto tag = static_cast<std::uint32_t>(hash >> 32);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t at = static_cast<std::size_t>(hash) & mask;; at = (at + 1) & mask) {
    const Slot& slot = slots_[at];
    if (slot.id < 0) return -1;
    if (slot.hash == tag && slot.length == key.size() &&
        std::string_view(keys_.data() + slot.offset, slot.length) == key) {
      return slot.id;
    }
  }
}

}  // namespace ascope
