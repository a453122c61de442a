// `explain` on tiny runs: every stage with its shape, weights equal to the model's own, a cell's
// products adding up to its logit, a first layer's four parts too, the decoder's future masked
// (null, never a number); questions out of range refused by name, nothing written.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "in_process_run.h"
#include "trained_run.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;
using testing::CliOutcome;
using testing::readAttentionJson;
using testing::runInProcess;
using testing::TrainedRun;

const nlohmann::json& stageNamed(const nlohmann::json& j, const std::string& name) {
  for (const nlohmann::json& s : j.at("stages")) {
    if (s.at("name") == name) return s;
  }
  ADD_FAILURE() << "no stage " << name;
  return j.at("stages").at(0);
}

/// The file as the command wrote it: shapes, the recomputation's agreement, the cell's sums.
void expectExplained(const nlohmann::json& j) {
  const int d_head = j.at("d_head");
  const auto queries = j.at("query_labels").size();
  const auto keys = j.at("key_labels").size();
  EXPECT_EQ(stageNamed(j, "Q").at("shape"), nlohmann::json({queries, d_head}));
  EXPECT_EQ(stageNamed(j, "Q").at("shape_text"), "[queries × d_head]");
  EXPECT_EQ(stageNamed(j, "weights").at("shape"), nlohmann::json({queries, keys}));
  EXPECT_EQ(stageNamed(j, "joined").at("shape").at(1), j.at("d_model"));
  ASSERT_FALSE(j.at("largest_difference_from_recorded").is_null());
  EXPECT_LE(j.at("largest_difference_from_recorded").get<double>(), 1e-5);
  const nlohmann::json& cell = j.at("cell");
  double sum = 0;
  for (const nlohmann::json& p : cell.at("products")) sum += p.get<double>();
  ASSERT_EQ(cell.at("products").size(), static_cast<std::size_t>(d_head));
  EXPECT_NEAR(sum, cell.at("logit").get<double>(), 1e-4);
  EXPECT_NEAR(cell.at("scaled").get<double>(), cell.at("logit").get<double>() / std::sqrt(d_head),
              1e-4);
  if (!cell.at("parts").is_null()) {
    double parts = 0;
    for (const auto& [name, value] : cell.at("parts").items()) parts += value.get<double>();
    EXPECT_NEAR(parts, cell.at("logit").get<double>(), 1e-4);
  }
}

TEST(CliExplain, ATranslationsHeadsAreExplainedWithTheFutureMasked) {
  TrainedRun run("translate", 3, "ascope_cli_explain_");
  const std::string out = testing::ownTemp("ascope_explain_translate.json").string();
  const CliOutcome o =
      runInProcess({"explain", "--run", run.dir(), "--sample", "0", "--group", "decoder self",
                    "--layer", "0", "--head", "1", "--query", "1", "--out", out});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("decoder self layer 0 head 1"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("the recomputed weights equal the model's own"), std::string::npos);
  const nlohmann::json j = readAttentionJson(out);
  fs::remove(out);
  expectExplained(j);
  EXPECT_FALSE(j.at("position_split").is_null())
      << "the decoder's first layer reads token + position";
  // Row 0 may see key 0 only: the rest of its row is masked, written as null, never a number.
  const nlohmann::json& weights = stageNamed(j, "weights").at("values");
  ASSERT_GT(weights.at(0).size(), 1u);
  EXPECT_TRUE(weights.at(0).at(1).is_null());
  EXPECT_TRUE(stageNamed(j, "QKᵀ").at("values").at(0).at(1).is_null());
  EXPECT_FALSE(weights.at(0).at(0).is_null());

  const CliOutcome cross = runInProcess(
      {"explain", "--run", run.dir(), "--text", "a red box", "--group", "cross", "--head", "0"});
  ASSERT_EQ(cross.exit_code, 0) << cross.err;
  EXPECT_NE(cross.out.find("cross layer 0 head 0"), std::string::npos) << cross.out;
}

TEST(CliExplain, ASentimentRunsFirstLayerSplitsIntoTokenAndPositionParts) {
  TrainedRun run("imdb", 3, "ascope_cli_explain_");
  const std::string out = testing::ownTemp("ascope_explain_imdb.json").string();
  const CliOutcome o =
      runInProcess({"explain", "--run", run.dir(), "--text", "a truly superb film", "--out", out});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("parts: token·token"), std::string::npos) << o.out;
  const nlohmann::json j = readAttentionJson(out);
  fs::remove(out);
  expectExplained(j);
  EXPECT_FALSE(j.at("cell").at("parts").is_null());
  EXPECT_EQ(j.at("input"), "a truly superb film");
}

TEST(CliExplain, QuestionsOutOfRangeAreRefusedByNameAndNothingIsWritten) {
  TrainedRun run("imdb", 2, "ascope_cli_explain_bad_");
  const std::string out = testing::ownTemp("ascope_explain_bad.json").string();
  struct Case {
    std::vector<std::string> args;
    std::string said;
  };
  const std::vector<Case> cases = {
      {{"--sample", "0", "--head", "99"}, "head 99 is out of range"},
      {{"--sample", "0", "--layer", "42"}, "layer 42 is out of range"},
      {{"--sample", "0", "--group", "cross"}, "no attention group \"cross\""},
      {{"--sample", "99999"}, "sample 99999 is out of range"},
      {{"--sample", "0", "--query", "500"}, "--query: query 500 is out of range"},
      {{"--sample", "0", "--query", "0", "--key", "500"}, "--key: key 500 is out of range"},
      {{"--text", "a film", "--sample", "0"}, "excludes"},
      {{}, "give one of --sample"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args{"explain", "--run", run.dir(), "--out", out};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const CliOutcome o = runInProcess(args);
    EXPECT_EQ(o.exit_code, 2) << c.said;
    EXPECT_NE(o.err.find(c.said), std::string::npos) << o.err;
    EXPECT_FALSE(fs::exists(out)) << c.said;
  }
  const CliOutcome missing =
      runInProcess({"explain", "--run", run.dir() + "_gone", "--sample", "0"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("no such folder"), std::string::npos) << missing.err;
  // The run's own files are never written over.
  const CliOutcome onto = runInProcess(
      {"explain", "--run", run.dir(), "--sample", "0", "--out", run.file("config.json")});
  EXPECT_EQ(onto.exit_code, 2) << onto.err;
}

}  // namespace
}  // namespace ascope
