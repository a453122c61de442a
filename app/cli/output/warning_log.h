#pragma once

namespace ascope::cli {

/// Sends the engine's log to stderr, warnings and errors only, as "warning: …": commands that show
/// their own progress (`download`, `download-model`) want nothing chattier.
void logWarningsToStderr();

}  // namespace ascope::cli
