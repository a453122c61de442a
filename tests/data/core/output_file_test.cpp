// The one writer of a command's output (engine/core/output_file.h): the audit's targets that were
// replaced or blocked on (a device, a FIFO, a link to /proc/self/fd/1, the command's own data set
// and a run's best weights) are refused, before the work and without opening them.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "engine/core/output_file.h"
#include "tests/data/fifo_fixture.h"
#include "tests/data/fixture_folder.h"
#include "tests/support/test_files.h"

namespace ascope {
namespace {

using testing::contains;

namespace fs = std::filesystem;

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(OutputFile, ANewFileOrARegularOneIsWrittenWhole) {
  testing::FixtureFolder folder;
  const std::string fresh = folder.path("report.json");
  ASSERT_TRUE(writeOutputFile(fresh, "{}\n").ok());
  EXPECT_EQ(contents(fresh), "{}\n");
  ASSERT_TRUE(writeOutputFile(fresh, "[1]\n").ok()) << "an earlier report is replaced";
  EXPECT_EQ(contents(fresh), "[1]\n");
}

TEST(OutputFile, AFifoIsRefusedAtOnceAndStaysAFifo) {
  testing::FixtureFolder folder;
  testing::Fifo fifo(folder.path("f"));
  ASSERT_TRUE(fifo.created());
  const auto start = std::chrono::steady_clock::now();
  const Status s = writeOutputFile(fifo.path(), "x");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2)) << "never blocks";
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.error(), fifo.path() + " is a FIFO, not a file")) << s.error();
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.path().c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "not replaced by a regular file";
}

TEST(OutputFile, DevicesAreRefusedAndNeverReplaced) {
  for (const char* device : {"/dev/null", "/dev/full", "/dev/zero"}) {
    const Status s = checkOutputFile(device);
    ASSERT_FALSE(s.ok()) << device;
    EXPECT_TRUE(contains(s.error(), std::string(device) + " is a character device, not a file"))
        << s.error();
  }
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(OutputFile, ASocketIsRefused) {
  testing::FixtureFolder folder;
  const std::string path = folder.path("s");
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(path.size(), sizeof address.sun_path);
  std::copy(path.begin(), path.end(), address.sun_path);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  const Status s = checkOutputFile(path);
  ::close(fd);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.error(), "is a socket, not a file")) << s.error();
}

TEST(OutputFile, ALinkIsRefusedButItsTargetNamedItselfIsWritten) {
  testing::FixtureFolder folder;
  const std::string target = folder.write("notes.txt", "mine\n");
  const std::string link = folder.path("out.json");
  fs::create_symlink(target, link);
  const Status s = writeOutputFile(link, "report");
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.error(), link + " is a symbolic link (to " + target + ")")) << s.error();
  EXPECT_TRUE(fs::is_symlink(link)) << "the link stays a link";
  EXPECT_EQ(contents(target), "mine\n") << "and what it points to is untouched";
  const std::string to_stdout = folder.path("stdout.json");
  fs::create_symlink("/proc/self/fd/1", to_stdout);
  EXPECT_FALSE(checkOutputFile(to_stdout).ok());
  ASSERT_TRUE(writeOutputFile(target, "report").ok()) << "the target, named itself, is fine";
  EXPECT_EQ(contents(target), "report");
}

TEST(OutputFile, FoldersMissingFoldersAndEmptyNamesAreRefusedByName) {
  testing::FixtureFolder folder;
  const Status empty = checkOutputFile("");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error(), "an empty file name: give the file to write");
  const Status is_folder = checkOutputFile(folder.path());
  ASSERT_FALSE(is_folder.ok());
  EXPECT_TRUE(contains(is_folder.error(), "is a folder, not a file name")) << is_folder.error();
  const std::string missing = folder.path("nowhere/report.json");
  const Status no_folder = checkOutputFile(missing);
  ASSERT_FALSE(no_folder.ok());
  EXPECT_EQ(no_folder.error(),
            "cannot write " + missing + ": no such folder " + folder.path("nowhere"));
}

