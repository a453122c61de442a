// `infer --attention FILE.json` on a tiny run of every task: the file holds the asked input's
// attention, labelled with its own tokens (or patches), rows that are distributions, and for
// translation the causal decoder with what each row predicted and the candidates of each step.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "in_process_run.h"
#include "trained_run.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

using AttentionOutcome = testing::CliOutcome;
using testing::ownTemp;
using testing::readAttentionJson;
using testing::TrainedRun;

AttentionOutcome runAttentionCli(const std::vector<std::string>& args) {
  return testing::runInProcess(args);
}

/// The file's answer and its groups: every head's rows sum to 1 and have the labels' shape; a
/// causal group gives nothing to later keys.
void expectWellFormed(const nlohmann::json& j, const std::string& run) {
  EXPECT_EQ(j.at("checkpoint").get<std::string>().rfind(run + "/checkpoints/", 0), 0u)
      << j.at("checkpoint");
  EXPECT_GT(j.at("step").get<int>(), 0);
  EXPECT_FALSE(j.at("label").get<std::string>().empty());
  ASSERT_FALSE(j.at("groups").empty());
  for (const nlohmann::json& g : j.at("groups")) {
    SCOPED_TRACE(g.at("name").get<std::string>());
    const auto rows = g.at("row_labels").size();
    const auto cols = g.at("col_labels").size();
    const bool causal = g.at("causal").get<bool>();
    ASSERT_EQ(g.at("maps").size(), g.at("layers").get<std::size_t>() * g.at("heads").get<int>());
    for (const nlohmann::json& m : g.at("maps")) {
      const nlohmann::json& weights = m.at("weights");
      ASSERT_EQ(weights.size(), rows);
      for (std::size_t r = 0; r < rows; ++r) {
        ASSERT_EQ(weights[r].size(), cols);
        double sum = 0;
        for (std::size_t c = 0; c < cols; ++c) {
          const double w = weights[r][c].get<double>();
          sum += w;
          if (causal && c > r) {
            EXPECT_EQ(w, 0.0);
          }
        }
        EXPECT_NEAR(sum, 1.0, 1e-4)
            << "layer " << m.at("layer") << " head " << m.at("head") << " row " << r;
      }
    }
  }
}

TEST(CliAttentionJson, SentimentRowsAreDistributionsOverTheAskedWords) {
  const TrainedRun trained("imdb", 15);
  const std::string out = trained.file("asked.json");
  const AttentionOutcome o = runAttentionCli(
      {"infer", "--run", trained.dir(), "--text", "A wonderful, moving film!", "--attention", out});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  // The human answer is what it was.
  EXPECT_TRUE(o.out.rfind("positive (p=", 0) == 0 || o.out.rfind("negative (p=", 0) == 0) << o.out;
  const nlohmann::json j = readAttentionJson(out);
  ASSERT_NO_FATAL_FAILURE(expectWellFormed(j, trained.dir()));
  EXPECT_EQ(j.at("task"), "imdb");
  EXPECT_EQ(j.at("input"), "A wonderful, moving film!");
  EXPECT_EQ(o.out.rfind(j.at("label").get<std::string>(), 0), 0u);
  ASSERT_EQ(j.at("groups").size(), 1u);
  const std::vector<std::string> words{"a", "wonderful", "moving", "film"};
  EXPECT_EQ(j["groups"][0].at("row_labels").get<std::vector<std::string>>(), words);
  EXPECT_EQ(j["groups"][0].at("col_labels").get<std::vector<std::string>>(), words);
  EXPECT_TRUE(j["groups"][0].at("row_predictions").empty());
  EXPECT_TRUE(j.at("decoding").empty());
  // No temp file is left next to it.
  for (const auto& entry : fs::directory_iterator(trained.dir())) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
  }
}

