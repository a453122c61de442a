#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "engine/models/seq2seq_translator.h"
#include "engine/models/text_classifier.h"
#include "engine/models/text_classifier_config.h"
#include "engine/models/translator_config.h"
#include "engine/models/vision_transformer.h"
#include "engine/models/vision_transformer_config.h"

namespace ascope {
namespace {

template <typename Config>
std::string errorOf(const Config& c) {
  const Status s = c.validate();
  return s.ok() ? std::string("<ok>") : s.error();
}

TEST(ModelConfigs, ReferenceDefaultsAreValid) {
  EXPECT_TRUE(VisionTransformerConfig{}.validate().ok());
  EXPECT_TRUE(TextClassifierConfig{}.validate().ok());
  EXPECT_TRUE(TranslatorConfig{}.validate().ok());
}

TEST(ModelConfigs, InvalidValuesNameFieldAndValue) {
  VisionTransformerConfig vit;
  vit.hidden = 250;
  EXPECT_EQ(errorOf(vit), "hidden (250) must be divisible by heads (8)");
  vit = {};
  vit.patch_size = 5;
  EXPECT_EQ(errorOf(vit), "patch_size (5) must divide image_size (32)");
  vit = {};
  vit.layers = 0;
  EXPECT_EQ(errorOf(vit), "layers must be at least 1, got 0");
  vit = {};
  vit.dropout = 1.0;
  EXPECT_EQ(errorOf(vit), "dropout must be in [0, 1), got 1");

  TextClassifierConfig text;
  text.d_model = 63;
  EXPECT_EQ(errorOf(text), "d_model (63) must be divisible by heads (2)");
  text = {};
  text.dropout = -0.1;
  EXPECT_EQ(errorOf(text), "dropout must be in [0, 1), got -0.1");
  text = {};
  text.positional = "rotary";
  EXPECT_EQ(errorOf(text), "positional must be \"sinusoidal\" or \"learned\", got \"rotary\"");
  text = {};
  text.bigram_buckets = -1;
  EXPECT_EQ(errorOf(text), "bigram_buckets must be at least 0, got -1");

  TranslatorConfig tr;
  tr.decoder_layers = 0;
  EXPECT_EQ(errorOf(tr), "decoder_layers must be at least 1, got 0");
  tr = {};
  tr.heads = 0;
  EXPECT_EQ(errorOf(tr), "heads must be at least 1, got 0");
  tr = {};
  tr.activation = "tanh";
  EXPECT_EQ(errorOf(tr), "activation must be \"relu\" or \"gelu\", got \"tanh\"");
  tr = {};
  tr.target_vocab_size = 50, tr.pad_id = 50;
  EXPECT_EQ(errorOf(tr), "pad_id must be a token of both vocabularies, in [0, 50), got 50");
}

TEST(ModelConfigs, ModelsRefuseInvalidConfigsWithAMessage) {
  VisionTransformerConfig vit;
  vit.patch_size = 3;
  try {
    VisionTransformer model(vit);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "ViT config: patch_size (3) must divide image_size (32)");
  }
  TextClassifierConfig text;
  text.heads = 3;
  EXPECT_THROW(TextClassifier{text}, std::invalid_argument);
  TranslatorConfig translator;
  translator.seq_len = 1;
  try {
    Seq2SeqTranslator model(translator);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("seq_len must be at least 2, got 1"), std::string::npos)
        << e.what();
  }
}

TEST(ModelConfigs, RoundTripThroughJson) {
  TranslatorConfig c;
  c.d_model = 128, c.encoder_layers = 3, c.dropout = 0.25, c.activation = "gelu";
  const nlohmann::json j = c;
  const TranslatorConfig back = j.get<TranslatorConfig>();
  EXPECT_EQ(back.d_model, 128);
  EXPECT_EQ(back.encoder_layers, 3);
  EXPECT_DOUBLE_EQ(back.dropout, 0.25);
  EXPECT_EQ(back.activation, "gelu");
  // Missing fields keep their defaults.
  const auto partial = nlohmann::json::parse(R"({"hidden": 64})").get<VisionTransformerConfig>();
  EXPECT_EQ(partial.hidden, 64);
  EXPECT_EQ(partial.layers, 12);
  // A run folder from before the bigram table has none.
  const auto words_only = nlohmann::json::parse(R"({"d_model": 32})").get<TextClassifierConfig>();
  EXPECT_EQ(words_only.bigram_buckets, 0);
  // ... and one from before the bag-first settings pools the positions and has no gates.
  EXPECT_TRUE(words_only.positions_in_pool);
  EXPECT_FALSE(words_only.residual_gates);
  EXPECT_EQ(words_only.layer_drop, 0.0);
  TextClassifierConfig text;
  for (double p : {-0.1, 1.0, std::nan("")}) {
    text.layer_drop = p;
    EXPECT_FALSE(text.validate().ok()) << p;
  }
  text.layer_drop = 0.5;
  EXPECT_TRUE(text.validate().ok());
}

}  // namespace
}  // namespace ascope
