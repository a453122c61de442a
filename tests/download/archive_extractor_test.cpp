#include "engine/download/archive_extractor.h"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>

#include "tests/data/fixture_folder.h"
#include "tests/download/fixture_archives.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;
using testing::ArchiveKind;
using testing::FixtureFolder;
using testing::makeArchive;

/// A .tar.gz holding one symbolic link `name` → `target`.
std::string tarWithSymlink(const std::string& name, const std::string& target) {
  std::string bytes;
  const std::unique_ptr<archive, int (*)(archive*)> writer(archive_write_new(),
                                                           &archive_write_free);
  archive_write_add_filter_gzip(writer.get());
  archive_write_set_format_pax_restricted(writer.get());
  archive_write_open(
      writer.get(), &bytes, nullptr,
      [](archive*, void* out, const void* data, std::size_t size) -> la_ssize_t {
        static_cast<std::string*>(out)->append(static_cast<const char*>(data), size);
        return static_cast<la_ssize_t>(size);
      },
      nullptr);
  archive_entry* entry = archive_entry_new();
  archive_entry_set_pathname(entry, name.c_str());
  archive_entry_set_filetype(entry, AE_IFLNK);
  archive_entry_set_symlink(entry, target.c_str());
  archive_entry_set_perm(entry, 0777);
  archive_write_header(writer.get(), entry);
  archive_entry_free(entry);
  archive_entry* file = archive_entry_new();
  archive_entry_set_pathname(file, "ok.txt");
  archive_entry_set_filetype(file, AE_IFREG);
  archive_entry_set_perm(file, 0644);
  archive_entry_set_size(file, 3);
  archive_write_header(writer.get(), file);
  archive_write_data(writer.get(), "ok\n", 3);
  archive_entry_free(file);
  archive_write_close(writer.get());
  return bytes;
}

TEST(ArchiveExtractorTest, ExtractsTarGzAndZip) {
  FixtureFolder folder;
  const std::string tar = folder.write(
      "a.tar.gz", makeArchive(ArchiveKind::kTarGz, {{"top/", ""}, {"top/x.txt", "x"}}));
  const std::string zip = folder.write("b.zip", makeArchive(ArchiveKind::kZip, {{"y.txt", "yy"}}));
  const std::string out = folder.makeFolder("out");
  ASSERT_TRUE(ArchiveExtractor::extract(tar, "tar.gz", out, nullptr).ok());
  ASSERT_TRUE(ArchiveExtractor::extract(zip, "zip", out, nullptr).ok());
  EXPECT_EQ(fs::file_size(out + "/top/x.txt"), 1u);
  EXPECT_EQ(fs::file_size(out + "/y.txt"), 2u);
}

TEST(ArchiveExtractorTest, RefusesEntriesThatLeaveTheFolder) {
  FixtureFolder folder;
  const std::string out = folder.makeFolder("deep/out");
  for (const std::string name : {"../escaped.txt", "a/../../escaped.txt", "/tmp/escaped.txt"}) {
    const std::string tar = folder.write(
        "evil.tar.gz", makeArchive(ArchiveKind::kTarGz, {{"fine.txt", "f"}, {name, "evil"}}));
    const Status status = ArchiveExtractor::extract(tar, "tar.gz", out, nullptr);
    ASSERT_FALSE(status.ok()) << name;
    EXPECT_NE(status.error().find("unsafe entry"), std::string::npos) << status.error();
    EXPECT_NE(status.error().find(name), std::string::npos) << status.error();
  }
  EXPECT_FALSE(fs::exists(folder.path("deep/escaped.txt")));
  EXPECT_FALSE(fs::exists(folder.path("escaped.txt")));
}

TEST(ArchiveExtractorTest, SkipsSymbolicLinks) {
  FixtureFolder folder;
  const std::string tar = folder.write("link.tar.gz", tarWithSymlink("alias", "ok.txt"));
  const std::string out = folder.makeFolder("out");
  ASSERT_TRUE(ArchiveExtractor::extract(tar, "tar.gz", out, nullptr).ok());
  EXPECT_FALSE(fs::is_symlink(out + "/alias"));
  EXPECT_TRUE(fs::exists(out + "/ok.txt"));
}

TEST(ArchiveExtractorTest, RefusesSymbolicLinksThatLeaveTheFolder) {
  FixtureFolder folder;
  const std::string tar = folder.write("link.tar.gz", tarWithSymlink("etc", "/etc"));
  const std::string out = folder.makeFolder("out");
  const Status status = ArchiveExtractor::extract(tar, "tar.gz", out, nullptr);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().find("unsafe symbolic link \"etc\" -> \"/etc\""), std::string::npos)
      << status.error();
  EXPECT_FALSE(fs::exists(fs::symlink_status(out + "/etc")));
}

TEST(ArchiveExtractorTest, NamesTheArchiveWhenDataIsDamaged) {
  FixtureFolder folder;
  const std::string whole = testing::makeCifarTarGz(2);
  const std::string tar = folder.write("cut.tar.gz", whole.substr(0, whole.size() / 2));
  const std::string out = folder.makeFolder("out");
  const Status status = ArchiveExtractor::extract(tar, "tar.gz", out, nullptr);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().find("cut.tar.gz: damaged archive"), std::string::npos)
      << status.error();
}

TEST(ArchiveExtractorTest, RejectsWhatIsNotAnArchive) {
  FixtureFolder folder;
  const std::string junk = folder.write("junk.zip", std::string(5000, 'j'));
  const Status status = ArchiveExtractor::extract(junk, "zip", folder.makeFolder("out"), nullptr);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().find("junk.zip"), std::string::npos) << status.error();
}

TEST(ArchiveExtractorTest, SafeEntryPaths) {
  EXPECT_TRUE(ArchiveExtractor::isSafeEntryPath("a/b.txt"));
  EXPECT_TRUE(ArchiveExtractor::isSafeEntryPath("./a/"));
  EXPECT_TRUE(ArchiveExtractor::isSafeEntryPath("a..b/c"));
  EXPECT_FALSE(ArchiveExtractor::isSafeEntryPath(""));
  EXPECT_FALSE(ArchiveExtractor::isSafeEntryPath("/etc/passwd"));
  EXPECT_FALSE(ArchiveExtractor::isSafeEntryPath("a/../../b"));
  EXPECT_FALSE(ArchiveExtractor::isSafeEntryPath(".."));
}

}  // namespace
}  // namespace ascope
