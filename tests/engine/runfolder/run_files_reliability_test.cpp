// Reading a run folder back survives what a person or a broken disk can leave in it: a crafted
// attention snapshot (deep nesting used to overflow the pool thread's stack), FIFOs where files
// belong (open() used to block for good), a malformed metrics row (used to empty every curve), a
// huge log (read whole before), and empty texts given to "Try it" / `infer`.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "engine/inference/checkpoint_inference.h"
#include "engine/inference/read_run.h"
#include "engine/runfolder/config/config_difference.h"
#include "engine/runfolder/metrics/metrics_csv_writer.h"
#include "engine/runfolder/run_folder.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "engine/train/trainer.h"
#include "tests/data/fifo_fixture.h"
#include "tests/engine/removed_at_exit.h"
#include "tests/support/payload_access.h"
#include "tests/support/test_files.h"

namespace ascope {
namespace {

using testing::writeFile;

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::Fifo;

std::string runFilesDir(const std::string& name) {
  return testing::freshTempPath("ascope_run_files_test_" + name);
}

/// A run folder with config.json and nothing else.
RunFolder emptyRun(const std::string& name) {
  Expected<RunFolder> folder = RunFolder::create(runFilesDir(name), kSentimentTaskId);
  EXPECT_TRUE(folder.ok()) << folder.error();
  EXPECT_TRUE(folder->writeConfig(*makePreset(kSentimentTaskId, "tiny")).ok());
  return *folder;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string all;
  for (const std::string& line : lines) all += line + "\n";
  return all;
}

std::string msgpack(const nlohmann::json& j) {
  const std::vector<std::uint8_t> bytes = nlohmann::json::to_msgpack(j);
  return std::string(bytes.begin(), bytes.end());
}

nlohmann::json snapshotJson() {
  return {{"version", 1},
          {"step", 10},
          {"task", kSentimentTaskId},
          {"groups",
           {{{"name", "encoder"},
             {"layers", 1},
             {"heads", 2},
             {"row_labels", {"a", "b"}},
             {"col_labels", {"a", "b"}},
             {"maps",
              {{{"rows", 2}, {"cols", 2}, {"values", {0.5, 0.5, 0.5, 0.5}}},
               {{"rows", 1}, {"cols", 2}, {"values", {0.5, 0.5}}}}}}}}};
}

std::string decodeError(const nlohmann::json& j) {
  Expected<AttentionSnapshot> s = decodeAttentionSnapshot(msgpack(j), "step_000000010.msgpack");
  return s.ok() ? "ok" : s.error();
}

TEST(RunFilesReliability, DeeplyNestedSnapshotIsRefusedOnAPoolLikeThread) {
  // The reported file, decoded where the GUI decodes it: on a worker thread.
  const std::string deep = std::string(300000, '\x91') + '\xc0';
  std::string error;
  std::thread worker([&] {
    Expected<AttentionSnapshot> s = decodeAttentionSnapshot(deep, "step_000000010.msgpack");
    error = s.ok() ? "ok" : s.error();
  });
  worker.join();
  EXPECT_EQ(error, "step_000000010.msgpack: MessagePack nested deeper than 32 levels at byte 32");

  // Opening the run keeps everything else and says what is wrong with the snapshot.
  const RunFolder folder = emptyRun("deep");
  writeFile(folder.attentionDir() + "/step_000000010.msgpack", deep);
  Expected<OpenedRun> run = readRun(folder.path());
  ASSERT_TRUE(run.ok()) << run.error();
  EXPECT_FALSE(run->last_probes.has_value());
  EXPECT_NE(joined(run->warnings).find("step_000000010.msgpack: MessagePack nested deeper than 32"),
            std::string::npos)
      << joined(run->warnings);
}

TEST(RunFilesReliability, SnapshotShapesAreBoundedAndConsistent) {
  EXPECT_EQ(decodeError(snapshotJson()), "ok");
  nlohmann::json j = snapshotJson();
  // rows × cols overflowed to 1 in size_t before: -1 × -1 "matched" one value.
  j["groups"][0]["maps"][1] = {{"rows", -1}, {"cols", -1}, {"values", {0.5}}};
  EXPECT_EQ(decodeError(j),
            "step_000000010.msgpack: group \"encoder\": map 1: rows -1 is outside 1..4096");
  j["groups"][0]["maps"][1] = {{"rows", 5000}, {"cols", 1}, {"values", {0.5}}};
  EXPECT_EQ(decodeError(j),
            "step_000000010.msgpack: group \"encoder\": map 1: rows 5000 is outside 1..4096");
  j["groups"][0]["maps"][1] = {{"rows", 2}, {"cols", 2}, {"values", {0.5}}};
  EXPECT_EQ(decodeError(j),
            "step_000000010.msgpack: attention map of encoder has 1 values for 2×2");
  j = snapshotJson();
  j["groups"][0]["heads"] = 3;
  EXPECT_EQ(decodeError(j),
            "step_000000010.msgpack: group encoder has 2 maps for 1 layers × 3 heads");
  j["groups"][0]["heads"] = 5000000000LL;
  EXPECT_EQ(decodeError(j),
            "step_000000010.msgpack: group \"encoder\": heads 5000000000 is outside 1..1024");
  j = snapshotJson();
  j["groups"][0]["row_labels"] = std::vector<std::string>(5000, "x");
  EXPECT_EQ(decodeError(j),
            "step_000000010.msgpack: group \"encoder\": row_labels has 5000 labels, over 4096");
  j = snapshotJson();
  j["step"] = -3;
  EXPECT_EQ(decodeError(j), "step_000000010.msgpack: step -3 is outside 0..9223372036854775807");
  j = snapshotJson();
  j["image_width"] = 4;
  j["image_height"] = 4;
  j["image"] = nlohmann::json::binary(std::vector<std::uint8_t>(7, 0));
  EXPECT_EQ(decodeError(j), "step_000000010.msgpack: image of 4×4 has 7 bytes (expected 16 or 48)");
  j["image"] = nlohmann::json::binary(std::vector<std::uint8_t>(48, 0));
  EXPECT_EQ(decodeError(j), "ok");
  j["grid_rows"] = 100000;
  EXPECT_EQ(decodeError(j), "step_000000010.msgpack: grid_rows 100000 is outside 0..4096");
  EXPECT_EQ(decodeError(nlohmann::json::array({1, 2})),
            "step_000000010.msgpack: not an attention snapshot (not a map)");
}

TEST(RunFilesReliability, SnapshotRoundTripStillWorks) {
  AttentionSnapshot s;
  s.step = 1200;
  s.task = kImageClassificationTaskId;
  AttentionGroup g;
  g.name = "encoder";
  g.layers = 2;
  g.heads = 2;
  g.row_labels = {"cls", "p1", "p2"};
  g.col_labels = g.row_labels;
  for (int i = 0; i < 4; ++i) g.maps.push_back({3, 3, std::vector<float>(9, 1.0f / 3)});
  s.groups.push_back(g);
  ImagePayload image;
  image.image = {4, 4, std::vector<std::uint8_t>(48, 9)};
  image.patch_size = 2;
  image.grid_rows = image.grid_cols = 2;
  s.payloads.put(makePayload(std::move(image)));
  Expected<AttentionSnapshot> back = decodeAttentionSnapshot(encodeAttentionSnapshot(s), "s");
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->step, 1200);
  EXPECT_EQ(back->groups[0].maps.size(), 4u);
  EXPECT_EQ(testing::imageOf(back->payloads).image.pixels.size(), 48u);
  EXPECT_EQ(testing::imageOf(back->payloads).grid_cols, 2);
}

TEST(RunFilesReliability, FifosInARunFolderAreRefusedWithoutBlocking) {
  const RunFolder folder = emptyRun("fifos");
  Fifo snapshot(folder.attentionDir() + "/step_000000010.msgpack");
  Fifo metrics(folder.metricsPath());
  Fifo log(folder.logPath());
  ASSERT_TRUE(snapshot.created() && metrics.created() && log.created());

  const auto start = std::chrono::steady_clock::now();
  Expected<ProbeSet> s = readProbeSet(snapshot.path());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), snapshot.path() + " is not a regular file (a FIFO)");
  Expected<MetricsCsv> csv = readMetricsCsv(metrics.path());
  ASSERT_FALSE(csv.ok());
  EXPECT_EQ(csv.error(), metrics.path() + " is not a regular file (a FIFO)");
  Expected<MetricsCsvWriter> writer = MetricsCsvWriter::open(metrics.path(), true, 10, {});
  ASSERT_FALSE(writer.ok());
  EXPECT_EQ(writer.error(), metrics.path() + " is not a regular file (a FIFO)");

  Expected<OpenedRun> run = readRun(folder.path());
  ASSERT_TRUE(run.ok()) << run.error();
  const std::string warnings = joined(run->warnings);
  for (const std::string& path : {snapshot.path(), metrics.path(), log.path()}) {
    EXPECT_NE(warnings.find(path + " is not a regular file (a FIFO)"), std::string::npos)
        << warnings;
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s) << "a reader waited in open()";
}

