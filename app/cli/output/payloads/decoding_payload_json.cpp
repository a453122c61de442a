// DecodingPayload in `infer --attention`'s JSON: "decoding", each decoded row's top tokens with
// their probabilities; an empty array for a snapshot that decoded nothing (a classifier's).
#include <nlohmann/json.hpp>

#include "app/cli/output/payloads/payload_json_writers.h"
#include "engine/vocabulary/payloads/decoding_payload.h"

namespace ascope::cli {

PayloadJsonWriter decodingPayloadJson() {
  return {DecodingPayload::kKind, [](nlohmann::json& out, const Payload* payload) {
            nlohmann::json decoding = nlohmann::json::array();
            if (payload != nullptr) {
              const auto& transcript = static_cast<const DecodingPayload&>(*payload);
              for (std::size_t row = 0; row < transcript.steps.size(); ++row) {
                nlohmann::json top = nlohmann::json::array();
                for (const auto& [token, probability] : transcript.steps[row].top) {
                  top.push_back({{"token", token}, {"probability", probability}});
                }
                decoding.push_back({{"row", row}, {"top", std::move(top)}});
              }
            }
            out["decoding"] = std::move(decoding);
          }};
}

}  // namespace ascope::cli
