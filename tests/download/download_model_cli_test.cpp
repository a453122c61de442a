// The download-model command as a user meets it (through download_command_driver): exit codes,
// one-line errors, the XDG models folder, the folder on stdout and the files on stderr.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include "engine/download/sha256.h"
#include "tests/data/fixture_folder.h"
#include "tests/download/fixture_http_server.h"
#include "tests/download/fixture_model_hub.h"
#include "tests/download/shell_command.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;
using testing::FixtureModelHub;

constexpr std::size_t kWeightBytes = 1'500'000;  // big enough to show progress lines

using Outcome = testing::ShellOutcome;

class DownloadModelCliTest : public ::testing::Test {
 protected:
  DownloadModelCliTest() { hub_.addBertModel("bert-base-uncased", kWeightBytes); }

  /// Runs the command against the fixture hub, with `environment` (env(1)'s options and
  /// "NAME=value" pairs) in front.
  Outcome run(const std::string& args, const std::string& environment = "") {
    const std::string err_path = folder_.path("stderr.txt");
    const std::string command = "env -u HF_TOKEN " + environment +
                                " ATTENTIONSCOPE_HF_ENDPOINT=" + hub_.endpoint() + " " +
                                ATTENTIONSCOPE_DOWNLOAD_DRIVER + " " + args;
    return testing::runShellCommand(command, err_path);
  }

  testing::FixtureHttpServer server_;
  FixtureModelHub hub_{server_};
  testing::FixtureFolder folder_;
};

TEST_F(DownloadModelCliTest, HelpDescribesIdsAndTheEnvironment) {
  const Outcome o = run("download-model --help");
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_NE(o.out.find("usage: attentionscope-cli download-model"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("HF_TOKEN"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("--to"), std::string::npos) << o.out;
}

TEST_F(DownloadModelCliTest, BadCommandLinesExit2WithOneLine) {
  for (const std::string args :
       {"download-model", "download-model ../etc", "download-model a/b/c",
        "download-model /abs/path", "download-model x --frobnicate", "download-model x --to"}) {
    const Outcome o = run(args);
    EXPECT_EQ(o.exit_code, 2) << args;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << args << ": " << o.err;
    EXPECT_TRUE(o.out.empty()) << args;
  }
  EXPECT_NE(run("download-model a/b/c").err.find("model id \"a/b/c\": more than one '/'"),
            std::string::npos);
  EXPECT_TRUE(server_.requests().empty());
}

TEST_F(DownloadModelCliTest, DownloadsIntoTheXdgModelsFolderAndListsTheFiles) {
  const std::string xdg = folder_.makeFolder("xdg");
  const Outcome o = run("download-model bert-base-uncased", "XDG_DATA_HOME=" + xdg);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const std::string folder = xdg + "/attentionscope/models/bert-base-uncased";
  EXPECT_EQ(o.out, folder + "\n");
  EXPECT_NE(o.err.find("100%  1.5 / 1.5 MB"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("bert-base-uncased (bert) is ready in " + folder), std::string::npos)
      << o.err;
  const std::size_t weights_line = o.err.find("\n  model.safetensors ");
  ASSERT_NE(weights_line, std::string::npos) << o.err;
  EXPECT_EQ(o.err.substr(o.err.find('\n', weights_line + 1) - 6, 6), "1.5 MB") << o.err;
  EXPECT_NE(o.err.find("tokenizer.json"), std::string::npos) << o.err;
  EXPECT_EQ(fs::file_size(folder + "/model.safetensors"), kWeightBytes);

  const std::size_t requests = server_.requests().size();
  const Outcome again = run("download-model bert-base-uncased", "XDG_DATA_HOME=" + xdg);
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, folder + "\n");
  EXPECT_NE(again.err.find("is already in " + folder), std::string::npos) << again.err;
  EXPECT_EQ(server_.requests().size(), requests);
}

TEST_F(DownloadModelCliTest, OwnerAndNameMakeTheFolderNameUnderHome) {
  hub_.addVitModel("google/vit-base-patch16-224");
  const std::string home = folder_.makeFolder("home");
  const Outcome o =
      run("download-model google/vit-base-patch16-224", "-u XDG_DATA_HOME HOME=" + home);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.out, home + "/.local/share/attentionscope/models/google--vit-base-patch16-224\n");
}

TEST_F(DownloadModelCliTest, ChecksumMismatchExits1NamingTheFileAndLeavesNoFolder) {
  hub_.addLfsFile("acme/bad", "model.safetensors", FixtureModelHub::weights(100),
                  {std::string(64, 'a'), std::nullopt});
  hub_.addGitFile("acme/bad", "config.json", FixtureModelHub::configOf("vit"));
  hub_.addGitFile("acme/bad", "preprocessor_config.json", "{}");
  const std::string to = folder_.path("models/bad");
  const Outcome o = run("download-model acme/bad --to " + to);
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_NE(
      o.err.find("attentionscope-cli: model.safetensors: SHA-256 mismatch: expected " +
                 std::string(64, 'a') + ", got " + Sha256::hexOf(FixtureModelHub::weights(100))),
      std::string::npos)
      << o.err;
  EXPECT_TRUE(o.out.empty());
  EXPECT_FALSE(fs::exists(to));
}

TEST_F(DownloadModelCliTest, AGatedModelExits1AndAsksForAToken) {
  hub_.addVitModel("meta/gated");
  server_.answerWith(FixtureModelHub::resolvePath("meta/gated", "config.json"), 401);
  const Outcome o = run("download-model meta/gated --to " + folder_.path("gated"));
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_NE(o.err.find("needs a token: set HF_TOKEN"), std::string::npos) << o.err;
  EXPECT_FALSE(fs::exists(folder_.path("gated")));
}

}  // namespace
}  // namespace ascope
