// inspectPretrained, the engine side of File → Inspect pretrained model… and `inspect`: the tiny
// BERT fixture reads a sentence pair and answers with every layer's and head's attention,
// labelled with its WordPiece tokens, equal to the model's own forward pass on the same encoding;
// folders and inputs that do not fit are refused with a message naming them.
#include <gtest/gtest.h>

#include <ATen/ATen.h>
#include <torch/types.h>
#include <torch/utils.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "engine/imaging/pillow_bilinear_resize.h"
#include "engine/inference/pretrained_inspection.h"
#include "engine/pretrained/pretrained_model.h"
#include "engine/text/bert/bert_tokenizer.h"
#include "test_paths.h"
#include "tests/engine/pretrained/hf_fixture_tensors.h"
#include "tests/engine/removed_at_exit.h"
#include "tests/support/payload_access.h"

namespace ascope {
namespace {

PretrainedInspectionRequest pairRequest() {
  PretrainedInspectionRequest request;
  request.model_folder = hf_fixture::folder("tiny_bert");
  request.text = "the movie was great";
  request.text_pair = "it was";
  return request;
}

TEST(PretrainedInspection, TinyBertPairGivesEveryHeadOverItsWordPieceTokens) {
  Expected<InferenceAnswer> answer = inspectPretrained(pairRequest());
  ASSERT_TRUE(answer.ok()) << answer.error();
  EXPECT_EQ(answer->task, "bert");
  ASSERT_EQ(answer->attention.groups.size(), 1u);
  const AttentionGroup& group = answer->attention.groups[0];
  EXPECT_EQ(group.name, "encoder");
  EXPECT_EQ(group.layers, 2);
  EXPECT_EQ(group.heads, 4);
  const std::vector<std::string> tokens{"[CLS]", "the", "movie", "was",  "great",
                                        "[SEP]", "it",  "was",   "[SEP]"};
  EXPECT_EQ(group.col_labels, tokens);
  EXPECT_EQ(group.row_labels, tokens);
  ASSERT_EQ(group.maps.size(), 8u);
  for (const AttentionMap& map : group.maps) {
    ASSERT_EQ(map.rows, 9);
    ASSERT_EQ(map.cols, 9);
    ASSERT_EQ(map.values.size(), 81u);
    for (int r = 0; r < map.rows; ++r) {
      double sum = 0;
      for (int c = 0; c < map.cols; ++c) sum += map.values[static_cast<std::size_t>(r * 9 + c)];
      EXPECT_NEAR(sum, 1.0, 1e-5) << "every query's weights are a softmax";
    }
  }
  double total = 0;
  std::pair<std::string, double> best{"", -1.0};
  for (const auto& [name, p] : answer->ranking) {
    total += p;
    if (p > best.second) best = {name, p};
  }
  EXPECT_NEAR(total, 1.0, 1e-5);
  EXPECT_EQ(answer->label, best.first);
  EXPECT_DOUBLE_EQ(answer->probability, best.second);
}

TEST(PretrainedInspection, AttentionIsTheModelsOwnForwardPassOnThatEncoding) {
  Expected<InferenceAnswer> answer = inspectPretrained(pairRequest());
  ASSERT_TRUE(answer.ok()) << answer.error();
  const AttentionGroup& group = answer->attention.groups[0];

  Expected<PretrainedModel> model = loadPretrainedModel(hf_fixture::folder("tiny_bert"));
  ASSERT_TRUE(model.ok()) << model.error();
  Expected<BertTokenizer> tokenizer = BertTokenizer::fromFolder(hf_fixture::folder("tiny_bert"));
  ASSERT_TRUE(tokenizer.ok()) << tokenizer.error();
  const BertEncoding e = tokenizer->encodePair("the movie was great", "it was", {});
  // The second sentence is token type 1: the pair really reached the model as a pair.
  EXPECT_EQ(e.token_type_ids, (std::vector<std::int64_t>{0, 0, 0, 0, 0, 0, 1, 1, 1}));
  const auto n = static_cast<int64_t>(e.ids.size());
  auto row = [n](const std::vector<std::int64_t>& v) {
    return torch::tensor(v, torch::kLong).reshape({1, n});
  };
  std::vector<at::Tensor> attention;
  {
    torch::NoGradGuard no_grad;
    model->bert->forward(row(e.ids), row(e.token_type_ids), row(e.attention_mask), &attention);
  }
  ASSERT_EQ(static_cast<int>(attention.size()), group.layers);
  for (int layer = 0; layer < group.layers; ++layer) {
    const at::Tensor weights =
        attention[static_cast<std::size_t>(layer)][0].contiguous();  // (H,T,T)
    ASSERT_EQ(weights.size(0), group.heads);
    for (int head = 0; head < group.heads; ++head) {
      const at::Tensor expected = weights[head];
      const AttentionMap& map = group.map(layer, head);
      for (int r = 0; r < map.rows; ++r) {
        for (int c = 0; c < map.cols; ++c) {
          ASSERT_NEAR(map.values[static_cast<std::size_t>(r * map.cols + c)],
                      expected[r][c].item<float>(), 1e-6)
              << "layer " << layer << " head " << head << " cell " << r << "," << c;
        }
      }
    }
  }
}

TEST(PretrainedInspection, RefusesWhatDoesNotFitWithAMessage) {
  PretrainedInspectionRequest not_a_model;
  not_a_model.model_folder = std::string(test_paths::fixturesDir());
  not_a_model.text = "hello";
  Expected<InferenceAnswer> answer = inspectPretrained(not_a_model);
  ASSERT_FALSE(answer.ok());
  EXPECT_NE(answer.error().find("config.json"), std::string::npos) << answer.error();

  PretrainedInspectionRequest text_for_vit;
  text_for_vit.model_folder = hf_fixture::folder("tiny_vit");
  text_for_vit.text = "hello";
  answer = inspectPretrained(text_for_vit);
  ASSERT_FALSE(answer.ok());
  EXPECT_NE(answer.error().find("ViT"), std::string::npos) << answer.error();
}

/// A binary PPM of `width` × `height` made of `planar` (channel-planar RGB) at `path`.
void writePpm(const std::string& path, const std::vector<std::uint8_t>& planar, int width,
              int height) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << "P6\n" << width << " " << height << "\n255\n";
  const std::size_t plane = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  for (std::size_t i = 0; i < plane; ++i) {
    for (std::size_t c = 0; c < 3; ++c) out.put(static_cast<char>(planar[c * plane + i]));
  }
}

TEST(PretrainedInspection, AnImageIsResizedAsTheModelsProcessorResizesIt) {
  // inspect decoded straight to the model's size (OpenCV's area filter) instead of the Pillow-exact
  // bilinear resize of preprocessor_config.json that fine-tuning uses: a 40×28 image gave attention
  // off by up to 0.136. Asking with the image or with its Pillow resize is the same.
  const std::string folder = testing::freshTempPath("ascope_inspect_resize");
  std::filesystem::create_directories(folder);
  std::vector<std::uint8_t> image(3 * 40 * 28);
  for (std::size_t i = 0; i < image.size(); ++i)
    image[i] = static_cast<std::uint8_t>((i * 37) % 251);
  writePpm(folder + "/odd.ppm", image, 40, 28);
  writePpm(folder + "/resized.ppm", resizeBilinearLikePillow(image, 3, 28, 40, 32, 32), 32, 32);
  PretrainedInspectionRequest odd;
  odd.model_folder = hf_fixture::folder("tiny_vit");
  odd.image_file = folder + "/odd.ppm";
  PretrainedInspectionRequest resized = odd;
  resized.image_file = folder + "/resized.ppm";
  Expected<InferenceAnswer> a = inspectPretrained(odd);
  Expected<InferenceAnswer> b = inspectPretrained(resized);
  ASSERT_TRUE(a.ok()) << a.error();
  ASSERT_TRUE(b.ok()) << b.error();
  EXPECT_EQ(testing::imageOf(a->attention.payloads).image.pixels,
            testing::imageOf(b->attention.payloads).image.pixels);
  ASSERT_EQ(a->ranking.size(), b->ranking.size());
  for (std::size_t c = 0; c < a->ranking.size(); ++c) {
    EXPECT_EQ(a->ranking[c].second, b->ranking[c].second) << "class " << c;
  }
  ASSERT_EQ(a->attention.groups.size(), 1u);
  const auto& maps_a = a->attention.groups[0].maps;
  const auto& maps_b = b->attention.groups[0].maps;
  ASSERT_EQ(maps_a.size(), maps_b.size());
  for (std::size_t m = 0; m < maps_a.size(); ++m) EXPECT_EQ(maps_a[m].values, maps_b[m].values);
}

TEST(PretrainedInspection, AProcessorSizeTheModelDoesNotTakeIsRefusedAsTrainRefusesIt) {
  const std::string folder = testing::freshTempPath("ascope_inspect_processor_size");
  std::filesystem::copy(hf_fixture::folder("tiny_vit"), folder,
                        std::filesystem::copy_options::recursive);
  std::string processor;
  {
    std::ifstream in(folder + "/preprocessor_config.json");
    processor.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::string size = "\"height\": 32,\n    \"width\": 32";
  ASSERT_NE(processor.find(size), std::string::npos) << processor;
  processor.replace(processor.find(size), size.size(), "\"height\": 64, \"width\": 48");
  std::ofstream(folder + "/preprocessor_config.json", std::ios::trunc) << processor;
  std::vector<std::uint8_t> image(3 * 32 * 32, 128);
  writePpm(folder + "/image.ppm", image, 32, 32);
  PretrainedInspectionRequest request;
  request.model_folder = folder;
  request.image_file = folder + "/image.ppm";
  Expected<InferenceAnswer> answer = inspectPretrained(request);
  ASSERT_FALSE(answer.ok()) << "a 64×48 processor was ignored for a 32-pixel model";
  EXPECT_EQ(answer.error(), folder +
                                "/preprocessor_config.json: size 64×48 is not the model's "
                                "image_size 32 (config.json)");
}

}  // namespace
}  // namespace ascope
