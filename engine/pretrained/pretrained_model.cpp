#include "engine/pretrained/pretrained_model.h"

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <system_error>
#include <utility>

#include "engine/core/json_file.h"
#include "engine/pretrained/available_memory.h"
#include "engine/pretrained/pytorch_bin_file.h"
#include "engine/pretrained/safetensors_file.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

bool startsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

/// The tensors of a weights file: model.safetensors (read tensor by tensor, only those used) or
/// pytorch_model.bin (read whole).
class CheckpointTensors {
 public:
  virtual ~CheckpointTensors() = default;
  virtual std::vector<std::string> names() const = 0;
  virtual Expected<torch::Tensor> tensor(const std::string& name) const = 0;
};

class SafetensorsTensors : public CheckpointTensors {
 public:
  explicit SafetensorsTensors(SafetensorsFile file) : file_(std::move(file)) {}
  std::vector<std::string> names() const override {
    std::vector<std::string> names;
    for (const SafetensorsEntry& e : file_.entries()) names.push_back(e.name);
    return names;
  }
  Expected<torch::Tensor> tensor(const std::string& name) const override {
    return file_.tensor(name);
  }

 private:
  SafetensorsFile file_;
};

class PytorchBinTensors : public CheckpointTensors {
 public:
  explicit PytorchBinTensors(TensorMap tensors) : tensors_(std::move(tensors)) {}
  std::vector<std::string> names() const override {
    std::vector<std::string> names;
    for (const auto& entry : tensors_) names.push_back(entry.first);
    return names;
  }
  Expected<torch::Tensor> tensor(const std::string& name) const override {
    return tensors_.at(name);
  }

 private:
  TensorMap tensors_;
};

/// The folder's weights: model.safetensors, else pytorch_model.bin.
Expected<std::unique_ptr<CheckpointTensors>> openWeights(const std::string& folder,
                                                         std::string* weights_path) {
  *weights_path = (fs::path(folder) / "model.safetensors").string();
  std::error_code ec;
  if (fs::exists(*weights_path, ec)) {
    Expected<SafetensorsFile> file = SafetensorsFile::open(*weights_path);
    if (!file.ok()) return Error{file.error()};
    return std::unique_ptr<CheckpointTensors>(
        std::make_unique<SafetensorsTensors>(std::move(*file)));
  }
  const std::string bin = (fs::path(folder) / "pytorch_model.bin").string();
  if (!fs::exists(bin, ec)) {
    return Error{*weights_path + ": not found (nor pytorch_model.bin)"};
  }
  *weights_path = bin;
  Expected<TensorMap> tensors = readPytorchBin(bin);
  if (!tensors.ok()) return Error{tensors.error()};
  return std::unique_ptr<CheckpointTensors>(
      std::make_unique<PytorchBinTensors>(std::move(*tensors)));
}

/// The checkpoint's tensors under the names a ...ForSequence/ImageClassification state_dict uses.
/// `prefix` is "bert." or "vit."; a bare encoder's names get it, pre-training heads ("cls.") and
/// the constant buffers are left out.
Expected<TensorMap> readCheckpoint(const CheckpointTensors& file, const std::string& prefix,
                                   std::vector<std::string>* unused) {
  const std::vector<std::string> names = file.names();
  bool bare = true;
  for (const std::string& name : names) {
    if (startsWith(name, prefix)) bare = false;
  }
  TensorMap tensors;
  for (const std::string& stored : names) {
    if (startsWith(stored, "cls.")) {
      unused->push_back(stored);
      continue;
    }
    std::string name = stored;
    const bool head = startsWith(name, "classifier.");
    if (bare && !head) name = prefix + name;
    if (BertModelImpl::isIgnoredTensor(name)) continue;
    Expected<torch::Tensor> t = file.tensor(stored);
    if (!t.ok()) return Error{t.error()};
    tensors.emplace(name, *t);
  }
  return tensors;
}

/// Refuses a model that would not fit: the CPU holds it while it loads, the device while it runs.
Status checkMemory(const ModelMemoryEstimate& estimate, ModelUse use, const torch::Device& device,
                   const std::string& config_path) {
  const AvailableMemory cpu = availableMemory(torch::kCPU);
  const Status on_cpu = checkModelFitsMemory(estimate, device.is_cpu() ? use : ModelUse::kInference,
                                             cpu.bytes, cpu.source, config_path);
  if (!on_cpu.ok() || device.is_cpu()) return on_cpu;
  const AvailableMemory gpu = availableMemory(device);
  return checkModelFitsMemory(estimate, use, gpu.bytes, gpu.source, config_path);
}

