// The one reader of a run's settings (engine/tasks/registry/run_config_reader.h), which the window
// (readRun), `infer`, `evaluate`, `ablate` and `train --resume` share: the audit's config.json
// files that crashed the window (a model setting of the wrong JSON type), or that `infer` took
// and `--resume` refused ("layers": 1.5), are refused by each with one message naming the file
// and the setting; the paths config.json names are never opened on its word; the run folders
// written before keep opening.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/ablation/run_ablation.h"
#include "engine/inference/read_run.h"
#include "engine/runfolder/run_folder.h"
#include "engine/tasks/digit_order/digit_order_descriptor.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/image_classification/image_data_settings.h"
#include "engine/tasks/registry/run_config_reader.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/translation/translation_data_settings.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "engine/vocabulary/training_config_json.h"
#include "tests/engine/removed_at_exit.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

/// A run folder holding `config` as its config.json, and nothing else.
std::string runWith(const std::string& name, const nlohmann::json& config) {
  const std::string dir = testing::freshTempPath("ascope_run_config_reader_" + name);
  fs::create_directories(dir + "/checkpoints");
  fs::create_directories(dir + "/attention");
  std::ofstream(dir + "/config.json") << config.dump();
  return dir;
}

nlohmann::json sentimentConfig() {
  return nlohmann::json(*makePreset(kSentimentTaskId, "tiny"));
}

TEST(RunConfigReader, TaskSettingsOfTheWrongTypeAreNamedNotThrown) {
  struct Case {
    const char* pointer;
    nlohmann::json value;
    const char* message;
  };
  const Case cases[] = {
      {"/text/dropout", "0.1", "settings \"text.dropout\" must be a number, got \"0.1\""},
      {"/text/layers", "4", "settings \"text.layers\" must be a whole number, got \"4\""},
      {"/text/d_model", nlohmann::json::object(),
       "settings \"text.d_model\" must be a whole number, got {}"},
      {"/text/layers", 1.5, "settings \"text.layers\" must be a whole number, got 1.5"},
  };
  int n = 0;
  for (const Case& c : cases) {
    nlohmann::json config = sentimentConfig();
    config[nlohmann::json::json_pointer(c.pointer)] = c.value;
    const std::string dir = runWith("model_" + std::to_string(n++), config);
    Expected<TrainingConfig> read = readRunConfig(dir);
    Expected<OpenedRun> opened = readRun(dir);
    const std::string expected = dir + "/config.json: " + c.message;
    ASSERT_FALSE(read.ok()) << c.pointer;
    EXPECT_EQ(read.error(), expected);
    ASSERT_FALSE(opened.ok()) << "the window refuses it as --resume does, with the same words";
    EXPECT_EQ(opened.error(), expected);
  }
}

TEST(RunConfigReader, ValuesOutOfRangeAreRefusedAsResumeRefusesThem) {
  nlohmann::json config = sentimentConfig();
  config["batch_size"] = 0;
  const std::string dir = runWith("range", config);
  Expected<TrainingConfig> read = readRunConfig(dir);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error(), dir + "/config.json: batch_size must be at least 1, got 0");
  EXPECT_EQ(readRun(dir).error(), read.error());
}

TEST(RunConfigReader, PathsInTheSettingsAreNeverLookedAt) {
  // A FIFO would block a reader that opened it; a folder that does not exist would be named by
  // one that looked. Neither happens: the settings are only values.
  nlohmann::json config = sentimentConfig();
  config["data"] = "/nonexistent/some/secret.csv";
  config["splits"]["test_data"] = "/nonexistent/other";
  const std::string dir = runWith("paths", config);
  Expected<TrainingConfig> read = readRunConfig(dir);
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_EQ(read->data, "/nonexistent/some/secret.csv");
  EXPECT_EQ(dataPathsOf(*read),
            (std::vector<std::string>{"/nonexistent/some/secret.csv", "/nonexistent/other"}));
  // An ablation (CLI or the Ablation dock) refuses to read them until the data is named again.
  Expected<AblationTable> ablation = ablateRun(dir, {}, nullptr);
  ASSERT_FALSE(ablation.ok());
  EXPECT_EQ(ablation.error(),
            dir +
                "/config.json names its data (\"/nonexistent/some/secret.csv\", "
                "\"/nonexistent/other\"): a run folder's settings never open a file on their "
                "own; name the data to ablate on (--data PATH)");
  // The paths are the folder's bytes: quoted through the one sanitiser, never raw to a terminal.
  TrainingConfig hostile = *read;
  hostile.data = "/tmp/\x1b]0;owned\x07\xff.csv";
  EXPECT_EQ(unnamedDataMessage(hostile, "c.json", "name it"),
            "c.json names its data (\"/tmp/\\x1B]0;owned\\x07\\xFF.csv\", \"/nonexistent/other\"): "
            "a run folder's settings never open a file on their own; name it");
}

