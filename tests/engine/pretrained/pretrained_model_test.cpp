// loadPretrainedModel on Hugging Face folders: the tiny parity fixtures as they are, with another
// number of classes, the genuine bert-tiniest pre-training checkpoint (no pooler, no classifier,
// "cls." heads), a bare encoder's names, and the folders that must be refused with the file named.
#include <gtest/gtest.h>

#include <ATen/ATen.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/pretrained/pretrained_model.h"
#include "engine/pretrained/safetensors_writer.h"
#include "tests/engine/pretrained/hf_fixture_tensors.h"
#include "tests/engine/removed_at_exit.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// A scratch copy of a fixture folder, to damage; removed when the tests end.
fs::path modelCopyOf(const std::string& fixture, const std::string& name) {
  const fs::path to = testing::freshTempPath("ascope_pretrained_" + name);
  fs::copy(hf_fixture::folder(fixture), to, fs::copy_options::recursive);
  return to;
}

TEST(PretrainedModel, TinyBertLoadsWholeAndComputesItsReferenceLogits) {
  Expected<PretrainedModel> m = loadPretrainedModel(hf_fixture::folder("tiny_bert"));
  ASSERT_TRUE(m.ok()) << m.error();
  EXPECT_EQ(m->model_type, "bert");
  EXPECT_TRUE(m->fresh.empty());
  EXPECT_TRUE(m->unused.empty());
  EXPECT_EQ(m->layers(), 2);
  EXPECT_EQ(m->heads(), 4);
  const TensorMap ref =
      hf_fixture::readSafetensors(hf_fixture::folder("tiny_bert") + "/reference.safetensors");
  const at::Tensor logits =
      m->bert->forward(ref.at("input_ids").to(at::kLong), ref.at("token_type_ids").to(at::kLong),
                       ref.at("attention_mask"));
  EXPECT_LT((logits - ref.at("logits")).abs().max().item<double>(), 1e-5);
}

TEST(PretrainedModel, AnotherNumberOfClassesGetsAFreshClassifierOnly) {
  Expected<PretrainedModel> m =
      loadPretrainedModel(hf_fixture::folder("tiny_bert"), std::vector<std::string>{"a", "b", "c"});
  ASSERT_TRUE(m.ok()) << m.error();
  EXPECT_EQ(m->fresh, (std::vector<std::string>{"classifier.weight", "classifier.bias"}));
  EXPECT_EQ(m->bert->config().numLabels(), 3);
  Expected<PretrainedModel> vit =
      loadPretrainedModel(hf_fixture::folder("tiny_vit"), std::vector<std::string>{"x", "y"});
  ASSERT_TRUE(vit.ok()) << vit.error();
  EXPECT_EQ(vit->model_type, "vit");
  EXPECT_EQ(vit->fresh.size(), 2u);
  const at::Tensor logits = vit->vit->forward(at::zeros({1, 3, 32, 32}));
  EXPECT_EQ(logits.size(1), 2);
}

// Written by the official library: a BertLMHeadModel, so pooler and classifier start fresh and the
// language-model head is left out; every encoder tensor is used.
TEST(PretrainedModel, GenuinePreTrainingCheckpointLoadsItsEncoder) {
  Expected<PretrainedModel> m = loadPretrainedModel(hf_fixture::folder("bert_tiniest"));
  ASSERT_TRUE(m.ok()) << m.error();
  EXPECT_TRUE(has(m->fresh, "bert.pooler.dense.weight"));
  EXPECT_TRUE(has(m->fresh, "classifier.weight"));
  EXPECT_FALSE(m->unused.empty());
  for (const std::string& name : m->unused) EXPECT_EQ(name.rfind("cls.", 0), 0u) << name;
  const at::Tensor word = m->bert->word_embeddings->weight;
  EXPECT_EQ(word.size(0), 30522);
  EXPECT_EQ(word.size(1), 4);
}

TEST(PretrainedModel, BareEncoderNamesAreTheSameWeights) {
  const fs::path dir = modelCopyOf("tiny_bert", "bare");
  TensorMap tensors = hf_fixture::readSafetensors((dir / "model.safetensors").string(),
                                                  BertModelImpl::isIgnoredTensor);
  std::vector<std::pair<std::string, at::Tensor>> bare;
  for (const auto& [name, t] : tensors) {
    if (name.rfind("bert.", 0) == 0) bare.emplace_back(name.substr(5), t);  // no classifier
  }
  ASSERT_TRUE(writeSafetensors((dir / "model.safetensors").string(), bare).ok());
  Expected<PretrainedModel> m = loadPretrainedModel(dir.string());
  ASSERT_TRUE(m.ok()) << m.error();
  EXPECT_EQ(m->fresh, (std::vector<std::string>{"classifier.weight", "classifier.bias"}));
  EXPECT_TRUE(at::equal(m->bert->word_embeddings->weight,
                        tensors.at("bert.embeddings.word_embeddings.weight")));
}

TEST(PretrainedModel, BadFoldersAreRefusedNamingTheFile) {
  Expected<PretrainedModel> none = loadPretrainedModel("/nonexistent/model");
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().find("/nonexistent/model/config.json"), std::string::npos) << none.error();

  const fs::path bin = modelCopyOf("tiny_bert", "bin");
  fs::rename(bin / "model.safetensors", bin / "pytorch_model.bin");
  Expected<PretrainedModel> only_bin = loadPretrainedModel(bin.string());
  ASSERT_FALSE(only_bin.ok());
  // A safetensors file under the other name: not the zip archive torch.save writes.
  EXPECT_NE(only_bin.error().find("pytorch_model.bin: cannot be read"), std::string::npos)
      << only_bin.error();

  const fs::path gpt = modelCopyOf("tiny_bert", "gpt");
  std::ofstream(gpt / "config.json") << R"({"model_type": "gpt2"})";
  Expected<PretrainedModel> other = loadPretrainedModel(gpt.string());
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.error().find("\"model_type\" \"gpt2\" is not supported"), std::string::npos)
      << other.error();

  const fs::path holed = modelCopyOf("tiny_bert", "holed");
  TensorMap tensors = hf_fixture::readSafetensors((holed / "model.safetensors").string(),
                                                  BertModelImpl::isIgnoredTensor);
  std::vector<std::pair<std::string, at::Tensor>> kept;
  for (const auto& [name, t] : tensors) {
    if (name != "bert.encoder.layer.1.output.dense.weight") kept.emplace_back(name, t);
  }
  ASSERT_TRUE(writeSafetensors((holed / "model.safetensors").string(), kept).ok());
  Expected<PretrainedModel> missing = loadPretrainedModel(holed.string());
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("bert.encoder.layer.1.output.dense.weight: missing"),
            std::string::npos)
      << missing.error();
}

}  // namespace
}  // namespace ascope
