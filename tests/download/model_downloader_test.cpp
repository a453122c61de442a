// ModelDownloader against a hub on 127.0.0.1 (tests/download/fixture_model_hub.h).
#include "engine/download/models/model_downloader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/download/models/hub_head_request.h"
#include "engine/download/sha256.h"
#include "tests/download/fixture_http_server.h"
#include "tests/download/fixture_model_hub.h"
#include "tests/download/model_downloader_fixture.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;
using testing::contains;
using testing::contentsOf;
using testing::FixtureHttpServer;
using testing::FixtureModelHub;
using testing::ModelDownloaderTest;
using testing::namesIn;

TEST_F(ModelDownloaderTest, BertLikeModelGetsItsFilesInAFolderThatAppearsWhole) {
  hub_.addBertModel("bert-base-uncased", 100'000);
  std::vector<std::string> announced;
  bool folder_seen_early = false;
  ModelDownloadOptions o = options();
  o.on_file = [&](const std::string& file, std::int64_t size) {
    announced.push_back(file + ":" + std::to_string(size));
    folder_seen_early = folder_seen_early || fs::exists(modelFolder());
  };
  std::int64_t last_done = 0, last_total = 0;
  const Expected<ModelId> id = ModelId::parse("bert-base-uncased");
  const Expected<DownloadedModel> model = ModelDownloader(o).fetch(
      *id, modelFolder(),
      [&](std::int64_t done, std::int64_t total, double) {
        last_done = done;
        last_total = total;
      },
      nullptr);
  ASSERT_TRUE(model.ok()) << model.error();

  EXPECT_FALSE(folder_seen_early);
  EXPECT_EQ(model->folder, modelFolder());
  EXPECT_EQ(model->model_type, "bert");
  EXPECT_EQ(model->commit, FixtureModelHub::kCommit);
  EXPECT_FALSE(model->already_present);
  EXPECT_TRUE(model->warnings.empty());
  // tokenizer.json is there, so vocab.txt is not fetched.
  const std::vector<std::string> expected = {"config.json", "model.safetensors",
                                             "special_tokens_map.json", "tokenizer.json",
                                             "tokenizer_config.json"};
  EXPECT_EQ(namesIn(modelFolder()), expected);
  ASSERT_EQ(model->files.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(model->files[i].name, expected[i]);
    EXPECT_EQ(model->files[i].size,
              static_cast<std::int64_t>(fs::file_size(modelFolder() + "/" + expected[i])));
  }
  EXPECT_EQ(contentsOf(modelFolder() + "/model.safetensors"), FixtureModelHub::weights(100'000));
  EXPECT_EQ(contentsOf(modelFolder() + "/config.json"), FixtureModelHub::configOf("bert"));
  EXPECT_FALSE(fs::exists(stagingFolder()));
  EXPECT_EQ(announced.front(),
            "config.json:" + std::to_string(FixtureModelHub::configOf("bert").size()));
  EXPECT_EQ(announced.back(), "model.safetensors:100000");
  EXPECT_EQ(last_done, 100'000);
  EXPECT_EQ(last_total, 100'000);

  // Metadata by HEAD; the weights straight from the redirect's target.
  EXPECT_EQ(
      requestsFor(FixtureModelHub::resolvePath("bert-base-uncased", "model.safetensors"), "HEAD")
          .size(),
      1u);
  EXPECT_TRUE(
      requestsFor(FixtureModelHub::resolvePath("bert-base-uncased", "model.safetensors"), "GET")
          .empty());
  EXPECT_EQ(
      requestsFor(FixtureModelHub::cdnPath("bert-base-uncased", "model.safetensors"), "GET").size(),
      1u);
  EXPECT_TRUE(
      requestsFor(FixtureModelHub::resolvePath("bert-base-uncased", "vocab.txt"), "GET").empty());
}

TEST_F(ModelDownloaderTest, WithoutTokenizerJsonVocabTxtIsTakenAndMissingOptionalFilesSkipped) {
  const std::string id = "old/bert";
  hub_.addGitFile(id, "config.json", FixtureModelHub::configOf("distilbert"));
  hub_.addGitFile(id, "vocab.txt", "[PAD]\n[UNK]\n");
  hub_.addLfsFile(id, "model.safetensors", FixtureModelHub::weights(5000));
  const Expected<DownloadedModel> model = fetch(id);
  ASSERT_TRUE(model.ok()) << model.error();
  EXPECT_EQ(namesIn(modelFolder()),
            (std::vector<std::string>{"config.json", "model.safetensors", "vocab.txt"}));
  EXPECT_EQ(requestsFor(FixtureModelHub::resolvePath(id, "tokenizer_config.json"), "HEAD").size(),
            1u);
}

TEST_F(ModelDownloaderTest, VitModelGetsItsPreprocessorConfig) {
  const std::string id = "google/vit-base-patch16-224";
  hub_.addVitModel(id);
  const Expected<DownloadedModel> model = fetch(id);
  ASSERT_TRUE(model.ok()) << model.error();
  EXPECT_EQ(model->model_type, "vit");
  EXPECT_EQ(namesIn(modelFolder()), (std::vector<std::string>{"config.json", "model.safetensors",
                                                              "preprocessor_config.json"}));
  EXPECT_EQ(contentsOf(modelFolder() + "/model.safetensors"), FixtureModelHub::weights(4096, 2));
  for (const auto& request : server_.requests()) {
    EXPECT_FALSE(contains(request.path, "tokenizer")) << request.path;
  }
}

TEST_F(ModelDownloaderTest, ShaMismatchNamesTheFileAndBothHashesAndLeavesNoModelFolder) {
  const std::string id = "acme/tampered";
  const std::string claimed = Sha256::hexOf("the weights the hub published");
  const std::string served = FixtureModelHub::weights(3000);
  hub_.addGitFile(id, "config.json", FixtureModelHub::configOf("vit"));
  hub_.addGitFile(id, "preprocessor_config.json", "{}");
  hub_.addLfsFile(id, "model.safetensors", served, {claimed, std::nullopt});
  const Expected<DownloadedModel> model = fetch(id);
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(), "model.safetensors: SHA-256 mismatch: expected " + claimed +
                                          ", got " + Sha256::hexOf(served)))
      << model.error();
  EXPECT_FALSE(fs::exists(modelFolder()));
  for (const std::string& name : namesIn(stagingFolder())) {
    EXPECT_NE(name.rfind("model.safetensors", 0), 0u) << name;
  }
}

TEST_F(ModelDownloaderTest, SizeMismatchNamesTheFileAndBothSizes) {
  const std::string id = "acme/short";
  const std::string served = FixtureModelHub::weights(3000);
  hub_.addGitFile(id, "config.json", FixtureModelHub::configOf("vit"));
  hub_.addGitFile(id, "preprocessor_config.json", "{}");
  hub_.addLfsFile(id, "model.safetensors", served, {std::nullopt, 3500});
  const Expected<DownloadedModel> model = fetch(id);
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(
      contains(model.error(), "model.safetensors: size mismatch: expected 3500 bytes, got 3000"))
      << model.error();
  EXPECT_FALSE(fs::exists(modelFolder()));
}

TEST_F(ModelDownloaderTest, InterruptedTransferResumesFromWhatWasKept) {
  const std::string id = "acme/big";
  hub_.addVitModel(id, 200'000);
  server_.cutAfter(FixtureModelHub::cdnPath(id, "model.safetensors"), 60'000);
  const Expected<DownloadedModel> broken = fetch(id);
  ASSERT_FALSE(broken.ok());
  EXPECT_TRUE(contains(broken.error(), "connection closed")) << broken.error();
  EXPECT_FALSE(fs::exists(modelFolder()));
  const std::string weights_hash = Sha256::hexOf(FixtureModelHub::weights(200'000, 2));
  EXPECT_EQ(
      fs::file_size(stagingFolder() + "/model.safetensors." + weights_hash.substr(0, 16) + ".part"),
      60'000u);

  const Expected<DownloadedModel> model = fetch(id);
  ASSERT_TRUE(model.ok()) << model.error();
  EXPECT_EQ(contentsOf(modelFolder() + "/model.safetensors"), FixtureModelHub::weights(200'000, 2));
  const auto weights = requestsFor(FixtureModelHub::cdnPath(id, "model.safetensors"), "GET");
  ASSERT_EQ(weights.size(), 2u);
  EXPECT_EQ(weights[1].range, "bytes=60000-");

  EXPECT_FALSE(fs::exists(stagingFolder()));
}

TEST_F(ModelDownloaderTest, NoSafetensorsFallsBackToPytorchModelBinWithAWarning) {
  const std::string id = "old/model";
  hub_.addGitFile(id, "config.json", FixtureModelHub::configOf("bert"));
  hub_.addGitFile(id, "vocab.txt", "[PAD]\n");
  hub_.addLfsFile(id, "pytorch_model.bin", FixtureModelHub::weights(2000));
  const Expected<DownloadedModel> model = fetch(id);
  ASSERT_TRUE(model.ok()) << model.error();
  EXPECT_EQ(namesIn(modelFolder()),
            (std::vector<std::string>{"config.json", "pytorch_model.bin", "vocab.txt"}));
  ASSERT_EQ(model->warnings.size(), 1u);
  EXPECT_TRUE(contains(model->warnings[0], "pytorch_model.bin")) << model->warnings[0];
  EXPECT_TRUE(contains(model->warnings[0], "may not be able to load")) << model->warnings[0];
}

TEST_F(ModelDownloaderTest, MissingRequiredFilesAndUnknownModelTypesAreNamed) {
  hub_.addGitFile("no/tokenizer", "config.json", FixtureModelHub::configOf("bert"));
  hub_.addLfsFile("no/tokenizer", "model.safetensors", FixtureModelHub::weights(100));
  Expected<DownloadedModel> model = fetch("no/tokenizer");
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(), "no/tokenizer: the hub has no tokenizer.json or vocab.txt"))
      << model.error();
  // Checked before the weights are fetched.
  EXPECT_TRUE(
      requestsFor(FixtureModelHub::cdnPath("no/tokenizer", "model.safetensors"), "GET").empty());

  hub_.addGitFile("no/weights", "config.json", FixtureModelHub::configOf("vit"));
  hub_.addGitFile("no/weights", "preprocessor_config.json", "{}");
  model = fetch("no/weights");
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(), "model.safetensors or pytorch_model.bin")) << model.error();

  hub_.addGitFile("acme/gpt", "config.json", FixtureModelHub::configOf("gpt2"));
  model = fetch("acme/gpt");
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(), "config.json: model_type \"gpt2\"")) << model.error();
  EXPECT_TRUE(contains(model.error(), "known: bert")) << model.error();

  hub_.addGitFile("acme/broken", "config.json", "{\"model_type\": ");
  model = fetch("acme/broken");
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(), "config.json: not a JSON object")) << model.error();

  model = fetch("nobody/nothing");
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(), "404")) << model.error();
  EXPECT_TRUE(contains(model.error(), "nobody/nothing")) << model.error();
  EXPECT_FALSE(fs::exists(modelFolder()));
}

