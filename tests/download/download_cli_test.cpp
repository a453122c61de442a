// The download command as a user meets it (through download_command_driver, see there): exit
// codes, one-line errors, the XDG data folder, the folder printed on stdout.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include "engine/datasets/image_dataset_loader.h"
#include "engine/download/sha256.h"
#include "test_paths.h"
#include "tests/data/fixture_folder.h"
#include "tests/download/fixture_archives.h"
#include "tests/download/fixture_http_server.h"
#include "tests/download/shell_command.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

using Outcome = testing::ShellOutcome;

class DownloadCliTest : public ::testing::Test {
 protected:
  DownloadCliTest() : archive_(testing::makeCifarTarGz(3)) { server_.serve("/c.tar.gz", archive_); }

  /// Runs the command with `environment` ("NAME=value ..." or empty) in front.
  Outcome run(const std::string& args, const std::string& environment = "") {
    const std::string err_path = folder_.path("stderr.txt");
    const std::string command = environment + " " + test_paths::downloadDriver() + " " + args;
    return testing::runShellCommand(command, err_path);
  }

  std::string overrides(const std::string& sha256) const {
    return "--url " + server_.url("/c.tar.gz") + " --sha256 " + sha256;
  }

  testing::FixtureHttpServer server_;
  testing::FixtureFolder folder_;
  std::string archive_;
};

TEST_F(DownloadCliTest, HelpDescribesTheTasks) {
  const Outcome o = run("download --help");
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_NE(o.out.find("vit|imdb|translate"), std::string::npos) << o.out;
}

TEST_F(DownloadCliTest, BadCommandLinesExit2WithOneLine) {
  for (const std::string args : {"download", "download chess", "download vit --sha256 beef",
                                 "download vit --url ftp://x/y", "download vit --frobnicate"}) {
    const Outcome o = run(args);
    EXPECT_EQ(o.exit_code, 2) << args;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << args << ": " << o.err;
    EXPECT_TRUE(o.out.empty()) << args;
  }
  EXPECT_NE(run("download chess").err.find("known: vit, imdb, translate"), std::string::npos);
}

TEST_F(DownloadCliTest, DownloadsIntoTheXdgDataFolderAndPrintsIt) {
  const std::string xdg = folder_.makeFolder("xdg");
  const Outcome o =
      run("download vit " + overrides(Sha256::hexOf(archive_)), "XDG_DATA_HOME=" + xdg);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const std::string folder = xdg + "/attentionscope/datasets/cifar-10-batches-bin";
  EXPECT_EQ(o.out, folder + "\n");
  EXPECT_NE(o.err.find("100%"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("train --task vit --data " + folder), std::string::npos) << o.err;
  const auto loaded = loadImageDataset(folder);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->dataset.train.size(), 15u);
}

TEST_F(DownloadCliTest, HomeIsTheFallbackWithoutXdgDataHome) {
  const std::string home = folder_.makeFolder("home");
  const Outcome o = run("download vit " + overrides(Sha256::hexOf(archive_)),
                        "env -u XDG_DATA_HOME HOME=" + home);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.out, home + "/.local/share/attentionscope/datasets/cifar-10-batches-bin\n");
}

TEST_F(DownloadCliTest, WrongChecksumExits1AndNamesBothHashes) {
  const std::string dir = folder_.makeFolder("data");
  const Outcome o = run("download vit --dir " + dir + " " + overrides(std::string(64, 'B')));
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_NE(o.err.find("expected " + std::string(64, 'b') + " got " + Sha256::hexOf(archive_)),
            std::string::npos)
      << o.err;
  EXPECT_TRUE(fs::is_empty(dir));
}

TEST_F(DownloadCliTest, TimeoutTakesFractionsOfASecond) {
  server_.neverAnswer("/silent.tar.gz");
  const std::string dir = folder_.makeFolder("data");
  const Outcome o = run("download vit --dir " + dir + " --url " + server_.url("/silent.tar.gz") +
                        " --sha256 " + Sha256::hexOf(archive_) + " --timeout 0.5");
  EXPECT_EQ(o.exit_code, 1) << o.err;
  EXPECT_NE(o.err.find(server_.url("/silent.tar.gz") + ": no answer within 0.5 s"),
            std::string::npos)
      << o.err;
  EXPECT_TRUE(fs::is_empty(dir));
  EXPECT_EQ(run("download vit --timeout 0").exit_code, 2);
}

}  // namespace
}  // namespace ascope
