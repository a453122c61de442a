#include "engine/vocabulary/payloads/sample_input.h"

namespace ascope {

SampleInput inputOf(const Payloads& payloads, const std::string& text) {
  SampleInput input;
  if (const ImagePayload* image = payloads.find<ImagePayload>()) {
    input.image = &image->image;
  } else {
    input.text = text;
  }
  return input;
}

std::shared_ptr<const Payload> sharedInputOf(const Payloads& payloads) {
  return payloads.share<ImagePayload>();
}

}  // namespace ascope
