// What a process of the program killed mid-write leaves behind (a hidden partial video, an
// export's staging folder) is removed by the next start, and only when its writer is gone
//: another running instance's files stay.
#include "engine/core/dead_process_leftovers.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "tests/data/fixture_folder.h"

namespace ascope {
namespace {

using testing::FixtureFolder;

/// The id of a process that has ended: a child that exited at once, reaped.
long endedProcess() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  return static_cast<long>(child);
}

TEST(DeadProcessLeftovers, OnlyWhatEndedProcessesLeftIsRemoved) {
  FixtureFolder folder;
  const long dead = endedProcess();
  const std::string mine = std::to_string(::getpid());
  EXPECT_FALSE(processAlive(dead));
  EXPECT_TRUE(processAlive(::getpid()));
  EXPECT_TRUE(processAlive(1));  // init: alive, though not ours to signal
  const std::string stale = folder.write(".talk.partial-" + std::to_string(dead) + "-0.mp4", "x");
  const std::string running = folder.write(".talk.partial-" + mine + "-1.gif", "x");
  const std::string notes = folder.write(".talk.partial-notes.txt", "the user's");
  const std::string staging =
      folder.makeFolder("AttentionScope-export-" + std::to_string(dead) + "-a1B2c3");
  folder.write("AttentionScope-export-" + std::to_string(dead) + "-a1B2c3/attention/x.png", "png");
  const std::string outside = folder.write("outside.txt", "kept");
  std::filesystem::create_symlink(outside, staging + "/link");

  const std::vector<std::string> videos = removeLeftoversOfDeadProcesses(
      folder.path(), std::regex(R"(\..*\.partial-([0-9]+)-[0-9]+\.(gif|mp4))"));
  EXPECT_EQ(videos, std::vector<std::string>{stale});
  const std::vector<std::string> folders = removeLeftoversOfDeadProcesses(
      folder.path(), std::regex("AttentionScope-export-([0-9]+)-[A-Za-z0-9]+"));
  EXPECT_EQ(folders, std::vector<std::string>{staging});
  EXPECT_FALSE(std::filesystem::exists(stale));
  EXPECT_FALSE(std::filesystem::exists(staging));
  EXPECT_TRUE(std::filesystem::exists(running));
  EXPECT_TRUE(std::filesystem::exists(notes));
  EXPECT_TRUE(std::filesystem::exists(outside)) << "a link inside was followed";
  EXPECT_TRUE(removeLeftoversOfDeadProcesses(folder.path() + "/none", std::regex("(1)")).empty());
}

}  // namespace
}  // namespace ascope
