// config.json of Hugging Face BERT and ViT checkpoints: the fixtures' files read back with the
// values transformers wrote, absent fields take transformers' defaults, and every refused value
// is named with its file and field.
#include <gtest/gtest.h>

#include <string>

#include "engine/pretrained/hf_model_config.h"
#include "test_paths.h"

namespace ascope {
namespace {

const std::string kFixtures = std::string(test_paths::fixturesDir()) + "/hf/";

std::string bertError(const std::string& json_text) {
  auto config = parseBertConfig(json_text, "bert/config.json");
  return config.ok() ? "" : config.error();
}

std::string vitError(const std::string& json_text) {
  auto config = parseVitConfig(json_text, "vit/config.json");
  return config.ok() ? "" : config.error();
}

TEST(HfModelConfig, ReadsTheTinyBertFixture) {
  auto config = readBertConfig(kFixtures + "tiny_bert/config.json");
  ASSERT_TRUE(config.ok()) << config.error();
  EXPECT_EQ(config->vocab_size, 106);
  EXPECT_EQ(config->hidden_size, 32);
  EXPECT_EQ(config->num_hidden_layers, 2);
  EXPECT_EQ(config->num_attention_heads, 4);
  EXPECT_EQ(config->intermediate_size, 37);
  EXPECT_EQ(config->max_position_embeddings, 64);
  EXPECT_EQ(config->type_vocab_size, 2);
  EXPECT_EQ(config->hidden_act, "gelu");
  EXPECT_DOUBLE_EQ(config->layer_norm_eps, 1e-12);
  EXPECT_DOUBLE_EQ(config->classifier_dropout, 0.1);  // null: hidden_dropout_prob
  EXPECT_EQ(config->numLabels(), 2);                  // no id2label: transformers' two labels
}

TEST(HfModelConfig, ReadsTheTinyVitFixture) {
  auto config = readVitConfig(kFixtures + "tiny_vit/config.json");
  ASSERT_TRUE(config.ok()) << config.error();
  EXPECT_EQ(config->image_size, 32);
  EXPECT_EQ(config->patch_size, 8);
  EXPECT_EQ(config->numPatches(), 16);
  EXPECT_EQ(config->num_channels, 3);
  EXPECT_TRUE(config->qkv_bias);
  ASSERT_EQ(config->numLabels(), 10);
  EXPECT_EQ(config->labels[9], "LABEL_9");
}

TEST(HfModelConfig, AbsentFieldsTakeTransformersDefaults) {
  auto config = parseBertConfig(R"({"model_type": "bert"})", "config.json");
  ASSERT_TRUE(config.ok()) << config.error();
  EXPECT_EQ(config->hidden_size, 768);
  EXPECT_EQ(config->vocab_size, 30522);
  EXPECT_EQ(config->max_position_embeddings, 512);
  auto vit = parseVitConfig(R"({"model_type": "vit"})", "config.json");
  ASSERT_TRUE(vit.ok()) << vit.error();
  EXPECT_EQ(vit->image_size, 224);
  EXPECT_EQ(vit->numPatches(), 196);
}

TEST(HfModelConfig, Id2LabelGivesTheClassNamesInIdOrder) {
  auto config = parseBertConfig(
      R"({"model_type": "bert", "id2label": {"1": "POSITIVE", "0": "NEGATIVE", "2": "MIXED"}})",
      "config.json");
  ASSERT_TRUE(config.ok()) << config.error();
  EXPECT_EQ(config->labels, (std::vector<std::string>{"NEGATIVE", "POSITIVE", "MIXED"}));
  EXPECT_EQ(bertError(R"({"model_type": "bert", "id2label": {"0": "A", "2": "B"}})"),
            "bert/config.json: id2label key \"2\" is not one of the class ids 0 … 1");
  auto counted = parseBertConfig(R"({"model_type": "bert", "_num_labels": 5})", "config.json");
  ASSERT_TRUE(counted.ok()) << counted.error();
  EXPECT_EQ(counted->numLabels(), 5);
}

TEST(HfModelConfig, ErrorsNameTheFileAndTheField) {
  EXPECT_EQ(bertError(R"({"model_type": "vit"})"),
            "bert/config.json: model_type \"vit\" is not \"bert\"");
  EXPECT_EQ(bertError(R"({"hidden_size": 32})"),
            "bert/config.json: model_type is missing (a bert config.json has one)");
  EXPECT_EQ(bertError(R"({"model_type": "bert", "hidden_size": 30, "num_attention_heads": 4})"),
            "bert/config.json: hidden_size (30) must be divisible by num_attention_heads (4)");
  EXPECT_EQ(bertError(R"({"model_type": "bert", "hidden_size": "32"})"),
            "bert/config.json: hidden_size must be an integer, got string \"32\"");
  EXPECT_EQ(bertError(R"({"model_type": "bert", "hidden_act": "swish"})"),
            "bert/config.json: hidden_act \"swish\" is not supported (gelu, gelu_new, "
            "gelu_pytorch_tanh or relu)");
  EXPECT_EQ(bertError(R"({"model_type": "bert", "position_embedding_type": "relative_key"})"),
            "bert/config.json: position_embedding_type \"relative_key\" is not supported (only "
            "\"absolute\")");
  EXPECT_EQ(bertError(R"({"model_type": "bert", "layer_norm_eps": -1})"),
            "bert/config.json: layer_norm_eps must be in [1e-30, 1], got -1");
  EXPECT_EQ(bertError(R"({"model_type": "bert", "is_decoder": true})"),
            "bert/config.json: is_decoder true is not supported: only the encoder (bidirectional "
            "attention) is built");
  EXPECT_EQ(bertError(R"({"model_type": "bert", "pruned_heads": {"0": [1]}})"),
            "bert/config.json: pruned_heads is not supported (layer 0 has pruned heads)");
  EXPECT_EQ(vitError(R"({"model_type": "vit", "patch_size": 0})"),
            "vit/config.json: patch_size must be at least 1, got 0");
  EXPECT_EQ(vitError(R"({"model_type": "vit", "qkv_bias": 1})"),
            "vit/config.json: qkv_bias must be true or false, got number 1");
  EXPECT_NE(bertError("{not json").find("bert/config.json"), std::string::npos);
}

TEST(HfModelConfig, MissingFileIsNamed) {
  auto config = readVitConfig(kFixtures + "no_such_model/config.json");
  ASSERT_FALSE(config.ok());
  EXPECT_NE(config.error().find("no_such_model/config.json"), std::string::npos) << config.error();
}

}  // namespace
}  // namespace ascope