TEST(CliAttentionJson, TranslationHasACausalDecoderAndItsDecodingSteps) {
  const TrainedRun trained("translate", 40);
  const std::string out = trained.file("asked.json");
  const AttentionOutcome o = runAttentionCli(
      {"infer", "--run", trained.dir(), "--text", "the black dog", "--attention", out});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const nlohmann::json j = readAttentionJson(out);
  ASSERT_NO_FATAL_FAILURE(expectWellFormed(j, trained.dir()));
  EXPECT_EQ(o.out, j.at("label").get<std::string>() + "\n");
  ASSERT_EQ(j.at("groups").size(), 3u);
  const nlohmann::json& encoder = j["groups"][0];
  const nlohmann::json& decoder = j["groups"][1];
  const nlohmann::json& cross = j["groups"][2];
  EXPECT_EQ(decoder.at("name"), "decoder self");
  EXPECT_FALSE(encoder.at("causal").get<bool>());
  EXPECT_TRUE(decoder.at("causal").get<bool>());
  const auto source = encoder.at("row_labels").get<std::vector<std::string>>();
  ASSERT_GE(source.size(), 3u);
  EXPECT_EQ(source.front(), "[SOS]");
  EXPECT_EQ(source.back(), "[EOS]");
  EXPECT_NE(std::find(source.begin(), source.end(), "dog"), source.end());
  EXPECT_EQ(cross.at("col_labels"), encoder.at("row_labels"));
  const auto fed = decoder.at("row_labels").get<std::vector<std::string>>();
  const auto predicted = decoder.at("row_predictions").get<std::vector<std::string>>();
  ASSERT_EQ(predicted.size(), fed.size());
  EXPECT_EQ(cross.at("row_predictions"), decoder.at("row_predictions"));
  for (std::size_t i = 0; i + 1 < fed.size(); ++i) EXPECT_EQ(predicted[i], fed[i + 1]);
  const nlohmann::json& decoding = j.at("decoding");
  ASSERT_EQ(decoding.size(), fed.size());
  for (std::size_t i = 0; i < decoding.size(); ++i) {
    EXPECT_EQ(decoding[i].at("row"), i);
    const nlohmann::json& top = decoding[i].at("top");
    ASSERT_FALSE(top.empty());
    EXPECT_EQ(top[0].at("token"), predicted[i]);
    for (std::size_t k = 0; k < top.size(); ++k) {
      const double p = top[k].at("probability").get<double>();
      EXPECT_GT(p, 0.0);
      EXPECT_LE(p, 1.0);
      if (k > 0) {
        EXPECT_LE(p, top[k - 1].at("probability").get<double>());
      }
    }
  }
}

TEST(CliAttentionJson, VitLabelsThePatchesOfTheAskedImage) {
  const TrainedRun trained("vit", 5);
  const std::string image = trained.file("square.ppm");
  {
    std::ofstream ppm(image, std::ios::binary);
    ppm << "P6\n32 32\n255\n";
    for (int y = 0; y < 32; ++y) {
      for (int x = 0; x < 32; ++x) {
        const bool inside = x >= 8 && x < 24 && y >= 8 && y < 24;
        ppm << static_cast<char>(inside ? 220 : 90) << static_cast<char>(inside ? 30 : 90)
            << static_cast<char>(inside ? 30 : 90);
      }
    }
  }
  const std::string out = trained.file("asked.json");
  const AttentionOutcome o =
      runAttentionCli({"infer", "--run", trained.dir(), "--image", image, "--attention", out});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const nlohmann::json j = readAttentionJson(out);
  ASSERT_NO_FATAL_FAILURE(expectWellFormed(j, trained.dir()));
  EXPECT_EQ(j.at("input"), image);
  const int grid_rows = j.at("grid_rows").get<int>();
  const int grid_cols = j.at("grid_cols").get<int>();
  EXPECT_EQ(grid_rows * j.at("patch_size").get<int>(), 32);
  const auto labels = j["groups"][0].at("row_labels").get<std::vector<std::string>>();
  ASSERT_EQ(labels.size(), static_cast<std::size_t>(1 + grid_rows * grid_cols));
  EXPECT_EQ(labels.front(), "CLS");
  EXPECT_EQ(labels[1], "0");
}

