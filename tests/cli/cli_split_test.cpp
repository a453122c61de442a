// `split` in-process: the three files of a small review CSV against the split a training run of
// the same seed makes, and the refusals, each naming what it refuses.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "engine/datasets/imdb_csv_reader.h"
#include "in_process_run.h"
#include "tests/support/test_files.h"
#include "trained_run.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;
using testing::CliOutcome;
using testing::readFile;
using testing::runInProcess;

/// A folder of this test's own, empty, removed with it.
class SplitFolder {
 public:
  explicit SplitFolder(const std::string& name) : dir_(testing::ownTemp(name)) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~SplitFolder() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  SplitFolder(const SplitFolder&) = delete;
  SplitFolder& operator=(const SplitFolder&) = delete;
  fs::path operator/(const std::string& name) const { return dir_ / name; }

 private:
  fs::path dir_;
};

/// 60 reviews in the Kaggle spelling, with what a writer must quote (commas, quotes, a line
/// break), a tag the reader replaces, and repeats: one review four times, which carving keeps on
/// one side (a held-out split holds it once).
fs::path writeSplitFixture(const SplitFolder& folder) {
  const fs::path path = folder / "reviews.csv";
  std::ofstream csv(path);
  csv << "review,sentiment\n";
  for (int i = 0; i < 56; ++i) {
    const std::string n = std::to_string(i);
    if (i % 3 == 0) {
      csv << "\"r" << n << " a \"\"wonderful\"\", moving film<br /><br />see it\",positive\n";
    } else if (i % 3 == 1) {
      csv << "\"r" << n << " dull,\nboring plot\",negative\n";
    } else {
      csv << "r" << n << " fine acting,positive\n";
    }
  }
  for (int i = 0; i < 4; ++i) csv << "the same review again,negative\n";
  return path;
}

std::vector<TextSample> readSplit(const fs::path& path) {
  auto read = ImdbCsvReader::read(path.string());
  EXPECT_TRUE(read.ok()) << path << ": " << read.error();
  if (!read.ok()) return {};
  EXPECT_TRUE(read->warnings.empty()) << path << ": " << read->warnings.front();
  return read->dataset;
}

std::set<std::string> textsOf(const std::vector<TextSample>& samples) {
  std::set<std::string> texts;
  for (const TextSample& s : samples) texts.insert(s.text);
  return texts;
}

TEST(CliSplit, WritesTheSplitsOfARunOfTheSameSeed) {
  const SplitFolder folder("ascope_cli_split");
  const fs::path reviews = writeSplitFixture(folder);
  const CliOutcome split =
      runInProcess({"split", "--task", "imdb", "--preset", "tiny", "--data", reviews.string(),
                    "--seed", "7", "--out", (folder / "split").string()});
  ASSERT_EQ(split.exit_code, 0) << split.err;
  EXPECT_NE(split.out.find("6 reviews: 6 reviews carved from the training data (10 %, one per "
                           "distinct input, none of them in training)"),
            std::string::npos)
      << split.out;
  const std::vector<TextSample> train = readSplit(folder / "split/train.csv");
  const std::vector<TextSample> validation = readSplit(folder / "split/validation.csv");
  const std::vector<TextSample> test = readSplit(folder / "split/test.csv");

  // Disjoint, and together every distinct review of the input with its label.
  const std::set<std::string> train_texts = textsOf(train), validation_texts = textsOf(validation),
                              test_texts = textsOf(test);
  for (const std::string& t : validation_texts) EXPECT_EQ(train_texts.count(t), 0u) << t;
  for (const std::string& t : test_texts) {
    EXPECT_EQ(train_texts.count(t) + validation_texts.count(t), 0u) << t;
  }
  std::set<std::pair<std::string, int>> written, input;
  for (const auto* samples : {&train, &validation, &test}) {
    for (const TextSample& s : *samples) written.insert({s.text, s.label});
  }
  for (const TextSample& s : readSplit(reviews)) input.insert({s.text, s.label});
  EXPECT_EQ(written, input);
  EXPECT_EQ(input.size(), 57u);
  EXPECT_EQ(validation.size() + test.size(), 12u);  // 10 % each of the 60 samples, as groups
  // Training keeps every sample of its reviews; a held-out split, one of each.
  const bool repeat_trained = train_texts.count("the same review again") > 0;
  EXPECT_EQ(train.size(), train_texts.size() + (repeat_trained ? 3u : 0u));
  EXPECT_EQ(train.size(), repeat_trained ? 48u : 45u);

  // The sizes a training run of the same seed reports, and its own splits written again from
  // the run folder are the same files, byte for byte.
  const fs::path run = folder / "run";
  const CliOutcome trained =
      runInProcess({"train", "--task", "imdb", "--preset", "tiny", "--data", reviews.string(),
                    "--seed", "7", "--steps", "1", "--out", run.string()});
  ASSERT_EQ(trained.exit_code, 0) << trained.err;
  std::smatch sizes;
  const std::string log = trained.out + trained.err;
  ASSERT_TRUE(std::regex_search(
      log, sizes, std::regex(R"((\d+) training / (\d+) validation / (\d+) test reviews)")))
      << log;
  EXPECT_EQ(std::stoul(sizes[1]), train.size());
  EXPECT_EQ(std::stoul(sizes[2]), validation.size());
  EXPECT_EQ(std::stoul(sizes[3]), test.size());
  const CliOutcome again = runInProcess({"split", "--run", run.string(), "--data", reviews.string(),
                                         "--out", (folder / "again").string()});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  for (const char* name : {"train.csv", "validation.csv", "test.csv"}) {
    EXPECT_EQ(readFile((folder / "again" / name).string()),
              readFile((folder / "split" / name).string()))
        << name;
  }

  // Another seed carves another test split (what the comparison above could have missed).
  const CliOutcome other =
      runInProcess({"split", "--task", "imdb", "--preset", "tiny", "--data", reviews.string(),
                    "--seed", "8", "--out", (folder / "other").string()});
  ASSERT_EQ(other.exit_code, 0) << other.err;
  EXPECT_NE(readFile((folder / "other/test.csv").string()),
            readFile((folder / "split/test.csv").string()));
}