TEST_F(ModelDownloaderTest, UnauthorizedSaysTheModelNeedsAToken) {
  const std::string id = "meta/gated";
  hub_.addVitModel(id);
  server_.answerWith(FixtureModelHub::resolvePath(id, "config.json"), 401);
  server_.addHeader(FixtureModelHub::resolvePath(id, "config.json"), "X-Error-Code: GatedRepo");
  server_.addHeader(FixtureModelHub::resolvePath(id, "config.json"),
                    "X-Error-Message: Access to model meta/gated is restricted.");
  const Expected<DownloadedModel> model = fetch(id);
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(), "meta/gated: config.json: HTTP 401")) << model.error();
  EXPECT_TRUE(contains(model.error(), "needs a token: set HF_TOKEN")) << model.error();
  EXPECT_TRUE(contains(model.error(), "Access to model meta/gated is restricted."))
      << model.error();
  EXPECT_FALSE(fs::exists(modelFolder()));
  EXPECT_FALSE(fs::exists(stagingFolder()));  // nothing was fetched, nothing is left

  ModelDownloadOptions o = options();
  o.token = "wrong";
  const Expected<DownloadedModel> refused = fetch(id, o);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(contains(refused.error(), "the token given (HF_TOKEN) may not read it"))
      << refused.error();
}

