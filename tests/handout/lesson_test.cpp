// A lesson carried by the handout: each moment's head packed as the page reads it (a stored
// sample's weights, a causal head's future masked, another run's moment under its own name, a
// typed minimal pair from the model the caller asks), a moment that cannot be shown skipped by
// name, the lesson counted within the size limit, and the page never written over the lesson or
// into one of its runs.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "engine/handout/base64.h"
#include "engine/handout/handout_lesson_from_runs.h"
#include "engine/handout/handout_writer.h"
#include "engine/handout/quantized_weights.h"
#include "engine/runfolder/lesson/lesson_file.h"
#include "engine/runfolder/lesson_moment_check.h"
#include "engine/runfolder/run_folder.h"
#include "engine/runfolder/snapshots/attention_snapshot_codec.h"
#include "tests/handout/document_check.h"
#include "tests/handout/synthetic_run.h"

namespace ascope {
namespace {

using nlohmann::json;
using testing::SyntheticRunOptions;
using testing::TempFolder;

LessonMoment headMoment(const std::string& run, const std::string& group, int layer, int head) {
  LessonMoment m;
  m.run = run;
  m.group = group;
  m.layer = layer;
  m.head = head;
  return m;
}

/// The model of a run as the tests ask it: one layer of one head over the text's words, each
/// attending to the last word; step 77.
Expected<AttentionSnapshot> askSynthetic(const std::string&, const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string w; in >> w;) words.push_back(w);
  if (words.empty()) return Error{"no words"};
  AttentionSnapshot s;
  s.step = 77;
  s.sample_index = -1;
  AttentionGroup g;
  g.name = "encoder";
  g.layers = 1;
  g.heads = 1;
  g.row_labels = g.col_labels = words;
  const int n = static_cast<int>(words.size());
  AttentionMap map{n, n, std::vector<float>(static_cast<std::size_t>(n) * n, 0.0f)};
  for (int r = 0; r < n; ++r) map.values[static_cast<std::size_t>(r) * n + n - 1] = 1.0f;
  g.maps.push_back(map);
  s.groups.push_back(g);
  return s;
}

/// The lesson at `path` as the CLI reads it: playable moments, then what the handout carries.
HandoutLessonRead lessonAt(const std::string& path, const std::string& run, AskTypedInput ask) {
  Expected<LessonRead> read = readLesson(path);
  EXPECT_TRUE(read.ok()) << read.error();
  const LessonRead playable = playableLesson(path, *read);
  HandoutLessonOptions options;
  options.ask = std::move(ask);
  HandoutLessonRead carried = readHandoutLesson(path, playable, run, options);
  carried.skipped.insert(carried.skipped.begin(), playable.skipped.begin(), playable.skipped.end());
  return carried;
}

/// Input `i` of moment `m`'s weight at r, c as the page decodes it.
float lessonWeight(const json& doc, int m, int i, int r, int c) {
  const json& in = doc["lesson"]["moments"][m]["inputs"][i];
  const std::string codes = *base64Decode(in["weights"].get<std::string>());
  const int cols = in["cols"];
  return dequantizeWeight(static_cast<std::uint8_t>(codes[static_cast<std::size_t>(r * cols + c)]),
                          in["scale"].get<float>());
}

std::vector<std::string> labelListAt(const json& doc, const json& index) {
  return doc["labels"][index.get<std::size_t>()].get<std::vector<std::string>>();
}

class LessonInHandout : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::writeSyntheticRun(tmp_.path("run"));
    SyntheticRunOptions other;
    other.labels = {"a", "b", "c", "d", "e", "f"};
    testing::writeSyntheticRun(tmp_.path("other"), other);
  }
  TempFolder tmp_;
};

