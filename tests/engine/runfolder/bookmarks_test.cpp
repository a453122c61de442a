// bookmarks.json (the lecturer's notes on steps) round trips, a run without one has none, and a
// damaged file is refused with a message naming the file and the line or the bookmark; also the
// settings table of a comparison, which lists exactly the keys whose values differ.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "engine/runfolder/bookmarks/bookmarks.h"
#include "engine/runfolder/config/config_difference.h"
#include "tests/engine/removed_at_exit.h"
#include "tests/support/test_files.h"

namespace ascope {
namespace {

using testing::writeFile;

std::string freshRunDir(const std::string& name) {
  const std::string dir = testing::freshTempPath(name);
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(Bookmarks, WhatIsWrittenReadsBackByStep) {
  const std::string dir = freshRunDir("bookmarks_round_trip");
  const std::vector<Bookmark> written{{300, "loss plateaus"},
                                      {20, "heads still uniform"},
                                      {120, "ünïcode \"quoted\"\nsecond line"}};
  ASSERT_TRUE(writeBookmarks(dir, written).ok());
  Expected<std::vector<Bookmark>> read = readBookmarks(dir);
  ASSERT_TRUE(read.ok()) << read.error();
  const std::vector<Bookmark> expected{written[1], written[2], written[0]};
  EXPECT_EQ(*read, expected);
  // No temp file is left beside it.
  int files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1);
}

TEST(Bookmarks, ARunWithoutTheFileHasNone) {
  const std::string dir = freshRunDir("bookmarks_none");
  Expected<std::vector<Bookmark>> read = readBookmarks(dir);
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_TRUE(read->empty());
}

TEST(Bookmarks, BrokenJsonNamesTheFileAndLine) {
  const std::string dir = freshRunDir("bookmarks_broken");
  writeFile(bookmarksPath(dir),
            "{\"bookmarks\": [\n  {\"step\": 10, \"note\": \"a\"},\n  {\"step\": }\n]}\n");
  Expected<std::vector<Bookmark>> read = readBookmarks(dir);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().find("bookmarks.json"), std::string::npos) << read.error();
  EXPECT_NE(read.error().find("line 3"), std::string::npos) << read.error();
}

TEST(Bookmarks, BadValuesNameTheBookmarkAndField) {
  const std::string dir = freshRunDir("bookmarks_bad_values");
  const std::pair<std::string, std::string> cases[] = {
      {R"({"bookmarks": [{"step": 1}, {"step": "ten"}]})", "bookmark 2: \"step\""},
      {R"({"bookmarks": [{"step": -5, "note": "x"}]})",
       "bookmark 1: \"step\" must not be negative"},
      {R"({"bookmarks": [{"step": 2.5}]})", "bookmark 1: \"step\" must be a whole number"},
      {R"({"bookmarks": [{"step": 3, "note": 7}]})", "bookmark 1: \"note\" must be text"},
      {R"({"bookmarks": [{"step": 18446744073709551615}]})", "bookmark 1: \"step\""},
      {R"([1, 2])", "\"bookmarks\" array"},
  };
  for (const auto& [text, expected] : cases) {
    writeFile(bookmarksPath(dir), text);
    Expected<std::vector<Bookmark>> read = readBookmarks(dir);
    ASSERT_FALSE(read.ok()) << text;
    EXPECT_NE(read.error().find(expected), std::string::npos) << read.error();
    EXPECT_NE(read.error().find("bookmarks.json"), std::string::npos) << read.error();
  }
}

TEST(Bookmarks, MoreThanARunKeepsAreRefused) {
  // 100,000 bookmarks froze the window for 40 s drawing their markers.
  const std::string dir = freshRunDir("bookmarks_too_many");
  std::string text = "{\"bookmarks\": [";
  for (int i = 0; i < 100000; ++i)
    text += (i ? ",{\"step\":" : "{\"step\":") + std::to_string(i) + "}";
  writeFile(bookmarksPath(dir), text + "]}");
  Expected<std::vector<Bookmark>> read = readBookmarks(dir);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error(), bookmarksPath(dir) +
                              ": 100000 bookmarks, more than the 1000 a run keeps; remove some "
                              "from the file");
  std::vector<Bookmark> many(kMaxBookmarks + 1);
  for (std::size_t i = 0; i < many.size(); ++i) many[i].step = static_cast<std::int64_t>(i);
  EXPECT_FALSE(writeBookmarks(dir, many).ok());
  many.pop_back();
  EXPECT_TRUE(writeBookmarks(dir, many).ok());
  EXPECT_EQ(readBookmarks(dir)->size(), kMaxBookmarks);
}

