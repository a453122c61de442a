// Reading config.json: checkJsonLimits, nlohmann's parser and get<TrainingConfig>() on arbitrary
// text, as RunFolder::readConfig does. A value of the wrong type is a nlohmann exception (caught,
// as readConfig catches it); what converts survives to_json/from_json unchanged.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "engine/core/json_limits.h"
#include "engine/vocabulary/training_config.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ascope::fuzz::check;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const ascope::Status limits =
      ascope::checkJsonLimits(text, "config.json", {ascope::kMaxConfigJsonBytes, 32});
  if (!limits.ok()) {
    check(limits.error().rfind("config.json: ", 0) == 0);
    return 0;
  }
  ascope::TrainingConfig config;
  try {
    config = nlohmann::json::parse(text).get<ascope::TrainingConfig>();
  } catch (const nlohmann::json::exception&) {
    return 0;  // not JSON, or a setting of the wrong type: readConfig reports it
  }
  const nlohmann::json written = config;
  const auto again = written.get<ascope::TrainingConfig>();
  const nlohmann::json rewritten = again;
  check(written == rewritten);
  return 0;
}
