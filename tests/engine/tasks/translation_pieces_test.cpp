// A translation run with subword pieces, end to end: the pieces learned at the start are the run
// folder's own file, read back by inference, evaluation and a resumed run; an unknown word is
// pieces, not [UNK]; a beam gives its hypotheses and greedy's BLEU beside its own; a spoilt pieces
// file is refused naming it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "engine/core/file_bytes.h"
#include "engine/evaluation/run_evaluation.h"
#include "engine/inference/checkpoint_inference.h"
#include "engine/models/translator_config.h"
#include "engine/tasks/registry/run_config_reader.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "engine/text/pieces/sentence_piece_model.h"
#include "engine/train/trainer.h"
#include "engine/vocabulary/beam_payload.h"
#include "tests/engine/removed_at_exit.h"
#include "tests/support/trainer_drain.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

void trainPiecesRun(const TrainingConfig& c) {
  Trainer trainer(c);
  const Status started = trainer.start();
  ASSERT_TRUE(started.ok()) << started.error();
  drainUntilFinished(trainer, [](EventBatch) {});
  EXPECT_EQ(trainer.state(), TrainerState::kFinished);
}

std::string fileText(const std::string& path) {
  Expected<std::string> bytes = readFileBytes(path);
  return bytes.ok() ? *bytes : std::string();
}

class TranslationPieces : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!SentencePieceModel::available()) return;
    TrainingConfig c = *makePreset(kTranslationTaskId, "tiny");
    c.model.as<TranslatorConfig>().piece_vocab_size = 340;
    c.out_dir = testing::freshTempPath("ascope_translation_pieces");
    c.probe_every_seconds = 1e9;
    c.epochs = 2;
    config_ = new TrainingConfig(c);
    trainPiecesRun(c);
  }
  static void TearDownTestSuite() { delete config_; }
  void SetUp() override {
    if (!SentencePieceModel::available()) GTEST_SKIP() << "built without SentencePiece";
  }
  static std::string run() { return config_->out_dir; }
  static TrainingConfig* config_;
};

TrainingConfig* TranslationPieces::config_ = nullptr;

TEST_F(TranslationPieces, TheRunKeepsItsPiecesAndSaysHowManyAndNoUnknown) {
  EXPECT_TRUE(fs::is_regular_file(run() + "/pieces_en.model"));
  EXPECT_TRUE(fs::is_regular_file(run() + "/pieces_it.model"));
  EXPECT_FALSE(fs::exists(run() + "/tokenizer_en.json"));
  Expected<TrainingConfig> saved = readRunConfig(run());
  ASSERT_TRUE(saved.ok()) << saved.error();
  EXPECT_EQ(saved->model.get<TranslatorConfig>().piece_vocab_size, 340);
  EXPECT_EQ(saved->model.get<TranslatorConfig>().source_vocab_size, 340);
  const std::string config = fileText(run() + "/config.json");
  EXPECT_NE(config.find("\"unknown_share\""), std::string::npos) << config;
  const std::string log = fileText(run() + "/log.txt");
  EXPECT_NE(log.find("vocabularies 340/340 pieces ([UNK] 0.00 %/0.00 %"), std::string::npos)
      << log.substr(0, 2000);
}

TEST_F(TranslationPieces, AnUnknownWordIsShownAsPiecesNotUnknown) {
  InferenceRequest request;
  request.run_dir = run();
  request.text = "the zebra quietly eats";
  Expected<InferenceAnswer> answer = inferFromCheckpoint(request);
  ASSERT_TRUE(answer.ok()) << answer.error();
  ASSERT_FALSE(answer->attention.groups.empty());
  const std::vector<std::string>& source = answer->attention.groups.front().col_labels;
  bool continued = false;
  for (const std::string& label : source) {
    EXPECT_NE(label, "[UNK]");
    EXPECT_EQ(label.find("\xE2\x96\x81"), std::string::npos) << label;
    EXPECT_EQ(label.find("<0x"), std::string::npos) << label;
    continued = continued || label.rfind("##", 0) == 0;
  }
  EXPECT_TRUE(continued) << "\"zebra\" was never seen: it is split into pieces";
  EXPECT_TRUE(answer->ranking.empty()) << "greedy has no other hypotheses";
}