TEST(Bookmarks, ALongNoteIsCutBetweenCharacters) {
  // Cut mid-character, a note was no longer UTF-8 and the next save failed in the JSON writer.
  const std::string dir = freshRunDir("bookmarks_long_note");
  std::string note;
  while (note.size() < 5000) note += "é";
  ASSERT_TRUE(writeBookmarks(dir, {{1, "x" + note}}).ok());  // 4096 falls inside an "é"
  Expected<std::vector<Bookmark>> read = readBookmarks(dir);
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_EQ(read->at(0).note.size(), 4095u);
  EXPECT_TRUE(writeBookmarks(dir, *read).ok());
}

TEST(ConfigDifference, ListsExactlyTheDifferingKeys) {
  const nlohmann::json a = {{"task", "sentiment"},
                            {"seed", 1},
                            {"optimization", {{"lr", 0.001}, {"warmup", 10}}},
                            {"only_a", true}};
  const nlohmann::json b = {{"task", "sentiment"},
                            {"seed", 2},
                            {"optimization", {{"lr", 0.01}, {"warmup", 10}}},
                            {"only_b", "x"}};
  const std::vector<SettingDifference> diff = differingSettings(a, b);
  std::vector<std::string> keys;
  for (const SettingDifference& d : diff) keys.push_back(d.key);
  const std::vector<std::string> expected{"/only_a", "/only_b", "/optimization/lr", "/seed"};
  EXPECT_EQ(keys, expected);
  EXPECT_EQ(diff[0].a, "true");
  EXPECT_EQ(diff[0].b, "");
  EXPECT_EQ(diff[2].a, "0.001");
  EXPECT_EQ(diff[2].b, "0.01");
  EXPECT_TRUE(differingSettings(a, a).empty());
}

// The comparison listed out_dir, which differs between any two runs.
TEST(ConfigDifference, LeavesOutWhereThingsAreButNotWhatTheyAre) {
  const nlohmann::json a = {{"out_dir", "runs/a"},
                            {"data", "/home/x/imdb.csv"},
                            {"pretrained", "/models/bert-base/"},
                            {"seed", 1}};
  const nlohmann::json b = {{"out_dir", "runs/b"},
                            {"data", "/mnt/copy/imdb.csv"},
                            {"pretrained", "/other/tiny_bert"},
                            {"seed", 2}};
  std::vector<std::string> keys;
  for (const SettingDifference& d : withoutLocations(differingSettings(a, b)))
    keys.push_back(d.key);
  // The same dataset elsewhere is no difference; another model is.
  const std::vector<std::string> expected{"/pretrained", "/seed"};
  EXPECT_EQ(keys, expected);
  const nlohmann::json builtin = {{"data", "builtin"}};
  // Built-in data against a file is a difference; out_dir, in a only, still is not.
  std::vector<std::string> against_builtin;
  for (const SettingDifference& d : withoutLocations(differingSettings(a, builtin)))
    against_builtin.push_back(d.key);
  EXPECT_EQ(against_builtin, (std::vector<std::string>{"/data", "/pretrained", "/seed"}));
}

}  // namespace
}  // namespace ascope
