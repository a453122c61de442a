#pragma once
// Analytic floating-point operation counts of one training step of each model, so that `bench`
// can turn a step time into GFLOP/s and hold it against the machine's measured sgemm peak. Every
// matrix product of the forward pass counts 2·m·n·k; forward and backward count 3 times that (the
// backward pass computes two products of the same size per forward product: the gradient of the
// input and of the weight). Elementwise work (softmax, norms, activations, dropout, embeddings,
// the optimizer) is left out: it is memory-bound and small beside the products at these sizes.
// Plain C++: the counts follow from the configs alone.
#include <cstdint>

#include "engine/models/text_classifier_config.h"
#include "engine/models/translator_config.h"
#include "engine/models/vision_transformer_config.h"

namespace ascope {

/// Forward and backward: three products of the forward one's size.
inline constexpr double kTrainingFlopsFactor = 3.0;

/// Forward products of one self-attention encoder layer over one sample of `tokens` tokens: the
/// packed QKV projection, scores and weighted values (all heads together span d), the output
/// projection, the two feed-forward layers. A task with a model of its own counts with it.
double encoderLayerFlops(double tokens, double d, double d_ff);

/// A training step of the ViT on `batch` images: patch embedding, the encoder over CLS + patches,
/// the classification head.
double trainingStepFlops(const VisionTransformerConfig& c, int64_t batch);

/// A training step of the text classifier on `batch` reviews of `length` tokens (padding
/// included: the products run over it).
double trainingStepFlops(const TextClassifierConfig& c, int64_t batch, int64_t length);

/// A training step of the translator on `batch` pairs padded to `source_length` source and
/// `target_length` decoder tokens, projection to the target vocabulary included.
double trainingStepFlops(const TranslatorConfig& c, int64_t batch, int64_t source_length,
                         int64_t target_length);

}  // namespace ascope
