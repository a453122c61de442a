// calibration.json: written and read back whole; absent for a run made before; and, read as
// untrusted input, every temperature that is no sane one (NaN written as null, 0, negative,
// absurd) and every figure out of its range refused with the file and the value named.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/runfolder/calibration/calibration_file.h"
#include "tests/data/fixture_folder.h"

namespace ascope {
namespace {

CalibrationError someBins(double ece) {
  CalibrationError e;
  e.ece = ece;
  for (int b = 0; b < kReliabilityBins; ++b) {
    e.bins.push_back(
        {b / 10.0, (b + 1) / 10.0, b == 9 ? 40 : 0, b == 9 ? 0.97 : 0.0, b == 9 ? 0.8 : 0.0});
  }
  e.samples = 40;
  return e;
}

RunCalibration someCalibration() {
  RunCalibration c;
  c.temperature = 1.84;
  c.weights_step = 1200;
  c.validation = {40, 0.51, 0.34, someBins(0.17), someBins(0.02)};
  c.test = SplitCalibration{40, 0.55, 0.36, someBins(0.18), someBins(0.03)};
  return c;
}

TEST(CalibrationFile, ReadsBackWhatItWrote) {
  testing::FixtureFolder folder;
  ASSERT_TRUE(writeCalibration(folder.path(), someCalibration()).ok());
  const Expected<std::optional<RunCalibration>> read = readCalibration(folder.path());
  ASSERT_TRUE(read.ok()) << read.error();
  ASSERT_TRUE(read->has_value());
  const RunCalibration& c = **read;
  EXPECT_DOUBLE_EQ(c.temperature, 1.84);
  EXPECT_EQ(c.weights_step, 1200);
  EXPECT_DOUBLE_EQ(c.validation.nll_after, 0.34);
  EXPECT_DOUBLE_EQ(c.validation.before.ece, 0.17);
  ASSERT_EQ(c.validation.after.bins.size(), 10u);
  EXPECT_EQ(c.validation.after.bins[9].count, 40);
  EXPECT_EQ(c.validation.after.samples, 40);
  ASSERT_TRUE(c.test.has_value());
  EXPECT_DOUBLE_EQ(c.test->after.ece, 0.03);
}

TEST(CalibrationFile, ARunMadeBeforeHasNone) {
  testing::FixtureFolder folder;
  const Expected<std::optional<RunCalibration>> read = readCalibration(folder.path());
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_FALSE(read->has_value());
}

TEST(CalibrationFile, ATestSplitIsOptional) {
  testing::FixtureFolder folder;
  RunCalibration c = someCalibration();
  c.test.reset();
  ASSERT_TRUE(writeCalibration(folder.path(), c).ok());
  const Expected<std::optional<RunCalibration>> read = readCalibration(folder.path());
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_FALSE((*read)->test.has_value());
}

/// The file written, then `key` of its top level set to `value` by hand.
std::string withTopLevel(const testing::FixtureFolder& folder, const std::string& key,
                         const nlohmann::json& value) {
  EXPECT_TRUE(writeCalibration(folder.path(), someCalibration()).ok());
  std::ifstream in(calibrationPath(folder.path()));
  nlohmann::json j = nlohmann::json::parse(in);
  j[key] = value;
  folder.write("calibration.json", j.dump());
  return calibrationPath(folder.path());
}

TEST(CalibrationFile, RefusesATemperatureThatIsNoneAndNamesFileAndValue) {
  for (const nlohmann::json& bad :
       {nlohmann::json(nullptr), nlohmann::json(0.0), nlohmann::json(-1.5), nlohmann::json(1e9),
        nlohmann::json("2"), nlohmann::json(0.001)}) {
    testing::FixtureFolder folder;
    const std::string path = withTopLevel(folder, "temperature", bad);
    const Expected<std::optional<RunCalibration>> read = readCalibration(folder.path());
    ASSERT_FALSE(read.ok()) << bad.dump();
    EXPECT_NE(read.error().find(path), std::string::npos) << read.error();
    EXPECT_NE(read.error().find("\"temperature\""), std::string::npos) << read.error();
    EXPECT_NE(read.error().find(bad.dump()), std::string::npos) << read.error();
  }
}

TEST(CalibrationFile, RefusesNaNWrittenAsText) {
  testing::FixtureFolder folder;
  ASSERT_TRUE(writeCalibration(folder.path(), someCalibration()).ok());
  folder.write("calibration.json", R"({"format": 1, "method": "temperature", "temperature": NaN})");
  EXPECT_FALSE(readCalibration(folder.path()).ok());
}

TEST(CalibrationFile, RefusesFiguresOutOfTheirRange) {
  testing::FixtureFolder folder;
  ASSERT_TRUE(writeCalibration(folder.path(), someCalibration()).ok());
  std::ifstream in(calibrationPath(folder.path()));
  nlohmann::json j = nlohmann::json::parse(in);
  j["validation"]["ece_after"] = 1.5;
  folder.write("calibration.json", j.dump());
  Expected<std::optional<RunCalibration>> read = readCalibration(folder.path());
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().find("validation.\"ece_after\""), std::string::npos) << read.error();
  j["validation"]["ece_after"] = 0.02;
  j["test"]["bins_after"][3]["count"] = -4;
  folder.write("calibration.json", j.dump());
  read = readCalibration(folder.path());
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().find("bins_after[3]"), std::string::npos) << read.error();
  j["test"]["bins_after"][3]["count"] = 0;
  j["format"] = 2;
  folder.write("calibration.json", j.dump());
  EXPECT_FALSE(readCalibration(folder.path()).ok());
}

TEST(CalibrationFile, RefusesALinkInItsPlace) {
  testing::FixtureFolder folder;
  const std::string target = folder.write("target.json", "{}");
  ASSERT_EQ(::symlink(target.c_str(), calibrationPath(folder.path()).c_str()), 0);
  EXPECT_FALSE(readCalibration(folder.path()).ok());
}

TEST(CalibrationFile, WritesNoTemperatureItWouldRefuse) {
  testing::FixtureFolder folder;
  RunCalibration c = someCalibration();
  c.temperature = 0;
  EXPECT_FALSE(writeCalibration(folder.path(), c).ok());
  c.temperature = std::nan("");
  EXPECT_FALSE(writeCalibration(folder.path(), c).ok());
}

}  // namespace
}  // namespace ascope