TEST_F(ModelDownloaderTest, TheTokenGoesToTheHubAsBearerButNotToTheCdn) {
  const std::string id = "me/private";
  hub_.addVitModel(id);
  for (const char* file : {"config.json", "preprocessor_config.json", "model.safetensors"}) {
    server_.requireToken(FixtureModelHub::resolvePath(id, file), "s3cret");
  }
  ASSERT_FALSE(fetch(id).ok());
  ::setenv("HF_TOKEN", "s3cret", 1);
  const Expected<DownloadedModel> model = fetch(id);
  ::unsetenv("HF_TOKEN");
  ASSERT_TRUE(model.ok()) << model.error();
  for (const auto& request : server_.requests()) {
    if (contains(request.path, "/cdn/")) {
      EXPECT_EQ(request.authorization, "") << request.path;
    }
  }
  const auto config = requestsFor(FixtureModelHub::resolvePath(id, "config.json"), "GET");
  ASSERT_FALSE(config.empty());
  EXPECT_EQ(config.back().authorization, "Bearer s3cret");
}

TEST_F(ModelDownloaderTest, AnExistingModelIsNotFetchedAgainUnlessForced) {
  const std::string id = "google/vit-base-patch16-224";
  hub_.addVitModel(id);
  ASSERT_TRUE(fetch(id).ok());
  const std::size_t requests = server_.requests().size();

  const Expected<DownloadedModel> again = fetch(id);
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_TRUE(again->already_present);
  EXPECT_EQ(again->model_type, "vit");
  EXPECT_EQ(again->files.size(), 3u);
  EXPECT_EQ(server_.requests().size(), requests);

  fs::remove(modelFolder() + "/preprocessor_config.json");
  ModelDownloadOptions o = options();
  o.force = true;
  const Expected<DownloadedModel> forced = fetch(id, o);
  ASSERT_TRUE(forced.ok()) << forced.error();
  EXPECT_FALSE(forced->already_present);
  EXPECT_GT(server_.requests().size(), requests);
  EXPECT_EQ(namesIn(modelFolder()), (std::vector<std::string>{"config.json", "model.safetensors",
                                                              "preprocessor_config.json"}));
  EXPECT_FALSE(fs::exists(modelFolder() + ".replaced"));
}

