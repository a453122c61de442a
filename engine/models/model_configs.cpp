#include "engine/models/model_configs.h"

#include <initializer_list>

#include "engine/models/config_checks.h"

namespace ascope {
namespace {

using namespace config_checks;

// Upper bounds far above any model this program trains (the GUI's fields stop well below them),
// low enough that a hand-edited config.json cannot overflow a size product or ask for terabytes.
constexpr int64_t kMaxImageSide = 1024;
constexpr int64_t kMaxClasses = 100'000;
constexpr int64_t kMaxWidth = 16'384;
constexpr int64_t kMaxFeedForward = 65'536;
constexpr int64_t kMaxLayers = 256;
constexpr int64_t kMaxHeads = 256;
constexpr int64_t kMaxVocabulary = 10'000'000;
constexpr int64_t kMaxSequence = 100'000;

// First failing check wins, so the message names the first bad field in declaration order.
Status firstError(std::initializer_list<Status> checks) {
  for (const Status& s : checks) {
    if (!s.ok()) return s;
  }
  return {};
}

}  // namespace

Status VisionTransformerConfig::validate() const {
  Status s = firstError(
      {inRange("image_size", image_size, 1, kMaxImageSide), inRange("channels", channels, 1, 16),
       inRange("patch_size", patch_size, 1, kMaxImageSide),
       inRange("num_classes", num_classes, 2, kMaxClasses), inRange("hidden", hidden, 1, kMaxWidth),
       inRange("layers", layers, 1, kMaxLayers), inRange("heads", heads, 1, kMaxHeads),
       inRange("mlp_dim", mlp_dim, 1, kMaxFeedForward), probability("dropout", dropout),
       oneOf("activation", activation, "relu", "gelu")});
  if (!s.ok()) return s;
  if (image_size % patch_size != 0) {
    return Error{"patch_size (" + std::to_string(patch_size) + ") must divide image_size (" +
                 std::to_string(image_size) + ")"};
  }
  return divisible("hidden", hidden, "heads", heads);
}

Status TextClassifierConfig::validate() const {
  Status s = firstError(
      {inRange("vocab_size", vocab_size, 2, kMaxVocabulary),
       inRange("max_len", max_len, 1, kMaxSequence),
       inRange("num_classes", num_classes, 2, kMaxClasses),
       inRange("d_model", d_model, 1, kMaxWidth), inRange("heads", heads, 1, kMaxHeads),
       inRange("d_ff", d_ff, 1, kMaxFeedForward), inRange("layers", layers, 1, kMaxLayers),
       probability("dropout", dropout), oneOf("activation", activation, "relu", "gelu"),
       oneOf("positional", positional, "sinusoidal", "learned")});
  if (!s.ok()) return s;
  if (pad_id < 0 || pad_id >= vocab_size) {
    return Error{"pad_id must be in [0, vocab_size), got " + std::to_string(pad_id)};
  }
  return divisible("d_model", d_model, "heads", heads);
}

Status TranslatorConfig::validate() const {
  Status s = firstError(
      {inRange("source_vocab_size", source_vocab_size, 4, kMaxVocabulary),
       inRange("target_vocab_size", target_vocab_size, 4, kMaxVocabulary),
       inRange("seq_len", seq_len, 2, kMaxSequence), inRange("d_model", d_model, 1, kMaxWidth),
       inRange("encoder_layers", encoder_layers, 1, kMaxLayers),
       inRange("decoder_layers", decoder_layers, 1, kMaxLayers),
       inRange("heads", heads, 1, kMaxHeads), inRange("d_ff", d_ff, 1, kMaxFeedForward),
       probability("dropout", dropout), oneOf("activation", activation, "relu", "gelu")});
  if (!s.ok()) return s;
  if (pad_id < 0 || pad_id >= std::min(source_vocab_size, target_vocab_size)) {
    return Error{"pad_id must be a token of both vocabularies, in [0, " +
                 std::to_string(std::min(source_vocab_size, target_vocab_size)) + "), got " +
                 std::to_string(pad_id)};
  }
  return divisible("d_model", d_model, "heads", heads);
}

}  // namespace ascope