TEST_F(TranslationPieces, ABeamGivesItsHypothesesBestFirst) {
  InferenceRequest request;
  request.run_dir = run();
  request.text = "the black cat eats";
  request.beam_width = 3;
  Expected<InferenceAnswer> answer = inferFromCheckpoint(request);
  ASSERT_TRUE(answer.ok()) << answer.error();
  ASSERT_FALSE(answer->ranking.empty());
  EXPECT_LE(answer->ranking.size(), 3u);
  EXPECT_EQ(answer->ranking.front().first, answer->label);
  for (std::size_t i = 1; i < answer->ranking.size(); ++i) {
    EXPECT_GE(answer->ranking[i - 1].second, answer->ranking[i].second);
  }
  // The beam for the Decoding dock: the tree, and each hypothesis with its own attention, whose
  // decoder rows are [SOS] and the hypothesis' pieces.
  const BeamPayload* beam = answer->attention.payloads.find<BeamPayload>();
  ASSERT_NE(beam, nullptr);
  EXPECT_EQ(beam->width, 3);
  ASSERT_EQ(beam->hypotheses.size(), answer->ranking.size());
  int kept = 0, pruned = 0;
  for (const BeamPayload::Node& n : beam->nodes) {
    kept += n.fate == BeamPayload::Fate::kKept;
    pruned += n.fate == BeamPayload::Fate::kPruned;
    EXPECT_LT(n.parent, static_cast<int>(&n - beam->nodes.data()));
  }
  EXPECT_GT(kept, 0);
  EXPECT_GT(pruned, 0);
  for (const BeamPayload::Hypothesis& h : beam->hypotheses) {
    ASSERT_GE(h.node, 0);
    const AttentionGroup* cross = nullptr;
    for (const AttentionGroup& g : h.attention.groups) {
      if (g.name == "cross") cross = &g;
    }
    ASSERT_NE(cross, nullptr);
    EXPECT_EQ(cross->row_labels.front(), "[SOS]");
    int steps = 0;
    for (int at = h.node; at >= 0; at = beam->nodes[static_cast<std::size_t>(at)].parent) ++steps;
    // Fed: [SOS] and every token said but [EOS]; a hypothesis stopped by the length limit has
    // none.
    const bool ended = beam->nodes[static_cast<std::size_t>(h.node)].token == "[EOS]";
    EXPECT_EQ(static_cast<int>(cross->row_labels.size()), ended ? steps : steps + 1) << h.text;
  }
  EXPECT_EQ(beam->hypotheses.front().text, answer->label);
  // Only translation runs have a beam; the width is checked.
  request.beam_width = 65;
  EXPECT_FALSE(inferFromCheckpoint(request).ok());
}

TEST_F(TranslationPieces, EvaluateWithABeamGivesGreedysBleuBeside) {
  EvaluationRequest request;
  request.run_dir = run();
  request.data = "builtin";
  request.errors = 1;
  request.beam_width = 2;
  Expected<EvaluationReport> beam = evaluateRun(request);
  ASSERT_TRUE(beam.ok()) << beam.error();
  ASSERT_TRUE(beam->figures.has("greedy_bleu"));
  request.beam_width = 1;
  Expected<EvaluationReport> greedy = evaluateRun(request);
  ASSERT_TRUE(greedy.ok()) << greedy.error();
  EXPECT_FALSE(greedy->figures.has("greedy_bleu"));
  EXPECT_NEAR(*beam->figures.get("greedy_bleu"), *greedy->figures.get("bleu"), 1e-9);
}

TEST_F(TranslationPieces, AResumedRunReadsThePiecesItStartedWith) {
  const std::string before = fileText(run() + "/pieces_it.model");
  ASSERT_FALSE(before.empty());
  Expected<TrainingConfig> resumed = readRunConfig(run());
  ASSERT_TRUE(resumed.ok()) << resumed.error();
  resumed->resume = true;
  resumed->out_dir = run();
  resumed->epochs = 3;
  resumed->probe_every_seconds = 1e9;
  trainPiecesRun(*resumed);
  EXPECT_EQ(fileText(run() + "/pieces_it.model"), before);
}

TEST_F(TranslationPieces, ASpoiltPiecesFileIsRefusedNamingIt) {
  const std::string copy = testing::freshTempPath("ascope_translation_pieces_spoilt");
  fs::copy(run(), copy, fs::copy_options::recursive);
  { std::ofstream(copy + "/pieces_en.model", std::ios::trunc) << "not a model"; }
  InferenceRequest request;
  request.run_dir = copy;
  request.text = "the cat";
  Expected<InferenceAnswer> answer = inferFromCheckpoint(request);
  ASSERT_FALSE(answer.ok());
  EXPECT_NE(answer.error().find("pieces_en.model"), std::string::npos) << answer.error();
  fs::remove(copy + "/pieces_en.model");
  answer = inferFromCheckpoint(request);
  ASSERT_FALSE(answer.ok());
  EXPECT_NE(answer.error().find("pieces_en.model"), std::string::npos) << answer.error();
}

}  // namespace
}  // namespace ascope
