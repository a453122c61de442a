// ArchiveExtractor against a full disk and against hostile links: a write that fails is an error
// naming the entry and leaves no partial file, and no hard or symbolic link may reach outside the
// folder extracted into.
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "engine/download/archive_extractor.h"
#include "engine/download/dataset_downloader.h"
#include "tests/data/fixture_folder.h"
#include "tests/download/fixture_archives.h"
#include "tests/download/fixture_http_server.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;
using testing::ArchiveKind;
using testing::FixtureFolder;
using testing::gzip;
using testing::makeArchive;
using testing::makeRawTar;
using testing::TarMember;

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::size_t entriesIn(const std::string& folder) {
  return static_cast<std::size_t>(
      std::distance(fs::directory_iterator(folder), fs::directory_iterator()));
}

/// How many file descriptors this process holds (Linux).
std::size_t openFiles() {
  return entriesIn("/proc/self/fd");
}

/// Makes write() fail with EFBIG past `bytes` in any file of this process, the way a full disk
/// fails it with ENOSPC, until destroyed: RLIMIT_FSIZE with SIGXFSZ (which would end the process)
/// ignored. Works everywhere without root.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &saved_);
    previous_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limited = saved_;
    limited.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &limited);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, previous_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit saved_{};
  void (*previous_handler_)(int) = SIG_DFL;
};

/// A 64 KiB tmpfs mounted on `folder` until destroyed; mounted() is false without the right to
/// mount (not root, or a container without CAP_SYS_ADMIN).
class SmallTmpfs {
 public:
  explicit SmallTmpfs(std::string folder) : folder_(std::move(folder)) {
    mounted_ = ::mount("tmpfs", folder_.c_str(), "tmpfs", 0, "size=64k") == 0;
  }
  ~SmallTmpfs() {
    if (mounted_) ::umount2(folder_.c_str(), MNT_DETACH);
  }
  SmallTmpfs(const SmallTmpfs&) = delete;
  SmallTmpfs& operator=(const SmallTmpfs&) = delete;
  bool mounted() const { return mounted_; }

 private:
  std::string folder_;
  bool mounted_ = false;
};

/// Runs in `folder` until destroyed.
class WorkingDirectory {
 public:
  explicit WorkingDirectory(const std::string& folder) : previous_(fs::current_path()) {
    fs::current_path(folder);
  }
  ~WorkingDirectory() {
    std::error_code ec;
    fs::current_path(previous_, ec);
  }
  WorkingDirectory(const WorkingDirectory&) = delete;
  WorkingDirectory& operator=(const WorkingDirectory&) = delete;

 private:
  fs::path previous_;
};

// 4 MiB of one byte: a few KiB of gzip that fill any small limit when extracted.
const std::string kBig(4 << 20, 'x');

std::string bigTarGz() {
  return makeArchive(ArchiveKind::kTarGz, {{"data/", ""},
                                           {"data/small.txt", "small\n"},
                                           {"data/big.bin", kBig},
                                           {"data/after.txt", "after\n"}});
}

/// A .zip of `members` (files only) written as a stream: no sizes ahead of the data, so libarchive
/// reads them without a size and does not pad a file cut short: the write failure is the only
/// sign of it.
std::string streamedZip(const std::vector<testing::ArchiveMember>& members) {
  std::string bytes;
  const std::unique_ptr<archive, int (*)(archive*)> writer(archive_write_new(),
                                                           &archive_write_free);
  archive_write_set_format_zip(writer.get());
  archive_write_open(
      writer.get(), &bytes, nullptr,
      [](archive*, void* target, const void* data, std::size_t size) -> la_ssize_t {
        static_cast<std::string*>(target)->append(static_cast<const char*>(data), size);
        return static_cast<la_ssize_t>(size);
      },
      nullptr);
  for (const auto& [path, content] : members) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, path.c_str());
    archive_entry_set_filetype(entry, AE_IFREG);
    archive_entry_set_perm(entry, 0644);
    archive_write_header(writer.get(), entry);
    archive_write_data(writer.get(), content.data(), content.size());
    archive_entry_free(entry);
  }
  archive_write_close(writer.get());
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// A full disk

