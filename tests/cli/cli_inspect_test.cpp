// `attentionscope-cli inspect` on the committed Hugging Face fixtures (tests/fixtures/hf): the
// tiny BERT answers a sentence pair with every layer's attention shape and its WordPiece tokens,
// the tiny ViT an image; wrong inputs and folders are one line and exit 1 or 2.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_process.h"
#include "test_paths.h"

namespace ascope {
namespace {

using cli_test::runCli;

const std::string kHf = std::string(test_paths::fixturesDir()) + "/hf/";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(CliInspect, TinyBertPrintsEveryLayersAttentionShapeAndWritesIt) {
  const std::string json = testing::TempDir() + "inspect_bert.json";
  const auto out = runCli("inspect --model " + kHf + "tiny_bert --text 'the movie was great' " +
                          "--pair 'it was' --attention " + json);
  ASSERT_EQ(out.exit_code, 0) << out.output;
  EXPECT_TRUE(contains(out.output, "encoder layer 0: 4 heads × 9 × 9")) << out.output;
  EXPECT_TRUE(contains(out.output, "encoder layer 1: 4 heads × 9 × 9")) << out.output;
  EXPECT_TRUE(contains(out.output, "tokens (9): [CLS] the movie was great [SEP] it was [SEP]"))
      << out.output;
  std::ifstream in(json);
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j.at("task"), "bert");
  EXPECT_EQ(j.at("groups").at(0).at("layers"), 2);
  EXPECT_EQ(j.at("groups").at(0).at("maps").size(), 8u);  // 2 layers × 4 heads
  std::remove(json.c_str());
}

TEST(CliInspect, TinyVitAnswersAnImageWithItsPatches) {
  // A binary PPM needs no image library: 32 × 32 grey.
  const std::string image = testing::TempDir() + "inspect_vit.ppm";
  {
    std::ofstream ppm(image, std::ios::binary);
    ppm << "P6\n32 32\n255\n" << std::string(32 * 32 * 3, '\x80');
  }
  const auto out = runCli("inspect --model " + kHf + "tiny_vit --image " + image);
  ASSERT_EQ(out.exit_code, 0) << out.output;
  EXPECT_TRUE(contains(out.output, "encoder layer 1: 4 heads × 17 × 17")) << out.output;
  EXPECT_TRUE(contains(out.output, "tokens (17): CLS 0 1 2")) << out.output;
  std::remove(image.c_str());
}

TEST(CliInspect, WrongInputsAndFoldersAreOneLine) {
  // Every refusal of the folder or the input is a usage error, exit 2, as the README says.
  auto text_to_vit = runCli("inspect --model " + kHf + "tiny_vit --text hi");
  EXPECT_EQ(text_to_vit.exit_code, 2);
  EXPECT_TRUE(contains(text_to_vit.output, "is a ViT model: give it an image, not text"))
      << text_to_vit.output;
  // A folder that is not there is bad input (exit 2), named as such in one line.
  auto missing = runCli("inspect --model /nonexistent/model --text hi");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_TRUE(
      contains(missing.output, "attentionscope-cli: --model: /nonexistent/model: no such folder"))
      << missing.output;
  EXPECT_FALSE(contains(missing.output, "config.json")) << missing.output;
  auto no_input = runCli("inspect --model " + kHf + "tiny_bert");
  EXPECT_EQ(no_input.exit_code, 2);
  EXPECT_TRUE(contains(no_input.output, "give --text")) << no_input.output;
  // A folder without config.json exited 1.
  const std::string empty = ::testing::TempDir() + "ascope_inspect_empty_folder";
  std::filesystem::create_directories(empty);
  auto no_config = runCli("inspect --model " + empty + " --text hi");
  EXPECT_EQ(no_config.exit_code, 2) << no_config.output;
  EXPECT_TRUE(contains(no_config.output, "config.json")) << no_config.output;
}

TEST(CliInspect, InferRefusesABeamWiderThanTheWindowTakes) {
  // infer took beams up to 64, the window 16; from 17 up a tiny run's best answer was the empty
  // translation, printed as a blank line.
  auto wide = runCli("infer --run /nonexistent --text hi --beam 17");
  EXPECT_EQ(wide.exit_code, 2);
  EXPECT_TRUE(contains(wide.output, "--beam")) << wide.output;
  EXPECT_TRUE(contains(wide.output, "16")) << wide.output;
}

}  // namespace
}  // namespace ascope