TEST_F(ModelDownloaderTest, AFolderThatHoldsSomethingElseIsLeftAlone) {
  hub_.addVitModel("acme/vit");
  folder_.write("models/the-model/notes.txt", "mine");
  ModelDownloadOptions o = options();
  o.force = true;
  const Expected<DownloadedModel> model = fetch("acme/vit", o);
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(), "exists but holds no model")) << model.error();
  EXPECT_EQ(contentsOf(modelFolder() + "/notes.txt"), "mine");

  // An empty folder (made by hand for --to) is fine.
  fs::remove(modelFolder() + "/notes.txt");
  ASSERT_TRUE(fetch("acme/vit").ok());
  EXPECT_TRUE(ModelDownloader::holdsModel(modelFolder()));
}

TEST_F(ModelDownloaderTest, AnEarlierRunsFilesAreKeptOnlyWhenTheirHashVouchesForThem) {
  hub_.addVitModel("acme/vit");
  folder_.write("models/the-model.part/pytorch_model.bin.part", "half a file");
  // The same size as the hub's config.json, other bytes: without a hash it cannot be trusted.
  std::string stale = FixtureModelHub::configOf("vit");
  stale[stale.find("vit")] = 'b';
  folder_.write("models/the-model.part/config.json", stale);
  // Whole weights whose SHA-256 matches the hub's: kept.
  folder_.write("models/the-model.part/model.safetensors", FixtureModelHub::weights(4096, 2));
  const Expected<DownloadedModel> model = fetch("acme/vit");
  ASSERT_TRUE(model.ok()) << model.error();
  EXPECT_TRUE(
      requestsFor(FixtureModelHub::cdnPath("acme/vit", "model.safetensors"), "GET").empty());
  EXPECT_EQ(namesIn(modelFolder()), (std::vector<std::string>{"config.json", "model.safetensors",
                                                              "preprocessor_config.json"}));
  EXPECT_EQ(contentsOf(modelFolder() + "/config.json"), FixtureModelHub::configOf("vit"));
}

