#include "engine/pretrained/pretrained_model.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "engine/pretrained/safetensors_file.h"
#include "engine/text/json_file.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

bool startsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

/// The checkpoint's tensors under the names a ...ForSequence/ImageClassification state_dict uses.
/// `prefix` is "bert." or "vit."; a bare encoder's names get it, pre-training heads ("cls.") and
/// the constant buffers are left out.
Expected<TensorMap> readCheckpoint(const SafetensorsFile& file, const std::string& prefix,
                                   std::vector<std::string>* unused) {
  bool bare = true;
  for (const SafetensorsEntry& e : file.entries()) {
    if (startsWith(e.name, prefix)) bare = false;
  }
  TensorMap tensors;
  for (const SafetensorsEntry& e : file.entries()) {
    if (startsWith(e.name, "cls.")) {
      unused->push_back(e.name);
      continue;
    }
    std::string name = e.name;
    const bool head = startsWith(name, "classifier.");
    if (bare && !head) name = prefix + name;
    if (BertModelImpl::isIgnoredTensor(name)) continue;
    Expected<torch::Tensor> t = file.tensor(e.name);
    if (!t.ok()) return Error{t.error()};
    tensors.emplace(name, *t);
  }
  return tensors;
}

/// Puts the model's own (freshly initialised) value under `name` where the checkpoint has none or
/// one of another shape.
void fillFresh(TensorMap& tensors, const std::string& name, const torch::Tensor& own,
               std::vector<std::string>* fresh) {
  auto found = tensors.find(name);
  if (found != tensors.end() && found->second.sizes() == own.sizes()) return;
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

Expected<PretrainedModel> loadPretrainedModel(
    const std::string& folder, const std::optional<std::vector<std::string>>& labels) {
  const std::string config_path = (fs::path(folder) / "config.json").string();
  Expected<nlohmann::json> config = readJsonFile(config_path);
  if (!config.ok()) return Error{config.error()};
  const std::string weights_path = (fs::path(folder) / "model.safetensors").string();
  if (!fs::exists(weights_path)) {
    const bool bin = fs::exists(fs::path(folder) / "pytorch_model.bin");
    return Error{weights_path + ": not found" +
                 (bin ? std::string(" (pytorch_model.bin is there: only safetensors weights are "
                                    "read; save them with safe_serialization=True)")
                      : std::string())};
  }
  PretrainedModel model;
  model.folder = folder;
  model.model_type = config->value("model_type", std::string());
  const std::string text = config->dump();
  Expected<SafetensorsFile> file = SafetensorsFile::open(weights_path);
  if (!file.ok()) return Error{file.error()};
  try {
    if (model.model_type == "bert") {
      Expected<BertConfig> c = parseBertConfig(text, config_path);
      if (!c.ok()) return Error{c.error()};
      if (labels) c->labels = *labels;
      model.bert = BertModel(*c);
      Expected<TensorMap> tensors = readCheckpoint(*file, "bert.", &model.unused);
      if (!tensors.ok()) return Error{tensors.error()};
      fillFresh(*tensors, "bert.pooler.dense.weight", model.bert->pooler->weight, &model.fresh);
      fillFresh(*tensors, "bert.pooler.dense.bias", model.bert->pooler->bias, &model.fresh);
      fillFresh(*tensors, "classifier.weight", model.bert->classifier->weight, &model.fresh);
      fillFresh(*tensors, "classifier.bias", model.bert->classifier->bias, &model.fresh);
      const Status loaded = model.bert->loadWeights(*tensors, weights_path);
      if (!loaded.ok()) return Error{loaded.error()};
      model.bert->eval();
    } else if (model.model_type == "vit") {
      Expected<VitConfig> c = parseVitConfig(text, config_path);
      if (!c.ok()) return Error{c.error()};
      if (labels) c->labels = *labels;
      model.vit = VitModel(*c);
      Expected<TensorMap> tensors = readCheckpoint(*file, "vit.", &model.unused);
      if (!tensors.ok()) return Error{tensors.error()};
      fillFresh(*tensors, "classifier.weight", model.vit->classifier->weight, &model.fresh);
      fillFresh(*tensors, "classifier.bias", model.vit->classifier->bias, &model.fresh);
      const Status loaded = model.vit->loadWeights(*tensors, weights_path);
      if (!loaded.ok()) return Error{loaded.error()};
      model.vit->eval();
    } else {
      return Error{config_path + ": \"model_type\" " +
                   (model.model_type.empty() ? std::string("is missing")
                                             : "\"" + model.model_type + "\" is not supported") +
                   " (bert and vit are)"};
    }
  } catch (const std::exception& e) {
    return Error{folder + ": " + e.what()};
  }
  return model;
}

}  // namespace ascope
