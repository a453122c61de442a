#pragma once
// What a task's snapshot or sample carries besides the attention and the three texts every task
// has: an image with its patch grid, a decoding transcript, an alignment of two strings. Each kind
// is a plain struct deriving from Payload with its name in `kKind`; it has one codec for the run
// folder (engine/runfolder/payloads) and one view in the window (app/gui/views/payloads), both
// found by that name, and a task says which kinds it makes (TaskDescriptor::payloads).
#include <memory>
#include <string_view>
#include <vector>

namespace ascope {

class Payload {
 public:
  virtual ~Payload() = default;
  /// The kind's name: its key in the registries and in docs ("image", "decoding", …).
  virtual const char* kind() const = 0;
};

/// A snapshot's or sample's payloads, at most one of each kind. Payloads are made once and never
/// changed, so copies of a snapshot share them instead of copying an image or a transcript.
class Payloads {
 public:
  /// Adds `payload`, replacing one of the same kind; a null one is ignored.
  void put(std::shared_ptr<const Payload> payload);
  /// The payload of kind T (T::kKind), or null.
  template <typename T>
  const T* find() const {
    const Payload* p = findKind(T::kKind);
    return p ? static_cast<const T*>(p) : nullptr;
  }
  const Payload* findKind(const char* kind) const;
  /// The payload of kind T to share with another snapshot or sample; null when there is none.
  template <typename T>
  std::shared_ptr<const T> share() const {
    for (const std::shared_ptr<const Payload>& item : items_) {
      if (item->kind() == std::string_view(T::kKind))
        return std::static_pointer_cast<const T>(item);
    }
    return nullptr;
  }
  const std::vector<std::shared_ptr<const Payload>>& all() const { return items_; }
  bool empty() const { return items_.empty(); }

 private:
  std::vector<std::shared_ptr<const Payload>> items_;
};

/// A payload of kind T made from `value`, ready for Payloads::put.
template <typename T>
std::shared_ptr<const Payload> makePayload(T value) {
  return std::make_shared<const T>(std::move(value));
}

}  // namespace ascope
