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
#include "engine/core/json_file.h"
#include "engine/evaluation/run_evaluation.h"
#include "engine/inference/checkpoint_inference.h"
#include "engine/models/translator_config.h"
#include "engine/tasks/registry/run_config_reader.h"
#include "engine/tasks/registry/task_factory.h"
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
    c.task_settings.as<TranslatorConfig>().piece_vocab_size = 340;
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
  EXPECT_EQ(saved->task_settings.get<TranslatorConfig>().piece_vocab_size, 340);
  EXPECT_EQ(saved->task_settings.get<TranslatorConfig>().source_vocab_size, 340);
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

/// A copy of the run to spoil.
std::string copyOfRun(const std::string& run, const std::string& name) {
  const std::string copy = testing::freshTempPath("ascope_translation_pieces_" + name);
  fs::copy(run, copy, fs::copy_options::recursive);
  return copy;
}

std::string inferError(const std::string& run_dir) {
  InferenceRequest request;
  request.run_dir = run_dir;
  request.text = "the cat";
  Expected<InferenceAnswer> answer = inferFromCheckpoint(request);
  return answer.ok() ? std::string("(answered)") : answer.error();
}

TEST_F(TranslationPieces, ConfigRecordsEachLanguagesPiecesSha256) {
  Expected<TrainingConfig> saved = readRunConfig(run());
  ASSERT_TRUE(saved.ok()) << saved.error();
  const TranslatorConfig& t = saved->task_settings.get<TranslatorConfig>();
  Expected<SentencePieceModel> en = SentencePieceModel::load(run() + "/pieces_en.model");
  Expected<SentencePieceModel> it = SentencePieceModel::load(run() + "/pieces_it.model");
  ASSERT_TRUE(en.ok() && it.ok());
  EXPECT_EQ(t.source_pieces_sha256, en->sha256());
  EXPECT_EQ(t.target_pieces_sha256, it->sha256());
  EXPECT_EQ(t.source_pieces_sha256.size(), 64u);
  EXPECT_NE(t.source_pieces_sha256, t.target_pieces_sha256);
  EXPECT_EQ(SentencePieceModel::fromBytes("", "x").ok(), false);
}

TEST_F(TranslationPieces, SwappedPiecesFilesAreRefusedByInferEvaluateAndResume) {
  // Both files are valid piece models: before their SHA-256 was recorded, the swapped run
  // trained on (test BLEU 0.0) and replaced checkpoints/last.pt.
  const std::string copy = copyOfRun(run(), "swapped");
  fs::rename(copy + "/pieces_en.model", copy + "/swap.tmp");
  fs::rename(copy + "/pieces_it.model", copy + "/pieces_en.model");
  fs::rename(copy + "/swap.tmp", copy + "/pieces_it.model");
  const std::string refused = inferError(copy);
  EXPECT_EQ(refused.rfind(copy + "/pieces_en.model: not the pieces this run was trained with", 0),
            0u)
      << refused;
  EvaluationRequest evaluation;
  evaluation.run_dir = copy;
  evaluation.data = "builtin";
  Expected<EvaluationReport> report = evaluateRun(evaluation);
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.error().find("pieces_en.model: not the pieces this run"), std::string::npos)
      << report.error();
  const std::string checkpoint = fileText(copy + "/checkpoints/last.pt");
  Expected<TrainingConfig> resumed = readRunConfig(copy);
  ASSERT_TRUE(resumed.ok()) << resumed.error();
  resumed->resume = true;
  resumed->out_dir = copy;
  resumed->epochs = 3;
  Trainer trainer(*resumed);
  const Status started = trainer.start();
  if (started.ok()) {
    std::vector<Failure> failures;
    drainUntilFinished(trainer, [&](EventBatch batch) {
      failures.insert(failures.end(), batch.failures.begin(), batch.failures.end());
    });
    ASSERT_FALSE(failures.empty()) << "the resume was refused";
    EXPECT_NE(failures.front().message.find("not the pieces this run"), std::string::npos)
        << failures.front().message;
  } else {
    EXPECT_NE(started.error().find("not the pieces this run"), std::string::npos)
        << started.error();
  }
  EXPECT_EQ(fileText(copy + "/checkpoints/last.pt"), checkpoint) << "no checkpoint replaced";
}

TEST_F(TranslationPieces, AnotherRunsValidPiecesAreRefused) {
  const std::string copy = copyOfRun(run(), "foreign");
  std::vector<std::string_view> sentences = {"a completely different corpus of words",
                                             "with other sentences in it"};
  std::vector<std::string> many;
  for (int i = 0; i < 300; ++i) many.push_back("sentence number " + std::to_string(i) + " here");
  sentences.assign(many.begin(), many.end());
  Expected<SentencePieceModel> foreign = SentencePieceModel::train(sentences, {300, "bpe", 3});
  ASSERT_TRUE(foreign.ok()) << foreign.error();
  ASSERT_TRUE(foreign->save(copy + "/pieces_it.model").ok());
  const std::string refused = inferError(copy);
  EXPECT_NE(refused.find("pieces_it.model: not the pieces this run was trained with"),
            std::string::npos)
      << refused;
}

TEST_F(TranslationPieces, ASymlinkedPiecesFileIsNotFollowed) {
  // The README says no run-folder file is read through a symbolic link: infer, evaluate and
  // the window followed one (only resume refused it).
  const std::string copy = copyOfRun(run(), "linked");
  fs::rename(copy + "/pieces_en.model", copy + "/elsewhere.model");
  fs::create_symlink(copy + "/elsewhere.model", copy + "/pieces_en.model");
  const std::string refused = inferError(copy);
  EXPECT_NE(refused.find("pieces_en.model is a symbolic link"), std::string::npos) << refused;
}

TEST_F(TranslationPieces, ARunMadeBeforeTheFingerprintsLoadsItsPiecesWithAWarning) {
  const std::string copy = copyOfRun(run(), "older");
  Expected<nlohmann::json> config = readJsonFile(copy + "/config.json");
  ASSERT_TRUE(config.ok()) << config.error();
  (*config)["translator"].erase("source_pieces_sha256");
  (*config)["translator"].erase("target_pieces_sha256");
  ASSERT_TRUE(writeJsonFile(copy + "/config.json", *config).ok());
  EXPECT_EQ(inferError(copy), "(answered)");
  Expected<TrainingConfig> older = readRunConfig(copy);
  ASSERT_TRUE(older.ok()) << older.error();
  std::vector<std::string> warnings;
  Expected<std::unique_ptr<Task>> task =
      makeInferenceTask(*older, copy, torch::kCPU, false, &warnings);
  ASSERT_TRUE(task.ok()) << task.error();
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[0].find("records no SHA-256 of its pieces"), std::string::npos) << warnings[0];
}

TEST_F(TranslationPieces, ARecordedSha256ThatIsNotOneIsRefusedNamingTheSetting) {
  const std::string copy = copyOfRun(run(), "badhash");
  Expected<nlohmann::json> config = readJsonFile(copy + "/config.json");
  ASSERT_TRUE(config.ok()) << config.error();
  (*config)["translator"]["target_pieces_sha256"] = "\x1b]0;pwned\x07";
  ASSERT_TRUE(writeJsonFile(copy + "/config.json", *config).ok());
  const std::string refused = inferError(copy);
  EXPECT_NE(refused.find("target_pieces_sha256 must be 64 lowercase hex digits"), std::string::npos)
      << refused;
  EXPECT_EQ(refused.find('\x1b'), std::string::npos) << "the file's bytes are not quoted";
}

}  // namespace
}  // namespace ascope