TEST(ArchiveExtractorDiskFullTest, AFailedWriteIsAnErrorNamingTheEntry) {
  FixtureFolder folder;
  const std::string tar = folder.write("big.tar.gz", bigTarGz());
  const std::string out = folder.makeFolder("out");
  const std::size_t open_before = openFiles();
  Status status;
  {
    const FileSizeLimit limit(1 << 20);
    status = ArchiveExtractor::extract(tar, "tar.gz", out, nullptr);
  }
  // libarchive cannot restore the declared size past the limit either, and then keeps the file
  // open: the space of the removed file would stay in use until the program ends.
  EXPECT_EQ(openFiles(), open_before);
  ASSERT_FALSE(status.ok()) << "a write that failed was taken for success";
  EXPECT_NE(status.error().find("big.tar.gz"), std::string::npos) << status.error();
  EXPECT_NE(status.error().find("\"data/big.bin\""), std::string::npos) << status.error();
  EXPECT_NE(status.error().find(std::strerror(EFBIG)), std::string::npos) << status.error();
  // The partly written file is gone (on a full disk it used to stay at its full size, zeros past
  // the failure), and nothing after it was extracted.
  EXPECT_FALSE(fs::exists(out + "/data/big.bin"));
  EXPECT_FALSE(fs::exists(out + "/data/after.txt"));
  EXPECT_EQ(readFile(out + "/data/small.txt"), "small\n");
}

TEST(ArchiveExtractorDiskFullTest, AFullZipExtractionIsAnErrorToo) {
  // Without a size to restore, the failed write is all there is: this used to succeed with the
  // file cut short at the limit.
  FixtureFolder folder;
  const std::string zip =
      folder.write("big.zip", streamedZip({{"big.bin", kBig}, {"after.txt", "after\n"}}));
  const std::string out = folder.makeFolder("out");
  Status status;
  {
    const FileSizeLimit limit(1 << 20);
    status = ArchiveExtractor::extract(zip, "zip", out, nullptr);
  }
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().find("\"big.bin\""), std::string::npos) << status.error();
  EXPECT_FALSE(fs::exists(out + "/big.bin"));
}

TEST(ArchiveExtractorDiskFullTest, ARealFullDiskSaysSo) {
  FixtureFolder folder;
  const std::string tar = folder.write("big.tar.gz", bigTarGz());
  const std::string out = folder.makeFolder("small");
  Status status;
  {
    const SmallTmpfs tmpfs(out);
    if (!tmpfs.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here: " << std::strerror(errno);
    status = ArchiveExtractor::extract(tar, "tar.gz", out, nullptr);
    EXPECT_FALSE(fs::exists(out + "/data/big.bin"));
    EXPECT_FALSE(fs::exists(out + "/data/after.txt"));
  }
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().find("disk full while extracting \"data/big.bin\": " +
                                std::string(std::strerror(ENOSPC))),
            std::string::npos)
      << status.error();
}

std::string bigZip() {
  return streamedZip(
      {{"data/small.txt", "small\n"}, {"data/big.bin", kBig}, {"data/after.txt", "after\n"}});
}

CatalogEntry bigEntry(const std::string& url, const std::string& type) {
  CatalogEntry entry;
  entry.task = "fixture";
  entry.name = "big fixture";
  entry.url = url;
  entry.file = "big." + type;
  entry.archive = type;
  entry.archive_folder = "data";
  entry.folder = "big";
  entry.expect = {"small.txt", "big.bin", "after.txt"};
  return entry;
}

class DatasetDownloaderDiskFullTest : public ::testing::Test {
 protected:
  DatasetDownloaderDiskFullTest() {
    server_.serve("/big.tar.gz", bigTarGz());
    server_.serve("/big.zip", bigZip());
  }

  Expected<FetchedDataset> fetchInto(const std::string& data_dir, const std::string& type) {
    DownloadOptions options;
    options.limits.connect_timeout_s = 5;
    options.limits.stall_timeout_s = 5;
    return DatasetDownloader(options).fetch(bigEntry(server_.url("/big." + type), type), data_dir,
                                            nullptr, nullptr);
  }

  testing::FixtureHttpServer server_;
  FixtureFolder folder_;
};

