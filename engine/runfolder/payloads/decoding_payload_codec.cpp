// DecodingPayload in a snapshot file: "decoding", an array of steps {"top": [{"token",
// "probability"}, …]}, and "decoder_fed" ("reference" or "prediction") — as translation snapshots
// have stored them since decoding was recorded.
#include "engine/runfolder/payloads/payload_codec.h"

namespace ascope {
namespace {

constexpr std::size_t kMaxCandidates = 1024;  // per decoding step

}  // namespace

PayloadCodec decodingPayloadCodec() {
  PayloadCodec codec;
  codec.kind = DecodingPayload::kKind;
  codec.encode = [](const Payload& payload, nlohmann::json& object) {
    const auto& t = static_cast<const DecodingPayload&>(payload);
    nlohmann::json steps = nlohmann::json::array();
    for (const DecodingStep& step : t.steps) {
      nlohmann::json top = nlohmann::json::array();
      for (const auto& [token, probability] : step.top)
        top.push_back({{"token", token}, {"probability", probability}});
      steps.push_back({{"top", top}});
    }
    object["decoding"] = std::move(steps);
    object["decoder_fed"] = t.fed_reference ? "reference" : "prediction";
  };
  codec.decode = [](const nlohmann::json& object,
                    const MsgpackFields& fields) -> std::shared_ptr<const Payload> {
    // Older files: no key at all, or an empty array for every task.
    if (!object.contains("decoding")) return nullptr;
    const nlohmann::json& steps = object.at("decoding");
    const auto max_steps = static_cast<std::size_t>(MsgpackFields::kMaxSide);
    if (!steps.is_array() || steps.size() > max_steps) {
      fields.refuse("decoding is not an array of at most " + std::to_string(max_steps) + " steps");
    }
    if (steps.empty()) return nullptr;
    DecodingPayload t;
    t.steps.reserve(steps.size());
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const std::string at = "decoding[" + std::to_string(i) + "]";
      const nlohmann::json& step = steps[i];
      if (!step.is_object()) fields.refuse(at + " is not a map");
      const nlohmann::json& top = step.at("top");
      if (!top.is_array() || top.size() > kMaxCandidates) {
        fields.refuse(at + ".top is not an array of at most " + std::to_string(kMaxCandidates) +
                      " candidates");
      }
      DecodingStep decoded;
      decoded.top.reserve(top.size());
      for (std::size_t k = 0; k < top.size(); ++k) {
        const std::string candidate = at + ".top[" + std::to_string(k) + "]";
        if (!top[k].is_object()) fields.refuse(candidate + " is not a map");
        decoded.top.emplace_back(
            fields.text(top[k].at("token"), candidate + ".token"),
            fields.probability(top[k].at("probability"), candidate + ".probability"));
      }
      t.steps.push_back(std::move(decoded));
    }
    if (object.contains("decoder_fed")) {
      const nlohmann::json& fed = object.at("decoder_fed");
      if (!fed.is_string() || (fed != "reference" && fed != "prediction")) {
        fields.refuse("decoder_fed is neither \"reference\" nor \"prediction\"");
      }
      t.fed_reference = fed == "reference";
    }
    return makePayload(std::move(t));
  };
  // Step i fed row i of the decoder groups: a different count pairs steps with wrong rows.
  codec.check = [](const Payload& payload,
                   const std::vector<AttentionGroup>& groups) -> std::string {
    const auto& t = static_cast<const DecodingPayload&>(payload);
    for (const AttentionGroup& group : groups) {
      if (!group.row_predictions.empty() && group.row_predictions.size() != t.steps.size()) {
        return "decoding has " + std::to_string(t.steps.size()) + " steps for " +
               std::to_string(group.row_predictions.size()) + " rows of group \"" + group.name +
               "\"";
      }
    }
    return {};
  };
  return codec;
}

}  // namespace ascope