TEST(RunFilesReliability, ConfigAndCheckpointFifosAndDeepConfigAreNamed) {
  const RunFolder folder = emptyRun("config");
  fs::remove(folder.configPath());
  {
    Fifo config(folder.configPath());
    ASSERT_TRUE(config.created());
    const auto start = std::chrono::steady_clock::now();
    Expected<OpenedRun> run = readRun(folder.path());
    ASSERT_FALSE(run.ok());
    EXPECT_EQ(run.error(), folder.configPath() + " is not a regular file (a FIFO)");
    EXPECT_EQ(checkRunFilesReadable(folder.path()).error(),
              folder.configPath() + " is not a regular file (a FIFO)");
    EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  }
  writeFile(folder.configPath(), "{\"task\": " + std::string(100000, '[') + "}");
  Expected<OpenedRun> deep = readRun(folder.path());
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(deep.error(),
            folder.configPath() + ": JSON nested deeper than 32 levels at line 1, byte 41");
  writeFile(folder.configPath(), std::string(2 << 20, ' '));
  EXPECT_EQ(readRun(folder.path()).error(),
            folder.configPath() + " is 2 MiB, over the 1 MiB limit for this file");

  ASSERT_TRUE(folder.writeConfig(*makePreset(kSentimentTaskId, "tiny")).ok());
  Fifo checkpoint(folder.checkpointPath("last"));
  ASSERT_TRUE(checkpoint.created());
  EXPECT_EQ(checkRunFilesReadable(folder.path()).error(),
            checkpoint.path() + " is not a regular file (a FIFO)");
  Expected<OpenedRun> run = readRun(folder.path());
  ASSERT_TRUE(run.ok()) << run.error();
  EXPECT_FALSE(run->positional_encoding.has_value());
  EXPECT_NE(joined(run->warnings).find(checkpoint.path() + " is not a regular file (a FIFO)"),
            std::string::npos);
  // Asked, it is named too: it used to read "no checkpoint yet".
  InferenceRequest ask;
  ask.run_dir = folder.path();
  ask.text = "a fine film";
  Expected<InferenceAnswer> answer = inferFromCheckpoint(ask);
  ASSERT_FALSE(answer.ok());
  EXPECT_NE(answer.error().find(checkpoint.path() + " is not a regular file (a FIFO)"),
            std::string::npos)
      << answer.error();
}

