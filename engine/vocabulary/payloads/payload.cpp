#include "engine/vocabulary/payloads/payload.h"

#include <cstring>

namespace ascope {

void Payloads::put(std::shared_ptr<const Payload> payload) {
  if (!payload) return;
  for (std::shared_ptr<const Payload>& item : items_) {
    if (std::strcmp(item->kind(), payload->kind()) == 0) {
      item = std::move(payload);
      return;
    }
  }
  items_.push_back(std::move(payload));
}

const Payload* Payloads::findKind(const char* kind) const {
  for (const std::shared_ptr<const Payload>& item : items_) {
    if (std::strcmp(item->kind(), kind) == 0) return item.get();
  }
  return nullptr;
}

}  // namespace ascope
