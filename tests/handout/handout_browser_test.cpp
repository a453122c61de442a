// A handout of a tiny run, trained and written by the real CLI, opened in headless Chromium: no
// console error, the slider and Play move every view, a clicked head is enlarged, a hovered cell
// reads "query → key: weight" with the weight the run stored, screenshots are taken; and the
// page makes no network request. Skipped where no browser is installed (README: install-deps).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "engine/handout/base64.h"
#include "engine/runfolder/run_reader.h"
#include "engine/runfolder/snapshots/attention_snapshot_codec.h"
#include "test_paths.h"
#include "tests/handout/chromium_session.h"
#include "tests/handout/document_check.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::ChromiumSession;

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string shellQuoted(const std::string& s) {
  return "'" + s + "'";
}

/// Runs the CLI; its exit code.
int runCli(const std::string& args, const std::string& log) {
  const std::string command =
      std::string(test_paths::cliProgram()) + " " + args + " > " + shellQuoted(log) + " 2>&1";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// PNG width and height from its IHDR chunk; {0, 0} for anything else.
std::pair<int, int> pngSize(const std::string& png) {
  if (png.size() < 24 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) return {0, 0};
  const auto be32 = [&](std::size_t at) {
    return (static_cast<unsigned char>(png[at]) << 24) |
           (static_cast<unsigned char>(png[at + 1]) << 16) |
           (static_cast<unsigned char>(png[at + 2]) << 8) | static_cast<unsigned char>(png[at + 3]);
  };
  return {static_cast<int>(be32(16)), static_cast<int>(be32(20))};
}

class HandoutInBrowser : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    browser_ = ChromiumSession::findBrowser();
    if (browser_.empty()) return;
    folder_ = (fs::temp_directory_path() /
               ("attentionscope_handout_browser_" + std::to_string(::getpid())))
                  .string();
    fs::remove_all(folder_);
    fs::create_directories(folder_);
    run_ = folder_ + "/run";
    const int trained =
        runCli("train --task digits --preset tiny --steps 30 --out " + shellQuoted(run_),
               folder_ + "/train.log");
    ASSERT_EQ(trained, 0) << readFile(folder_ + "/train.log");
    page_ = folder_ + "/lecture.html";
    const int written =
        runCli("handout --run " + shellQuoted(run_) + " --out " + shellQuoted(page_),
               folder_ + "/handout.log");
    ASSERT_EQ(written, 0) << readFile(folder_ + "/handout.log");
  }
  static void TearDownTestSuite() {
    if (!folder_.empty()) {
      std::error_code ec;
      fs::remove_all(folder_, ec);
    }
  }
  void SetUp() override {
    if (browser_.empty())
      GTEST_SKIP() << "no Chromium installed (scripts/install-deps.sh installs it)";
    ASSERT_TRUE(fs::exists(page_));
    std::string error;
    ASSERT_TRUE(chromium_.start(
        browser_,
        folder_ + "/profile_" + ::testing::UnitTest::GetInstance()->current_test_info()->name(),
        flags(), error))
        << error;
  }
  virtual std::vector<std::string> flags() const { return {"--window-size=1280,720"}; }

  /// The bounding box of the element `selector` in the viewport.
  json box(const std::string& session, const std::string& selector) {
    return chromium_.evaluate(session,
                              "(() => { const e = document.querySelector(" + json(selector).dump() +
                                  "); if (!e) return null; e.scrollIntoView({block: 'center'});"
                                  " const r = e.getBoundingClientRect(); return {x: r.left, y: "
                                  "r.top, w: r.width, h: r.height}; })()");
  }
  /// Clicks cell (r, c) of a map drawn by the page's drawHeadMap (its dataset says where).
  void clickMapCell(const std::string& session, const std::string& selector, int r, int c) {
    const json map = box(session, selector);
    const json geometry = chromium_.evaluate(
        session, "({...document.querySelector(" + json(selector).dump() + ").dataset})");
    const double cell = std::stod(geometry["cell"].get<std::string>());
    chromium_.click(
        session,
        map["x"].get<double>() + std::stod(geometry["plotX"].get<std::string>()) + (c + 0.5) * cell,
        map["y"].get<double>() + std::stod(geometry["plotY"].get<std::string>()) +
            (r + 0.5) * cell);
  }
  std::int64_t shownStep(const std::string& session) {
    return std::stoll(chromium_.evaluate(session, "document.body.dataset.step").get<std::string>());
  }
  void saveScreenshot(const std::string& session, const std::string& name) {
    const std::string png = chromium_.screenshot(session);
    EXPECT_EQ(pngSize(png), std::make_pair(1280, 720)) << name;
    fs::create_directories(test_paths::handoutScreenshotsDir());
    std::ofstream(std::string(test_paths::handoutScreenshotsDir()) + "/" + name, std::ios::binary)
        << png;
  }

  static inline std::string browser_, folder_, run_, page_;
  ChromiumSession chromium_;
};

