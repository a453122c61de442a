#include "engine/models/model_flops.h"

namespace ascope {
namespace {

/// 2·m·n·k: the multiply-adds of an (m × k) · (k × n) product.
double product(double m, double n, double k) {
  return 2.0 * m * n * k;
}

/// Forward products of one decoder layer over one pair: causal self-attention over the target
/// (computed in full, then masked), cross-attention to the source, feed-forward.
double decoderLayer(double target, double source, double d, double d_ff) {
  const double self =
      product(target, 3 * d, d) + 2 * product(target, target, d) + product(target, d, d);
  const double cross = product(target, d, d) + product(source, 2 * d, d) +
                       2 * product(target, source, d) + product(target, d, d);
  return self + cross + 2 * product(target, d_ff, d);
}

}  // namespace

double encoderLayerFlops(double tokens, double d, double d_ff) {
  return product(tokens, 3 * d, d) + 2 * product(tokens, tokens, d) + product(tokens, d, d) +
         2 * product(tokens, d_ff, d);
}

double trainingStepFlops(const VisionTransformerConfig& c, int64_t batch) {
  const auto patches = static_cast<double>(c.numPatches());
  const double tokens = 1 + patches;  // CLS first
  const auto d = static_cast<double>(c.hidden);
  const double patch_embedding =
      product(patches, d, static_cast<double>(c.channels * c.patch_size * c.patch_size));
  const double encoder =
      static_cast<double>(c.layers) * encoderLayerFlops(tokens, d, static_cast<double>(c.mlp_dim));
  const double head = product(1, static_cast<double>(c.num_classes), d);
  return kTrainingFlopsFactor * static_cast<double>(batch) * (patch_embedding + encoder + head);
}

double trainingStepFlops(const TextClassifierConfig& c, int64_t batch, int64_t length) {
  const auto d = static_cast<double>(c.d_model);
  const double encoder =
      static_cast<double>(c.layers) *
      encoderLayerFlops(static_cast<double>(length), d, static_cast<double>(c.d_ff));
  const double head = product(1, static_cast<double>(c.num_classes), d);  // on the mean-pooled row
  return kTrainingFlopsFactor * static_cast<double>(batch) * (encoder + head);
}

double trainingStepFlops(const TranslatorConfig& c, int64_t batch, int64_t source_length,
                         int64_t target_length) {
  const auto d = static_cast<double>(c.d_model);
  const auto d_ff = static_cast<double>(c.d_ff);
  const auto source = static_cast<double>(source_length);
  const auto target = static_cast<double>(target_length);
  const double encoder = static_cast<double>(c.encoder_layers) * encoderLayerFlops(source, d, d_ff);
  const double decoder =
      static_cast<double>(c.decoder_layers) * decoderLayer(target, source, d, d_ff);
  const double projection = product(target, static_cast<double>(c.target_vocab_size), d);
  return kTrainingFlopsFactor * static_cast<double>(batch) * (encoder + decoder + projection);
}

}  // namespace ascope