TEST(RunFilesReliability, MalformedMetricsRowsAreSkippedAndCounted) {
  const RunFolder folder = emptyRun("metrics");
  std::string csv = "step,epoch,split,loss,accuracy,lr,samples_per_s,bleu,cer,wer,exact_match\n";
  for (int step = 1; step <= 10; ++step) {
    csv += std::to_string(step) + ",1,train,0.5,0.5,0.001,100,,,,\n";
    if (step == 3) csv += "4,1,train,0.5abc,0.5,0.001,100,,,,\n";             // line 5
    if (step == 6) csv += "garbage\n";                                        // line 9
    if (step == 8) csv += std::string(5000, '9') + ",1,train,1,1,1,1,,,,\n";  // line 12
  }
  csv += "10,1,val,0.4,0.6,0.001,,,,,\n";
  csv += "11,1,tra";  // a torn last line
  writeFile(folder.metricsPath(), csv);
  Expected<MetricsCsv> read = readMetricsCsv(folder.metricsPath());
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_EQ(read->rows.size(), 11u);
  ASSERT_EQ(read->warnings.size(), 1u);
  EXPECT_EQ(read->warnings[0],
            folder.metricsPath() + ": 4 malformed rows skipped (line 5, line 9, line 12, line 16)");

  Expected<OpenedRun> run = readRun(folder.path());
  ASSERT_TRUE(run.ok()) << run.error();
  EXPECT_EQ(run->steps.size(), 10u);
  EXPECT_EQ(run->epochs.size(), 1u);
  EXPECT_NE(joined(run->warnings).find("4 malformed rows skipped"), std::string::npos);

  writeFile(folder.metricsPath(), "not,a,header\n1,1,train,1,1,1,1\n");
  EXPECT_EQ(readMetricsCsv(folder.metricsPath()).error(),
            folder.metricsPath() + ": line 1 is not the metrics header");
}

