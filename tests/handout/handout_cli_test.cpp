// `attentionscope-cli handout` as a user meets it: the real binary, its exit codes and messages.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "test_paths.h"
#include "tests/handout/synthetic_run.h"

namespace ascope {
namespace {

struct Outcome {
  int code = -1;
  std::string output;  ///< stdout and stderr
};

Outcome cli(const std::string& args, const testing::TempFolder& tmp) {
  const std::string log = tmp.path("cli.log");
  const std::string command =
      std::string(test_paths::cliProgram()) + " " + args + " > '" + log + "' 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream in(log);
  std::ostringstream text;
  text << in.rdbuf();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
}

/// A tiny imdb run with a checkpoint, trained in seconds, at `tmp`'s "run".
void trainTinyRun(const testing::TempFolder& tmp) {
  const Outcome trained =
      cli("train --task imdb --preset tiny --steps 5 --device cpu --out '" + tmp.path("run") + "'",
          tmp);
  ASSERT_EQ(trained.code, 0) << trained.output;
}

TEST(HandoutCli, BadCommandLinesNameTheOption) {
  testing::TempFolder tmp;
  testing::writeSyntheticRun(tmp.path("run"));
  const std::string run = " --run '" + tmp.path("run") + "'";
  const std::string out = " --out '" + tmp.path("l.html") + "'";
  for (const auto& [args, named] : std::vector<std::pair<std::string, std::string>>{
           {"handout" + out, "--run"},
           {"handout" + run, "--out"},
           {"handout" + run + out + " --max-mb 0", "--max-mb"},
           {"handout" + run + out + " --max-mb lots", "--max-mb"},
           {"handout" + run + out + " --max-mb 1e9", "--max-mb"},
           {"handout" + run + out + " --theme purple", "--theme"},
           {"handout" + run + out + " --explain 0:x", "--explain"},
           {"handout" + run + out + " --explain encoder:0", "--explain"},
           {"handout" + run + out + " --explain 0:1:2", "--explain"}}) {
    const Outcome o = cli(args, tmp);
    EXPECT_EQ(o.code, 2) << args << "\n" << o.output;
    EXPECT_NE(o.output.find(named), std::string::npos) << args << "\n" << o.output;
  }
  EXPECT_FALSE(std::filesystem::exists(tmp.path("l.html")));
  const Outcome missing = cli("handout --run '" + tmp.path("nowhere") + "'" + out, tmp);
  EXPECT_EQ(missing.code, 1) << missing.output;
  EXPECT_NE(missing.output.find("nowhere"), std::string::npos) << missing.output;
}

TEST(HandoutCli, WritesWithinItsLimitAndSaysWhatItLeftOut) {
  testing::TempFolder tmp;
  testing::SyntheticRunOptions options;
  options.snapshots = 60;
  options.tokens = 24;
  testing::writeSyntheticRun(tmp.path("run"), options);
  const std::string page = tmp.path("lecture.html");
  const Outcome full = cli("handout --run '" + tmp.path("run") + "' --out '" + page + "'", tmp);
  ASSERT_EQ(full.code, 0) << full.output;
  // A run without a checkpoint has no head to explain unasked: its page comes without one.
  EXPECT_NE(full.output.find("warning: no Computation section"), std::string::npos) << full.output;
  EXPECT_NE(full.output.find("60 of 60 snapshots"), std::string::npos) << full.output;
  const auto full_size = std::filesystem::file_size(page);
  const double limit_mb = static_cast<double>(full_size) / 2 / 1e6;
  char limit[32];
  std::snprintf(limit, sizeof limit, "%.3f", limit_mb);
  const Outcome half =
      cli("handout --run '" + tmp.path("run") + "' --out '" + page + "' --max-mb " + limit, tmp);
  ASSERT_EQ(half.code, 0) << half.output;
  EXPECT_LE(static_cast<double>(std::filesystem::file_size(page)), limit_mb * 1e6);
  EXPECT_NE(half.output.find("left out: "), std::string::npos) << half.output;
  EXPECT_NE(half.output.find("of the run's 60 snapshots"), std::string::npos) << half.output;
  const Outcome tiny =
      cli("handout --run '" + tmp.path("run") + "' --out '" + page + "' --max-mb 0.05", tmp);
  EXPECT_EQ(tiny.code, 1) << tiny.output;
  EXPECT_NE(tiny.output.find("give --max-mb"), std::string::npos) << tiny.output;
  EXPECT_LE(static_cast<double>(std::filesystem::file_size(page)), limit_mb * 1e6);  // kept
}

// A lesson's typed minimal pair is asked of the run's model by the command, both inputs' heads
// carried; a moment that cannot be shown is named on stderr and the page is still written; a
// lesson that is not there writes nothing.
TEST(HandoutCli, ALessonsTypedPairIsAskedOfTheRunsModel) {
  testing::TempFolder tmp;
  ASSERT_NO_FATAL_FAILURE(trainTinyRun(tmp));
  const std::string lesson = tmp.path("lesson.json");
  std::ofstream(lesson) << R"({"format": 1, "title": "One word", "moments": [
      {"run": "run", "view": "attention", "text": "the film was good",
       "pair_text": "the film was not good at all", "layer": 0, "head": 0, "hidden": true,
       "question": "Does one word move the head?"},
      {"run": "gone", "view": "curves", "question": "Where did it go?"}]})";
  const std::string page = tmp.path("lecture.html");
  const std::string run = " --run '" + tmp.path("run") + "' --out '" + page + "'";
  const Outcome written = cli("handout" + run + " --lesson '" + lesson + "'", tmp);
  ASSERT_EQ(written.code, 0) << written.output;
  EXPECT_NE(written.output.find("lesson.json: moment 2 (\"Where did it go?\"): the run " +
                                tmp.path("gone") + " is not there; skipped"),
            std::string::npos)
      << written.output;
  EXPECT_NE(written.output.find("lesson: 1 moments"), std::string::npos) << written.output;
  const nlohmann::json doc = nlohmann::json::parse(testing::handoutDataOf(testing::fileText(page)));
  const nlohmann::json& moment = doc["lesson"]["moments"].at(0);
  EXPECT_EQ(moment["sample"], -1);
  EXPECT_GE(moment["step"].get<int>(), 1);
  ASSERT_EQ(moment["inputs"].size(), 2u);
  EXPECT_EQ(moment["inputs"][0]["name"], "“the film was good”");
  EXPECT_EQ(moment["inputs"][1]["name"], "“the film was not good at all”");
  // Each input's map is its own: the second is three tokens longer.
  const int first = moment["inputs"][0]["cols"], second = moment["inputs"][1]["cols"];
  EXPECT_EQ(second, first + 3);
  EXPECT_EQ(doc["labels"][moment["inputs"][1]["col_labels"].get<std::size_t>()].size(),
            static_cast<std::size_t>(second));

  std::filesystem::remove(page);
  const Outcome missing = cli("handout" + run + " --lesson '" + tmp.path("none.json") + "'", tmp);
  EXPECT_EQ(missing.code, 1) << missing.output;
  EXPECT_NE(missing.output.find("none.json"), std::string::npos) << missing.output;
  EXPECT_FALSE(std::filesystem::exists(page));
}

