// ModelDownloader against a hub that misbehaves: never answers, sends more than it declared or no
// size at all, declares more than any disk holds, hides the weights' hash, puts escape sequences
// in its messages, redirects in a loop, or is reached over plain http with a token set.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "engine/download/models/model_downloader.h"
#include "engine/download/sha256.h"
#include "tests/download/model_downloader_fixture.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;
using testing::contains;
using testing::contentsOf;
using testing::FixtureModelHub;
using testing::ModelDownloaderTest;

constexpr const char* kRawHeadersWithoutLength = "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n";

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The largest file anywhere under `folder` (0 when none): what reached the disk.
std::uintmax_t largestFileUnder(const std::string& folder) {
  std::uintmax_t largest = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(folder, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file()) largest = std::max(largest, it->file_size());
  }
  return largest;
}

bool hasControlCharacter(const std::string& text) {
  return std::any_of(text.begin(), text.end(),
                     [](unsigned char c) { return c < 0x20 || c == 0x7F; });
}

void addVitWithoutWeights(FixtureModelHub& hub, const std::string& id) {
  hub.addGitFile(id, "config.json", FixtureModelHub::configOf("vit"));
  hub.addGitFile(id, "preprocessor_config.json", "{}");
}

TEST_F(ModelDownloaderTest, ACancelEndsTheWaitForAServerThatNeverAnswers) {
  hub_.addVitModel("acme/silent");
  server_.neverAnswer(FixtureModelHub::resolvePath("acme/silent", "config.json"));
  std::atomic<bool> cancel{false};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancel = true;
  });
  const auto start = std::chrono::steady_clock::now();
  const Expected<DownloadedModel> model = fetch("acme/silent", options(), &cancel);
  const double seconds = secondsSince(start);
  canceller.join();
  ASSERT_FALSE(model.ok());
  // Without the cancel the wait would last the 5 s of options()' limits and say so.
  EXPECT_TRUE(contains(model.error(), "config.json: cancelled")) << model.error();
  EXPECT_LT(seconds, 4.0);
  EXPECT_FALSE(fs::exists(stagingFolder()));  // nothing was fetched: nothing is left
  EXPECT_FALSE(fs::exists(modelFolder()));
}

TEST_F(ModelDownloaderTest, ATimeoutMayBeAFractionOfASecond) {
  hub_.addVitModel("acme/silent");
  server_.neverAnswer(FixtureModelHub::resolvePath("acme/silent", "config.json"));
  ModelDownloadOptions o = options();
  o.limits = TransferLimits::uniform(0.3);
  const Expected<DownloadedModel> model = fetch("acme/silent", o);
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(), "config.json: no answer within 0.3 s")) << model.error();
}

TEST_F(ModelDownloaderTest, ABodyLongerThanTheDeclaredSizeStopsAtTheDeclaredSize) {
  const std::string id = "acme/long";
  addVitWithoutWeights(hub_, id);
  hub_.addLfsFile(id, "model.safetensors", FixtureModelHub::weights(3000));
  // The CDN sends far more than the hub declared, with no length of its own.
  server_.answerRaw(FixtureModelHub::cdnPath(id, "model.safetensors"),
                    kRawHeadersWithoutLength + FixtureModelHub::weights(300'000));
  const Expected<DownloadedModel> model = fetch(id);
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(), "the server sent more than the 3000 bytes expected"))
      << model.error();
  EXPECT_LE(largestFileUnder(folder_.path()), 3000u);
  EXPECT_FALSE(fs::exists(modelFolder()));
}