TEST(RunConfigReader, NamingTheDataAgainKeepsItsOwnSplitFilesOnly) {
  const std::string folder = testing::freshTempPath("ascope_run_config_reader_data");
  fs::create_directories(folder);
  const std::string data = folder + "/train.csv";
  std::ofstream(data) << "text,label\n";
  TrainingConfig config = *makePreset(kSentimentTaskId, "tiny");
  config.data = data;
  config.splits.test_data = folder + "/test.csv";
  EXPECT_EQ(
      withNamedData(config, folder + "/../" + fs::path(folder).filename().string() + "/train.csv")
          .splits.test_data,
      folder + "/test.csv")
      << "the same data set, by another path: its own test file stays";
  const TrainingConfig other = withNamedData(config, "builtin");
  EXPECT_EQ(other.data, "builtin");
  EXPECT_TRUE(other.splits.test_data.empty()) << "another data set: the run's files are not read";
}

TEST(RunConfigReader, RunFoldersWrittenBeforeStillOpen) {
  // A config.json of the first run folders: no splits (one held-out split), one probe sample, no
  // bucketing, final weights or fine-tuning settings.
  const nlohmann::json old = {
      {"task", kDigitOrderTaskId},
      {"data", "builtin"},
      {"preset", "tiny"},
      {"epochs", 2},
      {"batch_size", 32},
      {"optimization", {{"optimizer", "adamw"}, {"lr", 0.003}}},
      {"device", "cpu"},
      {"seed", 42},
      {"probe_sample", 3},
      {"builtin", {{"train_count", 640}, {"test_count", 128}, {"seed", 1}}},
      {"digits", {{"d_model", 16}, {"d_ff", 32}, {"layers", 1}}},
  };
  const std::string dir = runWith("old", old);
  Expected<TrainingConfig> read = readRunConfig(dir);
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_EQ(read->splits.layout, 1);
  EXPECT_EQ(read->probe_samples, std::vector<int>{3});
  EXPECT_FALSE(read->bucket_by_length);
  EXPECT_EQ(read->final_weights, "best");
  EXPECT_EQ(read->optimization.optimizer, "adamw");
  EXPECT_DOUBLE_EQ(read->optimization.lr, 0.003);
  EXPECT_EQ(read->optimization.schedule, "constant") << "a setting absent keeps its default";
  // Written again, it holds every setting of the table, and reads back the same.
  const nlohmann::json written(*read);
  EXPECT_TRUE(written.contains("splits"));
  EXPECT_TRUE(written.contains("digits"));
  Expected<TrainingConfig> again = readTrainingConfig(written);
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(nlohmann::json(*again), written);
}

// Runs made before the data and evaluation settings became the task's kept them as top-level keys
// of config.json: they open, resume and validate with their own values, and a config written
// again keeps them.
TEST(RunConfigReader, DataSettingsWrittenAtTheTopLevelBeforeAreTheTasksOwn) {
  nlohmann::json translation = nlohmann::json(*makePreset(kTranslationTaskId, "tiny"));
  ASSERT_TRUE(translation.contains("translation_data"));
  translation.erase("translation_data");
  translation["min_freq"] = 7;
  translation["decode_samples"] = 33;
  translation["source_language"] = "en";
  translation["target_language"] = "it";
  translation["augment"] = true;  // every older config.json had all of them
  const std::string dir = runWith("older_translation", translation);
  Expected<TrainingConfig> read = readRunConfig(dir);
  ASSERT_TRUE(read.ok()) << read.error();
  const TranslationDataSettings settings = read->task_settings.get<TranslationDataSettings>();
  EXPECT_EQ(settings.min_freq, 7);
  EXPECT_EQ(settings.decode_samples, 33);
  EXPECT_EQ(settings.source_language, "en");
  const nlohmann::json again(*read);
  EXPECT_EQ(again.at("min_freq"), 7) << "written back as it was read";
  TrainingConfig edited = *read;
  edited.task_settings.as<TranslationDataSettings>().min_freq = 9;
  const nlohmann::json moved(edited);
  EXPECT_FALSE(moved.contains("min_freq")) << "the section replaces the older keys it holds";
  EXPECT_EQ(moved.at("translation_data").at("min_freq"), 9);
  EXPECT_EQ(moved.at("translation_data").at("decode_samples"), 33);

  nlohmann::json images = nlohmann::json(*makePreset(kImageClassificationTaskId, "laptop"));
  images.erase("image_data");
  images["augment"] = false;
  Expected<TrainingConfig> image_run = readRunConfig(runWith("older_images", images));
  ASSERT_TRUE(image_run.ok()) << image_run.error();
  EXPECT_FALSE(image_run->task_settings.get<ImageDataSettings>().augment);

  // An older key of the wrong kind, or out of range, is named as the newer section would be.
  translation["min_freq"] = "two";
  const std::string bad = runWith("older_translation_bad", translation);
  EXPECT_EQ(readRunConfig(bad).error(),
            bad + "/config.json: settings \"min_freq\" must be a whole number, got \"two\"");
  translation["min_freq"] = 0;
  const std::string zero = runWith("older_translation_zero", translation);
  EXPECT_EQ(readRunConfig(zero).error(), zero + "/config.json: min_freq must be at least 1, got 0");
  translation["min_freq"] = 2;
  translation["source_language"] = "../x";
  const std::string path = runWith("older_translation_path", translation);
  EXPECT_EQ(readRunConfig(path).error(),
            path +
                "/config.json: source_language must be a language code such as en or it, got "
                "\"../x\"");
}

}  // namespace
}  // namespace ascope