TEST(OutputFile, TheCommandsOwnInputsAreRefused) {
  testing::FixtureFolder folder;
  const std::string data = folder.write("data.csv", "text,label\na,1\n");
  const std::string best = folder.write("run/checkpoints/best.pt", "weights");
  const std::vector<CommandInput> inputs = {
      {data, "the data set"}, {folder.path("run/checkpoints"), "the run's checkpoints folder"}};
  const Status same = writeOutputFile(data, "report", inputs);
  ASSERT_FALSE(same.ok());
  EXPECT_EQ(same.error(), data + " is the data set this command reads: give another file name");
  EXPECT_EQ(contents(data), "text,label\na,1\n");
  const Status weights = writeOutputFile(best, "report", inputs);
  ASSERT_FALSE(weights.ok());
  EXPECT_TRUE(contains(weights.error(), best + " is in the run's checkpoints folder"))
      << weights.error();
  EXPECT_EQ(contents(best), "weights");
  // The same file by another name: a hard link, a path through "..".
  const std::string hard = folder.path("other.csv");
  fs::create_hard_link(data, hard);
  EXPECT_FALSE(checkOutputFile(hard, inputs).ok());
  EXPECT_FALSE(checkOutputFile(folder.path("run/../data.csv"), inputs).ok());
  EXPECT_TRUE(checkOutputFile(folder.path("run/evaluation.json"), inputs).ok())
      << "a new file beside the inputs is no input";
}

TEST(OutputFile, AnInputsNameIsRefusedBeforeTheFileExists) {
  // `--out RUN/bookmarks.json` was taken while the run had no bookmarks yet, and the window then
  // refused the run's bookmarks; a new file in the run's checkpoints/ is refused the same way.
  testing::FixtureFolder folder;
  folder.write("run/checkpoints/best.pt", "weights");
  const std::vector<CommandInput> inputs = {
      {folder.path("run/bookmarks.json"), "a file of the run"},
      {folder.path("run/checkpoints"), "the run's checkpoints folder"}};
  const Status bookmarks = checkOutputFile(folder.path("run/bookmarks.json"), inputs);
  ASSERT_FALSE(bookmarks.ok());
  EXPECT_EQ(bookmarks.error(), folder.path("run/bookmarks.json") +
                                   " is a name of a file of the run this command reads (" +
                                   folder.path("run/bookmarks.json") + "): give another file name");
  EXPECT_FALSE(checkOutputFile(folder.path("run/./bookmarks.json"), inputs).ok());
  EXPECT_FALSE(checkOutputFile(folder.path("run/checkpoints/new.json"), inputs).ok());
  EXPECT_FALSE(writeOutputFile(folder.path("run/bookmarks.json"), "x", inputs).ok());
  EXPECT_FALSE(fs::exists(folder.path("run/bookmarks.json")));
  EXPECT_TRUE(checkOutputFile(folder.path("run/report.json"), inputs).ok());
}

TEST(OutputFile, TempFilesOfAKilledWriterAreRemovedByTheNextWriter) {
  // A handout or evaluate killed with -9 left NAME.tmp.PID.1, up to the page's size, forever.
  testing::FixtureFolder folder;
  const std::string target = folder.path("page.html");
  const std::string dead = folder.write("page.html.tmp.999999999.1", "half a page");
  const std::string live =
      folder.write("page.html.tmp." + std::to_string(::getpid()) + ".7", "being written");
  const std::string other = folder.write("other.html.tmp.999999999.1", "another target's");
  ASSERT_TRUE(writeOutputFile(target, "the page").ok());
  EXPECT_FALSE(fs::exists(dead)) << "its writer is gone";
  EXPECT_TRUE(fs::exists(live)) << "a running writer's own";
  EXPECT_TRUE(fs::exists(other)) << "another target's";
  EXPECT_EQ(contents(target), "the page");
}

}  // namespace
}  // namespace ascope