/// The lines of `text` after the one that starts with `heading`.
std::vector<std::string> linesAfter(const std::string& text, const std::string& heading) {
  std::vector<std::string> lines;
  std::istringstream in(text.substr(std::min(text.find(heading), text.size())));
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

/// A pair's printed heads: each line names a head of the file's list, in its order (most changed
/// first), with its change and a query among the lined-up tokens.
void expectHeadsAsInTheFile(const std::string& out, const nlohmann::json& j) {
  const std::vector<std::string> lines = linesAfter(out, "heads that changed most");
  const nlohmann::json& ranked = j.at("heads_by_change");
  ASSERT_EQ(lines.size(), std::min<std::size_t>(8, ranked.size())) << out;
  std::vector<std::string> labels;
  for (const nlohmann::json& g : j.at("groups")) {
    for (const auto& label : g.at("query_labels")) labels.push_back(label.get<std::string>());
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const nlohmann::json& head = ranked[i];
    if (i > 0) {
      EXPECT_LE(head.at("change").get<double>(), ranked[i - 1].at("change").get<double>());
    }
    const std::string named = "  " + head.at("group").get<std::string>() + " · layer " +
                              std::to_string(head.at("layer").get<int>()) + " · head " +
                              std::to_string(head.at("head").get<int>()) + "  change ";
    EXPECT_EQ(lines[i].rfind(named, 0), 0u) << lines[i];
    const std::string query = head.at("most_changed_query").get<std::string>();
    EXPECT_NE(std::find(labels.begin(), labels.end(), query), labels.end()) << query;
    EXPECT_NE(lines[i].find("most at query \"" + query + "\""), std::string::npos) << lines[i];
  }
}

TEST(CliAttentionJson, ATextPairPrintsBothAnswersAndTheHeadsThatChangedMost) {
  const TrainedRun trained("imdb", 15);
  const std::string out = trained.file("pair.json");
  const AttentionOutcome o =
      runAttentionCli({"infer", "--run", trained.dir(), "--text", "a wonderful film", "--pair-text",
                       "a terrible boring film", "--pair-json", out});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.out.rfind("A: a wonderful film\n", 0), 0u) << o.out;
  EXPECT_NE(o.out.find("\nB: a terrible boring film\n"), std::string::npos) << o.out;
  const nlohmann::json j = readAttentionJson(out);
  EXPECT_TRUE(j.at("occluded_patch").is_null());
  EXPECT_EQ(j.at("a").at("input"), "a wonderful film");
  EXPECT_EQ(j.at("b").at("input"), "a terrible boring film");
  // Each answer as infer prints it alone, under its letter.
  const std::string answer_b = j.at("b").at("label").get<std::string>() + " (p=";
  EXPECT_NE(o.out.find("\nB: a terrible boring film\n" + answer_b), std::string::npos) << o.out;
  ASSERT_EQ(j.at("groups").size(), 1u);
  const nlohmann::json& group = j["groups"][0];
  const std::vector<std::string> lined_up{"a", "wonderful → terrible boring", "film"};
  EXPECT_EQ(group.at("query_labels").get<std::vector<std::string>>(), lined_up);
  EXPECT_EQ(group.at("key_labels").get<std::vector<std::string>>(), lined_up);
  EXPECT_EQ(group.at("changed_query"), 1);
  ASSERT_EQ(group.at("maps").size(),
            group.at("layers").get<std::size_t>() * group.at("heads").get<std::size_t>());
  for (const nlohmann::json& map : group.at("maps")) {
    ASSERT_EQ(map.at("difference").size(), 3u);
    EXPECT_EQ(map.at("difference")[0].size(), 3u);
    const double change = map.at("change").get<double>();
    EXPECT_GE(change, 0.0);
    EXPECT_LE(change, 1.0);
  }
  // A different word moves some head's attention.
  EXPECT_GT(j.at("heads_by_change")[0].at("change").get<double>(), 0.0);
  ASSERT_NO_FATAL_FAILURE(expectHeadsAsInTheFile(o.out, j));
}