TEST(RunFilesReliability, ResumeDropsRowsAfterTheCheckpointAndKeepsWhatItCannotRead) {
  const RunFolder folder = emptyRun("resume");
  writeFile(folder.metricsPath(),
            "step,epoch,split,loss,accuracy,lr,samples_per_s,bleu,cer,wer,exact_match\n"
            "1,1,train,0.5,0.5,0.001,100,,,,\n"
            "2,1,train,bad,0.5,0.001,100,,,,\n"
            "3,1,train,0.5,0.5,0.001,100,,,,\n"
            "4,1,train,0.5,0.5,0.001,100,,,,\n"
            "5,1,tr");  // cut short by the interruption
  std::vector<std::string> warnings;
  {
    Expected<MetricsCsvWriter> writer =
        MetricsCsvWriter::open(folder.metricsPath(), true, 3, {}, &warnings);
    ASSERT_TRUE(writer.ok()) << writer.error();
  }
  Expected<MetricsCsv> read = readMetricsCsv(folder.metricsPath());
  ASSERT_TRUE(read.ok()) << read.error();
  ASSERT_EQ(read->rows.size(), 2u);
  EXPECT_EQ(read->rows[1].step, 3);
  // The hand-edited row used to vanish without a word; it stays, and both say so.
  EXPECT_NE(joined(read->warnings).find("1 malformed rows skipped (line 3)"), std::string::npos)
      << joined(read->warnings);
  ASSERT_EQ(warnings.size(), 2u) << joined(warnings);
  EXPECT_EQ(warnings[0], folder.metricsPath() +
                             ": its last line was cut short (the run stopped while writing it) "
                             "and is dropped");
  EXPECT_EQ(warnings[1], folder.metricsPath() +
                             ": line 3 is not a row this program writes, kept as written (readers "
                             "skip it)");
}

TEST(RunFilesReliability, AModelFolderOrAnotherJsonIsNotARun) {
  const RunFolder folder = emptyRun("not_a_run");
  // A Hugging Face model folder has a config.json too: it opened as "Images · ViT" with every
  // setting at its default, and compared as "99 differing settings".
  writeFile(folder.configPath(), "{\"model_type\": \"bert\", \"architectures\": [\"BertModel\"]}");
  Expected<OpenedRun> model = readRun(folder.path());
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.error(), folder.configPath() +
                               " belongs to a pretrained model folder (\"model_type\": \"bert\"), "
                               "not to a run: inspect it with File → Inspect pretrained model… "
                               "(attentionscope-cli inspect), or fine-tune it with --model");
  const RunFolder run = emptyRun("not_a_run_b");
  Expected<std::vector<SettingDifference>> compared =
      differingRunSettings(run.path(), folder.path());
  ASSERT_FALSE(compared.ok());
  EXPECT_NE(compared.error().find("belongs to a pretrained model folder"), std::string::npos);

  writeFile(folder.configPath(), "[1]");
  EXPECT_EQ(readRun(folder.path()).error(),
            folder.configPath() +
                ": not a run's settings (a JSON object with \"task\", \"data\", …) but of type "
                "array");
  writeFile(folder.configPath(), "{\"data\": \"builtin\"}");
  EXPECT_EQ(readRun(folder.path()).error(),
            folder.configPath() + ": not a run's settings (it has no \"task\")");
}

TEST(RunFilesReliability, ASettingOfTheWrongTypeOrSizeIsNamed) {
  const RunFolder folder = emptyRun("setting_types");
  nlohmann::json config = *makePreset(kSentimentTaskId, "tiny");
  const auto errorWith = [&](const char* key, const nlohmann::json& value) {
    nlohmann::json edited = config;
    edited[nlohmann::json::json_pointer(key)] = value;
    writeFile(folder.configPath(), edited.dump());
    Expected<TrainingConfig> read = folder.readConfig();
    return read.ok() ? std::string("read") : read.error();
  };
  // nlohmann said "type must be number, but is string", naming no setting.
  EXPECT_EQ(errorWith("/optimization/lr", "fast"),
            folder.configPath() + ": \"optimization.lr\" must be a number, got \"fast\"");
  EXPECT_EQ(errorWith("/probe_samples", nlohmann::json::array({0, "one"})),
            folder.configPath() + ": \"probe_samples[1]\" must be a whole number, got \"one\"");
  EXPECT_EQ(errorWith("/head_statistics", 1),
            folder.configPath() + ": \"head_statistics\" must be true or false, got 1");
  // 1e15 epochs were read as -1530494976 and refused as such.
  EXPECT_EQ(
      errorWith("/epochs", 1e15),
      folder.configPath() + ": \"epochs\" is 1000000000000000, out of range for this setting");
  EXPECT_EQ(errorWith("/epochs", 2.5),
            folder.configPath() + ": \"epochs\" must be a whole number, got 2.5");
  EXPECT_EQ(errorWith("/batch_size", 1e99),
            folder.configPath() + ": \"batch_size\" is 1e+99, out of range for this setting");
  // The model settings are the task's, read when the run starts or opens.
  writeFile(folder.configPath(), config.dump());
  nlohmann::json model_section = config;
  model_section["text"]["layers"] = "six";
  writeFile(folder.configPath(), model_section.dump());
  Expected<TrainingConfig> read = folder.readConfig();
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_EQ(validateConfig(*read).error(),
            "settings \"text.layers\" must be a whole number, got \"six\"");
}

