#pragma once
// Analytic floating-point operation counts of one training step of each model, so that `bench`
// can turn a step time into GFLOP/s and hold it against the machine's measured sgemm peak. Every
// matrix product of the forward pass counts 2·m·n·k; forward and backward count 3 times that (the
// backward pass computes two products of the same size per forward product: the gradient of the
// input and of the weight). Elementwise work (softmax, norms, activations, dropout, embeddings,
// the optimizer) is left out: it is memory-bound and small beside the products at these sizes.
// Plain C++: the counts follow from the configs alone.
#include <cstdint>

#include "engine/models/model_configs.h"

namespace ascope {

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
