#pragma once
// The CLI's JSON files for scripts and notebooks (`infer --attention`, `infer --pair-json`,
// `evaluate --out`) written one way: compact, text that is not UTF-8 replaced (a text given on the
// command line need not be UTF-8; JSON must be), through writeOutputFile.
#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

#include "engine/core/output_file.h"
#include "engine/vocabulary/expected.h"

namespace ascope::cli {

/// `json` and a newline, written by writeOutputFile (engine/core/output_file.h): checked against
/// the command's `inputs`, atomically, never over a device, FIFO or link.
Status writeJsonOutputFile(const std::string& path, const nlohmann::json& json,
                           const std::vector<CommandInput>& inputs);

}  // namespace ascope::cli