TEST_F(ModelDownloaderTest, TheEndpointComesFromTheEnvironmentWhenNotGiven) {
  hub_.addVitModel("acme/vit");
  ModelDownloadOptions o = options();
  o.endpoint.clear();
  ::setenv("ATTENTIONSCOPE_HF_ENDPOINT", (hub_.endpoint() + "/").c_str(), 1);
  const Expected<DownloadedModel> model = fetch("acme/vit", o);
  ASSERT_TRUE(model.ok()) << model.error();

  ::setenv("ATTENTIONSCOPE_HF_ENDPOINT", "ftp://mirror", 1);
  const Expected<DownloadedModel> refused = fetch("acme/other", o);
  ::unsetenv("ATTENTIONSCOPE_HF_ENDPOINT");
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(contains(refused.error(), "\"ftp://mirror\" (from ATTENTIONSCOPE_HF_ENDPOINT)"))
      << refused.error();
}

TEST(HubFileMetadata, FollowsARenamedRepositoryButNotTheCdnAndReadsWeakEtags) {
  FixtureHttpServer server;
  const std::string sha = Sha256::hexOf("x");
  server.redirect("/old/name/resolve/main/a.json", "/new/name/resolve/main/a.json");
  server.serve("/new/name/resolve/main/a.json", "12345");
  server.addHeader("/new/name/resolve/main/a.json", "ETag: W/\"" + sha + "\"");
  server.addHeader("/new/name/resolve/main/a.json", "X-Repo-Commit: abc");
  TransferLimits limits;
  limits.connect_timeout_s = 5;
  limits.stall_timeout_s = 5;
  const Expected<HubFileMetadata> metadata =
      fetchHubFileMetadata(server.url("/old/name/resolve/main/a.json"), "", limits);
  ASSERT_TRUE(metadata.ok()) << metadata.error();
  EXPECT_EQ(metadata->status, 200);
  EXPECT_TRUE(metadata->exists());
  EXPECT_EQ(metadata->size, 5);
  EXPECT_EQ(metadata->sha256, sha);
  EXPECT_EQ(metadata->commit, "abc");
  EXPECT_EQ(metadata->download_url, server.url("/new/name/resolve/main/a.json"));
  EXPECT_TRUE(metadata->download_on_endpoint);

  const Expected<HubFileMetadata> missing =
      fetchHubFileMetadata(server.url("/nothing/here"), "", limits);
  ASSERT_TRUE(missing.ok()) << missing.error();
  EXPECT_EQ(missing->status, 404);
  EXPECT_FALSE(missing->exists());

  server.redirect("/loop", "/loop");
  const Expected<HubFileMetadata> looping = fetchHubFileMetadata(server.url("/loop"), "", limits);
  ASSERT_FALSE(looping.ok());
  EXPECT_TRUE(contains(looping.error(), "too many redirects")) << looping.error();
}

}  // namespace
}  // namespace ascope
