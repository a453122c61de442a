// What download-model does to a folder that holds something already: the same model is left
// alone, another model is named and left alone, and --force replaces the model's files only,
// finishing a replacement that a killed process began.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "engine/download/models/model_downloader.h"
#include "engine/download/models/model_origin.h"
#include "engine/download/models/model_staging_folder.h"
#include "tests/download/model_downloader_fixture.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;
using testing::contains;
using testing::contentsOf;
using testing::FixtureModelHub;
using testing::ModelDownloaderTest;
using testing::namesIn;

ModelDownloadOptions forced(ModelDownloadOptions o) {
  o.force = true;
  return o;
}

TEST_F(ModelDownloaderTest, ForceReplacesTheModelsFilesAndKeepsEveryOtherFile) {
  hub_.addVitModel("acme/vit");
  ASSERT_TRUE(fetch("acme/vit").ok());
  folder_.write("models/the-model/notes.txt", "mine");
  folder_.write("models/the-model/finetuned/model.safetensors", "tuned weights");
  folder_.write("models/the-model/my_weights.bin", "more of mine");
  // The hub publishes new weights.
  hub_.addLfsFile("acme/vit", "model.safetensors", FixtureModelHub::weights(5000, 7));

  const Expected<DownloadedModel> model = fetch("acme/vit", forced(options()));
  ASSERT_TRUE(model.ok()) << model.error();
  EXPECT_FALSE(model->already_present);
  EXPECT_EQ(contentsOf(modelFolder() + "/model.safetensors"), FixtureModelHub::weights(5000, 7));
  EXPECT_EQ(contentsOf(modelFolder() + "/notes.txt"), "mine");
  EXPECT_EQ(contentsOf(modelFolder() + "/finetuned/model.safetensors"), "tuned weights");
  EXPECT_EQ(contentsOf(modelFolder() + "/my_weights.bin"), "more of mine");
  EXPECT_EQ(namesIn(modelFolder()),
            (std::vector<std::string>{"config.json", "finetuned", "model.safetensors",
                                      "my_weights.bin", "notes.txt", "preprocessor_config.json"}));
  EXPECT_FALSE(fs::exists(stagingFolder()));
  EXPECT_FALSE(fs::exists(modelFolder() + ".replaced"));
}

TEST_F(ModelDownloaderTest, ForceRemovesAnOldFileThatWouldBeReadInsteadOfTheNewOne) {
  hub_.addVitModel("acme/vit");
  ASSERT_TRUE(fetch("acme/vit").ok());
  // Another model with pytorch_model.bin only: the old model.safetensors would be loaded first.
  hub_.addGitFile("acme/old", "config.json", FixtureModelHub::configOf("vit"));
  hub_.addGitFile("acme/old", "preprocessor_config.json", "{\"size\": 32}");
  hub_.addLfsFile("acme/old", "pytorch_model.bin", FixtureModelHub::weights(2000, 3));
  const Expected<DownloadedModel> model = fetch("acme/old", forced(options()));
  ASSERT_TRUE(model.ok()) << model.error();
  EXPECT_EQ(
      namesIn(modelFolder()),
      (std::vector<std::string>{"config.json", "preprocessor_config.json", "pytorch_model.bin"}));
  const Expected<std::optional<ModelOrigin>> origin = readModelOrigin(modelFolder());
  ASSERT_TRUE(origin.ok() && origin->has_value());
  EXPECT_EQ((*origin)->id, "acme/old");
}

TEST_F(ModelDownloaderTest, AFolderHoldingAnotherDownloadedModelIsNamedAndLeftAlone) {
  hub_.addBertModel("acme/bert");
  hub_.addVitModel("ok/vit");
  ASSERT_TRUE(fetch("acme/bert").ok());
  const std::size_t requests = server_.requests().size();

  const Expected<DownloadedModel> model = fetch("ok/vit");
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(), modelFolder() +
                                          " holds acme/bert (a bert model), not ok/vit: "
                                          "choose another folder, or --force"))
      << model.error();
  EXPECT_EQ(server_.requests().size(), requests);  // the record tells; the hub is not asked
  EXPECT_EQ(contentsOf(modelFolder() + "/config.json"), FixtureModelHub::configOf("bert"));
  EXPECT_FALSE(fs::exists(stagingFolder()));

  // The same model again is there already.
  const Expected<DownloadedModel> again = fetch("acme/bert");
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_TRUE(again->already_present);
}

TEST_F(ModelDownloaderTest, AFolderWithoutARecordIsComparedWithTheHubsConfig) {
  hub_.addVitModel("ok/vit");
  folder_.write("models/the-model/config.json", FixtureModelHub::configOf("bert"));
  folder_.write("models/the-model/model.safetensors", "weights saved by hand");
  Expected<DownloadedModel> model = fetch("ok/vit");
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(),
                       modelFolder() + " holds a bert model, but ok/vit is a vit model: choose"))
      << model.error();

  // The same kind with other settings: another model, or a changed copy.
  folder_.write("models/the-model/config.json", "{\"model_type\": \"vit\", \"hidden_size\": 8}");
  model = fetch("ok/vit");
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(), modelFolder() + " holds a vit model whose config.json "
                                                      "differs from ok/vit's on the hub"))
      << model.error();

  // The hub's own config.json: taken as the model.
  folder_.write("models/the-model/config.json", FixtureModelHub::configOf("vit"));
  model = fetch("ok/vit");
  ASSERT_TRUE(model.ok()) << model.error();
  EXPECT_TRUE(model->already_present);
  EXPECT_EQ(contentsOf(modelFolder() + "/model.safetensors"), "weights saved by hand");
  EXPECT_FALSE(fs::exists(stagingFolder()));
}

TEST_F(ModelDownloaderTest, AReplacementStoppedHalfWayIsFinishedByTheNextRun) {
  hub_.addVitModel("acme/vit");
  ASSERT_TRUE(fetch("acme/vit").ok());
  folder_.write("models/the-model/notes.txt", "mine");
  hub_.addLfsFile("acme/vit", "model.safetensors", FixtureModelHub::weights(5000, 7));
  hub_.addGitFile("acme/vit", "preprocessor_config.json", "{\"size\": 64}");
  // A folder in the way of preprocessor_config.json stops the replacement after some renames,
  // as a kill would.
  fs::remove(modelFolder() + "/preprocessor_config.json");
  fs::create_directory(modelFolder() + "/preprocessor_config.json");
  const Expected<DownloadedModel> stopped = fetch("acme/vit", forced(options()));
  ASSERT_FALSE(stopped.ok());
  EXPECT_TRUE(contains(stopped.error(), "(run again to finish)")) << stopped.error();
  EXPECT_TRUE(ModelStagingFolder::hasInterruptedReplacement(modelFolder()));

  fs::remove(modelFolder() + "/preprocessor_config.json");
  const std::size_t requests = server_.requests().size();
  const Expected<DownloadedModel> model = fetch("acme/vit");  // no --force: it only finishes
  ASSERT_TRUE(model.ok()) << model.error();
  EXPECT_TRUE(model->already_present);
  EXPECT_EQ(server_.requests().size(), requests);
  EXPECT_EQ(contentsOf(modelFolder() + "/model.safetensors"), FixtureModelHub::weights(5000, 7));
  EXPECT_EQ(contentsOf(modelFolder() + "/preprocessor_config.json"), "{\"size\": 64}");
  EXPECT_EQ(contentsOf(modelFolder() + "/notes.txt"), "mine");
  EXPECT_FALSE(fs::exists(stagingFolder()));
}

}  // namespace
}  // namespace ascope
