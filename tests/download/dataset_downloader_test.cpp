#include "engine/download/dataset_downloader.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/translation/translation_descriptor.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "engine/datasets/image_dataset_loader.h"
#include "engine/datasets/translation_dataset_loader.h"
#include "engine/download/sha256.h"
#include "tests/data/fixture_folder.h"
#include "tests/download/fixture_archives.h"
#include "tests/download/fixture_http_server.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;
using testing::FixtureFolder;
using testing::FixtureHttpServer;

// 10 records a batch: ~180 KiB of gzip, more than libarchive reads ahead, so a cut archive fails
// half-way through extraction rather than on open.
constexpr std::size_t kRecordsPerBatch = 10;

CatalogEntry cifarEntry(const std::string& url, const std::string& sha256) {
  CatalogEntry entry;
  entry.task = kImageClassificationTaskId;
  entry.name = "CIFAR-10 fixture";
  entry.url = url;
  entry.file = "cifar-10-binary.tar.gz";
  entry.sha256 = sha256;
  entry.archive = "tar.gz";
  entry.archive_folder = "cifar-10-batches-bin";
  entry.folder = "cifar-10-batches-bin";
  entry.expect = {"data_batch_1.bin", "test_batch.bin", "batches.meta.txt"};
  return entry;
}

CatalogEntry mosesEntry(const std::string& url) {
  CatalogEntry entry;
  entry.task = kTranslationTaskId;
  entry.name = "moses fixture";
  entry.url = url;
  entry.file = "en-it.txt.zip";
  entry.archive = "zip";
  entry.folder = "opus_books_en-it";
  entry.expect = {"Books.en-it.en", "Books.en-it.it"};
  return entry;
}

DatasetDownloader fastFailingDownloader() {
  DownloadOptions options;
  options.limits.connect_timeout_s = 5;
  options.limits.stall_timeout_s = 5;
  return DatasetDownloader(options);
}

class DatasetDownloaderTest : public ::testing::Test {
 protected:
  DatasetDownloaderTest() : archive_(testing::makeCifarTarGz(kRecordsPerBatch)) {
    server_.serve("/cifar.tar.gz", archive_);
  }

  Expected<FetchedDataset> fetchCifar(const std::string& sha256) {
    return downloader_.fetch(cifarEntry(server_.url("/cifar.tar.gz"), sha256), data_.path(),
                             nullptr, nullptr);
  }
  std::string partPath() const { return data_.path("cifar-10-binary.tar.gz.part"); }

  FixtureHttpServer server_;
  FixtureFolder data_;
  DatasetDownloader downloader_ = fastFailingDownloader();
  std::string archive_;
};

TEST_F(DatasetDownloaderTest, DownloadsAndExtractsCifarForTheLoader) {
  int calls = 0;
  std::int64_t last_done = -1, last_total = -1;
  std::vector<FetchStage> stages;
  DownloadOptions options;
  options.on_stage = [&](FetchStage stage) { stages.push_back(stage); };
  const Expected<FetchedDataset> fetched = DatasetDownloader(options).fetch(
      cifarEntry(server_.url("/cifar.tar.gz"), Sha256::hexOf(archive_)), data_.path(),
      [&](std::int64_t done, std::int64_t total, double) {
        ++calls;
        EXPECT_GE(done, last_done);
        last_done = done;
        last_total = total;
      },
      nullptr);
  ASSERT_TRUE(fetched.ok()) << fetched.error();
  EXPECT_EQ(fetched->folder, data_.path("cifar-10-batches-bin"));
  EXPECT_EQ(fetched->sha256, Sha256::hexOf(archive_));
  EXPECT_TRUE(fetched->warnings.empty());
  EXPECT_FALSE(fetched->already_present);
  EXPECT_GE(calls, 1);
  EXPECT_LE(calls, 3);  // throttled to ~10 a second; a local transfer takes milliseconds
  EXPECT_EQ(last_done, static_cast<std::int64_t>(archive_.size()));
  EXPECT_EQ(last_total, static_cast<std::int64_t>(archive_.size()));
  EXPECT_EQ(stages, (std::vector<FetchStage>{FetchStage::kDownloading, FetchStage::kVerifying,
                                             FetchStage::kExtracting}));
  // Only the dataset folder is left: no archive, no part, no staging folder.
  EXPECT_EQ(std::distance(fs::directory_iterator(data_.path()), fs::directory_iterator()), 1);

  const auto loaded = loadImageDataset(fetched->folder);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->dataset.train.size(), 5 * kRecordsPerBatch);
  EXPECT_EQ(loaded->dataset.test.size(), kRecordsPerBatch);
  EXPECT_EQ(loaded->dataset.class_names.size(), 10u);
  EXPECT_EQ(loaded->dataset.class_names[9], "truck");
}

