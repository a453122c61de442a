#include "engine/runfolder/head_stats/head_stats_csv_writer.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "tests/engine/removed_at_exit.h"
#include "tests/support/test_files.h"

namespace ascope {
namespace {

using testing::readFile;

namespace fs = std::filesystem;

std::string freshFile(const std::string& name) {
  const std::string dir = testing::freshTempPath("head_stats_csv");
  fs::create_directories(dir);
  return dir + "/" + name;
}

std::vector<HeadStatistic> twoStatistics(double entropy) {
  return {{"encoder self", 0, 1, "entropy", entropy}, {"cross", 1, 0, "distance", 12.5}};
}

TEST(HeadStatsCsvWriter, WritesOneRowPerStatisticThatReadsBack) {
  const std::string path = freshFile("plain.csv");
  {
    Expected<HeadStatsCsvWriter> writer = HeadStatsCsvWriter::open(path, false, 0);
    ASSERT_TRUE(writer.ok()) << writer.error();
    ASSERT_TRUE(writer->append(10, twoStatistics(0.123456789)).ok());
    ASSERT_TRUE(writer->append(20, twoStatistics(1)).ok());
  }
  EXPECT_EQ(readFile(path),
            "step,group,layer,head,metric,value\n"
            "10,encoder self,0,1,entropy,0.123457\n"
            "10,cross,1,0,distance,12.5\n"
            "20,encoder self,0,1,entropy,1\n"
            "20,cross,1,0,distance,12.5\n");
  const Expected<std::vector<HeadStatsRow>> rows = readHeadStatsCsv(path);
  ASSERT_TRUE(rows.ok()) << rows.error();
  ASSERT_EQ(rows->size(), 4u);
  EXPECT_EQ((*rows)[1].step, 10);
  EXPECT_EQ((*rows)[1].statistic.group, "cross");
  EXPECT_EQ((*rows)[1].statistic.layer, 1);
  EXPECT_EQ((*rows)[1].statistic.metric, "distance");
  EXPECT_DOUBLE_EQ((*rows)[0].statistic.value, 0.123457);
}

TEST(HeadStatsCsvWriter, WritesNonFiniteValuesAsNanAndRefusesRowsTheReaderWouldRefuse) {
  const std::string path = freshFile("refused.csv");
  Expected<HeadStatsCsvWriter> writer = HeadStatsCsvWriter::open(path, false, 0);
  ASSERT_TRUE(writer.ok()) << writer.error();
  const std::vector<HeadStatistic> statistics{
      {"encoder", 0, 0, "entropy", std::nan("")},
      {"encoder", 0, 1, "entropy", std::numeric_limits<double>::infinity()},
      {"encoder,self", 0, 0, "entropy", .5},
      {"encoder", 0, 2, "entropy", 1.5},
      {"encoder", 0, 3, "max_weight", .75}};
  const Status status = writer->append(7, statistics);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error(), path +
                                ": a head statistic of step 7 was not written: 7 fields where "
                                "step,group,layer,head,metric,value has 6");
  EXPECT_EQ(readFile(path),
            "step,group,layer,head,metric,value\n"
            "7,encoder,0,0,entropy,nan\n"
            "7,encoder,0,1,entropy,nan\n"
            "7,encoder,0,3,max_weight,0.75\n");
}

TEST(HeadStatsCsvWriter, ResumeKeepsTheRowsUpToTheCheckpointAndDropsTornOnes) {
  const std::string path = freshFile("resume.csv");
  {
    Expected<HeadStatsCsvWriter> writer = HeadStatsCsvWriter::open(path, false, 0);
    ASSERT_TRUE(writer.ok()) << writer.error();
    for (int64_t step : {10, 20, 30}) ASSERT_TRUE(writer->append(step, twoStatistics(.5)).ok());
  }
  std::ofstream(path, std::ios::app) << "40,encoder self,0,1,entr";  // killed mid-row
  {
    Expected<HeadStatsCsvWriter> writer = HeadStatsCsvWriter::open(path, true, 20);
    ASSERT_TRUE(writer.ok()) << writer.error();
    ASSERT_TRUE(writer->append(25, twoStatistics(.25)).ok());
  }
  Expected<std::vector<HeadStatsRow>> rows = readHeadStatsCsv(path);
  ASSERT_TRUE(rows.ok()) << rows.error();
  std::vector<int64_t> steps;
  for (const HeadStatsRow& row : *rows) steps.push_back(row.step);
  EXPECT_EQ(steps, (std::vector<int64_t>{10, 10, 20, 20, 25, 25}));
  EXPECT_DOUBLE_EQ(rows->back().statistic.value, 12.5);

  // Not a resume: a fresh file.
  ASSERT_TRUE(HeadStatsCsvWriter::open(path, false, 100).ok());
  EXPECT_EQ(readFile(path), "step,group,layer,head,metric,value\n");
  // A folder where the file belongs is refused, not replaced.
  const Expected<HeadStatsCsvWriter> on_folder =
      HeadStatsCsvWriter::open(fs::path(path).parent_path().string(), true, 0);
  EXPECT_FALSE(on_folder.ok());
}

/// RLIMIT_FSIZE stands in for a full disk: a write past it is cut short or fails with EFBIG
/// (SIGXFSZ ignored meanwhile), and raising it again is the room coming back.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &saved_);
    previous_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit = saved_;
    limit.rlim_cur = bytes;
    ok_ = setrlimit(RLIMIT_FSIZE, &limit) == 0;
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, previous_handler_);
  }
  bool ok() const { return ok_; }

 private:
  rlimit saved_{};
  void (*previous_handler_)(int) = nullptr;
  bool ok_ = false;
};

TEST(HeadStatsCsvWriter, AFullDiskIsSaidOnceAndTheRowAfterItStartsOnItsOwnLine) {
  const std::string path = freshFile("full.csv");
  Expected<HeadStatsCsvWriter> writer = HeadStatsCsvWriter::open(path, false, 0);
  ASSERT_TRUE(writer.ok()) << writer.error();
  ASSERT_TRUE(writer->append(1, twoStatistics(.5)).ok());
  const auto size = static_cast<rlim_t>(fs::file_size(path));
  {
    // The next row gets 10 of its bytes in: a short write, said as a full disk; the rows after it
    // fail with EFBIG.
    const FileSizeLimit limit(size + 10);
    ASSERT_TRUE(limit.ok());
    const Status first = writer->append(2, twoStatistics(.5));
    ASSERT_FALSE(first.ok());
    EXPECT_EQ(first.error(),
              path +
                  ": cannot append the head statistics (No space left on device); training "
                  "goes on, the rows until there is room again are lost");
    EXPECT_TRUE(writer->append(3, twoStatistics(.5)).ok()) << "said once, not for every row";
  }
  ASSERT_TRUE(writer->append(4, twoStatistics(.5)).ok());
  const std::string text = readFile(path);
  EXPECT_NE(text.find("\n2,encoder \n4,encoder self,0,1,entropy,0.5\n"), std::string::npos) << text;
  const Expected<std::vector<HeadStatsRow>> rows = readHeadStatsCsv(path);
  ASSERT_TRUE(rows.ok()) << rows.error();
  ASSERT_EQ(rows->size(), 4u) << "step 1 and step 4; the torn row is skipped";
  EXPECT_EQ(rows->back().step, 4);
}

}  // namespace
}  // namespace ascope
