// BertModel against transformers 4.26's BertForSequenceClassification: the same weights and
// inputs (tests/fixtures/hf/tiny_bert*, scripts/generate_hf_fixtures.py) give the same logits,
// hidden states and attention maps to 1e-5 in float32, padding positions included; and weights
// that do not fit are refused with a message naming the tensor.
#include <ATen/core/grad_mode.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/pretrained/bert_model.h"
#include "tests/engine/pretrained/hf_fixture_tensors.h"
#include "tests/support/test_files.h"

namespace ascope {
namespace {

using testing::contains;

constexpr double kBertTolerance = 1e-5;

struct BertFixture {
  BertConfig config;
  TensorMap weights;
  TensorMap reference;
};

BertFixture readBertFixture(const std::string& name) {
  const std::string dir = hf_fixture::folder(name);
  BertFixture fixture;
  auto config = readBertConfig(dir + "/config.json");
  EXPECT_TRUE(config.ok()) << config.error();
  if (config) fixture.config = *config;
  fixture.weights =
      hf_fixture::readSafetensors(dir + "/model.safetensors", &BertModelImpl::isIgnoredTensor);
  fixture.reference = hf_fixture::readSafetensors(dir + "/reference.safetensors");
  return fixture;
}

BertModel loadedModel(const BertFixture& fixture) {
  BertModel model(fixture.config);
  const Status loaded = model->loadWeights(fixture.weights, "model.safetensors");
  EXPECT_TRUE(loaded.ok()) << loaded.error();
  model->eval();
  return model;
}

class BertParity : public ::testing::TestWithParam<const char*> {};

TEST_P(BertParity, LogitsHiddenStatesAndAttentionMatchTransformers) {
  const BertFixture fixture = readBertFixture(GetParam());
  ASSERT_FALSE(fixture.reference.empty());
  BertModel model = loadedModel(fixture);
  const TensorMap& ref = fixture.reference;
  const at::Tensor ids = hf_fixture::reference(ref, "input_ids").to(at::kLong);
  const at::Tensor segments = hf_fixture::reference(ref, "token_type_ids").to(at::kLong);
  const at::Tensor mask = hf_fixture::reference(ref, "attention_mask");
  ASSERT_GT(mask.eq(0).sum().item<int64_t>(), 0) << "the fixture should hold padding";

  const at::NoGradGuard no_grad;
  std::vector<at::Tensor> attention, hidden;
  const at::Tensor logits = model->forward(ids, segments, mask, &attention, &hidden);
  const int64_t layers = fixture.config.num_hidden_layers;
  ASSERT_EQ(static_cast<int64_t>(attention.size()), layers);
  ASSERT_EQ(static_cast<int64_t>(hidden.size()), layers + 1);

  double worst = 0;
  auto check = [&](const std::string& name, const at::Tensor& ours) {
    const double diff = hf_fixture::maxAbsDiff(ours, hf_fixture::reference(ref, name));
    std::printf("  %s %-16s max |diff| %.3g\n", GetParam(), name.c_str(), diff);
    EXPECT_LE(diff, kBertTolerance) << name;
    worst = std::max(worst, diff);
  };
  check("logits", logits);
  for (int64_t i = 0; i <= layers; ++i) check("hidden_states." + std::to_string(i), hidden[i]);
  for (int64_t i = 0; i < layers; ++i) check("attentions." + std::to_string(i), attention[i]);
  RecordProperty("max_abs_diff", std::to_string(worst));

  // The padded query rows of the shorter sentence are compared above with the rest; their weights
  // on the padding keys are exactly zero on both sides.
  const at::Tensor padded_keys = mask.eq(0).unsqueeze(1).unsqueeze(1).expand_as(attention[0]);
  EXPECT_EQ(attention[0].masked_select(padded_keys).abs().max().item<float>(), 0.0f);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, BertParity, ::testing::Values("tiny_bert", "tiny_bert_f16"));

TEST(BertModel, WithoutSegmentsOrMaskEqualsAllZerosAndAllOnes) {
  const BertFixture fixture = readBertFixture("tiny_bert");
  BertModel model = loadedModel(fixture);
  const at::Tensor ids = hf_fixture::reference(fixture.reference, "input_ids").to(at::kLong);
  const at::NoGradGuard no_grad;
  const at::Tensor plain = model->forward(ids);
  const at::Tensor spelled = model->forward(ids, at::zeros_like(ids), at::ones_like(ids));
  EXPECT_TRUE(plain.equal(spelled));
}

TEST(BertModel, RefusesIdsOutsideTheVocabulary) {
  const BertFixture fixture = readBertFixture("tiny_bert");
  BertModel model(fixture.config);
  const at::Tensor ids = at::full({1, 4}, fixture.config.vocab_size, at::kLong);
  try {
    model->forward(ids);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("input_ids"), std::string::npos) << e.what();
  }
}

std::string bertLoadError(const BertFixture& fixture, const TensorMap& weights) {
  BertModel model(fixture.config);
  const Status loaded = model->loadWeights(weights, "tiny_bert/model.safetensors");
  return loaded.ok() ? "" : loaded.error();
}

TEST(BertWeights, MissingTensorIsNamed) {
  const BertFixture fixture = readBertFixture("tiny_bert");
  TensorMap weights = fixture.weights;
  weights.erase("bert.encoder.layer.1.attention.self.key.weight");
  const std::string error = bertLoadError(fixture, weights);
  EXPECT_TRUE(contains(error, "tiny_bert/model.safetensors")) << error;
  EXPECT_TRUE(contains(error, "bert.encoder.layer.1.attention.self.key.weight: missing")) << error;
}

TEST(BertWeights, MisShapedTensorNamesBothShapes) {
  const BertFixture fixture = readBertFixture("tiny_bert");
  TensorMap weights = fixture.weights;
  weights["bert.encoder.layer.0.intermediate.dense.weight"] = at::zeros({36, 32});
  const std::string error = bertLoadError(fixture, weights);
  EXPECT_TRUE(contains(error,
                       "bert.encoder.layer.0.intermediate.dense.weight: shape [36, 32] in the "
                       "checkpoint, [37, 32] expected"))
      << error;
}

TEST(BertWeights, MisShapedQueryOfThePackedProjectionIsNamed) {
  const BertFixture fixture = readBertFixture("tiny_bert");
  TensorMap weights = fixture.weights;
  weights["bert.encoder.layer.0.attention.self.query.weight"] = at::zeros({32, 30});
  const std::string error = bertLoadError(fixture, weights);
  EXPECT_TRUE(contains(error,
                       "bert.encoder.layer.0.attention.self.query.weight: shape [32, 30] in the "
                       "checkpoint, [32, 32] expected"))
      << error;
}

TEST(BertWeights, UnexpectedTensorIsNamed) {
  const BertFixture fixture = readBertFixture("tiny_bert");
  TensorMap weights = fixture.weights;
  weights["cls.predictions.bias"] = at::zeros({fixture.config.vocab_size});
  const std::string error = bertLoadError(fixture, weights);
  EXPECT_TRUE(contains(error, "cls.predictions.bias: unexpected")) << error;
}

TEST(BertWeights, IntegerWeightIsRefused) {
  const BertFixture fixture = readBertFixture("tiny_bert");
  TensorMap weights = fixture.weights;
  weights["classifier.bias"] = at::zeros({2}, at::kLong);
  const std::string error = bertLoadError(fixture, weights);
  EXPECT_TRUE(contains(error, "classifier.bias: dtype Long")) << error;
}

TEST(BertWeights, EveryProblemIsListedOnce) {
  const BertFixture fixture = readBertFixture("tiny_bert");
  TensorMap weights = fixture.weights;
  weights.erase("classifier.weight");
  weights.erase("bert.pooler.dense.bias");
  const std::string error = bertLoadError(fixture, weights);
  EXPECT_TRUE(contains(error, "2 problems")) << error;
  EXPECT_TRUE(contains(error, "classifier.weight: missing")) << error;
  EXPECT_TRUE(contains(error, "bert.pooler.dense.bias: missing")) << error;
}

TEST(BertWeights, PositionIdsBufferIsIgnored) {
  // transformers 4.26 saves this integer buffer (arange(max_position_embeddings)) with the
  // weights; the fixture holds it as a real checkpoint does.
  auto file = SafetensorsFile::open(hf_fixture::folder("tiny_bert") + "/model.safetensors");
  ASSERT_TRUE(file.ok()) << file.error();
  const SafetensorsEntry* position_ids = file->find("bert.embeddings.position_ids");
  ASSERT_NE(position_ids, nullptr);
  EXPECT_EQ(position_ids->dtype, "I64");
  EXPECT_TRUE(BertModelImpl::isIgnoredTensor("bert.embeddings.position_ids"));

  const BertFixture fixture = readBertFixture("tiny_bert");
  TensorMap weights = fixture.weights;
  weights["bert.embeddings.position_ids"] =
      at::arange(fixture.config.max_position_embeddings).unsqueeze(0);
  EXPECT_EQ(bertLoadError(fixture, weights), "");
}

}  // namespace
}  // namespace ascope
