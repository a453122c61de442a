// "Your input under the scope": an asked input's answer carries the attention of that input (not
// of the probe sample), and a stored snapshot carries the prediction and positional encoding of
// its step. Each task trains a tiny run once; the tests ask its checkpoint.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "engine/inference/checkpoint_inference.h"
#include "engine/models/translator_config.h"
#include "engine/models/vision_transformer_config.h"
#include "engine/runfolder/run_folder.h"
#include "engine/runfolder/snapshots/attention_snapshot_codec.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "engine/text/words/imdb_word_tokenizer.h"
#include "engine/text/words/translation_word_tokenizer.h"
#include "engine/train/trainer.h"
#include "tests/support/payload_access.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

/// Of this process's own: ctest -j runs other test programs at the same time.
fs::path askedRunDir(const std::string& task) {
  return fs::temp_directory_path() /
         ("ascope_asked_attention_" + task + "_" + std::to_string(::getpid()));
}

/// A finished tiny run of `task`, trained once per test program and kept for every test here.
/// Translation trains longest: a model that never ends its sentences would hide the end token.
const std::string& trainedAskedRun(const std::string& task) {
  static std::map<std::string, std::string> runs;
  auto found = runs.find(task);
  if (found != runs.end()) return found->second;
  const int64_t steps = task == kTranslationTaskId ? 60 : task == kSentimentTaskId ? 20 : 5;
  const fs::path dir = askedRunDir(task);
  fs::remove_all(dir);
  TrainingConfig c = *makePreset(task, "tiny");
  c.out_dir = dir.string();
  c.max_steps = steps;
  c.epochs = 1000;
  c.probe_every_seconds = 1e9;  // by step count only: the stored steps are repeatable
  c.probe_every_steps = 5;
  Trainer trainer(c);
  EXPECT_TRUE(trainer.start().ok());
  const auto deadline = std::chrono::steady_clock::now() + 300s;
  while (!trainer.finished() && std::chrono::steady_clock::now() < deadline) {
    trainer.drainEvents();
    std::this_thread::sleep_for(20ms);
  }
  trainer.wait();
  EXPECT_EQ(trainer.state(), TrainerState::kFinished) << task;
  return runs.emplace(task, dir.string()).first->second;
}

class RemoveRunsAtExit : public ::testing::Environment {
 public:
  void TearDown() override {
    for (const char* task : {kSentimentTaskId, kTranslationTaskId, kImageClassificationTaskId}) {
      std::error_code ec;
      fs::remove_all(askedRunDir(task), ec);
    }
  }
};
[[maybe_unused]] const auto* const kRemoveRuns =
    ::testing::AddGlobalTestEnvironment(new RemoveRunsAtExit);

InferenceAnswer askModel(const InferenceRequest& request) {
  Expected<InferenceAnswer> answer = inferFromCheckpoint(request);
  EXPECT_TRUE(answer.ok()) << answer.error();
  return answer.ok() ? *answer : InferenceAnswer{};
}

InferenceAnswer askText(const std::string& run, const std::string& text) {
  InferenceRequest request;
  request.run_dir = run;
  request.text = text;
  return askModel(request);
}

/// Every group has layers × heads maps of its labels' shape whose rows are distributions; a
/// causal group's queries give nothing to later keys.
/// `tolerance`: how far a row's sum may be from 1 (stored snapshots keep float16 weights, each
/// within 2^-11 of its value).
void expectWellFormed(const AttentionSnapshot& s, double tolerance = 1e-4) {
  ASSERT_FALSE(s.groups.empty());
  for (const AttentionGroup& g : s.groups) {
    SCOPED_TRACE(g.name);
    ASSERT_GE(g.layers, 1);
    ASSERT_GE(g.heads, 1);
    ASSERT_EQ(g.maps.size(), static_cast<std::size_t>(g.layers) * g.heads);
    for (const AttentionMap& m : g.maps) {
      ASSERT_EQ(m.rows, static_cast<int>(g.row_labels.size()));
      ASSERT_EQ(m.cols, static_cast<int>(g.col_labels.size()));
      ASSERT_EQ(m.values.size(), static_cast<std::size_t>(m.rows) * m.cols);
      for (int r = 0; r < m.rows; ++r) {
        double sum = 0;
        for (int c = 0; c < m.cols; ++c) {
          const float v = m.values[static_cast<std::size_t>(r) * m.cols + c];
          sum += v;
          if (g.causal && c > r) {
            EXPECT_EQ(v, 0.0f) << "row " << r << " col " << c;
          }
        }
        EXPECT_NEAR(sum, 1.0, tolerance) << "row " << r;
      }
    }
  }
}

