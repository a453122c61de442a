// Numbers in the run folder's CSV files are written and read the same way under any locale: the
// GUI's QApplication sets LC_NUMERIC from the environment, and under a decimal-comma locale
// snprintf wrote "0,5" into metrics.csv and strtod read "0.5" as 0.
#include "engine/core/number_text.h"

#include <gtest/gtest.h>

#include <clocale>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "engine/runfolder/learning_rates/learning_rate_changes_csv.h"
#include "engine/runfolder/metrics/metrics_csv_writer.h"
#include "tests/data/fixture_folder.h"
#include "tests/support/comma_locale.h"
#include "tests/support/test_files.h"

namespace ascope {
namespace {

using testing::FixtureFolder;
using testing::readFile;

TEST(NumberText, WritesAndReadsAsTheCLocaleDoes) {
  EXPECT_EQ(formatNumber(0.693147182, 6), "0.693147");
  EXPECT_EQ(formatNumber(1e-5, 6), "1e-05");
  EXPECT_EQ(formatNumber(250000, 6), "250000");
  EXPECT_EQ(formatNumber(0.001, 9), "0.001");
  EXPECT_EQ(*parseNumber("0.5"), 0.5);
  EXPECT_EQ(*parseNumber("-2e-3"), -2e-3);
  EXPECT_TRUE(std::isnan(*parseNumber("nan")));
  EXPECT_TRUE(std::isinf(*parseNumber("inf")));
  for (const char* bad : {"", "0,5", " 1", "1 ", "1.5x", "0x10", "1e999"}) {
    EXPECT_FALSE(parseNumber(bad).has_value()) << bad;
  }
}

/// Sets LC_NUMERIC to a decimal-comma locale for one test, and back to "C" after it.
class CommaLocale {
 public:
  explicit CommaLocale(const std::string& folder) {
    const std::string name = testing::makeCommaLocale(folder);
    if (name.empty()) return;
    ::setenv("LOCPATH", folder.c_str(), 1);
    active_ = std::setlocale(LC_NUMERIC, name.c_str()) != nullptr;
  }
  ~CommaLocale() {
    std::setlocale(LC_NUMERIC, "C");
    ::unsetenv("LOCPATH");
  }
  CommaLocale(const CommaLocale&) = delete;
  CommaLocale& operator=(const CommaLocale&) = delete;
  bool active() const { return active_; }

 private:
  bool active_ = false;
};

TEST(NumberText, TheRunFolderFilesIgnoreADecimalCommaLocale) {
  FixtureFolder folder;
  CommaLocale comma(folder.path("locale"));
  if (!comma.active()) GTEST_SKIP() << "localedef could not make a decimal-comma locale here";
  char shown[32];
  std::snprintf(shown, sizeof shown, "%.1f", 0.5);
  ASSERT_STREQ(shown, "0,5") << "the locale is not in effect";

  const std::string metrics = folder.path("metrics.csv");
  {
    Expected<MetricsCsvWriter> writer = MetricsCsvWriter::open(metrics, false, 0, {});
    ASSERT_TRUE(writer.ok()) << writer.error();
    StepMetrics step;
    step.step = 1, step.epoch = 1, step.loss = 0.5, step.accuracy = 0.25, step.lr = 0.001;
    step.samples_per_s = 123.5;
    ASSERT_TRUE(writer->append(step).ok());
  }
  EXPECT_NE(readFile(metrics).find("\n1,1,train,0.5,0.25,0.001,123.5,"), std::string::npos)
      << readFile(metrics);
  Expected<MetricsCsv> read = readMetricsCsv(metrics);
  ASSERT_TRUE(read.ok()) << read.error();
  ASSERT_EQ(read->rows.size(), 1u);
  EXPECT_EQ(read->rows[0].loss, 0.5);
  EXPECT_EQ(read->rows[0].samples_per_s, 123.5);

  {
    Expected<LearningRateChangesWriter> rates =
        LearningRateChangesWriter::open(learningRateChangesPath(folder.path()), false, 0);
    ASSERT_TRUE(rates.ok()) << rates.error();
    ASSERT_TRUE(rates->append({3, 0.0005, 0.001}).ok());
  }
  Expected<LearningRateChanges> changes = readLearningRateChanges(folder.path());
  ASSERT_TRUE(changes.ok()) << changes.error();
  ASSERT_EQ(changes->changes.size(), 1u) << readFile(learningRateChangesPath(folder.path()));
  EXPECT_EQ(changes->changes[0].lr, 0.0005);
}

}  // namespace
}  // namespace ascope