TEST(RunFilesReliability, OnlyTheTailOfAHugeLogIsRead) {
  const RunFolder folder = emptyRun("log");
  // 2000 lines of 300 bytes: 600 KB, more than the 256 KiB the reader takes from the end.
  std::string log;
  for (int i = 0; i < 2000; ++i) {
    char head[80];
    std::snprintf(head, sizeof head, "[2026-11-21 14:03:22.123] [trainer] [info] line %05d ", i);
    std::string line = head;
    line += std::string(299 - line.size(), 'x') + "\n";
    log += line;
  }
  writeFile(folder.logPath(), log);
  Expected<OpenedRun> run = readRun(folder.path());
  ASSERT_TRUE(run.ok()) << run.error();
  // 256 KiB hold 873 whole lines and a piece of one more, which is dropped.
  EXPECT_EQ(run->log.size(), 873u);
  for (const LogLine& line : run->log) {
    ASSERT_EQ(line.text.rfind("14:03:22 line ", 0), 0u) << "a partial line: " << line.text;
  }
  EXPECT_EQ(run->log.back().text.substr(0, 19), "14:03:22 line 01999");

  // One line of 1 MB: read from its tail, shortened, and no regex recursion through all of it.
  writeFile(folder.logPath(),
            "[2026-11-21 14:03:22.123] [trainer] [info] " + std::string(1 << 20, 'y') + "\nlast\n");
  Expected<OpenedRun> long_line = readRun(folder.path());
  ASSERT_TRUE(long_line.ok()) << long_line.error();
  ASSERT_EQ(long_line->log.size(), 1u);
  EXPECT_EQ(long_line->log[0].text, "last");
  writeFile(folder.logPath(), std::string(100000, 'z') + "\n");
  Expected<OpenedRun> short_log = readRun(folder.path());
  ASSERT_TRUE(short_log.ok()) << short_log.error();
  ASSERT_EQ(short_log->log.size(), 1u);
  EXPECT_EQ(short_log->log[0].text, std::string(2000, 'z') + " …");
}

/// Trains `task` for a few steps into a fresh folder (a checkpoint to ask).
std::string trainedReliabilityRun(const std::string& task) {
  TrainingConfig c = *makePreset(task, "tiny");
  c.out_dir = runFilesDir("trained_" + task);
  c.max_steps = 2;
  c.probe_every_seconds = 1e9;
  Trainer trainer(c);
  EXPECT_TRUE(trainer.start().ok());
  const auto deadline = std::chrono::steady_clock::now() + 120s;
  while (!trainer.finished() && std::chrono::steady_clock::now() < deadline) {
    trainer.drainEvents();
    std::this_thread::sleep_for(10ms);
  }
  trainer.wait();
  return c.out_dir;
}

TEST(RunFilesReliability, EmptyTextGetsNoPrediction) {
  for (const auto& [task, message] :
       {std::pair<std::string, std::string>{kSentimentTaskId,
                                            "the text is empty: give a review to classify"},
        std::pair<std::string, std::string>{kTranslationTaskId,
                                            "the text is empty: give a sentence to translate"}}) {
    InferenceRequest request;
    request.run_dir = trainedReliabilityRun(task);
    for (const char* text : {" ", " \t\r\n "}) {
      request.text = text;
      Expected<InferenceAnswer> answer = inferFromCheckpoint(request);
      ASSERT_FALSE(answer.ok()) << task << " answered \"" << answer->label << "\"";
      EXPECT_EQ(answer.error(), message);
    }
    request.text = "good";
    EXPECT_TRUE(inferFromCheckpoint(request).ok()) << task;
  }
}

}  // namespace
}  // namespace ascope