TEST_F(DatasetDownloaderDiskFullTest, AFailedWriteLeavesNoDatasetFolder) {
  const std::string data = folder_.makeFolder("data");
  Expected<FetchedDataset> fetched = Error{"not run"};
  {
    const FileSizeLimit limit(1 << 20);
    fetched = fetchInto(data, "zip");
  }
  ASSERT_FALSE(fetched.ok()) << "a dataset with a file cut short was taken for complete";
  EXPECT_NE(fetched.error().find("\"data/big.bin\""), std::string::npos) << fetched.error();
  EXPECT_FALSE(fs::exists(data + "/big"));
  EXPECT_FALSE(fs::exists(data + "/.big.extracting"));
}

TEST_F(DatasetDownloaderDiskFullTest, AFullDiskLeavesNoDatasetFolder) {
  const std::string data = folder_.makeFolder("data");
  Expected<FetchedDataset> fetched = Error{"not run"};
  {
    const SmallTmpfs tmpfs(data);
    if (!tmpfs.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here: " << std::strerror(errno);
    fetched = fetchInto(data, "tar.gz");
    EXPECT_FALSE(fs::exists(data + "/big"));
    EXPECT_FALSE(fs::exists(data + "/.big.extracting"));
  }
  ASSERT_FALSE(fetched.ok()) << "a dataset with a file cut short was taken for complete";
  EXPECT_NE(fetched.error().find("disk full while extracting \"data/big.bin\""), std::string::npos)
      << fetched.error();
}

// ---------------------------------------------------------------------------------------------
// Links

/// A folder with `victim` (a file that must stay as it is) and `out/`, extracted into.
class ArchiveExtractorLinkTest : public ::testing::Test {
 protected:
  ArchiveExtractorLinkTest()
      : victim_(folder_.write("victim", "precious\n")), out_(folder_.makeFolder("out")) {}

  /// Extracts a .tar.gz of `members` into out/ and checks that it failed naming every string of
  /// `named`, and that the victim is untouched.
  void expectRefused(const std::vector<TarMember>& members, const std::vector<std::string>& named) {
    const std::string tar = folder_.write("evil.tar.gz", gzip(makeRawTar(members)));
    const Status status = ArchiveExtractor::extract(tar, "tar.gz", out_, nullptr);
    ASSERT_FALSE(status.ok()) << "extracted " << members.back().path << " -> "
                              << members.back().link;
    EXPECT_NE(status.error().find("evil.tar.gz: "), std::string::npos) << status.error();
    for (const std::string& name : named) {
      EXPECT_NE(status.error().find("\"" + name + "\""), std::string::npos) << status.error();
    }
    EXPECT_EQ(readFile(victim_), "precious\n");
    EXPECT_EQ(fs::hard_link_count(victim_), 1u);
  }

  FixtureFolder folder_;
  std::string victim_;
  std::string out_;
};

TEST_F(ArchiveExtractorLinkTest, TheRawTarFixtureIsWhatLibarchiveReads) {
  const std::string tar = folder_.write(
      "fine.tar.gz", gzip(makeRawTar({{"a.txt", '0', "", "aaa"}, {"sub/", '5', "", ""}})));
  ASSERT_TRUE(ArchiveExtractor::extract(tar, "tar.gz", out_, nullptr).ok());
  EXPECT_EQ(readFile(out_ + "/a.txt"), "aaa");
  EXPECT_TRUE(fs::is_directory(out_ + "/sub"));
}

TEST_F(ArchiveExtractorLinkTest, RefusesAHardLinkToAnAbsolutePath) {
  // A hard link that carries data used to be linked to its target as given and written through:
  // the victim's bytes became the archive's.
  expectRefused({{"ok.txt", '0', "", "ok\n"}, {"x.txt", '1', victim_, "evil\n"}},
                {"x.txt", victim_});
  EXPECT_FALSE(fs::exists(out_ + "/x.txt"));
  expectRefused({{"y.txt", '1', victim_, ""}}, {"y.txt", victim_});
  EXPECT_FALSE(fs::exists(out_ + "/y.txt"));
}

TEST_F(ArchiveExtractorLinkTest, RefusesAHardLinkThatClimbsOut) {
  expectRefused({{"x.txt", '1', "../victim", "evil\n"}}, {"x.txt", "../victim"});
  expectRefused({{"a/", '5', "", ""}, {"a/x.txt", '1', "a/../../victim", "evil\n"}},
                {"a/x.txt", "a/../../victim"});
  EXPECT_FALSE(fs::exists(out_ + "/x.txt"));
  EXPECT_FALSE(fs::exists(out_ + "/a/x.txt"));
}

TEST_F(ArchiveExtractorLinkTest, RefusesAHardLinkResolvedAgainstTheWorkingDirectory) {
  // "victim" is a fine name inside the archive, but no such file was extracted: the target used
  // to be taken relative to the process's working directory, which holds one.
  const WorkingDirectory cwd(folder_.path());
  expectRefused({{"ok.txt", '0', "", "ok\n"}, {"x.txt", '1', "victim", "evil\n"}},
                {"x.txt", "victim"});
  expectRefused({{"y.txt", '1', "victim", ""}}, {"y.txt", "victim"});
  EXPECT_FALSE(fs::exists(out_ + "/x.txt"));
  EXPECT_FALSE(fs::exists(out_ + "/y.txt"));
}

TEST_F(ArchiveExtractorLinkTest, RefusesAHardLinkToAFolder) {
  expectRefused({{"sub/", '5', "", ""}, {"x", '1', "sub/", ""}}, {"x", "sub/"});
  expectRefused({{"x", '1', ".", ""}}, {"x", "."});
}

TEST_F(ArchiveExtractorLinkTest, RefusesASymlinkThatLeavesTheFolderAndWhatFollowsIt) {
  const std::string outside = folder_.makeFolder("outside");
  expectRefused({{"dir", '2', "../outside", ""}, {"dir/victim", '0', "", "evil\n"}},
                {"dir", "../outside"});
  expectRefused({{"sub/", '5', "", ""}, {"sub/dir", '2', "../../outside", ""}},
                {"sub/dir", "../../outside"});
  expectRefused({{"dir", '2', outside, ""}, {"dir/victim", '0', "", "evil\n"}}, {"dir", outside});
  expectRefused({{"up", '2', "..", ""}, {"up/victim", '0', "", "evil\n"}}, {"up", ".."});
  EXPECT_EQ(entriesIn(outside), 0u);
  EXPECT_FALSE(fs::exists(out_ + "/dir"));
  EXPECT_FALSE(fs::exists(out_ + "/up"));
}

TEST_F(ArchiveExtractorLinkTest, AZipSymlinkNeverLeadsOutside) {
  std::string bytes;
  {
    const std::unique_ptr<archive, int (*)(archive*)> writer(archive_write_new(),
                                                             &archive_write_free);
    archive_write_set_format_zip(writer.get());
    archive_write_open(
        writer.get(), &bytes, nullptr,
        [](archive*, void* target, const void* data, std::size_t size) -> la_ssize_t {
          static_cast<std::string*>(target)->append(static_cast<const char*>(data), size);
          return static_cast<la_ssize_t>(size);
        },
        nullptr);
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, "dir");
    archive_entry_set_filetype(entry, AE_IFLNK);
    archive_entry_set_symlink(entry, "../outside");
    archive_entry_set_perm(entry, 0777);
    archive_write_header(writer.get(), entry);
    archive_entry_free(entry);
    archive_write_close(writer.get());
  }
  const std::string zip = folder_.write("evil.zip", bytes);
  const Status status = ArchiveExtractor::extract(zip, "zip", out_, nullptr);
  // Read as a stream, a zip's local headers do not tell a symbolic link from a file: libarchive
  // hands it on as a file holding the target's name, which is harmless. Read through the central
  // directory it is a link, refused for leading outside.
  if (status.ok()) {
    EXPECT_EQ(readFile(out_ + "/dir"), "../outside");
  } else {
    EXPECT_NE(status.error().find("\"dir\" -> \"../outside\""), std::string::npos)
        << status.error();
  }
  EXPECT_FALSE(fs::is_symlink(out_ + "/dir"));
}