TEST_F(ModelDownloaderTest, AConfigJsonWithoutASizeStopsAtTheMostAConfigMayBe) {
  const std::string id = "acme/endless";
  server_.answerRaw(FixtureModelHub::resolvePath(id, "config.json"),
                    kRawHeadersWithoutLength + std::string(3 << 20, ' '));
  const Expected<DownloadedModel> model = fetch(id);
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(), "the server sent more than the 1048576 bytes expected"))
      << model.error();
  EXPECT_LE(largestFileUnder(folder_.path()), std::uintmax_t{1} << 20);

  // A size declared above that is refused before the transfer.
  const std::string big = "acme/big-config";
  hub_.addGitFile(big, "config.json", FixtureModelHub::configOf("vit"));
  server_.addHeader(FixtureModelHub::resolvePath(big, "config.json"), "X-Linked-Size: 5000000000");
  server_.addHeader(FixtureModelHub::resolvePath(big, "config.json"),
                    "X-Linked-Etag: \"" + Sha256::hexOf("x") + "\"");
  const Expected<DownloadedModel> refused = fetch(big);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(contains(refused.error(),
                       "config.json: the hub says it is 5.0 GB; AttentionScope "
                       "takes at most 1.0 MB for a config.json"))
      << refused.error();
  EXPECT_TRUE(requestsFor(FixtureModelHub::resolvePath(big, "config.json"), "GET").empty());
}

TEST_F(ModelDownloaderTest, ADeclaredSizeBeyondTheFreeSpaceIsRefusedBeforeAnyTransfer) {
  const std::string id = "acme/petabyte";
  addVitWithoutWeights(hub_, id);
  hub_.addLfsFile(id, "model.safetensors", FixtureModelHub::weights(3000),
                  {std::nullopt, std::int64_t{1'000'000'000'000'000}});
  const Expected<DownloadedModel> model = fetch(id);
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(),
                       "acme/petabyte: the model needs 1000.0 TB more "
                       "(model.safetensors is 1000.0 TB), but " +
                           stagingFolder() + " has "))
      << model.error();
  EXPECT_TRUE(requestsFor(FixtureModelHub::cdnPath(id, "model.safetensors"), "GET").empty());
  EXPECT_FALSE(fs::exists(modelFolder()));
}

TEST_F(ModelDownloaderTest, LfsWeightsWhoseEtagIsNoSha256AreRefused) {
  const std::string id = "acme/unhashed";
  addVitWithoutWeights(hub_, id);
  hub_.addLfsFile(id, "model.safetensors", FixtureModelHub::weights(3000),
                  {std::string("not-a-sha-256"), std::nullopt});
  const Expected<DownloadedModel> model = fetch(id);
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(),
                       "model.safetensors: the hub keeps it in LFS storage but its "
                       "ETag \"not-a-sha-256\" is not a SHA-256"))
      << model.error();
  EXPECT_TRUE(requestsFor(FixtureModelHub::cdnPath(id, "model.safetensors"), "GET").empty());
  EXPECT_FALSE(fs::exists(modelFolder()));
}

TEST_F(ModelDownloaderTest, WeightsFromAServerThatSendsNoSha256ComeWithAWarning) {
  const std::string id = "mirror/plain";
  addVitWithoutWeights(hub_, id);
  // A plain web server: the weights as a file with a size, an ETag that is not a hash.
  hub_.addGitFile(id, "model.safetensors", FixtureModelHub::weights(3000));
  const Expected<DownloadedModel> model = fetch(id);
  ASSERT_TRUE(model.ok()) << model.error();
  ASSERT_EQ(model->warnings.size(), 1u);
  EXPECT_EQ(model->warnings[0],
            "model.safetensors: the server sent no SHA-256 for it, so only its size is checked");
}

