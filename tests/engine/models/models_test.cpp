// Every model: output shapes, attention rows sum to 1, padding gets no weight, and a few optimizer
// steps on one fixed batch cut the loss.
#include <gtest/gtest.h>
#include <torch/nn/functional/loss.h>
#include <torch/optim/adam.h>

#include "engine/models/seq2seq_translator.h"
#include "engine/models/text_classifier.h"
#include "engine/models/vision_transformer.h"
#include "engine/nn/encoder_layer.h"

namespace ascope {
namespace {

void expectRowStochastic(const torch::Tensor& weights, const torch::Tensor& rows_to_check) {
  const torch::Tensor sums = weights.sum(-1);  // (B, H, Tq)
  EXPECT_TRUE(torch::allclose(sums.masked_select(rows_to_check),
                              torch::ones_like(sums).masked_select(rows_to_check), 1e-5, 1e-5));
}

template <typename Step>
void expectLossFalls(torch::nn::Module& model, Step step, int steps, double factor) {
  torch::optim::Adam optimizer(model.parameters(), torch::optim::AdamOptions(1e-3));
  model.train();
  double first = 0, last = 0;
  for (int i = 0; i < steps; ++i) {
    optimizer.zero_grad();
    torch::Tensor loss = step();
    loss.backward();
    optimizer.step();
    (i == 0 ? first : last) = loss.item<double>();
  }
  EXPECT_LT(last, first * factor) << "first " << first << " last " << last;
}

VisionTransformerConfig smallVit() {
  VisionTransformerConfig c;
  c.hidden = 32, c.layers = 2, c.heads = 4, c.mlp_dim = 64, c.patch_size = 8;
  return c;
}

TEST(VisionTransformer, ShapesAttentionAndLearning) {
  torch::manual_seed(0);
  VisionTransformer vit(smallVit());
  const torch::Tensor images = torch::randn({4, 3, 32, 32});
  std::vector<torch::Tensor> attention;
  vit->eval();
  const torch::Tensor logits = vit(images, &attention);
  EXPECT_EQ(logits.sizes(), (std::vector<int64_t>{4, 10}));
  ASSERT_EQ(attention.size(), 2u);
  EXPECT_EQ(attention[0].sizes(), (std::vector<int64_t>{4, 4, 17, 17}));  // CLS + 16 patches
  expectRowStochastic(attention[1], torch::ones({4, 4, 17}, torch::kBool));
  EXPECT_EQ(vit->positionMatrix().sizes(), (std::vector<int64_t>{17, 32}));
  const torch::Tensor labels = torch::tensor({1, 3, 5, 7});
  expectLossFalls(
      *vit, [&] { return torch::cross_entropy_loss(vit(images), labels); }, 15, 0.7);
}

TEST(VisionTransformer, MeanPoolingReadsThePatchesNotTheClsToken) {
  torch::manual_seed(0);
  VisionTransformerConfig c = smallVit();
  c.pooling = "mean";
  VisionTransformer vit(c);
  vit->eval();
  const torch::Tensor images = torch::randn({4, 3, 32, 32});
  std::vector<torch::Tensor> attention;
  EXPECT_EQ(vit(images, &attention).sizes(), (std::vector<int64_t>{4, 10}));
  // The CLS token stays in the sequence (the views show it); the classifier reads the patches'
  // mean.
  EXPECT_EQ(attention[0].sizes(), (std::vector<int64_t>{4, 4, 17, 17}));
  const torch::Tensor labels = torch::tensor({1, 3, 5, 7});
  expectLossFalls(
      *vit, [&] { return torch::cross_entropy_loss(vit(images), labels); }, 15, 0.7);
  c.pooling = "max";
  EXPECT_FALSE(c.validate().ok());
  EXPECT_NE(c.validate().error().find("pooling"), std::string::npos);
}

TEST(VisionTransformer, ReferenceConfigurationBuilds) {
  VisionTransformer vit(VisionTransformerConfig{});
  int64_t count = 0;
  for (const auto& p : vit->parameters()) count += p.numel();
  // 12 layers × (4·256² + 2·256·1024 + biases/norms) + embeddings ≈ 9.5 M.
  EXPECT_GT(count, 9'000'000);
  EXPECT_LT(count, 10'000'000);
}

TEST(TextClassifier, PaddingGetsNoAttentionAndLossFalls) {
  torch::manual_seed(1);
  TextClassifierConfig c;
  c.vocab_size = 50, c.max_len = 12, c.dropout = 0.0;
  TextClassifier model(c);
  torch::Tensor ids = torch::randint(1, 50, {3, 12});
  ids.index_put_({0, torch::indexing::Slice(8)}, 0);
  ids.index_put_({2, torch::indexing::Slice(3)}, 0);
  std::vector<torch::Tensor> attention;
  model->eval();
  const torch::Tensor logits = model(ids, &attention);
  EXPECT_EQ(logits.sizes(), (std::vector<int64_t>{3, 2}));
  ASSERT_EQ(attention.size(), 1u);
  const torch::Tensor w = attention[0];  // (3, 2, 12, 12)
  EXPECT_EQ(w.sizes(), (std::vector<int64_t>{3, 2, 12, 12}));
  EXPECT_TRUE(torch::all(w[0].narrow(-1, 8, 4) == 0).item<bool>());
  EXPECT_TRUE(torch::all(w[2].narrow(-1, 3, 9) == 0).item<bool>());
  expectRowStochastic(w, torch::ones({3, 2, 12}, torch::kBool));
  // Padding must not change the prediction: the same review with more padding columns.
  torch::Tensor shorter = ids.narrow(1, 0, 8).clone();
  EXPECT_TRUE(torch::allclose(model(shorter)[0], logits[0], 1e-5, 1e-5));
  const torch::Tensor labels = torch::tensor({0, 1, 1});
  expectLossFalls(
      *model, [&] { return torch::cross_entropy_loss(model(ids), labels); }, 20, 0.7);
}

TEST(TextClassifier, BigramRowsHashWordPairsAndLeavePaddingAtZero) {
  const int64_t buckets = 97;
  const torch::Tensor ids = torch::tensor({{5, 7, 5, 7, 0, 0}, {7, 5, 7, 3, 9, 0}});
  const torch::Tensor rows = TextClassifierImpl::bigramRows(ids, 0, buckets);
  ASSERT_EQ(rows.sizes(), ids.sizes());
  EXPECT_TRUE(rows.masked_select(ids.eq(0)).eq(0).all().item<bool>());
  const torch::Tensor used = rows.masked_select(ids.ne(0));
  EXPECT_TRUE(used.ge(1).all().item<bool>() && used.le(buckets).all().item<bool>());
  auto at = [&](int64_t b, int64_t t) { return rows[b][t].item<int64_t>(); };
  EXPECT_EQ(at(0, 1), at(0, 3));  // (5, 7) twice in one review
  EXPECT_EQ(at(0, 1), at(1, 2));  // … and in another
  EXPECT_EQ(at(0, 2), at(1, 1));  // (7, 5)
  EXPECT_NE(at(0, 1), at(0, 2));  // (5, 7) is not (7, 5): the table sees word order
  EXPECT_NE(at(0, 0), at(1, 1));  // a review's first 5 follows padding, not 7
  EXPECT_EQ(TextClassifierImpl::bigramRows(ids.narrow(1, 0, 0), 0, buckets).numel(), 0);
}

TEST(TextClassifier, BigramTableStartsAsTheWordsOnlyModelAndLearnsOnlyThePairsSeen) {
  TextClassifierConfig c;
  c.vocab_size = 50, c.max_len = 12, c.dropout = 0.0;
  torch::manual_seed(3);
  TextClassifier words(c);
  c.bigram_buckets = 1000;
  torch::manual_seed(3);
  TextClassifier pairs(c);
  EXPECT_EQ(pairs->parameters().size(), words->parameters().size() + 1);
  torch::Tensor ids = torch::randint(1, 50, {4, 12});
  ids.index_put_({1, torch::indexing::Slice(6)}, 0);
  words->eval(), pairs->eval();
  EXPECT_TRUE(torch::allclose(pairs(ids), words(ids), 1e-6, 1e-6));
  const torch::Tensor labels = torch::tensor({0, 1, 1, 0});
  expectLossFalls(
      *pairs, [&] { return torch::cross_entropy_loss(pairs(ids), labels); }, 20, 0.7);
  const torch::Tensor rows = TextClassifierImpl::bigramRows(ids, 0, c.bigram_buckets);
  const torch::Tensor moved = pairs->bigrams->weight.detach().abs().sum(1).gt(0);  // (1001)
  EXPECT_FALSE(moved[0].item<bool>()) << "the padding row learns nothing";
  torch::Tensor seen = torch::zeros({c.bigram_buckets + 1}, torch::kBool);
  seen.index_fill_(0, rows.masked_select(ids.ne(0)), true);
  EXPECT_TRUE(moved.eq(seen).all().item<bool>()) << "exactly the rows of the batch's pairs move";

  // On a CPU both tables can hand the optimizer only the rows a batch used.
  pairs->setSparseEmbeddingGradient(true);
  for (torch::Tensor& p : pairs->parameters()) p.mutable_grad().reset();
  torch::cross_entropy_loss(pairs(ids), labels).backward();
  EXPECT_TRUE(pairs->embedding->weight.grad().is_sparse());
  EXPECT_TRUE(pairs->bigrams->weight.grad().is_sparse());
}

TEST(TextClassifier, ExactPairRowsFindEachKnownPairAndNothingElse) {
  const int64_t v = 10;
  const torch::Tensor keys = torch::tensor({5 * v + 7, 7 * v + 3, 9 * v + 9});  // ascending
  const torch::Tensor ids = torch::tensor({{5, 7, 3, 0, 0}, {7, 5, 7, 9, 9}, {9, 9, 9, 4, 2}});
  const torch::Tensor rows = TextClassifierImpl::pairRows(ids, 0, keys, v);
  const torch::Tensor expected = torch::tensor({{0, 1, 2, 0, 0}, {0, 0, 1, 0, 3}, {0, 3, 3, 0, 0}});
  EXPECT_TRUE(rows.equal(expected)) << rows;
  EXPECT_TRUE(TextClassifierImpl::pairRows(ids, 0, torch::zeros({0}, torch::kLong), v)
                  .eq(0)
                  .all()
                  .item<bool>());

  TextClassifierConfig c;
  c.vocab_size = v, c.max_len = 5, c.dropout = 0.0, c.word_pairs = 3;
  TextClassifier model(c);
  EXPECT_EQ(model->bigrams->weight.size(0), 4);
  EXPECT_THROW(model(ids), std::logic_error) << "no pairs given: refused, not silently ignored";
  EXPECT_THROW(model->setWordPairs(torch::tensor({1, 2})), std::invalid_argument);
  model->setWordPairs(keys);
  const torch::Tensor labels = torch::tensor({0, 1, 1});
  expectLossFalls(
      *model, [&] { return torch::cross_entropy_loss(model(ids), labels); }, 20, 0.7);
  const torch::Tensor moved = model->bigrams->weight.detach().abs().sum(1).gt(0);
  EXPECT_TRUE(moved.equal(torch::tensor({false, true, true, true})));
  c.bigram_buckets = 100;
  EXPECT_FALSE(c.validate().ok()) << "hashed and exact pairs at once";
}

TEST(EncoderLayer, GatedBranchesStartAsTheIdentityAndLearn) {
  torch::manual_seed(5);
  EncoderLayer layer(TransformerLayerOptions(16, 2, 32).dropout(0.0).residual_gates(true));
  const torch::Tensor x = torch::randn({3, 7, 16});
  EXPECT_TRUE(layer(x).equal(x)) << "both branches are scaled by 0 at first";
  layer(x).pow(2).sum().backward();
  EXPECT_GT(layer->attention_gate.grad().abs().item<double>(), 0);
  EXPECT_GT(layer->feed_forward_gate.grad().abs().item<double>(), 0);
}

TEST(EncoderLayer, DropPathSkipsWholeSamplesAndScalesTheKeptOnes) {
  torch::manual_seed(6);
  EncoderLayer layer(TransformerLayerOptions(16, 2, 32).dropout(0.0).drop_path(0.5));
  const torch::Tensor x = torch::randn({64, 5, 16});
  layer->eval();
  const torch::Tensor full = layer(x);
  layer->train();
  const torch::Tensor trained = layer(x);
  int skipped = 0, kept = 0;
  for (int64_t b = 0; b < x.size(0); ++b) {
    if (trained[b].equal(x[b])) {
      ++skipped;
    } else {
      ++kept;  // through both branches, scaled by 2
    }
  }
  EXPECT_GT(skipped, 16);
  EXPECT_GT(kept, 16);
  EXPECT_EQ(skipped + kept, 64);
  EXPECT_FALSE(full.equal(x)) << "in evaluation every sample goes through the layer";
  EXPECT_THROW(EncoderLayer(TransformerLayerOptions(16, 2, 32).drop_path(1.0)),
               std::invalid_argument);
}

TEST(TextClassifier, GatedLayersWithoutPositionsInThePoolStartAsTheBagOfWords) {
  torch::manual_seed(7);
  TextClassifierConfig c;
  c.vocab_size = 12, c.max_len = 6, c.d_model = 8, c.heads = 2, c.d_ff = 16, c.dropout = 0.0;
  c.residual_gates = true, c.positions_in_pool = false, c.norm_first = true;
  TextClassifier model(c);
  model->eval();
  const torch::Tensor ids = torch::tensor({{3, 4, 5, 0, 0, 0}, {6, 7, 8, 9, 10, 11}});
  const torch::Tensor mask = ids.ne(0).unsqueeze(-1).to(torch::kFloat);
  const torch::Tensor words =
      model->embedding->weight.index_select(0, ids.flatten()).view({2, 6, 8});
  const torch::Tensor bag = (words * mask).sum(1) / mask.sum(1);
  EXPECT_TRUE(torch::allclose(model(ids), model->classifier(bag), 1e-5, 1e-6));

  c.positions_in_pool = true;  // as before the setting: the positions' mean is read too
  TextClassifier with_positions(c);
  with_positions->eval();
  const torch::Tensor positions = with_positions->positionMatrix().narrow(0, 0, 6).unsqueeze(0);
  const torch::Tensor words2 =
      with_positions->embedding->weight.index_select(0, ids.flatten()).view({2, 6, 8});
  const torch::Tensor pooled = ((words2 + positions) * mask).sum(1) / mask.sum(1);
  EXPECT_TRUE(torch::allclose(with_positions(ids), with_positions->classifier(pooled), 1e-5, 1e-6));
}

TranslatorConfig smallTranslator() {
  TranslatorConfig c;
  c.source_vocab_size = 30, c.target_vocab_size = 40, c.seq_len = 16, c.d_model = 32;
  c.encoder_layers = 2, c.decoder_layers = 2, c.heads = 4, c.d_ff = 64, c.dropout = 0.0;
  return c;
}

TEST(Seq2SeqTranslator, AttentionOfAllThreeKindsAndLearning) {
  torch::manual_seed(2);
  Seq2SeqTranslator model(smallTranslator());
  const int64_t pad = 1;
  torch::Tensor source = torch::randint(4, 30, {2, 9});
  source.index_put_({1, torch::indexing::Slice(6)}, pad);
  torch::Tensor target = torch::randint(4, 40, {2, 7});
  target.index_put_({1, torch::indexing::Slice(5)}, pad);
  TranslatorAttention attention;
  model->eval();
  const torch::Tensor logits = model(source, target, &attention);
  EXPECT_EQ(logits.sizes(), (std::vector<int64_t>{2, 7, 40}));
  ASSERT_EQ(attention.encoder_self.size(), 2u);
  ASSERT_EQ(attention.decoder_self.size(), 2u);
  ASSERT_EQ(attention.cross.size(), 2u);
  EXPECT_EQ(attention.encoder_self[0].sizes(), (std::vector<int64_t>{2, 4, 9, 9}));
  EXPECT_EQ(attention.decoder_self[0].sizes(), (std::vector<int64_t>{2, 4, 7, 7}));
  EXPECT_EQ(attention.cross[0].sizes(), (std::vector<int64_t>{2, 4, 7, 9}));
  // Decoder self-attention is causal: nothing above the diagonal.
  EXPECT_TRUE(torch::all(attention.decoder_self[1].triu(1) == 0).item<bool>());
  // Source padding gets no cross-attention, target padding no self-attention.
  EXPECT_TRUE(torch::all(attention.cross[0][1].narrow(-1, 6, 3) == 0).item<bool>());
  EXPECT_TRUE(torch::all(attention.decoder_self[0][1].narrow(-1, 5, 2) == 0).item<bool>());
  expectRowStochastic(attention.cross[1], torch::ones({2, 4, 7}, torch::kBool));
  expectRowStochastic(attention.encoder_self[0], torch::ones({2, 4, 9}, torch::kBool));
  // Every target query keeps at least itself or an earlier real token, so every row sums to 1.
  expectRowStochastic(attention.decoder_self[0], torch::ones({2, 4, 7}, torch::kBool));

  const torch::Tensor labels = torch::randint(4, 40, {2, 7});
  expectLossFalls(
      *model,
      [&] {
        return torch::nn::functional::cross_entropy(
            model(source, target).view({-1, 40}), labels.view(-1),
            torch::nn::functional::CrossEntropyFuncOptions().ignore_index(pad).label_smoothing(
                0.1));
      },
      20, 0.7);
}

TEST(Seq2SeqTranslator, GreedyDecodingStopsWithinLimit) {
  torch::manual_seed(3);
  Seq2SeqTranslator model(smallTranslator());
  model->eval();
  torch::NoGradGuard no_grad;
  const std::vector<int64_t> out = model->greedyDecode(torch::randint(4, 30, {1, 6}), 2, 3, 10);
  EXPECT_LE(out.size(), 9u);
  for (int64_t id : out) EXPECT_NE(id, 3);
}

TEST(Seq2SeqTranslator, ReferenceConfigurationUsesXavierInit) {
  TranslatorConfig c;  // d_model 512, 6 + 6 layers, d_ff 2048
  c.source_vocab_size = 1000, c.target_vocab_size = 1000;
  Seq2SeqTranslator model(c);
  // Xavier-uniform bound for a (2048, 512) matrix: sqrt(6 / (512 + 2048)).
  const auto& w = model->encoder_layers[0]->as<EncoderLayer>()->feed_forward->linear1->weight;
  EXPECT_LE(w.abs().max().item<double>(), std::sqrt(6.0 / 2560) + 1e-6);
  EXPECT_GT(w.abs().max().item<double>(), 0.9 * std::sqrt(6.0 / 2560));
  EXPECT_EQ(model->positionMatrix().sizes(), (std::vector<int64_t>{350, 512}));
}

}  // namespace
}  // namespace ascope