TEST_F(LessonInHandout, EveryMomentIsPackedAsThePageReadsIt) {
  Lesson lesson;
  lesson.title = "Heads at work";
  LessonMoment stored = headMoment("run", "encoder", 1, 1);
  stored.step = 30;
  stored.sample = 5;
  stored.query = 2;
  stored.hidden = true;
  stored.question = "Where does w2 look?";
  LessonMoment causal = headMoment("run", "decoder self", 0, 1);
  LessonMoment curves = headMoment("run", "", 0, 0);
  curves.view = "curves";
  curves.question = "When does the loss flatten?";
  LessonMoment other = headMoment(tmp_.path("other"), "", 2, 0);
  other.view = "heads";
  other.sample = 0;
  LessonMoment pair = headMoment("run", "encoder", 0, 0);
  pair.text = "the black cat";
  pair.pair_text = "the white cat sat";
  pair.query = 1;
  pair.hidden = true;
  LessonMoment missing = headMoment("run", "encoder", 9, 0);
  missing.question = "A layer the model lacks";
  lesson.moments = {stored, causal, curves, other, pair, missing};
  const std::string path = tmp_.path("lesson.json");
  ASSERT_TRUE(writeLesson(path, lesson).ok());

  const HandoutLessonRead read = lessonAt(path, tmp_.path("run"), askSynthetic);
  ASSERT_EQ(read.skipped.size(), 1u);
  EXPECT_EQ(read.skipped[0], path +
                                 ": moment 6 (\"A layer the model lacks\"): layer 9 is out of "
                                 "range: encoder has 3 layers (0 to 2); skipped");
  HandoutOptions options;
  options.lesson = read.lesson;
  Expected<HandoutSummary> summary =
      writeHandout(tmp_.path("run"), tmp_.path("lecture.html"), options);
  ASSERT_TRUE(summary.ok()) << summary.error();
  EXPECT_EQ(summary->lesson_moments, 5);
  const std::string document = testing::handoutDataOf(testing::fileText(tmp_.path("lecture.html")));
  const testing::DocumentCheck check = testing::checkHandoutDocument(document, tmp_.path());
  EXPECT_EQ(check.exit_code, 0) << check.output;
  const json doc = json::parse(document);
  ASSERT_TRUE(doc.contains("lesson"));
  EXPECT_EQ(doc["lesson"]["title"], "Heads at work");
  const json& moments = doc["lesson"]["moments"];
  ASSERT_EQ(moments.size(), 5u);

  // The stored sample's head at its step, every weight within half a step of its scale.
  const json& first = moments[0];
  EXPECT_EQ(first["question"], "Where does w2 look?");
  EXPECT_EQ(first["hidden"], true);
  EXPECT_EQ(first["step"], 30);
  EXPECT_EQ(first["sample"], 5);
  EXPECT_EQ(first["run"]["name"], "run");
  EXPECT_EQ(first["run"]["this_run"], true);
  EXPECT_EQ(first["head"]["group"], "encoder");
  EXPECT_EQ(first["head"]["layer"], 1);
  EXPECT_EQ(first["head"]["head"], 1);
  EXPECT_EQ(first["head"]["query"], 2);
  ASSERT_EQ(first["inputs"].size(), 1u);
  EXPECT_EQ(first["inputs"][0]["name"], "sample #5");
  EXPECT_EQ(doc["texts"][first["inputs"][0]["text"].get<std::size_t>()], "the black cat");
  EXPECT_EQ(labelListAt(doc, first["inputs"][0]["col_labels"]),
            (std::vector<std::string>{"w0", "w1", "w2", "w3", "w4", "w5"}));
  Expected<RunFolder> folder = RunFolder::open(tmp_.path("run"));
  ASSERT_TRUE(folder.ok()) << folder.error();
  Expected<ProbeSet> step30 = readProbeSet(folder->attentionPath(30));
  ASSERT_TRUE(step30.ok()) << step30.error();
  const AttentionMap& map = step30->samples.at(1).groups.at(0).map(1, 1);
  const float top = *std::max_element(map.values.begin(), map.values.end());
  for (int r = 0; r < 6; ++r) {
    for (int c = 0; c < 6; ++c) {
      EXPECT_NEAR(lessonWeight(doc, 0, 0, r, c), map.values[static_cast<std::size_t>(r * 6 + c)],
                  top / 508 + 1e-6)
          << r << ", " << c;
    }
  }
  // A causal head's future is masked, not a weight of 0 to be guessed.
  EXPECT_EQ(moments[1]["head"]["causal"], true);
  EXPECT_TRUE(std::isnan(lessonWeight(doc, 1, 0, 0, 1)));
  EXPECT_FALSE(std::isnan(lessonWeight(doc, 1, 0, 1, 0)));
  // A view without a head: its question and where, no weights.
  EXPECT_TRUE(moments[2]["head"].is_null());
  EXPECT_TRUE(moments[2]["inputs"].empty());
  EXPECT_EQ(moments[2]["view"], "curves");
  EXPECT_EQ(moments[2]["step"], -1);
  // Another run's moment: its own name, its own tokens; the page cannot go to it.
  EXPECT_EQ(moments[3]["run"]["name"], "other");
  EXPECT_EQ(moments[3]["run"]["this_run"], false);
  EXPECT_EQ(labelListAt(doc, moments[3]["inputs"][0]["row_labels"]).front(), "a");
  // A typed minimal pair: both inputs of the same head, from the model's checkpoint.
  const json& typed = moments[4];
  EXPECT_EQ(typed["step"], 77);
  EXPECT_EQ(typed["sample"], -1);
  ASSERT_EQ(typed["inputs"].size(), 2u);
  EXPECT_EQ(typed["inputs"][0]["name"], "“the black cat”");
  EXPECT_EQ(typed["inputs"][1]["name"], "“the white cat sat”");
  EXPECT_EQ(typed["inputs"][1]["cols"], 4);
  EXPECT_FLOAT_EQ(lessonWeight(doc, 4, 1, 1, 3), 1.0f);
}