TEST_F(HandoutInBrowser, SliderHeadClickAndHoveredWeight) {
  const std::string tab = chromium_.openTab(1280, 720);
  ASSERT_FALSE(tab.empty());
  chromium_.navigate(tab, "file://" + page_);
  ASSERT_TRUE(chromium_.waitUntil(tab, "document.body.dataset.ready === 'true'"))
      << ::testing::PrintToString(chromium_.errors());
  EXPECT_TRUE(chromium_.errors().empty()) << ::testing::PrintToString(chromium_.errors());
  // The document the page read holds to the page's contract, and the page read all of it.
  const testing::DocumentCheck check = testing::checkHandoutDocument(
      chromium_.evaluate(tab, "document.getElementById('handout-data').textContent")
          .get<std::string>(),
      folder_);
  EXPECT_EQ(check.exit_code, 0) << check.output;
  EXPECT_EQ(chromium_.evaluate(tab, "document.getElementById('notice').hidden"), true);
  const std::vector<AttentionFileEntry> files = listAttentionFiles(run_);
  ASSERT_GE(files.size(), 3u);
  // The newest snapshot first, as the window shows a finished run.
  EXPECT_EQ(shownStep(tab), files.back().step);
  saveScreenshot(tab, "handout_digits_1280x720.png");

  // The slider's left end is the first snapshot; → the next one; the curves' cursor follows.
  const json slider = box(tab, "#timeline");
  ASSERT_TRUE(slider.is_object());
  chromium_.click(tab, slider["x"].get<double>() + 3,
                  slider["y"].get<double>() + slider["h"].get<double>() / 2);
  EXPECT_EQ(shownStep(tab), files.front().step);
  chromium_.key(tab, "ArrowRight", "ArrowRight", 39);
  const std::int64_t step = files[1].step;
  ASSERT_EQ(shownStep(tab), step);
  EXPECT_NE(chromium_.evaluate(tab, "document.getElementById('step-readout').textContent")
                .get<std::string>()
                .find("step " + std::to_string(step)),
            std::string::npos);

  // Click the last layer's second head: it is enlarged and named.
  const int layers =
      chromium_.evaluate(tab, "document.querySelectorAll('#model-view .layer-row').length");
  ASSERT_GE(layers, 1);
  const int layer = layers - 1;
  const std::string thumb =
      "#model-view .thumb[data-layer='" + std::to_string(layer) + "'][data-head='1']";
  const json head = box(tab, thumb);
  ASSERT_TRUE(head.is_object()) << "no head 1 in layer " << layer;
  chromium_.click(tab, head["x"].get<double>() + head["w"].get<double>() / 2,
                  head["y"].get<double>() + head["h"].get<double>() / 2);
  EXPECT_EQ(chromium_.evaluate(
                tab, "document.querySelector(\"" + thumb + "\").getAttribute('aria-pressed')"),
            "true");
  const std::string caption =
      chromium_.evaluate(tab, "document.getElementById('head-caption').textContent");
  EXPECT_NE(caption.find("layer " + std::to_string(layer) + " · head 1"), std::string::npos)
      << caption;

  // Hover a cell of the enlarged head: "query → key: weight", the weight the run stored.
  const json canvas = box(tab, "#head-canvas");
  const json geometry =
      chromium_.evaluate(tab, "({...document.getElementById('head-canvas').dataset})");
  const int rows = std::stoi(geometry["rows"].get<std::string>());
  const int cols = std::stoi(geometry["cols"].get<std::string>());
  const int r = rows - 1, c = std::min(1, cols - 1);
  const double cell = std::stod(geometry["cell"].get<std::string>());
  chromium_.mouseMove(tab,
                      canvas["x"].get<double>() + std::stod(geometry["plotX"].get<std::string>()) +
                          (c + 0.5) * cell,
                      canvas["y"].get<double>() + std::stod(geometry["plotY"].get<std::string>()) +
                          (r + 0.5) * cell);
  const json readout =
      chromium_.evaluate(tab,
                         "({text: document.getElementById('hover-readout').textContent, "
                         "...document.getElementById('hover-readout').dataset})");
  ASSERT_TRUE(readout.contains("weight")) << readout.dump();
  EXPECT_EQ(readout["row"], std::to_string(r));
  EXPECT_EQ(readout["col"], std::to_string(c));

  Expected<ProbeSet> stored = readProbeSet(files[1].path);
  ASSERT_TRUE(stored.ok()) << stored.error();
  const AttentionGroup& group = stored->samples.at(0).groups.at(0);
  const AttentionMap& map = group.map(layer, 1);
  const float real = map.values.at(static_cast<std::size_t>(r * map.cols + c));
  const float top = *std::max_element(map.values.begin(), map.values.end());
  const double shown = std::stod(readout["weight"].get<std::string>());
  EXPECT_NEAR(shown, real, top / 508 + 1e-6);
  const std::string text = readout["text"];
  const std::string expected_start = group.row_labels.at(r) + " → " + group.col_labels.at(c) + ": ";
  EXPECT_EQ(text.rfind(expected_start, 0), 0u) << text << " vs " << expected_start;
  char two_decimals[32];
  std::snprintf(two_decimals, sizeof two_decimals, "%.2f", shown);
  if (shown >= 0.01) {
    EXPECT_EQ(text.substr(expected_start.size()), two_decimals);
  }
  saveScreenshot(tab, "handout_digits_head_hover_1280x720.png");

  // Play walks the snapshots; the dark and high-contrast modes draw without an error.
  const json play = box(tab, "#play");
  chromium_.click(tab, play["x"].get<double>() + 5, play["y"].get<double>() + 5);
  ASSERT_TRUE(
      chromium_.waitUntil(tab, "Number(document.body.dataset.step) > " + std::to_string(step), 10));
  chromium_.click(tab, play["x"].get<double>() + 5, play["y"].get<double>() + 5);
  for (const char* theme : {"dark", "contrast"}) {
    const json button = box(tab, std::string("[data-theme-choice='") + theme + "']");
    chromium_.click(tab, button["x"].get<double>() + 3, button["y"].get<double>() + 3);
    EXPECT_EQ(chromium_.evaluate(tab, "document.documentElement.dataset.theme"), theme);
    saveScreenshot(tab, std::string("handout_digits_") + theme + "_1280x720.png");
  }
  EXPECT_TRUE(chromium_.errors().empty()) << ::testing::PrintToString(chromium_.errors());
}