// `--explain`: each head asked (by the run's group name or the page's title, with a cell or
// without) computed with the run's checkpoint and carried; a head, group or cell that is not there
// is refused naming --explain and the value, and nothing is written.
TEST(HandoutCli, ExplainedHeadsAreComputedAndABadOneIsRefused) {
  testing::TempFolder tmp;
  ASSERT_NO_FATAL_FAILURE(trainTinyRun(tmp));
  const std::string page = tmp.path("lecture.html");
  const std::string run = " --run '" + tmp.path("run") + "' --out '" + page + "'";
  const Outcome written =
      cli("handout" + run + " --explain encoder:0:1:2:3 --explain 'encoder self:0:0'", tmp);
  ASSERT_EQ(written.code, 0) << written.output;
  EXPECT_NE(written.output.find("explained: encoder layer 0 head 1, cell 2 → 3, weights of step 5"),
            std::string::npos)
      << written.output;
  const nlohmann::json doc = nlohmann::json::parse(testing::handoutDataOf(testing::fileText(page)));
  ASSERT_EQ(doc["computations"].size(), 2u);
  const nlohmann::json& first = doc["computations"][0];
  EXPECT_EQ(first["head"], 1);
  EXPECT_EQ(first["step"], 5);
  EXPECT_EQ(first["sample"], doc["probe_samples"][0]);  // the sample the page shows first
  EXPECT_EQ(first["cell"]["query"], 2);
  EXPECT_EQ(first["cell"]["key"], 3);
  EXPECT_EQ(doc["groups"][first["group"].get<std::size_t>()]["title"], "encoder self");
  EXPECT_EQ(doc["computations"][1]["head"], 0);

  std::filesystem::remove(page);
  for (const auto& [value, named] : std::vector<std::pair<std::string, std::string>>{
           {"0:99", "head 99 is out of range"},
           {"5:0", "layer 5 is out of range"},
           {"nogroup:0:0", "no attention group \"nogroup\""},
           {"0:0:999:0", "query 999 is out of range"},
           {"0:0:0:999", "key 999 is out of range"}}) {
    const Outcome refused = cli("handout" + run + " --explain '" + value + "'", tmp);
    EXPECT_EQ(refused.code, 1) << value << "\n" << refused.output;
    EXPECT_NE(refused.output.find("--explain " + value + ": " + named), std::string::npos)
        << refused.output;
    EXPECT_NE(refused.output.find("nothing was written"), std::string::npos) << refused.output;
    EXPECT_FALSE(std::filesystem::exists(page)) << value;
  }
}

}  // namespace
}  // namespace ascope
