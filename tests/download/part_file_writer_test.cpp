// PartFileWriter: where an answer's body goes in a part file, and what it refuses.
#include "engine/download/part_file_writer.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <limits>
#include <string>

#include "tests/data/fixture_folder.h"

namespace ascope {
namespace {

/// A part file holding `start`, open for writing.
class PartFile {
 public:
  explicit PartFile(const std::string& start) {
    path_ = folder_.write("x.part", start);
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
  }
  ~PartFile() { ::close(fd_); }
  int fd() const { return fd_; }
  std::string contents() const {
    ::fsync(fd_);
    std::string text;
    const int in = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    char buffer[4096];
    for (ssize_t n; (n = ::read(in, buffer, sizeof buffer)) > 0;) text.append(buffer, n);
    ::close(in);
    return text;
  }

 private:
  testing::FixtureFolder folder_;
  std::string path_;
  int fd_ = -1;
};

TEST(ContentRange, ParsesOnlyWellFormedRanges) {
  ContentRange range = ContentRange::parse("bytes 100-199/200");
  EXPECT_EQ(range.start, 100);
  EXPECT_EQ(range.end, 199);
  EXPECT_EQ(range.total, 200);
  EXPECT_EQ(ContentRange::parse("bytes */300").total, 300);
  EXPECT_EQ(ContentRange::parse("bytes 5-9/*").start, 5);
  EXPECT_EQ(ContentRange::parse("bytes 5-9/*").total, -1);
  for (const char* bad : {"", "bytes -5-9/10", "bytes 9-5/10", "bytes 5-9/7", "items 1-2/3",
                          "bytes 1-2/99999999999999999999999", "bytes 1-2/3x"}) {
    const ContentRange parsed = ContentRange::parse(bad);
    EXPECT_EQ(parsed.total, -1) << bad;
  }
}

TEST(PartFileWriter, A206ContinuesAtTheOffsetAndA200StartsOver) {
  PartFile part("hello ");
  PartFileWriter resumed(part.fd(), 6, -1, 0);
  resumed.onHeaderLine("HTTP/1.1 206 Partial Content\r\n");
  resumed.onHeaderLine("Content-Range: bytes 6-10/11\r\n");
  ASSERT_TRUE(resumed.begin(206, 5));
  ASSERT_TRUE(resumed.write("world", 5));
  EXPECT_EQ(part.contents(), "hello world");
  EXPECT_EQ(resumed.total(), 11);

  PartFile other("stale bytes");
  PartFileWriter fresh(other.fd(), 11, -1, 0);
  fresh.onHeaderLine("HTTP/1.1 200 OK\r\n");
  ASSERT_TRUE(fresh.begin(200, 3));
  ASSERT_TRUE(fresh.write("new", 3));
  EXPECT_EQ(other.contents(), "new");

  PartFile wrong("abc");
  PartFileWriter shifted(wrong.fd(), 3, -1, 0);
  shifted.onHeaderLine("Content-Range: bytes 0-5/6\r\n");
  EXPECT_FALSE(shifted.begin(206, 6));
  EXPECT_TRUE(shifted.restartFromZero());
  EXPECT_EQ(wrong.contents(), "abc");
  EXPECT_FALSE(PartFileWriter(wrong.fd(), 3, -1, 0).begin(404, 10));
}

TEST(PartFileWriter, NothingPastTheMostIsWritten) {
  PartFile part("");
  PartFileWriter writer(part.fd(), 0, 10, 0);
  ASSERT_TRUE(writer.begin(200, -1));  // no length announced
  ASSERT_TRUE(writer.write("0123456789", 10));
  EXPECT_FALSE(writer.write("x", 1));
  EXPECT_EQ(writer.error(), "the server sent more than the 10 bytes expected");
  EXPECT_EQ(part.contents(), "0123456789");

  PartFile announced("");
  PartFileWriter refused(announced.fd(), 0, 10, 0);
  EXPECT_FALSE(refused.begin(200, 11));
  EXPECT_EQ(refused.error(), "the server announces 11 bytes, more than the 10 expected");
}

TEST(PartFileWriter, ATotalLargerThanTheFreeSpaceIsRefusedBeforeAByte) {
  PartFile part("");
  PartFileWriter writer(part.fd(), 0, -1, 0);
  EXPECT_FALSE(writer.begin(200, std::int64_t{1'000'000'000'000'000'000}));
  EXPECT_EQ(writer.error().rfind("needs 1000000.0 TB more on its disk, which has ", 0), 0u)
      << writer.error();
  EXPECT_FALSE(writer.started());
}

// A resumed answer whose length, added to the bytes already there, passes the largest file size:
// refused as too large for the disk (it once wrapped to a negative size and was started).
TEST(PartFileWriter, AResumedLengthPastTheLargestSizeIsRefused) {
  PartFile part("01234");
  PartFileWriter writer(part.fd(), 5, -1, 0);
  writer.onHeaderLine("HTTP/1.1 206 Partial Content\r\n");
  writer.onHeaderLine("Content-Range: bytes 5-9/*\r\n");
  EXPECT_FALSE(writer.begin(206, std::numeric_limits<std::int64_t>::max()));
  EXPECT_NE(writer.error().find("more on its disk"), std::string::npos) << writer.error();
  EXPECT_FALSE(writer.started());
  EXPECT_EQ(part.contents(), "01234");
}

}  // namespace
}  // namespace ascope