/// Puts the model's own (freshly initialised) value under `name` where the checkpoint has none, or
/// one for another number of classes (a classifier's first dimension). A tensor of another rank or
/// width is left for the loader to refuse: it is damage, not a head for other classes (a rank-101
/// classifier.bias was taken for "no classifier for these classes").
void fillFresh(TensorMap& tensors, const std::string& name, const torch::Tensor& own,
               std::vector<std::string>* fresh) {
  auto found = tensors.find(name);
  if (found != tensors.end()) {
    const at::IntArrayRef stored = found->second.sizes();
    if (stored == own.sizes()) return;
    const bool other_classes = stored.size() == own.sizes().size() && !stored.empty() &&
                               stored.slice(1) == own.sizes().slice(1);
    if (!other_classes) return;
  }
  tensors[name] = own.detach().clone();
  fresh->push_back(name);
}

}  // namespace

torch::nn::Module& PretrainedModel::module() {
  if (bert) return *bert;
  return *vit;
}

int64_t PretrainedModel::layers() const {
  return bert ? bert->config().num_hidden_layers : vit->config().num_hidden_layers;
}

int64_t PretrainedModel::heads() const {
  return bert ? bert->config().num_attention_heads : vit->config().num_attention_heads;
}

Expected<PretrainedModel> loadPretrainedModel(const std::string& folder,
                                              const std::optional<std::vector<std::string>>& labels,
                                              ModelUse use, const torch::Device& device) {
  const std::string config_path = (fs::path(folder) / "config.json").string();
  Expected<nlohmann::json> config = readJsonFile(config_path);
  if (!config.ok()) return Error{config.error()};
  PretrainedModel model;
  model.folder = folder;
  if (!config->is_object()) return Error{config_path + ": not a JSON object of settings"};
  if (config->contains("model_type") && !config->at("model_type").is_string()) {
    return Error{config_path + ": \"model_type\" must be a string such as \"bert\", got " +
                 config->at("model_type").dump()};
  }
  model.model_type = config->value("model_type", std::string());
  const std::string text = config->dump();
  std::optional<BertConfig> bert;
  std::optional<VitConfig> vit;
  ModelMemoryEstimate estimate;
  if (model.model_type == "bert") {
    Expected<BertConfig> c = parseBertConfig(text, config_path);
    if (!c.ok()) return Error{c.error()};
    if (labels) c->labels = *labels;
    estimate = estimateModelMemory(*c);
    bert = std::move(*c);
  } else if (model.model_type == "vit") {
    Expected<VitConfig> c = parseVitConfig(text, config_path);
    if (!c.ok()) return Error{c.error()};
    if (labels) c->labels = *labels;
    estimate = estimateModelMemory(*c);
    vit = std::move(*c);
  } else {
    const std::string architectures = config->contains("architectures")
                                          ? ", architectures " + config->at("architectures").dump()
                                          : std::string();
    return Error{config_path + ": \"model_type\" " +
                 (model.model_type.empty() ? std::string("is missing")
                                           : "\"" + model.model_type + "\" is not supported") +
                 architectures + " (bert and vit are)"};
  }
  const Status fits = checkMemory(estimate, use, device, config_path);
  if (!fits.ok()) return Error{fits.error()};
  std::string weights_path;
  Expected<std::unique_ptr<CheckpointTensors>> file = openWeights(folder, &weights_path);
  if (!file.ok()) return Error{file.error()};
  try {
    if (bert) {
      model.bert = BertModel(*bert);
      Expected<TensorMap> tensors = readCheckpoint(**file, "bert.", &model.unused);
      if (!tensors.ok()) return Error{tensors.error()};
      fillFresh(*tensors, "bert.pooler.dense.weight", model.bert->pooler->weight, &model.fresh);
      fillFresh(*tensors, "bert.pooler.dense.bias", model.bert->pooler->bias, &model.fresh);
      fillFresh(*tensors, "classifier.weight", model.bert->classifier->weight, &model.fresh);
      fillFresh(*tensors, "classifier.bias", model.bert->classifier->bias, &model.fresh);
      const Status loaded = model.bert->loadWeights(*tensors, weights_path);
      if (!loaded.ok()) return Error{loaded.error()};
      model.bert->eval();
    } else {
      model.vit = VitModel(*vit);
      Expected<TensorMap> tensors = readCheckpoint(**file, "vit.", &model.unused);
      if (!tensors.ok()) return Error{tensors.error()};
      fillFresh(*tensors, "classifier.weight", model.vit->classifier->weight, &model.fresh);
      fillFresh(*tensors, "classifier.bias", model.vit->classifier->bias, &model.fresh);
      const Status loaded = model.vit->loadWeights(*tensors, weights_path);
      if (!loaded.ok()) return Error{loaded.error()};
      model.vit->eval();
    }
  } catch (const std::exception& e) {
    return Error{folder + ": " + e.what()};
  }
  return model;
}

}  // namespace ascope