TEST_F(DatasetDownloaderTest, AFolderAlreadyThereIsNotDownloadedAgain) {
  ASSERT_TRUE(fetchCifar(Sha256::hexOf(archive_)).ok());
  const std::size_t requests = server_.requests().size();
  const Expected<FetchedDataset> again = fetchCifar(Sha256::hexOf(archive_));
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_TRUE(again->already_present);
  EXPECT_EQ(server_.requests().size(), requests);
}

TEST_F(DatasetDownloaderTest, AnArchiveLeftFromAnEarlierRunIsReusedWhenItsHashMatches) {
  data_.write("cifar-10-binary.tar.gz", archive_);
  ASSERT_TRUE(fetchCifar(Sha256::hexOf(archive_)).ok());
  EXPECT_TRUE(server_.requests().empty());

  FixtureFolder other_data;
  other_data.write("cifar-10-binary.tar.gz", "not the archive");
  const Expected<FetchedDataset> fetched =
      downloader_.fetch(cifarEntry(server_.url("/cifar.tar.gz"), Sha256::hexOf(archive_)),
                        other_data.path(), nullptr, nullptr);
  ASSERT_TRUE(fetched.ok()) << fetched.error();
  EXPECT_EQ(server_.requests().size(), 1u);
}

TEST_F(DatasetDownloaderTest, AnIncompleteFolderIsReportedNotReplaced) {
  data_.write("cifar-10-batches-bin/data_batch_1.bin", "x");
  const Expected<FetchedDataset> fetched = fetchCifar(Sha256::hexOf(archive_));
  ASSERT_FALSE(fetched.ok());
  EXPECT_NE(fetched.error().find("lacks test_batch.bin"), std::string::npos) << fetched.error();
  EXPECT_TRUE(server_.requests().empty());
  EXPECT_TRUE(fs::exists(data_.path("cifar-10-batches-bin/data_batch_1.bin")));
}

TEST_F(DatasetDownloaderTest, WrongChecksumNamesBothHashesAndDeletesTheFile) {
  const std::string pinned(64, '0');
  const Expected<FetchedDataset> fetched = fetchCifar(pinned);
  ASSERT_FALSE(fetched.ok());
  const std::string expected_message = server_.url("/cifar.tar.gz") +
                                       ": checksum mismatch: expected " + pinned + " got " +
                                       Sha256::hexOf(archive_) + " (the file was deleted)";
  EXPECT_EQ(fetched.error(), expected_message);
  EXPECT_TRUE(fs::is_empty(data_.path()));
}

TEST_F(DatasetDownloaderTest, DamagedArchiveLeavesNoFolder) {
  const std::string cut = archive_.substr(0, archive_.size() * 6 / 10);
  server_.serve("/damaged.tar.gz", cut);
  const Expected<FetchedDataset> fetched =
      downloader_.fetch(cifarEntry(server_.url("/damaged.tar.gz"), Sha256::hexOf(cut)),
                        data_.path(), nullptr, nullptr);
  ASSERT_FALSE(fetched.ok());
  EXPECT_NE(fetched.error().find("cifar-10-binary.tar.gz: damaged archive"), std::string::npos)
      << fetched.error();
  EXPECT_FALSE(fs::exists(data_.path("cifar-10-batches-bin")));
  EXPECT_FALSE(fs::exists(data_.path(".cifar-10-batches-bin.extracting")));
}