TEST(CliAttentionJson, AnImagePairOccludesOnePatchAndNamesIt) {
  const TrainedRun trained("vit", 5);
  const std::string image = trained.file("grey.ppm");
  {
    std::ofstream ppm(image, std::ios::binary);
    ppm << "P6\n32 32\n255\n" << std::string(32 * 32 * 3, static_cast<char>(200));
  }
  const std::string out = trained.file("pair.json");
  const AttentionOutcome o = runAttentionCli({"infer", "--run", trained.dir(), "--image", image,
                                              "--occlude-patch", "3", "--pair-json", out});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.out.rfind("A: " + image + "\n", 0), 0u) << o.out;
  EXPECT_NE(o.out.find("\nB: " + image + " with patch 3 occluded\n"), std::string::npos) << o.out;
  const nlohmann::json j = readAttentionJson(out);
  EXPECT_EQ(j.at("occluded_patch"), 3);
  const nlohmann::json& group = j.at("groups").at(0);
  const auto labels = group.at("query_labels").get<std::vector<std::string>>();
  ASSERT_GE(labels.size(), 5u);
  EXPECT_EQ(labels[0], "CLS");
  EXPECT_EQ(labels[4], "3 (occluded)");
  EXPECT_EQ(group.at("changed_query"), 4);
  EXPECT_EQ(labels.size(), j.at("a").at("groups")[0].at("row_labels").size());
  ASSERT_NO_FATAL_FAILURE(expectHeadsAsInTheFile(o.out, j));

  const int patches = static_cast<int>(labels.size()) - 1;
  const AttentionOutcome outside =
      runAttentionCli({"infer", "--run", trained.dir(), "--image", image, "--occlude-patch",
                       std::to_string(patches)});
  EXPECT_EQ(outside.exit_code, 2);
  EXPECT_NE(outside.err.find("--occlude-patch: occluded patch " + std::to_string(patches) +
                             " is out of range"),
            std::string::npos)
      << outside.err;
  EXPECT_NE(outside.err.find("numbered 0 to " + std::to_string(patches - 1)), std::string::npos)
      << outside.err;
  EXPECT_TRUE(outside.out.empty()) << outside.out;
}

TEST(CliAttentionJson, APairsOptionsNeedTheirPartner) {
  const std::string run = ownTemp("ascope_no_such_run").string();
  const struct {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"--image", "x.ppm", "--pair-text", "b"}, "--pair-text requires --text"},
      {{"--text", "a", "--occlude-patch", "2"}, "--occlude-patch requires --image"},
      {{"--text", "a", "--pair-json", "p.json"}, "--pair-json writes a pair's comparison"},
      {{"--text", "a", "--pair-text", "b", "--attention", "p.json"},
       "--attention writes one input's attention; for a pair, --pair-json"},
      {{"--image", "x.ppm", "--occlude-patch", "-1"}, "--occlude-patch"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args{"infer", "--run", run};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const AttentionOutcome o = runAttentionCli(args);
    EXPECT_EQ(o.exit_code, 2) << c.message;
    EXPECT_NE(o.err.find(c.message), std::string::npos) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  }
}

TEST(CliAttentionJson, UnwritablePathExitsWith2AndNamesIt) {
  const TrainedRun trained("imdb", 3);
  const std::string missing = ownTemp("ascope_no_such_folder").string() + "/asked.json";
  AttentionOutcome o = runAttentionCli(
      {"infer", "--run", trained.dir(), "--text", "a wonderful film", "--attention", missing});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err.rfind("attentionscope-cli: --attention: cannot write " + missing, 0), 0u)
      << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  EXPECT_TRUE(o.out.empty()) << o.out;

  o = runAttentionCli({"infer", "--run", trained.dir(), "--text", "a wonderful film", "--attention",
                       trained.dir()});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find(trained.dir() + " is a folder"), std::string::npos) << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
}

}  // namespace
}  // namespace ascope