TEST(CliSplit, RefusesBadInputByName) {
  const SplitFolder folder("ascope_cli_split_bad");
  const fs::path reviews = writeSplitFixture(folder);
  const std::string data = reviews.string(), out = (folder / "out").string();
  auto refused = [](const std::vector<std::string>& args, int code, const std::string& says) {
    const CliOutcome o = runInProcess(args);
    EXPECT_EQ(o.exit_code, code) << o.err;
    EXPECT_NE(o.err.find(says), std::string::npos) << o.err;
    EXPECT_EQ(o.out, "");
  };
  // Beside the data, where train.csv and test.csv would make the folder read as another data set.
  refused({"split", "--task", "imdb", "--data", data, "--out", (folder / ".").string()}, 2,
          "is the folder of " + data + ", the data: the splits go to a folder of their own");
  // Over a split written before.
  fs::create_directories(out);
  testing::writeFile(out + "/validation.csv", "text,label\nkept,1\n");
  refused({"split", "--task", "imdb", "--data", data, "--out", out}, 2,
          out + "/validation.csv exists: split writes new files only");
  EXPECT_EQ(readFile(out + "/validation.csv"), "text,label\nkept,1\n");
  EXPECT_FALSE(fs::exists(out + "/train.csv"));
  // A task whose samples are not texts, a missing data set, a folder with no parent, a run
  // without its data named again.
  refused({"split", "--task", "vit", "--out", (folder / "vit").string()}, 2,
          "--task vit: split writes the texts of a text classification task (imdb");
  refused({"split", "--task", "imdb", "--data", "/no/such/reviews.csv", "--out", out}, 2,
          "/no/such/reviews.csv");
  refused({"split", "--task", "imdb", "--data", data, "--out", (folder / "no/such").string()}, 2,
          (folder / "no").string() + ": no such folder");
  refused({"split", "--run", (folder / "run").string(), "--out", out}, 2, "--run requires --data");
  // A file the reader cannot take: named, and nothing written.
  const fs::path wrong = folder / "wrong.csv";
  testing::writeFile(wrong.string(), "title,stars\nx,5\n");
  refused(
      {"split", "--task", "imdb", "--data", wrong.string(), "--out", (folder / "none").string()}, 1,
      wrong.string());
  EXPECT_FALSE(fs::exists(folder / "none"));
}

}  // namespace
}  // namespace ascope