TEST_F(DatasetDownloaderTest, AnArchiveWithoutTheExpectedFilesLeavesNoFolder) {
  const std::string other = testing::makeArchive(testing::ArchiveKind::kTarGz,
                                                 {{"cifar-10-batches-bin/data_batch_1.bin", "x"}});
  server_.serve("/other.tar.gz", other);
  const Expected<FetchedDataset> fetched =
      downloader_.fetch(cifarEntry(server_.url("/other.tar.gz"), Sha256::hexOf(other)),
                        data_.path(), nullptr, nullptr);
  ASSERT_FALSE(fetched.ok());
  EXPECT_NE(fetched.error().find("the archive lacks cifar-10-batches-bin/test_batch.bin"),
            std::string::npos)
      << fetched.error();
  EXPECT_FALSE(fs::exists(data_.path("cifar-10-batches-bin")));
  EXPECT_FALSE(fs::exists(data_.path(".cifar-10-batches-bin.extracting")));
}

TEST_F(DatasetDownloaderTest, ResumesABrokenDownloadWithARangeRequest) {
  const std::size_t half = archive_.size() / 2;
  server_.cutAfter("/cifar.tar.gz", half);
  const Expected<FetchedDataset> broken = fetchCifar(Sha256::hexOf(archive_));
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.error().find("connection closed after " + std::to_string(half) + " of " +
                                std::to_string(archive_.size()) + " bytes"),
            std::string::npos)
      << broken.error();
  EXPECT_NE(broken.error().find(server_.url("/cifar.tar.gz")), std::string::npos);
  ASSERT_TRUE(fs::exists(partPath()));
  EXPECT_EQ(fs::file_size(partPath()), half);

  const Expected<FetchedDataset> resumed = fetchCifar(Sha256::hexOf(archive_));
  ASSERT_TRUE(resumed.ok()) << resumed.error();
  EXPECT_EQ(resumed->sha256, Sha256::hexOf(archive_));
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].range, "");
  EXPECT_EQ(requests[1].range, "bytes=" + std::to_string(half) + "-");
  EXPECT_FALSE(fs::exists(partPath()));
  EXPECT_TRUE(loadImageDataset(resumed->folder).ok());
}

TEST_F(DatasetDownloaderTest, StartsOverWhenTheServerIgnoresTheRange) {
  data_.write("cifar-10-binary.tar.gz.part", "stale bytes from another file");
  server_.ignoreRange("/cifar.tar.gz");
  const Expected<FetchedDataset> fetched = fetchCifar(Sha256::hexOf(archive_));
  ASSERT_TRUE(fetched.ok()) << fetched.error();
  ASSERT_EQ(server_.requests().size(), 1u);
  EXPECT_FALSE(server_.requests()[0].range.empty());
}

TEST_F(DatasetDownloaderTest, AWholePartIsAcceptedOnRangeNotSatisfiable) {
  data_.write("cifar-10-binary.tar.gz.part", archive_);
  const Expected<FetchedDataset> fetched = fetchCifar(Sha256::hexOf(archive_));
  ASSERT_TRUE(fetched.ok()) << fetched.error();
  ASSERT_EQ(server_.requests().size(), 1u);
  EXPECT_EQ(server_.requests()[0].range, "bytes=" + std::to_string(archive_.size()) + "-");
}

TEST_F(DatasetDownloaderTest, APartLongerThanTheFileIsFetchedAgain) {
  data_.write("cifar-10-binary.tar.gz.part", archive_ + "trailing junk");
  const Expected<FetchedDataset> fetched = fetchCifar(Sha256::hexOf(archive_));
  ASSERT_TRUE(fetched.ok()) << fetched.error();
  ASSERT_EQ(server_.requests().size(), 2u);  // 416 with another length, then from byte zero
  EXPECT_EQ(server_.requests()[1].range, "");
}

