#pragma once
// A sample's input as a model reads it again (an error asked again, with its attention): the
// image its payloads carry when they have one, else its text. The one place outside a kind's own
// files that knows which payload holds an input, so evaluation and the Errors dock name no
// payload kind.
#include <string>

#include "engine/vocabulary/payloads/image_payload.h"
#include "engine/vocabulary/payloads/payload.h"

namespace ascope {

struct SampleInput {
  std::string text;
  const ImageBuffer* image = nullptr;  ///< into the sample's payload; null for a text input
};

/// The input of a sample with these `payloads` and this `text` (SamplePrediction::payloads and
/// ::input); valid while the payloads are.
SampleInput inputOf(const Payloads& payloads, const std::string& text);

/// The payload among `payloads` that holds the input (an image), to share with a sample made of
/// the same input ("Try it"'s answer shown in the Sample dock); null for a text input.
std::shared_ptr<const Payload> sharedInputOf(const Payloads& payloads);

}  // namespace ascope
