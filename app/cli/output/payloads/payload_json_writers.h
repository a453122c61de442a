#pragma once
// How a snapshot's payloads (engine/vocabulary/payloads) reach `infer --attention`'s JSON: one
// writer per kind, found by the kind's name, as the window's conversions are
// (app/gui/views/payloads). attentionSnapshotJson applies every writer and names no kind itself.
#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <string>
#include <vector>

#include "engine/vocabulary/payloads/payload.h"

namespace ascope::cli {

struct PayloadJsonWriter {
  std::string kind;  ///< Payload::kind() it writes
  /// Adds the keys of `payload` (of `kind`) to `out`; null when the snapshot carries none, for a
  /// kind whose keys are always there (empty), as the file's readers expect.
  std::function<void(nlohmann::json& out, const Payload* payload)> write;
};

/// Every kind's writer.
const std::vector<PayloadJsonWriter>& payloadJsonWriters();

/// The writers of the built-in kinds (one file each): a decoding transcript ("decoding", always
/// there), an image's patch grid ("patch_size", "grid_rows", "grid_cols").
PayloadJsonWriter decodingPayloadJson();
PayloadJsonWriter imagePayloadJson();

}  // namespace ascope::cli