TEST_F(DatasetDownloaderTest, NotFoundNamesTheUrlAndTheStatus) {
  const Expected<FetchedDataset> fetched =
      downloader_.fetch(cifarEntry(server_.url("/missing.tar.gz"), std::string(64, 'a')),
                        data_.path(), nullptr, nullptr);
  ASSERT_FALSE(fetched.ok());
  EXPECT_EQ(fetched.error(), server_.url("/missing.tar.gz") + ": HTTP 404 Not Found");
  EXPECT_TRUE(fs::is_empty(data_.path()));
}

TEST_F(DatasetDownloaderTest, CancelStopsAndKeepsNoFolder) {
  const std::atomic<bool> cancel{true};
  const Expected<FetchedDataset> fetched =
      downloader_.fetch(cifarEntry(server_.url("/cifar.tar.gz"), Sha256::hexOf(archive_)),
                        data_.path(), nullptr, &cancel);
  ASSERT_FALSE(fetched.ok());
  EXPECT_NE(fetched.error().find("cancelled"), std::string::npos) << fetched.error();
  EXPECT_FALSE(fs::exists(data_.path("cifar-10-batches-bin")));
}

TEST_F(DatasetDownloaderTest, UnpinnedMosesZipLoadsAsTranslationPairs) {
  const std::string zip = testing::makeMosesZip(20);
  server_.serve("/en-it.txt.zip", zip);
  const Expected<FetchedDataset> fetched =
      downloader_.fetch(mosesEntry(server_.url("/en-it.txt.zip")), data_.path(), nullptr, nullptr);
  ASSERT_TRUE(fetched.ok()) << fetched.error();
  ASSERT_EQ(fetched->warnings.size(), 1u);
  EXPECT_NE(fetched->warnings[0].find("not pinned"), std::string::npos);
  EXPECT_NE(fetched->warnings[0].find(Sha256::hexOf(zip)), std::string::npos);

  const auto loaded = loadTranslationDataset(fetched->folder);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->dataset.train.size(), 18u);
  EXPECT_EQ(loaded->dataset.validation.size(), 2u);
}

TEST_F(DatasetDownloaderTest, AnUnpinnedArchiveOfTheWrongSizeIsRejected) {
  const std::string zip = testing::makeMosesZip(20);
  server_.serve("/en-it.txt.zip", zip);
  CatalogEntry entry = mosesEntry(server_.url("/en-it.txt.zip"));
  entry.size = static_cast<std::int64_t>(zip.size()) + 1;
  const Expected<FetchedDataset> fetched = downloader_.fetch(entry, data_.path(), nullptr, nullptr);
  ASSERT_FALSE(fetched.ok());
  EXPECT_NE(fetched.error().find("size mismatch: expected " + std::to_string(zip.size() + 1) +
                                 " bytes, got " + std::to_string(zip.size())),
            std::string::npos)
      << fetched.error();
  EXPECT_TRUE(fs::is_empty(data_.path()));
  // The published size is accepted.
  entry.size = static_cast<std::int64_t>(zip.size());
  EXPECT_TRUE(downloader_.fetch(entry, data_.path(), nullptr, nullptr).ok());
}

TEST_F(DatasetDownloaderTest, AnUnpinnedArchiveThatDoesNotExtractIsDeleted) {
  server_.serve("/en-it.txt.zip", "this is not a zip file at all");
  const Expected<FetchedDataset> fetched =
      downloader_.fetch(mosesEntry(server_.url("/en-it.txt.zip")), data_.path(), nullptr, nullptr);
  ASSERT_FALSE(fetched.ok());
  EXPECT_NE(fetched.error().find("en-it.txt.zip"), std::string::npos) << fetched.error();
  EXPECT_TRUE(fs::is_empty(data_.path()));
}

}  // namespace
}  // namespace ascope