void expectAsked(const InferenceAnswer& answer) {
  EXPECT_EQ(answer.attention.task, answer.task);
  EXPECT_EQ(answer.attention.step, answer.step);
  EXPECT_EQ(answer.attention.sample_index, -1);
  expectWellFormed(answer.attention);
}

/// The attention snapshots stored in `run`, decoded.
std::vector<AttentionSnapshot> storedSnapshots(const std::string& run) {
  Expected<RunFolder> folder = RunFolder::open(run);
  EXPECT_TRUE(folder.ok()) << folder.error();
  std::vector<AttentionSnapshot> out;
  if (!folder.ok()) return out;
  for (const std::string& file : folder->attentionFiles()) {
    Expected<ProbeSet> s = readProbeSet(file);
    EXPECT_TRUE(s.ok()) << s.error();
    if (s.ok()) out.push_back(std::move(s->samples.front()));
  }
  return out;
}

TEST(AskedInputAttention, SentimentLabelsAreTheAskedReviewsWords) {
  const std::string run = trainedAskedRun(kSentimentTaskId);
  const std::string text = "A wonderful, moving film!";
  const InferenceAnswer answer = askText(run, text);
  ASSERT_NO_FATAL_FAILURE(expectAsked(answer));
  ASSERT_EQ(answer.attention.groups.size(), 1u);
  const AttentionGroup& g = answer.attention.groups[0];
  const std::vector<std::string> words{"a", "wonderful", "moving", "film"};
  EXPECT_EQ(g.row_labels, words);
  EXPECT_EQ(g.col_labels, words);
  EXPECT_FALSE(g.causal);
  EXPECT_TRUE(g.row_predictions.empty());
  EXPECT_TRUE(testing::decodingOf(answer.attention).empty());
  // Not the probe sample's words, which every stored snapshot shows.
  const std::vector<AttentionSnapshot> stored = storedSnapshots(run);
  ASSERT_FALSE(stored.empty());
  EXPECT_NE(stored.back().groups[0].row_labels, words);
  // Another review, other labels: nothing is cached between questions.
  const InferenceAnswer other = askText(run, "dull and boring");
  EXPECT_EQ(other.attention.groups.at(0).row_labels,
            (std::vector<std::string>{"dull", "and", "boring"}));
}

TEST(AskedInputAttention, TranslationDecoderIsCausalAndRowsPredictTheTranslation) {
  const std::string run = trainedAskedRun(kTranslationTaskId);
  const std::string text = "the black dog";
  const InferenceAnswer answer = askText(run, text);
  ASSERT_NO_FATAL_FAILURE(expectAsked(answer));
  ASSERT_EQ(answer.attention.groups.size(), 3u);
  const AttentionGroup& encoder = answer.attention.groups[0];
  const AttentionGroup& decoder = answer.attention.groups[1];
  const AttentionGroup& cross = answer.attention.groups[2];
  EXPECT_EQ(encoder.name, "encoder self");
  EXPECT_EQ(decoder.name, "decoder self");
  EXPECT_EQ(cross.name, "cross");

  // Source labels: the asked sentence as the model read it.
  Expected<TranslationWordTokenizer> source =
      TranslationWordTokenizer::load(run + "/tokenizer_en.json");
  ASSERT_TRUE(source.ok()) << source.error();
  std::vector<std::string> expected{"[SOS]"};
  for (int64_t id : source->encode(text)) expected.push_back(source->tokenOf(id));
  expected.push_back("[EOS]");
  EXPECT_EQ(encoder.row_labels, expected);
  EXPECT_EQ(encoder.col_labels, expected);
  EXPECT_EQ(cross.col_labels, expected);
  EXPECT_FALSE(encoder.causal);
  EXPECT_TRUE(encoder.row_predictions.empty());

  EXPECT_TRUE(decoder.causal);
  EXPECT_FALSE(cross.causal);
  ASSERT_FALSE(decoder.row_labels.empty());
  EXPECT_EQ(decoder.row_labels.front(), "[SOS]");
  EXPECT_EQ(cross.row_labels, decoder.row_labels);
  const std::vector<std::string>& predictions = decoder.row_predictions;
  ASSERT_EQ(predictions.size(), decoder.row_labels.size());
  EXPECT_EQ(cross.row_predictions, predictions);
  // Row i is fed token i and predicts token i + 1; the last row predicts the end, unless decoding
  // ran into the length limit first.
  for (std::size_t i = 0; i + 1 < predictions.size(); ++i) {
    EXPECT_EQ(predictions[i], decoder.row_labels[i + 1]) << "row " << i;
  }
  Expected<TrainingConfig> config = RunFolder::open(run)->readConfig();
  ASSERT_TRUE(config.ok());
  if (static_cast<int64_t>(predictions.size()) <
      config->task_settings.get<TranslatorConfig>().seq_len) {
    EXPECT_EQ(predictions.back(), "[EOS]");
  }
  // The predictions spell the translation (decode leaves special and unknown tokens out).
  std::string spelled;
  for (std::size_t i = 0; i + 1 < predictions.size(); ++i) {
    if (predictions[i].size() > 2 && predictions[i].front() == '[' &&
        predictions[i].back() == ']') {
      continue;
    }
    spelled += (spelled.empty() ? "" : " ") + predictions[i];
  }
  EXPECT_EQ(spelled, answer.label);

  // One decoding step per decoder row, its candidates best first, the chosen one among them.
  const std::vector<DecodingStep> decoding = testing::decodingOf(answer.attention);
  ASSERT_EQ(decoding.size(), predictions.size());
  for (std::size_t i = 0; i < predictions.size(); ++i) {
    const DecodingStep& step = decoding[i];
    ASSERT_EQ(step.top.size(), 5u) << "row " << i;
    EXPECT_EQ(step.top[0].first, predictions[i]) << "row " << i;
    double total = 0;
    for (std::size_t k = 0; k < step.top.size(); ++k) {
      EXPECT_GT(step.top[k].second, 0.0);
      EXPECT_LE(step.top[k].second, 1.0);
      if (k > 0) {
        EXPECT_LE(step.top[k].second, step.top[k - 1].second);
      }
      total += step.top[k].second;
    }
    EXPECT_LE(total, 1.0 + 1e-9);
  }
}

