#pragma once
// A Hugging Face model folder (config.json + model.safetensors, as save_pretrained or the hub
// writes it) read into the engine's BERT or ViT. Checkpoints come in several cuts of the same
// weights — a bare encoder (BertModel: names without "bert."), a pre-training checkpoint (with
// "cls." heads, bert-base-uncased), a classifier for other classes — so the encoder must be
// complete, while the task heads (pooler, classifier) that are missing or of another number of
// classes start fresh, and pre-training heads are left out; the report says which.
#include <optional>
#include <string>
#include <vector>

#include "engine/pretrained/bert_model.h"
#include "engine/pretrained/model_memory_estimate.h"
#include "engine/pretrained/vit_model.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

struct PretrainedModel {
  std::string folder;
  std::string model_type;   ///< "bert" or "vit"
  BertModel bert{nullptr};  ///< set for "bert"
  VitModel vit{nullptr};    ///< set for "vit"
  /// Checkpoint tensors names that started fresh (missing, or another number of classes).
  std::vector<std::string> fresh;
  /// Checkpoint tensors left out (pre-training heads).
  std::vector<std::string> unused;

  torch::nn::Module& module();
  /// Encoder layers and heads, for attention views.
  int64_t layers() const;
  int64_t heads() const;
};

/// Reads `folder`. With `labels`, the classifier gets those classes (fresh unless the checkpoint's
/// has as many); without, the config's id2label. Before building the model, its size from
/// config.json is compared with the memory `use` needs on the CPU (and on `device`, the GPU it will
/// run on). Weights come from model.safetensors, else from pytorch_model.bin (see readPytorchBin).
/// Errors name the file and the field or tensor: no config.json, an unknown model_type, a model
/// too large for the memory, no weights file or one that cannot be read, a tensor missing from the
/// encoder or of another shape than config.json makes it.
Expected<PretrainedModel> loadPretrainedModel(
    const std::string& folder, const std::optional<std::vector<std::string>>& labels = std::nullopt,
    ModelUse use = ModelUse::kInference, const torch::Device& device = torch::kCPU);

}  // namespace ascope
