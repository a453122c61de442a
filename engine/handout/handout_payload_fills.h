#pragma once
// How a snapshot's payloads (engine/vocabulary/payloads) reach a probe of the handout: one fill
// per kind, found by the kind's name, as the window's conversions and the CLI's writers are.
// handoutFrame applies every fill and names no kind itself; a kind without one is not in the page.
#include <functional>
#include <string>
#include <vector>

#include "engine/handout/handout_data.h"
#include "engine/vocabulary/payloads/payload.h"

namespace ascope {

struct HandoutPayloadFill {
  std::string kind;  ///< Payload::kind() it reads
  /// Adds what `payload` (of `kind`) shows to `probe`.
  std::function<void(HandoutProbe& probe, const Payload& payload)> fill;
};

/// Every kind's fill.
const std::vector<HandoutPayloadFill>& handoutPayloadFills();

/// The fills of the built-in kinds (one file each): an image with its patch grid, a decoding
/// transcript.
HandoutPayloadFill imageHandoutFill();
HandoutPayloadFill decodingHandoutFill();

}  // namespace ascope
