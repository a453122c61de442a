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

namespace ascope {
namespace {

namespace fs = std::filesystem;

using AttentionOutcome = testing::CliOutcome;

AttentionOutcome runAttentionCli(const std::vector<std::string>& args) {
  return testing::runInProcess(args);
}

/// Of this process's own: ctest -j runs the same tests in other processes at the same time.
fs::path ownTemp(const std::string& name) {
  return fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
}

/// A tiny run of `task` trained for `steps`, removed with the test.
class TrainedRun {
 public:
  TrainedRun(const std::string& task, int steps) : dir_(ownTemp("ascope_cli_attention_" + task)) {
    fs::remove_all(dir_);
    const AttentionOutcome o =
        runAttentionCli({"train", "--task", task, "--preset", "tiny", "--steps",
                         std::to_string(steps), "--out", dir_.string()});
    EXPECT_EQ(o.exit_code, 0) << o.err;
  }
  ~TrainedRun() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  TrainedRun(const TrainedRun&) = delete;
  TrainedRun& operator=(const TrainedRun&) = delete;
  std::string dir() const { return dir_.string(); }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }

 private:
  fs::path dir_;
};

nlohmann::json readAttentionJson(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
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