TEST_F(LessonInHandout, ATypedInputWithoutTheModelIsSkippedByName) {
  Lesson lesson;
  LessonMoment typed = headMoment("run", "encoder", 0, 0);
  typed.text = "the black cat";
  typed.question = "Which word decides?";
  LessonMoment tall = typed;
  tall.query = 5;
  tall.question = "Row five";
  lesson.moments = {headMoment("run", "", 0, 0), typed, tall};
  const std::string path = tmp_.path("lesson.json");
  ASSERT_TRUE(writeLesson(path, lesson).ok());
  const HandoutLessonRead without = lessonAt(path, tmp_.path("run"), nullptr);
  EXPECT_EQ(without.lesson.moments.size(), 1u);
  ASSERT_EQ(without.skipped.size(), 2u);
  EXPECT_EQ(without.skipped[0], path +
                                    ": moment 2 (\"Which word decides?\"): its typed input needs "
                                    "the run's model, which is not asked here; skipped");
  // Asked, the typed input's own length bounds its query row.
  const HandoutLessonRead asked = lessonAt(path, tmp_.path("run"), askSynthetic);
  EXPECT_EQ(asked.lesson.moments.size(), 2u);
  ASSERT_EQ(asked.skipped.size(), 1u);
  EXPECT_EQ(asked.skipped[0], path +
                                  ": moment 3 (\"Row five\"): query row 5 is out of range: the "
                                  "sample has 3 tokens there; skipped");
}

TEST_F(LessonInHandout, CountsWithinTheSizeLimit) {
  TempFolder big;
  SyntheticRunOptions options;
  options.snapshots = 40;
  options.tokens = 24;
  testing::writeSyntheticRun(big.path("run"), options);
  Lesson lesson;
  for (int i = 0; i < 60; ++i) lesson.moments.push_back(headMoment("run", "encoder", i % 3, 0));
  const std::string path = big.path("lesson.json");
  ASSERT_TRUE(writeLesson(path, lesson).ok());
  const HandoutLessonRead read = lessonAt(path, big.path("run"), nullptr);
  ASSERT_EQ(read.lesson.moments.size(), 60u);

  // The page of the run alone sets the limit: with the lesson, snapshots make room for it.
  Expected<HandoutSummary> alone =
      writeHandout(big.path("run"), big.path("alone.html"), HandoutOptions{});
  ASSERT_TRUE(alone.ok()) << alone.error();
  ASSERT_TRUE(alone->left_out.empty());
  HandoutOptions limited;
  limited.max_mb = static_cast<double>(alone->bytes) / 1e6;
  limited.lesson = read.lesson;
  Expected<HandoutSummary> with = writeHandout(big.path("run"), big.path("lesson.html"), limited);
  ASSERT_TRUE(with.ok()) << with.error();
  EXPECT_LE(with->bytes, alone->bytes);
  EXPECT_LT(with->snapshots_kept, alone->snapshots_kept);
  EXPECT_FALSE(with->left_out.empty());
  EXPECT_EQ(json::parse(testing::handoutDataOf(
                testing::fileText(big.path("lesson.html"))))["lesson"]["moments"]
                .size(),
            60u);
  // A lesson larger than the limit itself is said so.
  limited.max_mb = kMinHandoutMaxMb;
  Expected<HandoutSummary> refused = writeHandout(big.path("run"), big.path("small.html"), limited);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("its lesson of 60 moments"), std::string::npos) << refused.error();
  EXPECT_FALSE(std::filesystem::exists(big.path("small.html")));
}

TEST_F(LessonInHandout, NeverWrittenOverTheLessonOrIntoItsRuns) {
  Lesson lesson;
  lesson.moments = {headMoment("other", "", 0, 0)};
  const std::string path = tmp_.path("lesson.json");
  ASSERT_TRUE(writeLesson(path, lesson).ok());
  const std::string before = testing::fileText(path);
  HandoutOptions options;
  options.lesson = lessonAt(path, tmp_.path("run"), nullptr).lesson;
  ASSERT_EQ(options.lesson->moments.size(), 1u);
  Expected<HandoutSummary> over = writeHandout(tmp_.path("run"), path, options);
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.error().find("the lesson this handout carries"), std::string::npos)
      << over.error();
  EXPECT_EQ(testing::fileText(path), before);
  const std::string inside = tmp_.path("other/lecture.html");
  Expected<HandoutSummary> into = writeHandout(tmp_.path("run"), inside, options);
  ASSERT_FALSE(into.ok());
  EXPECT_NE(into.error().find("a run folder this handout's lesson shows"), std::string::npos)
      << into.error();
  EXPECT_FALSE(std::filesystem::exists(inside));
}

}  // namespace
}  // namespace ascope