// A page whose data has a layout its script does not read says so, and draws nothing wrong.
TEST_F(HandoutInBrowser, AnotherLayoutIsNamedNotDrawn) {
  std::string page = readFile(page_);
  const std::size_t at = page.find("\"format\":1");  // a key only the document's top level has
  ASSERT_NE(at, std::string::npos);
  page.replace(at, 10, "\"format\":2");
  const std::string other = folder_ + "/other_layout.html";
  std::ofstream(other, std::ios::binary) << page;
  const std::string tab = chromium_.openTab(1280, 720);
  ASSERT_FALSE(tab.empty());
  chromium_.navigate(tab, "file://" + other);
  ASSERT_TRUE(chromium_.waitUntil(tab, "document.body.dataset.ready === 'true'"))
      << ::testing::PrintToString(chromium_.errors());
  EXPECT_TRUE(chromium_.errors().empty()) << ::testing::PrintToString(chromium_.errors());
  EXPECT_EQ(chromium_.evaluate(tab, "document.getElementById('notice').hidden"), false);
  const std::string notice =
      chromium_.evaluate(tab, "document.getElementById('notice').textContent").get<std::string>();
  EXPECT_NE(notice.find("layout 2"), std::string::npos) << notice;
  EXPECT_EQ(chromium_.evaluate(tab, "document.querySelectorAll('#model-view .layer-row').length"),
            0);
}

