// A run folder written as a handout: everything there when it fits, thinned evenly and said so
// when it does not, the run's colour scale, bad limits and paths, cancelling, damaged snapshots.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "engine/handout/base64.h"
#include "engine/handout/handout_writer.h"
#include "engine/handout/quantized_weights.h"
#include "engine/runfolder/run_reader.h"
#include "engine/runfolder/snapshots/attention_snapshot_codec.h"
#include "tests/handout/synthetic_run.h"

namespace ascope {
namespace {

using nlohmann::json;
using testing::SyntheticRunOptions;
using testing::TempFolder;

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

json dataOf(const std::string& page) {
  return json::parse(testing::handoutDataOf(page));
}

/// The weight the page shows for frame `f`, probe `p`, group `g`, layer `l`, head `h`, cell r, c.
float shownWeight(const json& data, std::size_t f, std::size_t p, int g, int l, int h, int r,
                  int c) {
  for (const json& item : data["frames"][f]["probes"][p]["attention"]) {
    if (item["group"] != g) continue;
    const std::vector<int> layers = item["layers"].get<std::vector<int>>();
    const auto position = std::find(layers.begin(), layers.end(), l) - layers.begin();
    const int heads = item["heads"], rows = item["rows"], cols = item["cols"];
    const std::string codes = *base64Decode(item["weights"].get<std::string>());
    const std::string scales = *base64Decode(item["scales"].get<std::string>());
    const std::size_t map = static_cast<std::size_t>(position) * heads + h;
    float scale = 0;
    std::memcpy(&scale, scales.data() + 4 * map, 4);
    return dequantizeWeight(static_cast<std::uint8_t>(codes[map * rows * cols + r * cols + c]),
                            scale);
  }
  return std::nanf("");
}

int groupNamed(const json& data, const std::string& title) {
  for (std::size_t g = 0; g < data["groups"].size(); ++g) {
    if (data["groups"][g]["title"] == title) return static_cast<int>(g);
  }
  return -1;
}

TEST(HandoutWriter, EverythingWhenItFits) {
  TempFolder tmp;
  const std::vector<std::int64_t> steps = testing::writeSyntheticRun(tmp.path("run"));
  ASSERT_EQ(steps.size(), 12u);
  const std::string out = tmp.path("lecture.html");
  Expected<HandoutSummary> summary = writeHandout(tmp.path("run"), out, HandoutOptions{});
  ASSERT_TRUE(summary.ok()) << summary.error();
  EXPECT_EQ(summary->snapshots_stored, 12);
  EXPECT_EQ(summary->snapshots_kept, 12);
  EXPECT_TRUE(summary->left_out.empty());
  const std::string page = readFile(out);
  EXPECT_EQ(summary->bytes, page.size());
  const json data = dataOf(page);
  EXPECT_EQ(data["run"]["name"], "run");
  ASSERT_EQ(data["frames"].size(), 12u);
  for (std::size_t f = 0; f < steps.size(); ++f) EXPECT_EQ(data["frames"][f]["step"], steps[f]);
  EXPECT_EQ(data["probe_samples"], json::array({0, 5, 10}));
  EXPECT_TRUE(data["left_out"].empty());
  // Every group of the snapshots, and a rollout of each self-attention group (not of cross).
  const int encoder = groupNamed(data, "encoder");
  const int rollout = groupNamed(data, "encoder · rollout");
  const int decoder = groupNamed(data, "decoder self");
  ASSERT_GE(encoder, 0);
  ASSERT_GE(rollout, 0);
  ASSERT_GE(decoder, 0);
  ASSERT_GE(groupNamed(data, "decoder self · rollout"), 0);
  ASSERT_GE(groupNamed(data, "cross"), 0);
  EXPECT_EQ(groupNamed(data, "cross · rollout"), -1);
  EXPECT_EQ(data["groups"][rollout]["layer_names"],
            json::array({"layer 0", "layers 0–1", "layers 0–2"}));
  EXPECT_TRUE(data["groups"][decoder]["causal"]);

  // Every weight of every frame as stored (float16 in the run folder), within half a step of its
  // map's largest weight.
  const std::vector<AttentionFileEntry> files = listAttentionFiles(tmp.path("run"));
  ASSERT_EQ(files.size(), steps.size());
  for (std::size_t f = 0; f < steps.size(); ++f) {
    const Expected<ProbeSet> set = readProbeSet(files[f].path);
    ASSERT_TRUE(set.ok()) << set.error();
    for (std::size_t p = 0; p < set->samples.size(); ++p) {
      const AttentionGroup& g = set->samples[p].groups[0];
      for (int l = 0; l < g.layers; ++l) {
        for (int h = 0; h < g.heads; ++h) {
          const AttentionMap& map = g.map(l, h);
          const float top = *std::max_element(map.values.begin(), map.values.end());
          for (int r = 0; r < map.rows; ++r) {
            for (int c = 0; c < map.cols; ++c) {
              ASSERT_NEAR(shownWeight(data, f, p, encoder, l, h, r, c),
                          map.values[static_cast<std::size_t>(r * map.cols + c)], top / 508 + 1e-6);
            }
          }
        }
      }
    }
  }
  // The colour scale: the largest weight anywhere in the run, per group; a causal group's first
  // row (always 1) left out, as the window's Run scale.
  float encoder_max = 0, decoder_max = 0;
  for (const AttentionFileEntry& file : files) {
    const Expected<ProbeSet> set = readProbeSet(file.path);
    ASSERT_TRUE(set.ok()) << set.error();
    for (const AttentionSnapshot& s : set->samples) {
      for (const AttentionMap& m : s.groups[0].maps) {
        encoder_max = std::max(encoder_max, *std::max_element(m.values.begin(), m.values.end()));
      }
      for (const AttentionMap& m : s.groups[1].maps) {
        decoder_max =
            std::max(decoder_max, *std::max_element(m.values.begin() + m.cols, m.values.end()));
      }
    }
  }
  EXPECT_NEAR(data["groups"][encoder]["run_max"].get<double>(), encoder_max, 1e-6);
  EXPECT_NEAR(data["groups"][decoder]["run_max"].get<double>(), decoder_max, 1e-6);
  EXPECT_LT(decoder_max, 1.0f);

  // Curves, notes, the sample's texts, the encoding (the same at every step: stored once).
  bool train_loss = false, validation_accuracy = false;
  for (const json& c : data["curves"]) {
    train_loss |= c["metric"] == "loss" && c["split"] == "train" && c["points"] == 110;
    validation_accuracy |=
        c["metric"] == "accuracy" && c["split"] == "validation" && c["points"] == 2;
  }
  EXPECT_TRUE(train_loss);
  EXPECT_TRUE(validation_accuracy);
  ASSERT_EQ(data["notes"].size(), 1u);
  EXPECT_EQ(data["notes"][0]["text"], "heads start to specialise");
  EXPECT_EQ(data["encodings"].size(), 1u);
  EXPECT_EQ(data["frames"][11]["encoding"], 0);
  EXPECT_EQ(data["texts"][data["frames"][0]["probes"][0]["prediction"]["text"].get<int>()],
            "the black cat");
  // The settings as config.json has them.
  bool task = false;
  for (const json& s : data["settings"]) task |= s[0] == "task" && s[1] == "synthetic";
  EXPECT_TRUE(task);
  // Before them, the few a student reads first, named for people.
  ASSERT_FALSE(data["key_settings"].empty());
  EXPECT_EQ(data["key_settings"][0][0], "Task");
  bool rate = false;
  for (const json& s : data["key_settings"]) rate |= s[0] == "Learning rate";
  EXPECT_TRUE(rate);
}

TEST(HandoutWriter, ThinsEvenlyAndSaysSoUnderItsLimit) {
  TempFolder tmp;
  SyntheticRunOptions options;
  options.snapshots = 60;
  options.tokens = 24;
  testing::writeSyntheticRun(tmp.path("run"), options);
  Expected<HandoutSummary> full =
      writeHandout(tmp.path("run"), tmp.path("full.html"), HandoutOptions{});
  ASSERT_TRUE(full.ok()) << full.error();
  ASSERT_EQ(full->snapshots_kept, 60);
  for (const double fraction : {0.6, 0.3, 0.12}) {
    HandoutOptions limited;
    limited.max_mb = static_cast<double>(full->bytes) * fraction / 1e6;
    const std::string out = tmp.path("limited.html");
    Expected<HandoutSummary> summary = writeHandout(tmp.path("run"), out, limited);
    ASSERT_TRUE(summary.ok()) << fraction << ": " << summary.error();
    const std::string page = readFile(out);
    EXPECT_LE(page.size(), static_cast<std::size_t>(limited.max_mb * 1e6)) << fraction;
    EXPECT_EQ(summary->bytes, page.size());
    const json data = dataOf(page);
    ASSERT_FALSE(data["left_out"].empty()) << fraction;
    EXPECT_EQ(data["left_out"].get<std::vector<std::string>>(), summary->left_out);
    // The first and the last snapshot are always there.
    const json& frames = data["frames"];
    ASSERT_GE(frames.size(), 1u);
    EXPECT_EQ(frames.back()["step"], 590);
    if (frames.size() > 1) {
      EXPECT_EQ(frames.front()["step"], 0);
    }
    if (fraction == 0.6) {
      // Room for more than 20 snapshots: only snapshots go, evenly.
      EXPECT_GT(frames.size(), 20u);
      EXPECT_LT(frames.size(), 60u);
      EXPECT_EQ(data["probe_samples"].size(), 3u);
      ASSERT_EQ(summary->left_out.size(), 1u);
      EXPECT_NE(summary->left_out[0].find("of the run's 60 snapshots"), std::string::npos);
      int smallest = 1000, largest = 0;
      for (std::size_t i = 1; i < frames.size(); ++i) {
        const int gap = frames[i]["step"].get<int>() - frames[i - 1]["step"].get<int>();
        smallest = std::min(smallest, gap);
        largest = std::max(largest, gap);
      }
      EXPECT_LE(largest - smallest, 10);  // one stored snapshot apart at most
    } else {
      // Under the floor's 20 snapshots: probe samples went first.
      EXPECT_LT(data["probe_samples"].size(), 3u);
      EXPECT_EQ(frames[0]["probes"].size(), data["probe_samples"].size());
    }
  }
}

TEST(HandoutWriter, RefusesWhatCannotFitAndKeepsTheOldFile) {
  TempFolder tmp;
  testing::writeSyntheticRun(tmp.path("run"));
  const std::string out = tmp.path("lecture.html");
  {
    std::ofstream old(out);
    old << "the lecture of last week";
  }
  HandoutOptions tiny;
  tiny.max_mb = 0.05;  // the page's script alone is larger
  Expected<HandoutSummary> summary = writeHandout(tmp.path("run"), out, tiny);
  ASSERT_FALSE(summary.ok());
  EXPECT_NE(summary.error().find("--max-mb"), std::string::npos) << summary.error();
  EXPECT_EQ(readFile(out), "the lecture of last week");
  for (const double bad : {0.0, -3.0, std::nan(""), 1e9}) {
    HandoutOptions options;
    options.max_mb = bad;
    Expected<HandoutSummary> refused = writeHandout(tmp.path("run"), out, options);
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_NE(refused.error().find("size limit"), std::string::npos) << refused.error();
  }
  Expected<HandoutSummary> folder = writeHandout(tmp.path("run"), tmp.path(), HandoutOptions{});
  ASSERT_FALSE(folder.ok());
  EXPECT_NE(folder.error().find("is a folder"), std::string::npos) << folder.error();
  // Never over a file of the run it shows, nor into a FIFO (the one output writer's rules).
  const std::string config = tmp.path("run") + "/config.json";
  const std::string config_before = readFile(config);
  Expected<HandoutSummary> own = writeHandout(tmp.path("run"), config, HandoutOptions{});
  ASSERT_FALSE(own.ok());
  EXPECT_NE(own.error().find("the run folder this handout shows"), std::string::npos)
      << own.error();
  EXPECT_EQ(readFile(config), config_before);
  const std::string fifo = tmp.path("page.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Expected<HandoutSummary> into_fifo = writeHandout(tmp.path("run"), fifo, HandoutOptions{});
  ASSERT_FALSE(into_fifo.ok());
  EXPECT_NE(into_fifo.error().find("FIFO"), std::string::npos) << into_fifo.error();
  Expected<HandoutSummary> not_a_run = writeHandout(tmp.path(), out, HandoutOptions{});
  ASSERT_FALSE(not_a_run.ok());
  EXPECT_EQ(readFile(out), "the lecture of last week");
}

TEST(HandoutWriter, CancelWritesNothing) {
  TempFolder tmp;
  testing::writeSyntheticRun(tmp.path("run"));
  const std::string out = tmp.path("lecture.html");
  int calls = 0;
  Expected<HandoutSummary> summary =
      writeHandout(tmp.path("run"), out, HandoutOptions{}, [&](int done, int total) {
        EXPECT_LE(done, total);
        return ++calls < 5;
      });
  ASSERT_FALSE(summary.ok());
  EXPECT_EQ(summary.error(), kHandoutCancelled);
  EXPECT_FALSE(std::filesystem::exists(out));
  for (const auto& entry : std::filesystem::directory_iterator(tmp.path())) {
    EXPECT_EQ(entry.path().filename().string().find("lecture.html"), std::string::npos)
        << entry.path();  // no temp file left either
  }
}

TEST(HandoutWriter, DamagedSnapshotIsLeftOutAndNamed) {
  TempFolder tmp;
  testing::writeSyntheticRun(tmp.path("run"));
  const std::string damaged = tmp.path("run/attention/step_000000050.msgpack");
  ASSERT_TRUE(std::filesystem::exists(damaged));
  {
    std::ofstream out(damaged, std::ios::binary | std::ios::trunc);
    out << "not a probe set";
  }
  Expected<HandoutSummary> summary =
      writeHandout(tmp.path("run"), tmp.path("l.html"), HandoutOptions{});
  ASSERT_TRUE(summary.ok()) << summary.error();
  EXPECT_EQ(summary->snapshots_stored, 11);
  bool named = false;
  for (const std::string& w : summary->warnings)
    named |= w.find("step_000000050") != std::string::npos;
  EXPECT_TRUE(named);
  const json data = dataOf(readFile(tmp.path("l.html")));
  for (const json& f : data["frames"]) EXPECT_NE(f["step"], 50);
}

TEST(HandoutWriter, SymlinkedSnapshotIsLeftOutAndNamed) {
  // A link in a snapshot's place was passed over without a word; every other damaged one is named.
  TempFolder tmp;
  testing::writeSyntheticRun(tmp.path("run"));
  const std::string linked = tmp.path("run/attention/step_000000050.msgpack");
  std::filesystem::rename(linked, tmp.path("elsewhere.msgpack"));
  std::filesystem::create_symlink(tmp.path("elsewhere.msgpack"), linked);
  Expected<HandoutSummary> summary =
      writeHandout(tmp.path("run"), tmp.path("l.html"), HandoutOptions{});
  ASSERT_TRUE(summary.ok()) << summary.error();
  bool named = false;
  for (const std::string& w : summary->warnings) {
    named |= w.find(linked) != std::string::npos && w.find("symbolic link") != std::string::npos;
  }
  EXPECT_TRUE(named) << ::testing::PrintToString(summary->warnings);
  const json data = dataOf(readFile(tmp.path("l.html")));
  for (const json& f : data["frames"]) EXPECT_NE(f["step"], 50);
}

TEST(HandoutWriter, SettingsTheReadersRefuseGetNoPage) {
  TempFolder tmp;
  testing::writeSyntheticRun(tmp.path("run"));
  HandoutOptions options;
  std::string checked;
  options.check_settings = [&](const TrainingConfig&, const std::string& config_path) -> Status {
    checked = config_path;
    return Error{config_path + ": settings \"vit.layers\" must be a whole number"};
  };
  Expected<HandoutSummary> summary = writeHandout(tmp.path("run"), tmp.path("l.html"), options);
  ASSERT_FALSE(summary.ok());
  EXPECT_EQ(checked, std::filesystem::absolute(tmp.path("run")).string() + "/config.json");
  EXPECT_EQ(summary.error(), checked + ": settings \"vit.layers\" must be a whole number");
  EXPECT_FALSE(std::filesystem::exists(tmp.path("l.html")));
}

TEST(HandoutWriter, HostileLabelsStayText) {
  TempFolder tmp;
  SyntheticRunOptions options;
  options.labels = {"</script><script>alert(1)</script>", "<!--"};
  testing::writeSyntheticRun(tmp.path("run"), options);
  Expected<HandoutSummary> summary =
      writeHandout(tmp.path("run"), tmp.path("l.html"), HandoutOptions{});
  ASSERT_TRUE(summary.ok()) << summary.error();
  const std::string page = readFile(tmp.path("l.html"));
  EXPECT_EQ(page.find("<script>alert"), std::string::npos);
  EXPECT_EQ(page.find("<!--\""), std::string::npos);
  const json data = dataOf(page);
  bool found = false;
  for (const json& list : data["labels"]) {
    for (const json& label : list) found |= label == "</script><script>alert(1)</script>";
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace ascope
