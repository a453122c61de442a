#include "engine/download/dataset_catalog.h"

#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/translation/translation_descriptor.h"

#include <gtest/gtest.h>

#include <string>
#include "test_paths.h"

namespace ascope {
namespace {

std::string catalogWith(const std::string& entry_fields) {
  return R"({"datasets": [{"task": ")" + std::string(kImageClassificationTaskId) +
         R"(", "name": "CIFAR-10", "url": "https://example.org/c.tgz",
      "file": "c.tar.gz", "size": 10, "sha256": null, "archive": "tar.gz",
      "archive_folder": "cifar-10-batches-bin", "folder": "cifar-10-batches-bin",
      "expect": ["data_batch_1.bin"])" +
         entry_fields + "}]}";
}

void expectRejected(const std::string& json, const std::string& fragment) {
  const Expected<DatasetCatalog> catalog = DatasetCatalog::parse(json, "test.json");
  ASSERT_FALSE(catalog.ok()) << "accepted: " << json;
  EXPECT_NE(catalog.error().find(fragment), std::string::npos) << catalog.error();
  EXPECT_NE(catalog.error().find("test.json"), std::string::npos) << catalog.error();
}

TEST(DatasetCatalogTest, ShippedCatalogHasTheThreeTasks) {
  const Expected<DatasetCatalog> catalog =
      DatasetCatalog::load(std::string(test_paths::resourcesDir()) + "/datasets.json");
  ASSERT_TRUE(catalog.ok()) << catalog.error();
  const Expected<CatalogEntry> vit = catalog->find(kImageClassificationTaskId);
  ASSERT_TRUE(vit.ok()) << vit.error();
  EXPECT_EQ(vit->url, "https://www.cs.toronto.edu/~kriz/cifar-10-binary.tar.gz");
  EXPECT_EQ(vit->sha256, "c4a38c50a1bc5f3a1c5537f2155ab9d68f9f25eb1ed8d9ddda3db29a59bca1dd");
  EXPECT_EQ(vit->folder, "cifar-10-batches-bin");
  const Expected<CatalogEntry> imdb = catalog->find(kSentimentTaskId);
  ASSERT_TRUE(imdb.ok()) << imdb.error();
  EXPECT_EQ(imdb->sha256, "c40f74a18d3b61f90feba1e17730e0d38e8b97c05fde7008942e91923d1658fe");
  EXPECT_EQ(imdb->folder, "aclImdb");
  const Expected<CatalogEntry> translate = catalog->find(kTranslationTaskId);
  ASSERT_TRUE(translate.ok()) << translate.error();
  EXPECT_EQ(translate->archive, "zip");
  EXPECT_TRUE(translate->sha256.empty());  // not pinned: see the catalog's "about"
  EXPECT_TRUE(translate->archive_folder.empty());
}

TEST(DatasetCatalogTest, DefaultSearchFindsTheSourceTreeCatalog) {
  const Expected<DatasetCatalog> catalog = DatasetCatalog::loadDefault();
  ASSERT_TRUE(catalog.ok()) << catalog.error();
  EXPECT_EQ(catalog->entries().size(), 3u);
}

TEST(DatasetCatalogTest, UnknownTaskListsTheKnownOnes) {
  const Expected<DatasetCatalog> catalog = DatasetCatalog::parse(catalogWith(""), "test.json");
  ASSERT_TRUE(catalog.ok()) << catalog.error();
  const Expected<CatalogEntry> missing = catalog->find("speech");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("known: vit"), std::string::npos) << missing.error();
}

TEST(DatasetCatalogTest, HashIsLowercased) {
  const std::string upper(64, 'A');
  std::string json = catalogWith("");
  json.replace(json.find("null"), 4, "\"" + upper + "\"");
  const Expected<DatasetCatalog> catalog = DatasetCatalog::parse(json, "test.json");
  ASSERT_TRUE(catalog.ok()) << catalog.error();
  EXPECT_EQ(catalog->entries()[0].sha256, std::string(64, 'a'));
}

TEST(DatasetCatalogTest, RejectsBadEntries) {
  expectRejected("{", "not valid JSON");
  expectRejected("{}", "no \"datasets\" list");
  expectRejected(catalogWith(R"(, "sha256": "abc")"), "not 64 hex digits");
  expectRejected(catalogWith(R"(, "url": "ftp://example.org/c.tgz")"), "not http(s)");
  expectRejected(catalogWith(R"(, "file": "../c.tar.gz")"), "not a plain file name");
  expectRejected(catalogWith(R"(, "folder": "a/b")"), "not a plain folder name");
  expectRejected(catalogWith(R"(, "archive_folder": "../up")"), "leaves the archive");
  expectRejected(catalogWith(R"(, "archive": "rar")"), "not tar.gz or zip");
  expectRejected(catalogWith(R"(, "expect": ["/etc/passwd"])"), "not a path inside the folder");
  expectRejected(catalogWith(R"(, "size": -3)"), "size must be");
}

TEST(DatasetCatalogTest, RejectsATaskListedTwice) {
  const std::string entry = catalogWith("");
  const std::string object =
      entry.substr(entry.find('{', 1), entry.rfind(']') - entry.find('{', 1));
  expectRejected("{\"datasets\": [" + object + "," + object + "]}", "listed twice");
}

}  // namespace
}  // namespace ascope