TEST_F(ArchiveExtractorLinkTest, RefusesAFileThatWouldReplaceTheFolder) {
  // libarchive removes an empty folder in the way of a file: "." used to turn the (empty) folder
  // extracted into into a file. Found by archive_extraction_fuzzer.
  for (const std::string name : {".", "./", "a/..", "./."}) {
    for (const char type : {'0', '1', '2'}) {
      const std::string tar = folder_.write(
          "evil.tar.gz", gzip(makeRawTar({{name, type, type == '0' ? "" : "victim", "evil"}})));
      const Status status = ArchiveExtractor::extract(tar, "tar.gz", out_, nullptr);
      EXPECT_FALSE(status.ok()) << name << " of type " << type;
      ASSERT_TRUE(fs::is_directory(fs::symlink_status(out_))) << name << " of type " << type;
      EXPECT_EQ(entriesIn(out_), 0u);
    }
  }
}

TEST_F(ArchiveExtractorLinkTest, AFolderEntryForTheFolderItselfIsFine) {
  const std::string tar = folder_.write(
      "fine.tar.gz",
      gzip(makeRawTar(
          {{"./", '5', "", ""}, {"./a/./", '5', "", ""}, {"./a/./b.txt", '0', "", "b"}})));
  const Status status = ArchiveExtractor::extract(tar, "tar.gz", out_, nullptr);
  ASSERT_TRUE(status.ok()) << status.error();
  EXPECT_EQ(readFile(out_ + "/a/b.txt"), "b");
}