/// JavaScript that reads the lesson's first map: for each cell, whether its centre is drawn in the
/// page's surface colour (a blank cell), the accent (a marked one) or anything else (a weight).
constexpr char kLessonCells[] = R"((() => {
  const canvas = document.querySelector('#lesson-maps canvas.lesson-map');
  const d = canvas.dataset, dpr = window.devicePixelRatio || 1;
  const ctx = canvas.getContext('2d');
  const hex = (v) => getComputedStyle(document.documentElement).getPropertyValue(v).trim();
  const rgb = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)).join(',');
  const surface = rgb(hex('--surface')), accent = rgb(hex('--accent'));
  const cells = [];
  for (let r = 0; r < Number(d.rows); ++r) {
    let row = '';
    for (let c = 0; c < Number(d.cols); ++c) {
      const x = (Number(d.plotX) + (c + 0.5) * Number(d.cell)) * dpr;
      const y = (Number(d.plotY) + (r + 0.5) * Number(d.cell)) * dpr;
      const p = Array.from(ctx.getImageData(Math.floor(x), Math.floor(y), 1, 1).data.slice(0, 3)).join(',');
      row += p === surface ? '.' : p === accent ? 'x' : 'w';
    }
    cells.push(row);
  }
  return cells;
})())";

/// A lesson over the tiny run: a hidden query row of an image run's head, then the curves. The
/// section renders first; the hidden head is blank until Reveal; two clicked cells and R give the
/// score line the weights the page carries make; PageDown moves on.
TEST_F(HandoutInBrowser, LessonHidesThenRevealsAndScores) {
  const std::string lesson = folder_ + "/lesson.json";
  const int query = 1;
  std::ofstream(lesson) << json{
      {"format", 1},
      {"title", "Patches"},
      {"moments",
       {{{"run", "run"},
         {"view", "attention"},
         {"layer", 0},
         {"head", 1},
         {"query", query},
         {"hidden", true},
         {"question", "Which patches does this row read?"}},
        {{"run", "run"}, {"view", "curves"}, {"question", "When does the loss flatten?"}},
        {{"run", "run"}, {"view", "attention"}, {"layer", 99}, {"question", "Not there"}}}}};
  const std::string page = folder_ + "/lesson.html";
  ASSERT_EQ(runCli("handout --run " + shellQuoted(run_) + " --lesson " + shellQuoted(lesson) +
                       " --out " + shellQuoted(page),
                   folder_ + "/lesson.log"),
            0)
      << readFile(folder_ + "/lesson.log");
  EXPECT_NE(readFile(folder_ + "/lesson.log").find("moment 3 (\"Not there\"): layer 99"),
            std::string::npos)
      << readFile(folder_ + "/lesson.log");
  const std::string tab = chromium_.openTab(1280, 720);
  ASSERT_FALSE(tab.empty());
  chromium_.navigate(tab, "file://" + page);
  ASSERT_TRUE(chromium_.waitUntil(tab, "document.body.dataset.ready === 'true'"))
      << ::testing::PrintToString(chromium_.errors());
  const testing::DocumentCheck check = testing::checkHandoutDocument(
      chromium_.evaluate(tab, "document.getElementById('handout-data').textContent")
          .get<std::string>(),
      folder_);
  EXPECT_EQ(check.exit_code, 0) << check.output;
  EXPECT_EQ(chromium_.evaluate(tab, "document.getElementById('lesson').hidden"), false);
  EXPECT_EQ(chromium_.evaluate(tab, "document.querySelector('main > section').id"), "lesson");
  EXPECT_EQ(chromium_.evaluate(tab, "document.getElementById('lesson-position').textContent"),
            "Moment 1 of 2");
  EXPECT_EQ(chromium_.evaluate(tab, "document.getElementById('lesson-question').textContent"),
            "Which patches does this row read?");

  // Hidden: not one weight drawn, every cell blank.
  const std::vector<std::string> blank = chromium_.evaluate(tab, kLessonCells);
  ASSERT_GT(blank.size(), static_cast<std::size_t>(query));
  for (const std::string& row : blank) EXPECT_EQ(row, std::string(row.size(), '.'));
  EXPECT_TRUE(chromium_.evaluate(tab, "document.getElementById('lesson-score').textContent")
                  .get<std::string>()
                  .empty());
  saveScreenshot(tab, "handout_lesson_hidden_1280x720.png");

  // Two cells of the asked row clicked (one outside it, which does not count), then R.
  const char* const map = "#lesson-maps canvas.lesson-map";
  const auto clickCell = [&](int r, int c) { clickMapCell(tab, map, r, c); };
  const int cols = std::stoi(chromium_
                                 .evaluate(tab,
                                           "document.querySelector('#lesson-maps "
                                           "canvas.lesson-map').dataset.cols")
                                 .get<std::string>());
  const std::vector<int> guessed = {1, cols - 2};
  for (int c : guessed) clickCell(query, c);
  clickCell(query + 1, 0);
  const std::vector<std::string> marked = chromium_.evaluate(tab, kLessonCells);
  std::string expected_row(static_cast<std::size_t>(cols), '.');
  for (int c : guessed) expected_row[static_cast<std::size_t>(c)] = 'x';
  EXPECT_EQ(marked.at(query), expected_row);
  EXPECT_EQ(marked.at(query + 1), std::string(static_cast<std::size_t>(cols), '.'));
  chromium_.key(tab, "r", "KeyR", 82);
  ASSERT_TRUE(chromium_.waitUntil(
      tab, "document.getElementById('lesson-score').textContent.length > 0", 5));
  const std::vector<std::string> revealed = chromium_.evaluate(tab, kLessonCells);
  EXPECT_EQ(revealed.at(query + 1).find('.'), std::string::npos) << revealed.at(query + 1);

  // The score the page's own weights make: the guessed cells' share of the row, its top key.
  const json doc =
      json::parse(chromium_.evaluate(tab, "document.getElementById('handout-data').textContent")
                      .get<std::string>());
  const json& input = doc["lesson"]["moments"][0]["inputs"][0];
  const std::string codes = *base64Decode(input["weights"].get<std::string>());
  const double scale = input["scale"].get<double>();
  const auto weight = [&](int c) {
    return static_cast<unsigned char>(codes.at(static_cast<std::size_t>(query * cols + c))) /
           254.0 * scale;
  };
  double held = 0;
  for (int c : guessed) held += weight(c);
  int top = 0;
  for (int c = 1; c < cols; ++c) top = weight(c) > weight(top) ? c : top;
  const std::vector<std::string> keys =
      doc["labels"][input["col_labels"].get<std::size_t>()].get<std::vector<std::string>>();
  const bool hit = std::find(guessed.begin(), guessed.end(), top) != guessed.end();
  char weight_text[32];
  std::snprintf(weight_text, sizeof weight_text, "%.2f", weight(top));
  const std::string expected =
      "Your guess held " + std::to_string(static_cast<int>(std::lround(held * 100))) +
      "% of the weight · " +
      (hit ? "top key “" + keys.at(top) + "” guessed ✓"
           : "the top key was “" + keys.at(top) + "” (" + weight_text + ")");
  EXPECT_EQ(chromium_.evaluate(tab, "document.getElementById('lesson-score').textContent"),
            expected);
  saveScreenshot(tab, "handout_lesson_revealed_1280x720.png");

  // A clicker's Page Down: the next moment, which points at the page's own section.
  chromium_.key(tab, "PageDown", "PageDown", 34);
  EXPECT_EQ(chromium_.evaluate(tab, "document.getElementById('lesson-position').textContent"),
            "Moment 2 of 2");
  EXPECT_EQ(chromium_.evaluate(tab, "document.querySelector('#lesson-links a').hash"), "#curves");
  EXPECT_TRUE(chromium_.errors().empty()) << ::testing::PrintToString(chromium_.errors());
}