TEST(AskedInputAttention, TranslationProbeFillsTheDecoderFieldsToo) {
  const std::vector<AttentionSnapshot> stored =
      storedSnapshots(trainedAskedRun(kTranslationTaskId));
  ASSERT_FALSE(stored.empty());
  for (const AttentionSnapshot& s : stored) {
    SCOPED_TRACE(s.step);
    ASSERT_EQ(s.groups.size(), 3u);
    ASSERT_NO_FATAL_FAILURE(expectWellFormed(s, 1e-3));
    EXPECT_GE(s.sample_index, 0);
    EXPECT_TRUE(s.groups[1].causal);
    EXPECT_EQ(s.groups[1].row_predictions.size(), s.groups[1].row_labels.size());
    EXPECT_EQ(s.groups[2].row_predictions, s.groups[1].row_predictions);
    EXPECT_EQ(testing::decodingOf(s).size(), s.groups[1].row_labels.size());
  }
}

TEST(AskedInputAttention, ImageCarriesThePictureAndItsPatchGrid) {
  const std::string run = trainedAskedRun(kImageClassificationTaskId);
  Expected<TrainingConfig> config = RunFolder::open(run)->readConfig();
  ASSERT_TRUE(config.ok());
  const int side =
      static_cast<int>(config->task_settings.get<VisionTransformerConfig>().image_size);
  InferenceRequest request;
  request.run_dir = run;
  request.image_width = request.image_height = side;
  request.image_planar.resize(static_cast<std::size_t>(3 * side * side));
  for (std::size_t i = 0; i < request.image_planar.size(); ++i) {
    request.image_planar[i] = static_cast<std::uint8_t>((i * 37) % 251);
  }
  const InferenceAnswer answer = askModel(request);
  ASSERT_NO_FATAL_FAILURE(expectAsked(answer));
  const AttentionSnapshot& s = answer.attention;
  const ImagePayload image = testing::imageOf(s.payloads);
  EXPECT_EQ(image.image.width, side);
  EXPECT_EQ(image.image.height, side);
  EXPECT_EQ(image.image.pixels, request.image_planar);
  EXPECT_EQ(image.patch_size, config->task_settings.get<VisionTransformerConfig>().patch_size);
  ASSERT_GT(image.grid_rows, 0);
  EXPECT_EQ(image.grid_rows * image.patch_size, side);
  EXPECT_EQ(image.grid_cols * image.patch_size, side);
  ASSERT_EQ(s.groups.size(), 1u);
  const AttentionGroup& g = s.groups[0];
  ASSERT_EQ(g.row_labels.size(), static_cast<std::size_t>(1 + image.grid_rows * image.grid_cols));
  EXPECT_EQ(g.row_labels.front(), "CLS");
  EXPECT_EQ(g.row_labels.back(), std::to_string(image.grid_rows * image.grid_cols - 1));
  // The asked image, not the probe's: the probe's picture differs from this pattern.
  const std::vector<AttentionSnapshot> stored = storedSnapshots(run);
  ASSERT_FALSE(stored.empty());
  EXPECT_NE(testing::imageOf(stored.back().payloads).image.pixels, image.image.pixels);
}