TEST_F(ArchiveExtractorLinkTest, SkipsSymlinksThatStayInside) {
  const std::string tar =
      folder_.write("fine.tar.gz", gzip(makeRawTar({{"sub/", '5', "", ""},
                                                    {"sub/a.txt", '0', "", "aaa"},
                                                    {"sub/up", '2', "../sub/a.txt", ""},
                                                    {"here", '2', ".", ""}})));
  const Status status = ArchiveExtractor::extract(tar, "tar.gz", out_, nullptr);
  ASSERT_TRUE(status.ok()) << status.error();
  EXPECT_EQ(readFile(out_ + "/sub/a.txt"), "aaa");
  EXPECT_FALSE(fs::exists(fs::symlink_status(out_ + "/sub/up")));
  EXPECT_FALSE(fs::exists(fs::symlink_status(out_ + "/here")));
}

TEST_F(ArchiveExtractorLinkTest, ExtractsHardLinksBetweenItsOwnFiles) {
  const std::string tar =
      folder_.write("fine.tar.gz", gzip(makeRawTar({{"sub/", '5', "", ""},
                                                    {"sub/a.txt", '0', "", "shared"},
                                                    {"b.txt", '1', "sub/a.txt", ""},
                                                    {"c.txt", '1', "./sub/./a.txt", ""}})));
  const Status status = ArchiveExtractor::extract(tar, "tar.gz", out_, nullptr);
  ASSERT_TRUE(status.ok()) << status.error();
  EXPECT_EQ(readFile(out_ + "/b.txt"), "shared");
  EXPECT_EQ(readFile(out_ + "/c.txt"), "shared");
  EXPECT_EQ(fs::hard_link_count(out_ + "/sub/a.txt"), 3u);
}

TEST_F(ArchiveExtractorLinkTest, AHardLinkWithDataStaysInside) {
  const std::string tar = folder_.write(
      "fine.tar.gz",
      gzip(makeRawTar({{"a.txt", '0', "", "old"}, {"b.txt", '1', "a.txt", "new data"}})));
  const Status status = ArchiveExtractor::extract(tar, "tar.gz", out_, nullptr);
  ASSERT_TRUE(status.ok()) << status.error();
  EXPECT_EQ(readFile(out_ + "/b.txt"), "new data");
  EXPECT_EQ(readFile(victim_), "precious\n");
}

TEST_F(ArchiveExtractorLinkTest, ExtractsIntoAFolderReachedThroughASymlink) {
  // The folder itself may lie behind a symlink (e.g. a data folder on another disk): only links
  // inside the archive are refused.
  fs::create_directory_symlink(out_, folder_.path("alias"));
  const std::string tar =
      folder_.write("fine.tar.gz", gzip(makeRawTar({{"sub/", '5', "", ""},
                                                    {"sub/a.txt", '0', "", "aaa"},
                                                    {"b.txt", '1', "sub/a.txt", ""}})));
  const Status status = ArchiveExtractor::extract(tar, "tar.gz", folder_.path("alias"), nullptr);
  ASSERT_TRUE(status.ok()) << status.error();
  EXPECT_EQ(readFile(out_ + "/sub/a.txt"), "aaa");
  EXPECT_EQ(readFile(out_ + "/b.txt"), "aaa");
}

}  // namespace
}  // namespace ascope
