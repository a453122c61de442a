// A lesson's file (engine/runfolder/lesson/lesson_file.h): what is written reads back the same,
// a hand-edited moment with a bad field is skipped with a message naming the moment and the
// field while the others open, and only a file that is no lesson at all is an error.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "engine/runfolder/lesson/lesson_file.h"
#include "tests/data/fixture_folder.h"

namespace ascope {
namespace {

Lesson threeMoments() {
  Lesson lesson;
  lesson.title = "Attention in three runs";
  LessonMoment guess;
  guess.run = "imdb_laptop";
  guess.step = 400;
  guess.sample = 2;
  guess.group = "encoder";
  guess.layer = 0;
  guess.head = 1;
  guess.query = 3;
  guess.question = "Which word does \"it\" look at?";
  guess.hidden = true;
  LessonMoment pair;
  pair.run = "/abs/translate_laptop";
  pair.view = "decoding";
  pair.text = "the trophy did not fit in the suitcase because it was too big";
  pair.pair_text = "the trophy did not fit in the suitcase because it was too small";
  LessonMoment curves;
  curves.run = "../vit_laptop";
  curves.view = "curves";
  lesson.moments = {guess, pair, curves};
  return lesson;
}

TEST(LessonFile, WhatIsWrittenReadsBackTheSame) {
  testing::FixtureFolder folder;
  const std::string path = folder.path("lesson.json");
  const Lesson lesson = threeMoments();
  ASSERT_TRUE(writeLesson(path, lesson).ok());
  Expected<LessonRead> read = readLesson(path);
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_TRUE(read->skipped.empty());
  EXPECT_EQ(read->lesson.title, lesson.title);
  ASSERT_EQ(read->lesson.moments.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(read->lesson.moments[i], lesson.moments[i]) << i;
  // Runs are found beside the lesson file, wherever it is opened from.
  EXPECT_EQ(lessonRunPath(path, lesson.moments[0]), folder.path("imdb_laptop"));
  EXPECT_EQ(lessonRunPath(path, lesson.moments[1]), "/abs/translate_laptop");
  EXPECT_EQ(lessonRunPath(path, lesson.moments[2]),
            (std::filesystem::path(path).parent_path().parent_path() / "vit_laptop").string());
}

TEST(LessonFile, ABadMomentIsSkippedByNameAndTheOthersOpen) {
  testing::FixtureFolder folder;
  const std::string path = folder.write("lesson.json", R"({"format": 1, "moments": [
    {"run": "a", "layer": -1, "question": "Which head copies?"},
    {"run": "a", "head": "two"},
    {"run": "a", "view": "spreadsheet"},
    {"run": "a", "sample": 3, "text": "both"},
    {"run": "a", "pair_text": "a pair of nothing"},
    {"step": 10},
    {"run": "", "step": 10},
    {"run": "a", "step": 1e20},
    {"run": "a", "hidden": "yes"},
    "not a moment",
    {"run": "good", "step": 20, "layer": 1, "head": 0, "unknown": "kept quiet"}
  ]})");
  Expected<LessonRead> read = readLesson(path);
  ASSERT_TRUE(read.ok()) << read.error();
  ASSERT_EQ(read->lesson.moments.size(), 1u);
  EXPECT_EQ(read->lesson.moments[0].run, "good");
  EXPECT_EQ(read->lesson.moments[0].step, 20);
  const std::vector<std::string> expected = {
      "moment 1 (\"Which head copies?\"): \"layer\" must be a whole number from 0 to 4096, got -1",
      "moment 2: \"head\" must be a whole number from 0 to 4096, got \"two\"",
      "moment 3: \"view\" must be one of attention, heads, decoding, encoding, curves, sample, "
      "got \"spreadsheet\"",
      "moment 4: give a \"sample\" or a \"text\", not both",
      "moment 5: \"pair_text\" is the second of a pair: it needs a \"text\"",
      "moment 6: \"run\" is missing",
      "moment 7: \"run\" is empty",
      "moment 8: \"step\" must be a whole number from -1 to 1000000000000, got 1e+20",
      "moment 9: \"hidden\" must be true or false, got \"yes\"",
      "moment 10: is not an object but \"not a moment\""};
  ASSERT_EQ(read->skipped.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(read->skipped[i], path + ": " + expected[i] + "; skipped");
  }
}

TEST(LessonFile, AFileThatIsNoLessonIsAnErrorNamingIt) {
  testing::FixtureFolder folder;
  const auto error = [&](const std::string& name, const std::string& bytes) {
    const std::string path = folder.write(name, bytes);
    Expected<LessonRead> read = readLesson(path);
    EXPECT_FALSE(read.ok()) << name;
    return read.ok() ? std::string() : read.error();
  };
  EXPECT_NE(error("garbage.json", "{\"format\": 1, \"moments\": [").find("garbage.json"),
            std::string::npos);
  EXPECT_EQ(error("list.json", "[1, 2]"),
            folder.path("list.json") + ": not a lesson (an object with \"moments\")");
  EXPECT_EQ(error("future.json", R"({"format": 2, "moments": []})"),
            folder.path("future.json") + ": a lesson of format 1 has \"format\": 1, this one 2");
  EXPECT_EQ(error("none.json", R"({"format": 1})"),
            folder.path("none.json") + ": no \"moments\" list");
  std::string many = R"({"format": 1, "moments": [)";
  for (int i = 0; i < 501; ++i) many += std::string(i ? "," : "") + R"({"run": "a"})";
  EXPECT_EQ(error("many.json", many + "]}"),
            folder.path("many.json") + ": 501 moments, more than the 500 a lesson holds");
  const std::string huge = std::string(5 << 20, ' ');
  EXPECT_FALSE(error("huge.json", huge).empty());
  EXPECT_FALSE(readLesson(folder.path("missing.json")).ok());
}

TEST(LessonFile, AMomentThatWouldNotReadBackIsNotWritten) {
  testing::FixtureFolder folder;
  const std::string path = folder.path("lesson.json");
  ASSERT_TRUE(writeLesson(path, threeMoments()).ok());
  Lesson bad = threeMoments();
  bad.moments[1].view = "spreadsheet";
  const Status refused = writeLesson(path, bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error(),
            path +
                ": moment 2: \"view\" must be one of attention, heads, decoding, encoding, "
                "curves, sample, got \"spreadsheet\"");
  Expected<LessonRead> kept = readLesson(path);
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(kept->lesson.moments[1].view, "decoding") << "the file is left as it was";
  // Nor a question longer than the reader takes: saved, it would be skipped when reopened.
  Lesson long_question = threeMoments();
  long_question.moments[2].question = std::string(3000, 'q');
  const Status too_long = writeLesson(path, long_question);
  ASSERT_FALSE(too_long.ok());
  EXPECT_NE(too_long.error().find(path + ": moment 3: "), std::string::npos) << too_long.error();
  EXPECT_NE(too_long.error().find("question"), std::string::npos) << too_long.error();
}

}  // namespace
}  // namespace ascope