TEST(AskedInputAttention, AnOccludedPatchIsFilledWithTheNormalisedZeroAndChecked) {
  const std::string run = trainedAskedRun(kImageClassificationTaskId);
  Expected<TrainingConfig> config = RunFolder::open(run)->readConfig();
  ASSERT_TRUE(config.ok());
  const VisionTransformerConfig& vit = config->task_settings.get<VisionTransformerConfig>();
  const int side = static_cast<int>(vit.image_size);
  const int patch = static_cast<int>(vit.patch_size);
  const int grid = side / patch;
  InferenceRequest request;
  request.run_dir = run;
  request.image_width = request.image_height = side;
  request.image_planar.assign(static_cast<std::size_t>(3 * side * side), 30);
  request.occluded_patch = grid + 1;  // second row, second column
  const InferenceAnswer answer = askModel(request);
  ASSERT_NO_FATAL_FAILURE(expectAsked(answer));
  // What the model read (the picture under its attention): the patch holds the byte the task's
  // normalisation reads as 0, (b / 255 − 0.5) / 0.25, everything else the asked bytes.
  const ImagePayload shown = testing::imageOf(answer.attention.payloads);
  ASSERT_EQ(shown.image.pixels.size(), request.image_planar.size());
  int filled = 0;
  for (int c = 0; c < 3; ++c) {
    for (int y = 0; y < side; ++y) {
      for (int x = 0; x < side; ++x) {
        const bool inside = y / patch == 1 && x / patch == 1;
        const std::uint8_t byte =
            shown.image.pixels[static_cast<std::size_t>((c * side + y) * side + x)];
        EXPECT_EQ(byte, inside ? 128 : 30) << "channel " << c << " at " << x << "," << y;
        filled += inside ? 1 : 0;
      }
    }
  }
  EXPECT_EQ(filled, 3 * patch * patch);
  // The patch changed the answer's attention, not its shape.
  request.occluded_patch = -1;
  const InferenceAnswer plain = askModel(request);
  ASSERT_EQ(plain.attention.groups.size(), answer.attention.groups.size());
  EXPECT_EQ(plain.attention.groups[0].row_labels, answer.attention.groups[0].row_labels);
  EXPECT_NE(plain.attention.groups[0].maps[0].values, answer.attention.groups[0].maps[0].values);

  request.occluded_patch = grid * grid;
  Expected<InferenceAnswer> outside = inferFromCheckpoint(request);
  ASSERT_FALSE(outside.ok());
  const std::string last = std::to_string(grid * grid - 1);
  EXPECT_EQ(outside.error(),
            "occluded patch " + std::to_string(grid * grid) + " is out of range: the model's " +
                std::to_string(side) + "×" + std::to_string(side) + " input has " +
                std::to_string(grid * grid) + " patches of " + std::to_string(patch) + "×" +
                std::to_string(patch) + " pixels, numbered 0 to " + last);
}

TEST(AskedInputAttention, AnOccludedPatchIsRefusedForARunThatReadsText) {
  const std::string run = trainedAskedRun(kSentimentTaskId);
  InferenceRequest request;
  request.run_dir = run;
  request.text = "a fine film";
  request.occluded_patch = 0;
  Expected<InferenceAnswer> answer = inferFromCheckpoint(request);
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error(),
            "an occluded patch is for a run of an image task; " + run + " is a run of imdb");
}

TEST(StoredSnapshots, CarryTheSampleAndPositionalEncodingOfTheirStep) {
  for (const char* task : {kSentimentTaskId, kImageClassificationTaskId, kTranslationTaskId}) {
    SCOPED_TRACE(task);
    const std::vector<AttentionSnapshot> stored = storedSnapshots(trainedAskedRun(task));
    ASSERT_GE(stored.size(), 2u);
    for (const AttentionSnapshot& s : stored) {
      SCOPED_TRACE(s.step);
      ASSERT_TRUE(s.sample.has_value());
      EXPECT_EQ(s.sample->step, s.step);
      EXPECT_EQ(s.sample->task, task);
      EXPECT_EQ(s.sample->sample_index, s.sample_index);
      EXPECT_FALSE(s.sample->expected.empty());
      ASSERT_TRUE(s.positional_encoding.has_value());
      EXPECT_EQ(s.positional_encoding->step, s.step);
      EXPECT_GT(s.positional_encoding->positions, 0);
      EXPECT_EQ(
          s.positional_encoding->values.size(),
          static_cast<std::size_t>(s.positional_encoding->positions) * s.positional_encoding->dims);
    }
    if (task == std::string(kImageClassificationTaskId)) {
      EXPECT_EQ(testing::imageOf(stored.back().sample->payloads).image.pixels,
                testing::imageOf(stored.back().payloads).image.pixels);
      EXPECT_TRUE(stored.back().positional_encoding->has_cls);
    }
  }
}

}  // namespace
}  // namespace ascope
