// The handout's calibration section (issue 56): a run's calibration.json packed as the page reads
// it and held to the contract; a run without one has none (its page as before); a damaged one is
// named among what could not be read, and the page is still written.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/handout/handout_writer.h"
#include "engine/runfolder/calibration/calibration_file.h"
#include "tests/handout/document_check.h"
#include "tests/handout/synthetic_run.h"

namespace ascope {
namespace {

using nlohmann::json;
using testing::TempFolder;

CalibrationError bins(double ece, double top_accuracy) {
  CalibrationError e;
  e.ece = ece;
  for (int b = 0; b < kReliabilityBins; ++b) {
    const bool top = b == 9;
    e.bins.push_back(
        {b / 10.0, (b + 1) / 10.0, top ? 30 : 0, top ? 0.98 : 0.0, top ? top_accuracy : 0.0});
  }
  e.samples = 30;
  return e;
}

json pageData(const std::string& out) {
  return json::parse(testing::handoutDataOf(testing::fileText(out)));
}

TEST(HandoutCalibration, ARunsCalibrationIsPackedAsThePageReadsIt) {
  TempFolder tmp;
  testing::writeSyntheticRun(tmp.path("run"));
  RunCalibration c;
  c.temperature = 2.25;
  c.weights_step = 110;
  c.validation = {30, 0.6, 0.4, bins(0.2, 0.78), bins(0.03, 0.78)};
  c.test = SplitCalibration{30, 0.62, 0.41, bins(0.21, 0.77), bins(0.04, 0.77)};
  ASSERT_TRUE(writeCalibration(tmp.path("run"), c).ok());
  const std::string out = tmp.path("lecture.html");
  Expected<HandoutSummary> summary = writeHandout(tmp.path("run"), out, HandoutOptions{});
  ASSERT_TRUE(summary.ok()) << summary.error();
  const json data = pageData(out);
  const json& section = data.at("calibration");
  EXPECT_DOUBLE_EQ(section.at("temperature").get<double>(), 2.25);
  EXPECT_EQ(section.at("weights_step"), 110);
  EXPECT_DOUBLE_EQ(section.at("validation").at("ece_before").get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(section.at("test").at("ece_after").get<double>(), 0.04);
  ASSERT_EQ(section.at("validation").at("bins_after").size(), 10u);
  EXPECT_EQ(section.at("validation").at("bins_after")[9].at("count"), 30);
  const testing::DocumentCheck check =
      testing::checkHandoutDocument(testing::handoutDataOf(testing::fileText(out)), tmp.path());
  EXPECT_EQ(check.exit_code, 0) << check.output;
}

TEST(HandoutCalibration, ARunWithoutOneHasNoneAndADamagedOneIsNamed) {
  TempFolder tmp;
  testing::writeSyntheticRun(tmp.path("run"));
  const std::string out = tmp.path("lecture.html");
  Expected<HandoutSummary> summary = writeHandout(tmp.path("run"), out, HandoutOptions{});
  ASSERT_TRUE(summary.ok()) << summary.error();
  EXPECT_TRUE(pageData(out).at("calibration").is_null());

  std::ofstream(calibrationPath(tmp.path("run")))
      << R"({"format": 1, "method": "temperature", "temperature": 1e300})";
  summary = writeHandout(tmp.path("run"), out, HandoutOptions{});
  ASSERT_TRUE(summary.ok()) << summary.error();
  EXPECT_TRUE(pageData(out).at("calibration").is_null());
  bool named = false;
  for (const std::string& w : summary->warnings) {
    named = named || (w.find("calibration.json") != std::string::npos &&
                      w.find("\"temperature\"") != std::string::npos);
  }
  EXPECT_TRUE(named) << "the refused file is named among what could not be read";
}

}  // namespace
}  // namespace ascope
