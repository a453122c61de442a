// The Computation view's numbers (engine/inference/attention_stages.h, attention_explanation.h,
// engine/analysis/attention_cell_breakdown.h): every task's model and both pretrained kinds,
// recomputed stage by stage from the attention's own inputs and weights, give the weights the
// probes record to 1e-5; a first layer's logits split into token and position parts that add up
// to the logit; masked cells stay masked; questions out of range are refused by name.
#include <gtest/gtest.h>

#include <torch/types.h>
#include <torch/utils.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/analysis/attention_cell_breakdown.h"
#include "engine/builtin/ppm_writer.h"
#include "engine/inference/attention_explanation.h"
#include "engine/inference/attention_stages.h"
#include "engine/tasks/registry/task_factory.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/task.h"
#include "tests/engine/pretrained/hf_fixture_tensors.h"
#include "tests/engine/removed_at_exit.h"

namespace ascope {
namespace {

constexpr double kExact = 1e-5;

/// The largest difference between the recomputed weights and the recorded map.
double largestDifference(const AttentionComputation& c, const AttentionMap& recorded) {
  EXPECT_EQ(c.weights.rows, recorded.rows);
  EXPECT_EQ(c.weights.cols, recorded.cols);
  double worst = 0;
  for (int r = 0; r < recorded.rows && r < c.weights.rows; ++r) {
    for (int k = 0; k < recorded.cols && k < c.weights.cols; ++k) {
      worst = std::max(worst,
                       std::abs(static_cast<double>(c.weights.at(r, k)) -
                                recorded.values[static_cast<std::size_t>(r) * recorded.cols + k]));
    }
  }
  return worst;
}

/// Every cell's products add up to its logit, its four parts (where there are) too, and a
/// masked cell has weight 0.
void expectCellsAddUp(const AttentionComputation& c, const std::string& where) {
  for (int q = 0; q < c.q.rows; ++q) {
    for (int k = 0; k < c.k.rows; ++k) {
      Expected<AttentionCellBreakdown> b = breakDownCell(c, q, k);
      ASSERT_TRUE(b.ok()) << b.error();
      const double tolerance = kExact * std::max(1.0, std::abs(b->logit));
      EXPECT_NEAR(b->sum, b->logit, tolerance) << where << " cell " << q << "," << k;
      EXPECT_NEAR(b->scaled, b->logit * c.scale, tolerance) << where;
      if (b->masked) {
        EXPECT_EQ(b->weight, 0.0) << where << " masked cell " << q << "," << k;
      }
      if (b->has_parts) {
        const double parts = b->parts[0] + b->parts[1] + b->parts[2] + b->parts[3];
        EXPECT_NEAR(parts, b->logit, tolerance) << where << " parts of " << q << "," << k;
      }
    }
  }
}

struct TaskCase {
  std::string task;
  std::string preset;
};

class EveryTasksModel : public ::testing::TestWithParam<TaskCase> {};

TEST_P(EveryTasksModel, RecomposedWeightsEqualTheProbesAndTheCellsAddUp) {
  Expected<TrainingConfig> config = makePreset(GetParam().task, GetParam().preset);
  ASSERT_TRUE(config.ok()) << config.error();
  config->data = "builtin";
  Expected<std::unique_ptr<Task>> made =
      makeTrainingTask(*config, torch::Device(torch::kCPU), nullptr);
  ASSERT_TRUE(made.ok()) << made.error();
  Task& task = **made;
  task.model().eval();
  torch::NoGradGuard no_grad;
  int split_sites = 0;
  int masked_cells = 0;
  for (const AttentionSite& site : task.attentionSites()) {
    const int heads = static_cast<int>(site.module->options().num_heads());
    for (int head = 0; head < heads; ++head) {
      AttentionSnapshot probe;
      Expected<AttentionComputation> c =
          computeAttentionStages(site, head, [&]() -> Expected<StageLabels> {
            probe = task.probeSamples({0}).front();  // as the timeline stores a probe
            for (const AttentionGroup& g : probe.groups) {
              if (g.name == site.group)
                return StageLabels{g.row_labels, g.col_labels, g.col_offset};
            }
            return Error{"no group " + site.group};
          });
      ASSERT_TRUE(c.ok()) << c.error();
      const std::string where = GetParam().task + " " + site.group + " layer " +
                                std::to_string(site.layer) + " head " + std::to_string(head);
      const AttentionGroup* group = nullptr;
      for (const AttentionGroup& g : probe.groups) {
        if (g.name == site.group) group = &g;
      }
      ASSERT_NE(group, nullptr);
      EXPECT_LE(largestDifference(*c, group->map(site.layer, head)), kExact) << where;
      EXPECT_EQ(c->q.cols, c->d_head);
      EXPECT_EQ(c->joined.cols, c->d_model);
      EXPECT_EQ(c->output.rows, c->q.rows);
      expectCellsAddUp(*c, where);
      if (c->has_position_split) ++split_sites;
      for (std::uint8_t m : c->masked) masked_cells += m;
      if (site.record_positions && site.group != "cross") {
        EXPECT_TRUE(c->has_position_split) << where << ": a first layer fed token + position";
      }
    }
  }
  EXPECT_GT(split_sites, 0) << GetParam().task;
  if (GetParam().task == "translate") {
    EXPECT_GT(masked_cells, 0) << "the decoder's causal mask";
  }
}

INSTANTIATE_TEST_SUITE_P(Tiny, EveryTasksModel,
                         ::testing::Values(TaskCase{"imdb", "tiny"}, TaskCase{"vit", "tiny"},
                                           TaskCase{"translate", "tiny"},
                                           TaskCase{"digits", "tiny"}, TaskCase{"reverse", "tiny"}),
                         [](const ::testing::TestParamInfo<TaskCase>& param) {
                           return param.param.task;
                         });

TEST(AttentionExplanation, APretrainedBertsHeadsRecomposeAndSplitThroughTheEmbeddingNorm) {
  ExplainRequest request;
  request.model_folder = hf_fixture::folder("tiny_bert");
  request.text = "the movie was great";
  request.text_pair = "it was";
  AttentionExplainer explainer;
  for (int layer = 0; layer < 2; ++layer) {
    for (int head = 0; head < 4; ++head) {
      request.layer = layer;
      request.head = head;
      Expected<Explanation> e = explainer.explain(request);
      ASSERT_TRUE(e.ok()) << e.error();
      EXPECT_EQ(e->computation.task, "bert");
      EXPECT_EQ(e->computation.query_labels.front(), "[CLS]");
      EXPECT_LE(largestDifference(e->computation, e->recorded), kExact);
      EXPECT_EQ(e->computation.has_position_split, layer == 0);
      expectCellsAddUp(e->computation, "bert layer " + std::to_string(layer));
    }
  }
}

TEST(AttentionExplanation, APretrainedVitsHeadsRecomposeOverItsPatches) {
  const std::string folder = testing::freshTempPath("ascope_explain_vit");
  std::filesystem::create_directories(folder);
  ImageSample image;
  image.pixels.resize(3 * 32 * 32);
  for (std::size_t i = 0; i < image.pixels.size(); ++i)
    image.pixels[i] = static_cast<std::uint8_t>((i * 53) % 241);
  ASSERT_TRUE(writePpm(folder + "/image.ppm", image, 32, 32).ok());
  ExplainRequest request;
  request.model_folder = hf_fixture::folder("tiny_vit");
  request.image_file = folder + "/image.ppm";
  AttentionExplainer explainer;
  for (int layer = 0; layer < 2; ++layer) {
    request.layer = layer;
    request.head = 1;
    Expected<Explanation> e = explainer.explain(request);
    ASSERT_TRUE(e.ok()) << e.error();
    EXPECT_EQ(e->computation.query_labels.front(), "CLS");
    EXPECT_LE(largestDifference(e->computation, e->recorded), kExact);
    EXPECT_EQ(e->computation.has_position_split, layer == 0);
    expectCellsAddUp(e->computation, "vit layer " + std::to_string(layer));
  }
}

TEST(AttentionExplanation, QuestionsOutOfRangeAreRefusedByName) {
  ExplainRequest request;
  request.model_folder = hf_fixture::folder("tiny_bert");
  request.text = "a film";
  request.head = 4;
  Expected<Explanation> e = explainAttention(request);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().find("head 4 is out of range"), std::string::npos) << e.error();
  request.head = 0;
  request.layer = 7;
  e = explainAttention(request);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().find("layer 7 is out of range"), std::string::npos) << e.error();
  request.layer = 0;
  request.group = "cross";
  e = explainAttention(request);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().find("no attention group \"cross\""), std::string::npos) << e.error();
  request.group.clear();
  request.sample = 0;
  e = explainAttention(request);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().find("no validation samples"), std::string::npos) << e.error();

  AttentionComputation empty;
  EXPECT_FALSE(breakDownCell(empty, 0, 0).ok());
}

}  // namespace
}  // namespace ascope
