#include "engine/models/model_configs.h"

#include <initializer_list>

#include "engine/models/config_checks.h"

namespace ascope {
namespace {

using namespace config_checks;

// First failing check wins, so the message names the first bad field in declaration order.
Status firstError(std::initializer_list<Status> checks) {
  for (const Status& s : checks) {
    if (!s.ok()) return s;
  }
  return {};
}

}  // namespace

Status VisionTransformerConfig::validate() const {
  Status s = firstError({atLeast("image_size", image_size, 1), atLeast("channels", channels, 1),
                         atLeast("patch_size", patch_size, 1),
                         atLeast("num_classes", num_classes, 2), atLeast("hidden", hidden, 1),
                         atLeast("layers", layers, 1), atLeast("heads", heads, 1),
                         atLeast("mlp_dim", mlp_dim, 1), probability("dropout", dropout),
                         oneOf("activation", activation, "relu", "gelu")});
  if (!s.ok()) return s;
  if (image_size % patch_size != 0) {
    return Error{"patch_size (" + std::to_string(patch_size) + ") must divide image_size (" +
                 std::to_string(image_size) + ")"};
  }
  return divisible("hidden", hidden, "heads", heads);
}

Status TextClassifierConfig::validate() const {
  Status s = firstError({atLeast("vocab_size", vocab_size, 2), atLeast("max_len", max_len, 1),
                         atLeast("num_classes", num_classes, 2), atLeast("d_model", d_model, 1),
                         atLeast("heads", heads, 1), atLeast("d_ff", d_ff, 1),
                         atLeast("layers", layers, 1), probability("dropout", dropout),
                         oneOf("activation", activation, "relu", "gelu"),
                         oneOf("positional", positional, "sinusoidal", "learned")});
  if (!s.ok()) return s;
  if (pad_id < 0 || pad_id >= vocab_size) {
    return Error{"pad_id must be in [0, vocab_size), got " + std::to_string(pad_id)};
  }
  return divisible("d_model", d_model, "heads", heads);
}

Status TranslatorConfig::validate() const {
  Status s = firstError({atLeast("source_vocab_size", source_vocab_size, 4),
                         atLeast("target_vocab_size", target_vocab_size, 4),
                         atLeast("seq_len", seq_len, 2), atLeast("d_model", d_model, 1),
                         atLeast("encoder_layers", encoder_layers, 1),
                         atLeast("decoder_layers", decoder_layers, 1), atLeast("heads", heads, 1),
                         atLeast("d_ff", d_ff, 1), probability("dropout", dropout),
                         oneOf("activation", activation, "relu", "gelu")});
  if (!s.ok()) return s;
  if (pad_id < 0 || pad_id >= std::min(source_vocab_size, target_vocab_size)) {
    return Error{"pad_id must be a token of both vocabularies, in [0, " +
                 std::to_string(std::min(source_vocab_size, target_vocab_size)) + "), got " +
                 std::to_string(pad_id)};
  }
  return divisible("d_model", d_model, "heads", heads);
}

}  // namespace ascope
