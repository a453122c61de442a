#pragma once
// What the ModelDownloader tests share: a hub on 127.0.0.1 (tests/download/fixture_model_hub.h),
// a temporary folder for the model, and helpers to look at both.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/download/models/model_downloader.h"
#include "engine/download/models/model_id.h"
#include "tests/data/fixture_folder.h"
#include "tests/download/fixture_http_server.h"
#include "tests/download/fixture_model_hub.h"

namespace ascope::testing {

/// The whole file, as bytes.
inline std::string contentsOf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The folder's entries but the hidden ones (the origin record, model_origin.h).
inline std::vector<std::string> namesIn(const std::string& folder) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (name.front() != '.') names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

/// True when `part` occurs in `text`.
inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// A hub on 127.0.0.1 with no models yet, and models/the-model as the folder to fetch into.
class ModelDownloaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ::unsetenv("HF_TOKEN");  // a developer's own token must not change what the tests see
    ::unsetenv("ATTENTIONSCOPE_HF_ENDPOINT");
  }

  ModelDownloadOptions options() const {
    ModelDownloadOptions o;
    o.endpoint = hub_.endpoint();
    o.limits.connect_timeout_s = 5;
    o.limits.stall_timeout_s = 5;
    return o;
  }

  Expected<DownloadedModel> fetch(const std::string& id, const ModelDownloadOptions& o,
                                  const std::atomic<bool>* cancel = nullptr) {
    const Expected<ModelId> model = ModelId::parse(id);
    EXPECT_TRUE(model.ok());
    return ModelDownloader(o).fetch(*model, modelFolder(), nullptr, cancel);
  }
  Expected<DownloadedModel> fetch(const std::string& id) { return fetch(id, options()); }

  std::string modelFolder() const { return folder_.path("models/the-model"); }
  std::string stagingFolder() const { return modelFolder() + ".part"; }

  /// The requests for `path` with `method`.
  std::vector<FixtureHttpServer::Request> requestsFor(const std::string& path,
                                                      const std::string& method) const {
    std::vector<FixtureHttpServer::Request> found;
    for (const auto& request : server_.requests()) {
      if (request.path == path && request.method == method) found.push_back(request);
    }
    return found;
  }

  FixtureHttpServer server_;
  FixtureModelHub hub_{server_};
  FixtureFolder folder_;
};

}  // namespace ascope::testing