/// The cell panel of the Computation section as the page filled it.
json computationCell(ChromiumSession& chromium, const std::string& tab) {
  return chromium.evaluate(tab,
                           "(() => { const b = document.getElementById('computation-cell'); return "
                           "{...b.dataset, text: Array.from(b.querySelectorAll('p')).map((p) => "
                           "p.textContent).join(' ')}; })()");
}

/// A translation run's decoder self-attention explained (`--explain "decoder self:0:0"`): the
/// section renders every stage; the cell it opens at is taken apart with the engine's numbers
/// (the document's breakDownCell); a clicked masked cell says so and shows no number; a clicked
/// cell shows products that add up to its logit, the logit the document carries.
TEST_F(HandoutInBrowser, ComputationTakesTheClickedCellApart) {
  const std::string run = folder_ + "/translation";
  ASSERT_EQ(runCli("train --task translate --preset tiny --steps 30 --out " + shellQuoted(run),
                   folder_ + "/translation.log"),
            0)
      << readFile(folder_ + "/translation.log");
  const std::string page = folder_ + "/computation.html";
  ASSERT_EQ(runCli("handout --run " + shellQuoted(run) + " --explain 'decoder self:0:0' --out " +
                       shellQuoted(page),
                   folder_ + "/computation.log"),
            0)
      << readFile(folder_ + "/computation.log");
  const std::string tab = chromium_.openTab(1280, 720);
  ASSERT_FALSE(tab.empty());
  chromium_.navigate(tab, "file://" + page);
  ASSERT_TRUE(chromium_.waitUntil(tab, "document.body.dataset.ready === 'true'"))
      << ::testing::PrintToString(chromium_.errors());
  const std::string text =
      chromium_.evaluate(tab, "document.getElementById('handout-data').textContent");
  const testing::DocumentCheck check = testing::checkHandoutDocument(text, folder_);
  EXPECT_EQ(check.exit_code, 0) << check.output;
  const json doc = json::parse(text);
  ASSERT_EQ(doc["computations"].size(), 1u);
  const json& packed = doc["computations"][0];
  const int rows = packed["weights"]["rows"], cols = packed["weights"]["cols"];
  ASSERT_GE(rows, 2) << "a decoder row that has a key masked";
  EXPECT_EQ(chromium_.evaluate(tab, "document.getElementById('computation').hidden"), false);
  // x, Q, K, V, QKᵀ, ÷√d, mask, softmax, A·V, the heads joined, the output.
  EXPECT_EQ(
      chromium_.evaluate(tab, "document.querySelectorAll('#computation-stages .stage').length"),
      11);
  const std::string where =
      chromium_.evaluate(tab, "document.getElementById('computation-where').textContent");
  EXPECT_NE(where.find("weights at step 30 (last.pt)"), std::string::npos) << where;

  // Opened at the document's cell, taken apart with the engine's numbers.
  const json& cell = packed["cell"];
  json shown = computationCell(chromium_, tab);
  EXPECT_EQ(shown["query"], std::to_string(cell["query"].get<int>()));
  EXPECT_EQ(shown["key"], std::to_string(cell["key"].get<int>()));
  const std::vector<double> products =
      json::parse(shown["products"].get<std::string>()).get<std::vector<double>>();
  const std::vector<double> engine = cell["products"].get<std::vector<double>>();
  ASSERT_EQ(products.size(), engine.size());
  for (std::size_t d = 0; d < products.size(); ++d) EXPECT_DOUBLE_EQ(products[d], engine[d]) << d;
  EXPECT_DOUBLE_EQ(std::stod(shown["sum"].get<std::string>()), cell["sum"].get<double>());
  EXPECT_EQ(shown["rank_before"], std::to_string(cell["rank_before"].get<int>()));
  EXPECT_EQ(shown["rank_after"], std::to_string(cell["rank_after"].get<int>()));
  saveScreenshot(tab, "handout_computation_1280x720.png");

  const auto clickCell = [&](int r, int c) { clickMapCell(tab, "#computation-map", r, c); };
  // Row 0 of a decoder sees key 0 only: key 1 is masked, and no number of it is shown.
  clickCell(0, 1);
  shown = computationCell(chromium_, tab);
  EXPECT_EQ(shown["masked"], "true");
  EXPECT_FALSE(shown.contains("products"));
  const std::string masked_text = shown["text"];
  EXPECT_NE(masked_text.find("Masked"), std::string::npos) << masked_text;
  EXPECT_EQ(masked_text.find_first_of("0123456789"), std::string::npos) << masked_text;
  const json stage = box(tab, "#computation-stages .stage[data-stage='QKᵀ'] canvas");
  ASSERT_TRUE(stage.is_object());
  chromium_.mouseMove(tab, stage["x"].get<double>() + stage["w"].get<double>() * 1.5 / cols,
                      stage["y"].get<double>() + stage["h"].get<double>() * 0.5 / rows);
  const std::string hovered =
      chromium_.evaluate(tab, "document.getElementById('computation-readout').textContent");
  EXPECT_NE(hovered.find("masked"), std::string::npos) << hovered;

  // The last row's first key: its bars add up to its logit, the logit the document carries.
  clickCell(rows - 1, 0);
  shown = computationCell(chromium_, tab);
  ASSERT_EQ(shown["masked"], "false");
  EXPECT_EQ(shown["query"], std::to_string(rows - 1));
  double sum = 0;
  for (double p : json::parse(shown["products"].get<std::string>()).get<std::vector<double>>()) {
    sum += p;
  }
  const std::string logits = *base64Decode(packed["logits"]["values"].get<std::string>());
  float logit = 0;
  std::memcpy(&logit, logits.data() + 4 * static_cast<std::size_t>((rows - 1) * cols), 4);
  EXPECT_DOUBLE_EQ(std::stod(shown["logit"].get<std::string>()), logit);
  EXPECT_NEAR(sum, logit, 1e-5 * std::max(1.0, std::abs(static_cast<double>(logit))));
  saveScreenshot(tab, "handout_computation_clicked_1280x720.png");

  // The clicked map has the focus: ↑ moves the cell a row up, and the timeline stays.
  const std::int64_t step = shownStep(tab);
  chromium_.key(tab, "ArrowUp", "ArrowUp", 38);
  EXPECT_EQ(computationCell(chromium_, tab)["query"], std::to_string(rows - 2));
  EXPECT_EQ(shownStep(tab), step);
  EXPECT_TRUE(chromium_.errors().empty()) << ::testing::PrintToString(chromium_.errors());
}

