// The handout's contract: a document the packer writes — with every section filled, and from a
// run folder through the writer — holds to resources/handout/handout.schema.json and its
// references; and the check finds each way a document can break it.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "engine/handout/handout_packer.h"
#include "engine/handout/handout_writer.h"
#include "tests/handout/document_check.h"
#include "tests/handout/synthetic_computation.h"
#include "tests/handout/synthetic_run.h"

namespace ascope {
namespace {

using nlohmann::json;
using testing::checkHandoutDocument;
using testing::DocumentCheck;
using testing::TempFolder;

HandoutFrame fullFrame(std::int64_t step) {
  HandoutFrame frame;
  frame.step = step;
  HandoutProbe probe;
  probe.sample_index = 4;
  HandoutAttention a;
  a.layers = 2;
  a.heads = 2;
  a.rows = 2;
  a.cols = 3;
  a.row_labels = {"<bos>", "ciao"};
  a.col_labels = {"hello", "world", "<eos>"};
  a.row_predictions = {"ciao", "mondo"};
  for (int i = 0; i < 24; ++i) a.weights.push_back(i % 5 == 0 ? std::nanf("") : 0.04f * i);
  probe.attention.push_back(a);
  probe.image.width = 4;
  probe.image.height = 2;
  probe.image.rgb_planar.assign(4 * 2 * 3, 7);
  probe.image.grid_rows = 1;
  probe.image.grid_cols = 2;
  probe.prediction = HandoutPrediction{"hello world", "ciao mondo", "ciao", std::nan(""), false};
  HandoutDecodingStep first, second;
  first.top = {{"ciao", 0.9}, {"salve", 0.05}};
  second.top = {{"mondo", 0.8}, {"<eos>", std::nan("")}};
  probe.decoding = {first, second};
  frame.probes.push_back(probe);
  HandoutPositionalEncoding pe;
  pe.kind = "learned";
  pe.positions = 3;
  pe.dims = 4;
  for (int i = 0; i < 12; ++i) pe.values.push_back(0.1f * static_cast<float>(i - 6));
  frame.positional_encoding = pe;
  return frame;
}

/// A document with every section the page reads filled, NaNs among its numbers.
std::string fullDocument() {
  HandoutData data;
  data.run_name = "run";
  data.task = "translate";
  data.task_title = "English → Italian";
  data.free_text = true;
  data.settings = {{"model.d_model", "64"}, {"data.source_language", ""}};
  data.series = {{"loss", "loss", "Loss", "train", {1, 2, 3}, {2.0, std::nan(""), 1.5}},
                 {"bleu", "BLEU", "BLEU", "validation", {3}, {12.5}}};
  data.test = HandoutTest{30, "the carved test split, 300 pairs", {{"bleu", "BLEU", std::nan("")}}};
  data.notes = {{20, "bookmark", "the heads settle"}};
  data.probe_samples = {4};
  HandoutGroup group;
  group.key = "cross";
  group.title = "cross";
  group.layer_names = {"layer 0", "layer 1"};
  group.run_max = 0.92;
  data.groups = {group};
  data.head_stats.groups = {"cross"};
  data.head_stats.metrics = {{"entropy", "how spread the weights are", false}};
  data.head_stats.steps = {10, 20, 30};
  data.head_stats.series = {{0, 1, 1, 0, {0.5f, std::nanf(""), 0.25f}}};
  data.head_stats.changes = {{20, 0, 1, 1, "previous-token", "step 20: cross layer 1 head 1"}};
  HandoutAblation ablation;
  ablation.step = 30;
  ablation.samples = 100;
  ablation.figures = {{"bleu", "BLEU", 1, false}};
  ablation.baseline = {"", -1, -1, "none", 1.2, 0.6, {12.5}};
  ablation.rows = {{"cross", 1, 0, "head", 1.4, 0.5, {std::nullopt}}};
  data.ablation = ablation;
  RunCalibration calibration;
  calibration.temperature = 1.7;
  calibration.weights_step = 30;
  calibration.validation.samples = 4;
  calibration.validation.before.bins = {{0.9, 1.0, 4, 0.95, 0.75}};
  calibration.validation.after = calibration.validation.before;
  data.calibration = calibration;
  data.frames = {{10, "a"}, {30, "b"}};

  HandoutPacker packer;
  HandoutLesson lesson;
  lesson.title = "cross attention";
  HandoutLessonMoment moment;
  moment.question = "Which word does \"ciao\" read?";
  moment.view = "attention";
  moment.hidden = true;
  moment.run_name = "run";
  moment.task = "translate";
  moment.task_title = "English → Italian";
  moment.this_run = true;
  moment.step = 30;
  moment.sample = 4;
  moment.group_title = "cross";
  moment.query = 1;
  HandoutLessonInput input;
  input.name = "sample #4";
  input.text = "hello world";
  input.rows = 2;
  input.cols = 3;
  input.row_labels = {"<bos>", "ciao"};
  input.col_labels = {"hello", "world", "<eos>"};
  input.weights = {0.5f, 0.25f, 0.25f, std::nanf(""), 0.75f, 0.25f};
  moment.inputs = {input};
  HandoutLessonMoment curves;
  curves.view = "curves";
  curves.question = "When does BLEU rise?";
  lesson.moments = {moment, curves};
  packer.packLesson(lesson);
  AttentionComputation cross = testing::syntheticComputation();
  cross.group = "cross";
  cross.key_input.values[0] += 1;  // keys of their own: key_input is carried
  packer.packComputations({{testing::syntheticComputation(), 1, 1}, {cross, 0, 3}}, data.groups);
  HandoutSelection all;
  all.probes = 1;
  all.groups = {true};
  all.layers = {{true, true}};
  std::vector<json> frames = {packer.packFrame(fullFrame(10), all),
                              packer.packFrame(fullFrame(30), all)};
  return packer.document(data, frames, all, {"snapshots thinned to 2"}, 20, "dark");
}

TEST(HandoutDocument, EverySectionFilledHoldsToTheContract) {
  TempFolder tmp;
  const DocumentCheck check = checkHandoutDocument(fullDocument(), tmp.path());
  EXPECT_EQ(check.exit_code, 0) << check.output;
  // Every optional section is there to be checked, not null.
  const json doc = json::parse(fullDocument());
  for (const char* section :
       {"test", "head_stats", "ablation", "calibration", "lesson", "computations"}) {
    EXPECT_FALSE(doc[section].is_null()) << section;
  }
  EXPECT_EQ(doc["images"].size(), 1u);
  EXPECT_EQ(doc["encodings"].size(), 1u);
}

TEST(HandoutDocument, APageWrittenFromARunFolderHoldsToTheContract) {
  TempFolder tmp;
  testing::writeSyntheticRun(tmp.path("run"));
  const std::string out = tmp.path("lecture.html");
  Expected<HandoutSummary> summary = writeHandout(tmp.path("run"), out, HandoutOptions{});
  ASSERT_TRUE(summary.ok()) << summary.error();
  std::ifstream in(out, std::ios::binary);
  std::ostringstream page;
  page << in.rdbuf();
  const std::string document = testing::handoutDataOf(page.str());
  ASSERT_FALSE(document.empty());
  const DocumentCheck check = checkHandoutDocument(document, tmp.path());
  EXPECT_EQ(check.exit_code, 0) << check.output;
}

TEST(HandoutDocument, TheCheckFindsEachBreach) {
  TempFolder tmp;
  const json good = json::parse(fullDocument());
  struct Breach {
    const char* what;
    void (*apply)(json&);
    const char* named;  ///< the path or word the finding names
  };
  const std::vector<Breach> breaches = {
      {"a section missing", [](json& d) { d.erase("frames"); }, "frames"},
      {"another layout", [](json& d) { d["format"] = 2; }, "$.format"},
      {"a key the page does not know", [](json& d) { d["run"]["colour"] = "red"; }, "colour"},
      {"a number as text", [](json& d) { d["max_mb"] = "20"; }, "$.max_mb"},
      {"weights short of their shape",
       [](json& d) { d["frames"][0]["probes"][0]["attention"][0]["weights"] = "AAAA"; },
       "$.frames[0].probes[0].attention[0].weights"},
      {"an image that is not there", [](json& d) { d["frames"][1]["probes"][0]["image"] = 3; },
       "$.frames[1].probes[0].image"},
      {"a label list that is not there",
       [](json& d) { d["frames"][0]["probes"][0]["attention"][0]["col_labels"] = 99; },
       "col_labels"},
      {"bytes that are not base64", [](json& d) { d["colors"]["viridis"] = "not base64!"; },
       "viridis"},
      {"a lesson's weights short of their shape",
       [](json& d) { d["lesson"]["moments"][0]["inputs"][0]["weights"] = "AAAA"; },
       "$.lesson.moments[0].inputs[0].weights"},
      {"a lesson's view the page does not know",
       [](json& d) { d["lesson"]["moments"][1]["view"] = "slides"; }, "view"},
      {"an explained head's q short of its shape",
       [](json& d) { d["computations"][0]["q"]["values"] = "AAAA"; }, "$.computations[0].q"},
      {"an explained head's V of another shape",
       [](json& d) { d["computations"][1]["v"]["rows"] = 9; }, "$.computations[1].v"},
      {"an explained cell outside its head",
       [](json& d) { d["computations"][0]["cell"]["key"] = 40; }, "$.computations[0].cell"},
      {"a head without its inputs",
       [](json& d) { d["lesson"]["moments"][0]["inputs"] = json::array(); },
       "$.lesson.moments[0].head"},
  };
  for (const Breach& b : breaches) {
    json doc = good;
    b.apply(doc);
    const DocumentCheck check = checkHandoutDocument(doc.dump(), tmp.path());
    EXPECT_EQ(check.exit_code, 1) << b.what << "\n" << check.output;
    EXPECT_NE(check.output.find(b.named), std::string::npos) << b.what << "\n" << check.output;
  }
}

}  // namespace
}  // namespace ascope
