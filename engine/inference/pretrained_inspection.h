#pragma once
// Looking inside a pretrained Hugging Face model without training it: a sentence (or a pair) for
// BERT, an image for ViT, answered with the model's classes and the attention of every layer and
// head, labelled with the input's own WordPiece tokens or patches — the same InferenceAnswer a
// trained run gives, so every attention view and `--attention` JSON works on it unchanged.
#include <string>

#include "engine/inference/checkpoint_inference.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

struct PretrainedInspectionRequest {
  std::string model_folder;  ///< config.json, model.safetensors, tokenizer or preprocessor files
  std::string text;          ///< BERT: the sentence
  std::string text_pair;     ///< BERT: an optional second sentence (token type 1)
  std::string image_file;    ///< ViT: PNG or JPEG, or binary PPM
};

/// Errors name the folder's file and field, or the input that does not fit (text for a ViT,
/// an image for BERT, a sentence longer than the model's positions is truncated, not refused).
Expected<InferenceAnswer> inspectPretrained(const PretrainedInspectionRequest& request);

struct PretrainedModel;

/// The same for a model already loaded from `request.model_folder` (engine/pretrained/
/// pretrained_model.h), so that several questions load it once.
Expected<InferenceAnswer> inspectLoadedPretrained(PretrainedModel& model,
                                                  const PretrainedInspectionRequest& request);

}  // namespace ascope
