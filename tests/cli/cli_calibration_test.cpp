// Calibration through the CLI in-process (issue 56): a tiny classifier run fits its temperature on
// the validation split at the end of training (calibration.json), `evaluate` reports the expected
// calibration error and reliability bins before and after it, in print and in its JSON; a run
// without the file answers at temperature 1 and says so; a damaged file is refused by name.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/runfolder/calibration/calibration_file.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "trained_run.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

nlohmann::json evaluated(const testing::TrainedRun& run, const std::string& split,
                         testing::CliOutcome* outcome = nullptr) {
  const std::string out = testing::ownTemp("ascope_cli_calibration_" + split + ".json").string();
  const testing::CliOutcome o =
      testing::runInProcess({"evaluate", "--run", run.dir(), "--data", "builtin", "--split", split,
                             "--errors", "0", "--out", out});
  EXPECT_EQ(o.exit_code, 0) << o.err;
  if (outcome != nullptr) *outcome = o;
  nlohmann::json j = testing::readAttentionJson(out);
  fs::remove(out);
  return j;
}

TEST(CliCalibration, TrainingFitsATemperatureAndEvaluateReportsTheErrorBeforeAndAfter) {
  const testing::TrainedRun run(kSentimentTaskId, 20, "ascope_cli_calibration_");
  const Expected<std::optional<RunCalibration>> file = readCalibration(run.dir());
  ASSERT_TRUE(file.ok()) << file.error();
  ASSERT_TRUE(file->has_value()) << "a classifier run ends with calibration.json";
  const RunCalibration& c = **file;
  EXPECT_GT(c.validation.samples, 0);
  ASSERT_TRUE(c.test.has_value()) << "measured on the carved test split too";
  // The fit never makes the validation loss worse: T = 1 is in its bracket.
  EXPECT_LE(c.validation.nll_after, c.validation.nll_before + 1e-12);

  testing::CliOutcome printed;
  const nlohmann::json validation = evaluated(run, "validation", &printed);
  const nlohmann::json& v = validation.at("calibration");
  EXPECT_DOUBLE_EQ(v.at("temperature").get<double>(), c.temperature);
  EXPECT_NE(v.at("source").get<std::string>().find("calibration.json"), std::string::npos);
  ASSERT_EQ(v.at("reliability").size(), 10u);
  ASSERT_EQ(v.at("reliability_before").size(), 10u);
  std::int64_t counted = 0;
  for (const nlohmann::json& bin : v.at("reliability")) counted += bin.at("count").get<int>();
  EXPECT_EQ(counted, validation.at("samples").get<int>());
  // The same weights on the same split: the figures the fit stored.
  EXPECT_NEAR(v.at("ece_before").get<double>(), c.validation.before.ece, 1e-6);
  EXPECT_NEAR(v.at("ece").get<double>(), c.validation.after.ece, 1e-6);
  EXPECT_NE(printed.out.find("calibration (10 equal-width confidence bins): ECE"),
            std::string::npos)
      << printed.out;

  const nlohmann::json test = evaluated(run, "test");
  EXPECT_NEAR(test.at("calibration").at("ece").get<double>(), c.test->after.ece, 1e-6);
  // Every probability listed is the answer's at the temperature: the bins hold them.
  for (const nlohmann::json& s : test.at("samples_scored")) {
    const double p = s.at("probability").get<double>();
    EXPECT_GE(p, 0.5 - 1e-9);
    EXPECT_LE(p, 1.0);
  }

  // A run made before calibration: temperature 1, said plainly, before and after alike.
  fs::remove(calibrationPath(run.dir()));
  const nlohmann::json old = evaluated(run, "validation");
  const nlohmann::json& o = old.at("calibration");
  EXPECT_EQ(o.at("temperature").get<double>(), 1.0);
  EXPECT_EQ(o.at("ece").get<double>(), o.at("ece_before").get<double>());
  EXPECT_NE(o.at("source").get<std::string>().find("no calibration.json"), std::string::npos);
  EXPECT_NEAR(o.at("ece").get<double>(), c.validation.before.ece, 1e-6);

  // A damaged file: refused by name and value, the answers at temperature 1.
  std::ofstream(calibrationPath(run.dir()))
      << R"({"format": 1, "method": "temperature", "temperature": -3, "weights_step": 1})";
  testing::CliOutcome warned;
  const nlohmann::json damaged = evaluated(run, "validation", &warned);
  EXPECT_EQ(damaged.at("calibration").at("temperature").get<double>(), 1.0);
  EXPECT_NE(warned.err.find("calibration.json"), std::string::npos) << warned.err;
  EXPECT_NE(warned.err.find("-3"), std::string::npos) << warned.err;
}

}  // namespace
}  // namespace ascope