TEST_F(ModelDownloaderTest, TheServersTextReachesMessagesWithoutControlCharacters) {
  const std::string id = "meta/escape";
  hub_.addVitModel(id);
  server_.answerWith(FixtureModelHub::resolvePath(id, "config.json"), 403);
  server_.addHeader(FixtureModelHub::resolvePath(id, "config.json"),
                    "X-Error-Message: \x1b[2J\x1b]0;owned\x07"
                    "Access denied");
  Expected<DownloadedModel> model = fetch(id);
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(), "(the hub says: \\x1B[2J\\x1B]0;owned\\x07Access denied)"))
      << model.error();
  EXPECT_FALSE(hasControlCharacter(model.error())) << model.error();

  // The reason of an error status, and a model_type.
  const std::string cdn_id = "acme/cdn-error";
  addVitWithoutWeights(hub_, cdn_id);
  hub_.addLfsFile(cdn_id, "model.safetensors", FixtureModelHub::weights(100));
  server_.answerRaw(
      FixtureModelHub::cdnPath(cdn_id, "model.safetensors"),
      "HTTP/1.1 500 \x1b[31mBroken\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  model = fetch(cdn_id);
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(), "HTTP 500 \\x1B[31mBroken")) << model.error();
  EXPECT_FALSE(hasControlCharacter(model.error())) << model.error();

  hub_.addGitFile("acme/odd", "config.json", "{\"model_type\": \"\\u001b[2Jgpt\"}");
  model = fetch("acme/odd");
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(), "model_type \"\\x1B[2Jgpt\"")) << model.error();
  EXPECT_FALSE(hasControlCharacter(model.error())) << model.error();
}

TEST_F(ModelDownloaderTest, ARedirectLoopIsCalledSoNamingTheAddress) {
  const std::string id = "acme/loop";
  hub_.addVitModel(id);
  const std::string cdn = FixtureModelHub::cdnPath(id, "model.safetensors");
  server_.redirect(cdn, server_.url(cdn));
  const Expected<DownloadedModel> model = fetch(id);
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(
      model.error(),
      server_.url(cdn) + ": too many redirects (more than 10), the last to " + server_.url(cdn)))
      << model.error();
  EXPECT_FALSE(contains(model.error(), "302")) << model.error();
}

TEST_F(ModelDownloaderTest, ARedirectToAFileAddressIsRefusedAsSuch) {
  // It was reported as "HTTP 302 Found", as if the server had failed.
  const std::string id = "acme/to_file";
  hub_.addVitModel(id);
  const std::string cdn = FixtureModelHub::cdnPath(id, "model.safetensors");
  server_.redirect(cdn, "file:///etc/passwd");
  const Expected<DownloadedModel> model = fetch(id);
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(), server_.url(cdn) +
                                          ": redirected to \"file:///etc/passwd\", which is not "
                                          "an http(s) address: refused"))
      << model.error();
  EXPECT_FALSE(contains(model.error(), "302")) << model.error();
}

TEST_F(ModelDownloaderTest, ATokenIsNotSentInClearToAnotherMachine) {
  const std::string id = "me/private";
  hub_.addVitModel(id);
  server_.requireToken(FixtureModelHub::resolvePath(id, "config.json"), "s3cret");
  ModelDownloadOptions o = options();
  o.token = "s3cret";
  // On Linux 0.0.0.0 reaches this machine, but it is no loopback name: it stands for a mirror
  // elsewhere, reached over plain http.
  o.endpoint = "http://0.0.0.0:" + hub_.endpoint().substr(hub_.endpoint().rfind(':') + 1);
  const Expected<DownloadedModel> model = fetch(id, o);
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(contains(model.error(), "HTTP 401")) << model.error();
  EXPECT_TRUE(contains(model.error(), "HF_TOKEN was not sent because the address is not https"))
      << model.error();
  ASSERT_FALSE(server_.requests().empty());
  for (const auto& request : server_.requests()) EXPECT_EQ(request.authorization, "");

  // To this machine by name (the fixture hub itself) it is sent.
  o.endpoint = hub_.endpoint();
  ASSERT_TRUE(fetch(id, o).ok());
  EXPECT_EQ(server_.requests().back().authorization, "");  // the CDN never gets it
  const auto config = requestsFor(FixtureModelHub::resolvePath(id, "config.json"), "GET");
  ASSERT_FALSE(config.empty());
  EXPECT_EQ(config.back().authorization, "Bearer s3cret");
}

}  // namespace
}  // namespace ascope
