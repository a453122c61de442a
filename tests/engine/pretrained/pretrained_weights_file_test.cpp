// What loadPretrainedModel checks before and while it reads a folder: the weights in
// pytorch_model.bin (a torch.save zip archive read by LibTorch), files it cannot read, a
// config.json too large for the memory (refused before anything is allocated), weights of other
// shapes than config.json gives, and model types it does not know.
#include <gtest/gtest.h>

#include <ATen/ATen.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "engine/pretrained/available_memory.h"
#include "engine/pretrained/model_memory_estimate.h"
#include "engine/pretrained/pretrained_model.h"
#include "engine/pretrained/pytorch_bin_file.h"
#include "engine/pretrained/safetensors_writer.h"
#include "tests/engine/pretrained/hf_fixture_tensors.h"
#include "tests/engine/removed_at_exit.h"
#include "tests/support/test_files.h"

namespace ascope {
namespace {

using testing::contains;

namespace fs = std::filesystem;

fs::path weightsCopyOf(const std::string& fixture, const std::string& name) {
  const fs::path to = testing::freshTempPath("ascope_weights_" + name);
  fs::copy(hf_fixture::folder(fixture), to, fs::copy_options::recursive);
  return to;
}

nlohmann::json readJson(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

void writeJson(const fs::path& path, const nlohmann::json& j) {
  std::ofstream(path) << j.dump(2);
}

int64_t parameterCount(torch::nn::Module& module) {
  int64_t n = 0;
  for (const auto& p : module.parameters()) n += p.numel();
  return n;
}

// tiny_vit_bin holds tiny_vit's weights as transformers' save_pretrained writes them without
// safetensors: the same model, the same logits as transformers computed.
TEST(PretrainedWeightsFile, PytorchModelBinGivesTheSafetensorsLogits) {
  Expected<PretrainedModel> bin = loadPretrainedModel(hf_fixture::folder("tiny_vit_bin"));
  ASSERT_TRUE(bin.ok()) << bin.error();
  Expected<PretrainedModel> safe = loadPretrainedModel(hf_fixture::folder("tiny_vit"));
  ASSERT_TRUE(safe.ok()) << safe.error();
  EXPECT_TRUE(bin->fresh.empty());
  const TensorMap ref =
      hf_fixture::readSafetensors(hf_fixture::folder("tiny_vit") + "/reference.safetensors");
  const at::Tensor pixels = hf_fixture::reference(ref, "pixel_values");
  const at::Tensor from_bin = bin->vit->forward(pixels);
  const at::Tensor from_safetensors = safe->vit->forward(pixels);
  const double diff = hf_fixture::maxAbsDiff(from_bin, from_safetensors);
  std::cout << "logits max abs diff, pytorch_model.bin vs model.safetensors: " << diff << "\n";
  EXPECT_EQ(diff, 0.0);
  EXPECT_LT(hf_fixture::maxAbsDiff(from_bin, hf_fixture::reference(ref, "logits")), 1e-5);
}

TEST(PretrainedWeightsFile, AnUnreadableBinSaysToConvertIt) {
  const fs::path corrupt = weightsCopyOf("tiny_vit_bin", "corrupt");
  {
    // A zip archive cut in half: its central directory is gone.
    const fs::path bin = corrupt / "pytorch_model.bin";
    const auto size = fs::file_size(bin);
    fs::resize_file(bin, size / 2);
  }
  Expected<PretrainedModel> cut = loadPretrainedModel(corrupt.string());
  ASSERT_FALSE(cut.ok());
  // Damage, found by the zip walk before LibTorch reads it: converting would not help.
  EXPECT_TRUE(contains(cut.error(),
                       (corrupt / "pytorch_model.bin").string() + " is not a complete zip archive"))
      << cut.error();
  EXPECT_TRUE(contains(cut.error(), "download or copy it again")) << cut.error();

  // Not a zip archive at all (the pre-1.6 torch.save format starts with a pickle).
  const fs::path legacy = weightsCopyOf("tiny_vit_bin", "legacy");
  std::ofstream(legacy / "pytorch_model.bin", std::ios::binary | std::ios::trunc)
      << std::string("\x80\x02\x8a\x0alz\xe8\x9c", 9);
  Expected<TensorMap> old = readPytorchBin((legacy / "pytorch_model.bin").string());
  ASSERT_FALSE(old.ok());
  EXPECT_TRUE(contains(old.error(), "legacy torch.save format")) << old.error();
  EXPECT_TRUE(contains(old.error(), "convert it to model.safetensors")) << old.error();

  // An OrderedDict, as torch.save(model.state_dict()) writes it.
  const std::string ordered = hf_fixture::folder("ordered_state_dict.bin");
  Expected<TensorMap> od = readPytorchBin(ordered);
  ASSERT_FALSE(od.ok());
  EXPECT_TRUE(contains(od.error(), ordered + ": cannot be read (an OrderedDict")) << od.error();
  EXPECT_TRUE(contains(od.error(), "convert it to model.safetensors")) << od.error();

  // No weights at all.
  fs::remove(legacy / "pytorch_model.bin");
  Expected<PretrainedModel> none = loadPretrainedModel(legacy.string());
  ASSERT_FALSE(none.ok());
  EXPECT_TRUE(contains(none.error(), "model.safetensors: not found (nor pytorch_model.bin)"))
      << none.error();
}

// The estimate counts every parameter the models have.
TEST(PretrainedWeightsFile, MemoryEstimateCountsEveryParameter) {
  for (const char* fixture : {"tiny_bert", "tiny_vit"}) {
    Expected<PretrainedModel> m = loadPretrainedModel(hf_fixture::folder(fixture));
    ASSERT_TRUE(m.ok()) << m.error();
    const ModelMemoryEstimate e =
        m->bert ? estimateModelMemory(m->bert->config()) : estimateModelMemory(m->vit->config());
    EXPECT_EQ(e.parameters, static_cast<double>(parameterCount(m->module()))) << fixture;
    EXPECT_EQ(e.bytes(ModelUse::kTraining), 4 * e.bytes(ModelUse::kInference));
  }
  // google/vit-base-patch16-224 as transformers counts it: 86,567,656 parameters.
  VitConfig base;
  base.labels.assign(1000, "x");
  EXPECT_EQ(estimateModelMemory(base).parameters, 86567656.0);
  const std::uint64_t gib = 1ull << 30;
  EXPECT_TRUE(checkModelFitsMemory(estimateModelMemory(base), ModelUse::kInference, gib, "test",
                                   "config.json")
                  .ok());
  const Status training = checkModelFitsMemory(estimateModelMemory(base), ModelUse::kTraining, gib,
                                               "MemAvailable", "vit/config.json");
  ASSERT_FALSE(training.ok());
  EXPECT_TRUE(contains(training.error(), "vit/config.json: too large")) << training.error();
  EXPECT_TRUE(contains(training.error(), "1.3 GiB")) << training.error();
  EXPECT_TRUE(contains(training.error(), "1 GiB are available (MemAvailable)")) << training.error();
  EXPECT_TRUE(checkModelFitsMemory(estimateModelMemory(base), ModelUse::kTraining, std::nullopt,
                                   "unknown", "config.json")
                  .ok());
}

TEST(PretrainedWeightsFile, MemAvailableIsReadFromMeminfo) {
  EXPECT_EQ(parseMemAvailable("MemTotal:  16000 kB\nMemFree: 100 kB\nMemAvailable:   2048 kB\n"),
            std::optional<std::uint64_t>(2048u * 1024u));
  EXPECT_EQ(parseMemAvailable("MemTotal: 16000 kB\n"), std::nullopt);
  const AvailableMemory cpu = availableMemory(at::kCPU);
  ASSERT_TRUE(cpu.bytes.has_value());  // the tests run on Linux
  EXPECT_GT(*cpu.bytes, 0u);
}

// 1024 layers of width 65,536 would be 53 trillion parameters: refused from config.json alone, at
// once, before the weights are opened (there are only the tiny ones).
TEST(PretrainedWeightsFile, AConfigTooLargeForTheMemoryIsRefusedBeforeAllocating) {
  const fs::path huge = weightsCopyOf("tiny_vit", "huge");
  nlohmann::json config = readJson(huge / "config.json");
  config["hidden_size"] = 65536;
  config["num_hidden_layers"] = 1024;
  config["intermediate_size"] = 262144;
  config["num_attention_heads"] = 64;
  writeJson(huge / "config.json", config);
  for (ModelUse use : {ModelUse::kInference, ModelUse::kTraining}) {
    Expected<PretrainedModel> m = loadPretrainedModel(huge.string(), std::nullopt, use);
    ASSERT_FALSE(m.ok());
    const std::string& e = m.error();
    EXPECT_TRUE(contains(e, (huge / "config.json").string() + ": too large for this machine")) << e;
    EXPECT_TRUE(contains(e,
                         "num_hidden_layers 1024 × (hidden_size 65536, intermediate_size "
                         "262144)"))
        << e;
    EXPECT_TRUE(contains(e, "52.8 trillion parameters")) << e;
    EXPECT_TRUE(contains(e, use == ModelUse::kTraining ? "768.0 TiB" : "192.0 TiB")) << e;
    EXPECT_TRUE(contains(e, "are available (MemAvailable in /proc/meminfo)")) << e;
    EXPECT_EQ(contains(e, "AdamW"), use == ModelUse::kTraining) << e;
  }
}

TEST(PretrainedWeightsFile, WeightsOfAnotherShapeThanTheConfigAreRefused) {
  const fs::path wider = weightsCopyOf("tiny_vit", "wider");
  nlohmann::json config = readJson(wider / "config.json");
  config["hidden_size"] = 64;
  writeJson(wider / "config.json", config);
  Expected<PretrainedModel> m = loadPretrainedModel(wider.string());
  ASSERT_FALSE(m.ok());
  EXPECT_TRUE(contains(m.error(), (wider / "model.safetensors").string())) << m.error();
  EXPECT_TRUE(contains(m.error(), "vit.embeddings.cls_token: shape [1, 1, 32] in the checkpoint"))
      << m.error();
}

TEST(PretrainedWeightsFile, AnUnknownModelTypeNamesItAndTheArchitecture) {
  const fs::path gpt = weightsCopyOf("tiny_vit", "gpt");
  writeJson(gpt / "config.json", {{"model_type", "gpt2"},
                                  {"architectures", nlohmann::json::array({"GPT2LMHeadModel"})}});
  Expected<PretrainedModel> m = loadPretrainedModel(gpt.string());
  ASSERT_FALSE(m.ok());
  EXPECT_TRUE(contains(m.error(), (gpt / "config.json").string() +
                                      ": \"model_type\" \"gpt2\" is not supported, architectures "
                                      "[\"GPT2LMHeadModel\"] (bert and vit are)"))
      << m.error();
}

TEST(PretrainedWeightsFile, FlippedBytesInPytorchModelBinAreFound) {
  // LibTorch's reader checks no CRC: 200 flipped bytes answered a different label.
  const fs::path flipped = weightsCopyOf("tiny_vit_bin", "flipped");
  const fs::path bin = flipped / "pytorch_model.bin";
  std::string bytes;
  {
    std::ifstream in(bin, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  for (std::size_t i = bytes.size() / 2; i < bytes.size() / 2 + 200; ++i) bytes[i] ^= 0x21;
  std::ofstream(bin, std::ios::binary | std::ios::trunc) << bytes;
  Expected<PretrainedModel> m = loadPretrainedModel(flipped.string());
  ASSERT_FALSE(m.ok()) << "damaged weights loaded";
  EXPECT_TRUE(contains(m.error(), bin.string() + " is damaged: record \"")) << m.error();
  EXPECT_TRUE(contains(m.error(), "fails its CRC-32 check")) << m.error();
}

/// Writes `tensors` back as a safetensors file, in name order.
Status writeTensors(const fs::path& path, const TensorMap& tensors) {
  return writeSafetensors(path.string(), std::vector<std::pair<std::string, torch::Tensor>>(
                                             tensors.begin(), tensors.end()));
}

TEST(PretrainedWeightsFile, NonFiniteWeightsAreRefusedNamingTheTensor) {
  // inspect answered "LABEL_0 (p=-nan)" with exit code 0, and fine-tuning blamed the learning rate.
  const fs::path nan = weightsCopyOf("tiny_vit", "nan");
  TensorMap tensors = hf_fixture::readSafetensors((nan / "model.safetensors").string());
  tensors.at("vit.embeddings.cls_token").view(-1)[3] = std::numeric_limits<float>::infinity();
  ASSERT_TRUE(writeTensors(nan / "model.safetensors", tensors).ok());
  Expected<PretrainedModel> m = loadPretrainedModel(nan.string());
  ASSERT_FALSE(m.ok());
  EXPECT_TRUE(contains(m.error(),
                       "vit.embeddings.cls_token: holds NaN or infinite values (the "
                       "file is damaged)"))
      << m.error();
}

TEST(PretrainedWeightsFile, AClassifierOfAnotherRankIsDamageNotAnotherHead) {
  // A rank-101 classifier.bias read as "no classifier for these classes".
  const fs::path odd = weightsCopyOf("tiny_vit", "rank101");
  TensorMap tensors = hf_fixture::readSafetensors((odd / "model.safetensors").string());
  tensors.at("classifier.bias") = at::zeros(std::vector<int64_t>(101, 1));
  ASSERT_TRUE(writeTensors(odd / "model.safetensors", tensors).ok());
  Expected<PretrainedModel> m = loadPretrainedModel(odd.string());
  ASSERT_FALSE(m.ok());
  EXPECT_TRUE(contains(m.error(), "classifier.bias: shape [1, 1, 1")) << m.error();
  // Another number of classes is still a head to start afresh.
  Expected<PretrainedModel> other_classes =
      loadPretrainedModel(hf_fixture::folder("tiny_vit"), std::vector<std::string>{"x", "y"});
  ASSERT_TRUE(other_classes.ok()) << other_classes.error();
  EXPECT_EQ(other_classes->fresh.size(), 2u);
}

TEST(PretrainedWeightsFile, AConfigOfTheWrongShapeNamesIt) {
  const fs::path listed = weightsCopyOf("tiny_vit", "listed");
  writeJson(listed / "config.json", nlohmann::json::array({1}));
  Expected<PretrainedModel> m = loadPretrainedModel(listed.string());
  ASSERT_FALSE(m.ok());  // was "cannot use value() with array"
  EXPECT_EQ(m.error(), (listed / "config.json").string() + ": not a JSON object of settings");
  writeJson(listed / "config.json", {{"model_type", 7}});
  m = loadPretrainedModel(listed.string());
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error(), (listed / "config.json").string() +
                           ": \"model_type\" must be a string such as \"bert\", got 7");
}

}  // namespace
}  // namespace ascope
