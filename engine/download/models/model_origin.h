#pragma once
// Which hub model a model folder was downloaded as, recorded in the folder itself
// (<folder>/.attentionscope-origin.json), so that `download-model B --to DIR` can tell that DIR
// holds model A instead of calling it "already there". The folder is untrusted input like any:
// the record is read with size and type checks.
#include <optional>
#include <string>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// The record's file name; hidden, so that listings of the folder show the model's own files.
inline constexpr const char* kModelOriginFileName = ".attentionscope-origin.json";

struct ModelOrigin {
  /// The id as ModelId::repoPath() gives it, e.g. "google/vit-base-patch16-224".
  std::string id;
  /// The hub or mirror it came from.
  std::string endpoint;
  /// The commit main resolved to; empty when the hub did not say.
  std::string commit;
};

/// Writes the record into `folder` atomically.
Status writeModelOrigin(const std::string& folder, const ModelOrigin& origin);

/// The record of `folder`; nullopt when it has none (a folder saved by hand, or downloaded before
/// downloads were recorded). Errors name the file: not a regular file, too large, not JSON, a
/// field that is not a string.
Expected<std::optional<ModelOrigin>> readModelOrigin(const std::string& folder);

}  // namespace ascope