/// The scoring rule of resources/handout/js/lesson_score.js on heads whose score is known.
TEST_F(HandoutInBrowser, LessonScoreFollowsTheRule) {
  const std::string js = std::string(test_paths::resourcesDir()) + "/handout/js/";
  const std::string tab = chromium_.openTab(800, 600);
  ASSERT_FALSE(tab.empty());
  chromium_.navigate(tab, "about:blank");
  const json lines = chromium_.evaluate(
      tab, "(() => {\n" + readFile(js + "format.js") + "\n" + readFile(js + "lesson_score.js") + R"(
  const w = [[0.5, 0.3, 0.2], [NaN, 0.6, 0.4]];
  const head = { rows: 2, cols: 3, at: (r, c) => w[r][c] };
  const key = (k) => `k${k}`;
  return [{ 0: { 1: 1 } }, { 0: { 0: 2, 1: 1 } }, { 0: { 0: 1, 1: 2 } }, { 0: { 0: 1, 1: 1 } },
          { 1: { 0: 3 } }, { 0: { 0: 1 }, 1: { 2: 1, 0: 5 } }]
    .map((votes) => scoreText(scoreGuess(head, votes), key));
})())");
  EXPECT_EQ(lines, json::array({
                       "Your guess held 30% of the weight · the top key was “k0” (0.50)",
                       "Your guess held 80% of the weight · top key “k0” guessed ✓",
                       "Your guess held 80% of the weight · the top key was “k0” (0.50)",
                       "Your guess held 80% of the weight · top key “k0” guessed ✓",
                       "No guess was made.",
                       "Your guess held 45% of the weight · top key guessed in 1 of 2 rows",
                   }));
}

/// The same browser with every way out closed: a proxy that does not exist, no name resolves.
class HandoutOffline : public HandoutInBrowser {
 protected:
  std::vector<std::string> flags() const override {
    return {"--window-size=1280,720", "--proxy-server=http://127.0.0.1:9",
            "--proxy-bypass-list=<-loopback>", "--host-resolver-rules=MAP * ~NOTFOUND"};
  }
};

TEST_F(HandoutOffline, MakesNoNetworkRequest) {
  // The request log sees requests: a page that fetches an image is caught.
  const std::string control = folder_ + "/control.html";
  std::ofstream(control) << "<!DOCTYPE html><img src=\"http://example.invalid/x.png\">";
  const std::string control_tab = chromium_.openTab(1280, 720);
  ASSERT_FALSE(control_tab.empty());
  chromium_.navigate(control_tab, "file://" + control);
  bool caught = false;
  for (int i = 0; i < 50 && !caught; ++i) {
    chromium_.evaluate(control_tab, "1");
    for (const std::string& url : chromium_.requestedUrls(control_tab))
      caught |= url.rfind("http://example.invalid", 0) == 0;
  }
  ASSERT_TRUE(caught) << ::testing::PrintToString(chromium_.requestedUrls(control_tab));

  const std::string tab = chromium_.openTab(1280, 720);
  ASSERT_FALSE(tab.empty());
  const std::string url = "file://" + page_;
  chromium_.navigate(tab, url);
  ASSERT_TRUE(chromium_.waitUntil(tab, "document.body.dataset.ready === 'true'"));
  // Everything the page can do: play, change colours, hover the curves, the maps, the encodings.
  chromium_.key(tab, "p", "KeyP", 80);
  chromium_.waitUntil(tab, "false", 1.0);
  chromium_.key(tab, "p", "KeyP", 80);
  for (const char* selector : {"[data-theme-choice='dark']", ".chart canvas", "#head-canvas",
                               "#pe-heatmap", "#stat-grid .stat-cell"}) {
    const json b = box(tab, selector);
    if (!b.is_object()) continue;
    chromium_.mouseMove(tab, b["x"].get<double>() + b["w"].get<double>() / 2,
                        b["y"].get<double>() + b["h"].get<double>() / 2);
    chromium_.click(tab, b["x"].get<double>() + b["w"].get<double>() / 2,
                    b["y"].get<double>() + b["h"].get<double>() / 2);
  }
  chromium_.waitUntil(tab, "false", 0.5);
  const std::vector<std::string> requests = chromium_.requestedUrls(tab);
  ASSERT_FALSE(requests.empty());
  for (const std::string& request : requests)
    EXPECT_EQ(request, url) << "the page requested " << request;
  EXPECT_TRUE(chromium_.errors(tab).empty()) << ::testing::PrintToString(chromium_.errors(tab));
}

}  // namespace
}  // namespace ascope
