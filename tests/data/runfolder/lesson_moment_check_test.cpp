// A lesson's moments against their runs (engine/runfolder/lesson_moment_check.h): a run that is
// gone, a step that was not stored, a sample not probed, a group, layer, head or query row out of
// range each skip their moment with a message saying so; the others play.
#include <gtest/gtest.h>

#include <fstream>

#include <string>
#include <vector>

#include "engine/runfolder/lesson_moment_check.h"
#include "engine/runfolder/run_folder.h"
#include "tests/data/fixture_folder.h"

namespace ascope {
namespace {

/// A run folder with steps 10 and 20 stored, sample 3 probed: two layers of two heads of encoder
/// attention over four tokens.
void writeRun(const std::string& dir) {
  Expected<RunFolder> folder = RunFolder::create(dir, "synthetic");
  ASSERT_TRUE(folder.ok()) << folder.error();
  TrainingConfig config;
  config.task = "synthetic";
  ASSERT_TRUE(folder->writeConfig(config).ok());
  for (const std::int64_t step : {10, 20}) {
    AttentionSnapshot s;
    s.step = step;
    s.task = "synthetic";
    s.sample_index = 3;
    AttentionGroup group;
    group.name = "encoder";
    group.layers = 2;
    group.heads = 2;
    group.row_labels = group.col_labels = {"a", "b", "c", "d"};
    for (int i = 0; i < 4; ++i) group.maps.push_back({4, 4, std::vector<float>(16, 0.25f)});
    s.groups.push_back(group);
    ProbeSet set;
    set.step = step;
    set.samples.push_back(s);
    ASSERT_TRUE(folder->writeProbeSet(set).ok());
  }
}

LessonMoment moment(const std::string& run) {
  LessonMoment m;
  m.run = run;
  m.step = 10;
  m.sample = 3;
  m.group = "encoder";
  m.layer = 1;
  m.head = 1;
  m.query = 3;
  return m;
}

TEST(LessonMomentCheck, WhatTheRunCannotShowIsSaid) {
  testing::FixtureFolder folder;
  const std::string run = folder.path("run");
  writeRun(run);
  EXPECT_TRUE(checkMomentAgainstRun(run, moment("run")).ok());
  const auto error = [&](const std::string& dir, LessonMoment m) {
    const Status s = checkMomentAgainstRun(dir, m);
    EXPECT_FALSE(s.ok());
    return s.ok() ? std::string() : s.error();
  };
  LessonMoment last = moment("run");
  last.step = -1;
  EXPECT_TRUE(checkMomentAgainstRun(run, last).ok());
  EXPECT_EQ(error(folder.path("gone"), moment("gone")),
            "the run " + folder.path("gone") + " is not there");
  LessonMoment m = moment("run");
  m.step = 15;
  EXPECT_EQ(error(run, m), "step 15 was not stored in " + run +
                               " (2 steps are; the timeline keeps a step every so often, not "
                               "every one)");
  m = moment("run");
  m.sample = 7;
  EXPECT_EQ(error(run, m), "sample 7 was not probed at that step (the run probed 3)");
  m = moment("run");
  m.group = "cross";
  EXPECT_EQ(error(run, m), "the run has no attention group \"cross\" (it has encoder)");
  m = moment("run");
  m.layer = 2;
  EXPECT_EQ(error(run, m), "layer 2 is out of range: encoder has 2 layers (0 to 1)");
  m = moment("run");
  m.head = 5;
  EXPECT_EQ(error(run, m), "head 5 is out of range: encoder has 2 heads (0 to 1)");
  m = moment("run");
  m.query = 4;
  EXPECT_EQ(error(run, m), "query row 4 is out of range: the sample has 4 tokens there");
  // The curves need no stored step, and a typed input's rows are known only once it is asked.
  m = moment("run");
  m.view = "curves";
  m.step = 999;
  EXPECT_TRUE(checkMomentAgainstRun(run, m).ok());
  m = moment("run");
  m.sample = -1;
  m.text = "a typed sentence of many more than four words";
  m.query = 9;
  EXPECT_TRUE(checkMomentAgainstRun(run, m).ok());
}

TEST(LessonMomentCheck, FindsTheStepSampleAndGroupAMomentShows) {
  testing::FixtureFolder folder;
  const std::string run = folder.path("run");
  writeRun(run);
  Expected<MomentInRun> found = findMomentInRun(run, moment("run"));
  ASSERT_TRUE(found.ok()) << found.error();
  EXPECT_EQ(found->probes.step, 10);
  EXPECT_EQ(found->snapshot, 0);
  EXPECT_EQ(found->group, 0);
  LessonMoment last = moment("run");
  last.step = -1;
  last.view = "sample";
  found = findMomentInRun(run, last);
  ASSERT_TRUE(found.ok()) << found.error();
  EXPECT_EQ(found->probes.step, 20);
  EXPECT_EQ(found->group, -1);  // a view of the sample names no head
  LessonMoment curves = moment("run");
  curves.view = "curves";
  found = findMomentInRun(run, curves);
  ASSERT_TRUE(found.ok()) << found.error();
  EXPECT_EQ(found->snapshot, -1);
  EXPECT_TRUE(found->probes.samples.empty());
  // A typed input's own attention is checked with its query row, a stand-in's is not.
  LessonMoment typed = moment("run");
  typed.sample = -1;
  typed.text = "longer than the probe";
  typed.query = 6;
  const Expected<MomentInRun> stored = findMomentInRun(run, moment("run"));
  ASSERT_TRUE(stored.ok()) << stored.error();
  const AttentionSnapshot& probe = stored->probes.samples[0];
  EXPECT_TRUE(momentGroupIn(probe, typed, false).ok());
  const Expected<int> own = momentGroupIn(probe, typed, true);
  ASSERT_FALSE(own.ok());
  EXPECT_EQ(own.error(), "query row 6 is out of range: the sample has 4 tokens there");
}

TEST(LessonMomentCheck, AMomentItsRunCannotShowIsSkippedByNameAndTheOthersPlay) {
  testing::FixtureFolder folder;
  writeRun(folder.path("run"));
  LessonRead read;
  read.lesson.moments = {moment("run"), moment("gone"), moment("run")};
  read.lesson.moments[1].question = "Where did it go?";
  read.lesson.moments[2].layer = 2;
  const std::string lesson = folder.path("lesson.json");
  const LessonRead playable = playableLesson(lesson, read);
  ASSERT_EQ(playable.lesson.moments.size(), 1u);
  EXPECT_EQ(playable.lesson.moments[0], moment("run"));
  ASSERT_EQ(playable.skipped.size(), 2u);
  EXPECT_EQ(playable.skipped[0], lesson + ": moment 2 (\"Where did it go?\"): the run " +
                                     folder.path("gone") + " is not there; skipped");
  EXPECT_EQ(playable.skipped[1],
            lesson + ": moment 3: layer 2 is out of range: encoder has 2 layers (0 to 1); skipped");
}

TEST(LessonMomentCheck, AMomentIsNamedAsTheFileNumbersItWhenAnEarlierOneDidNotRead) {
  testing::FixtureFolder folder;
  writeRun(folder.path("run"));
  const std::string lesson = folder.path("lesson.json");
  {
    std::ofstream file(lesson);
    file << R"({"format": 1, "moments": [{"run": "run"}, {"run": "run", "layer": "two"},
               {"run": "run", "layer": 2}, {"run": "run"}]})";
  }
  Expected<LessonRead> read = readLesson(lesson);
  ASSERT_TRUE(read.ok()) << read.error();
  ASSERT_EQ(read->skipped.size(), 1u);  // the file's moment 2
  const LessonRead playable = playableLesson(lesson, std::move(*read));
  ASSERT_EQ(playable.skipped.size(), 2u);
  EXPECT_EQ(playable.skipped[1].rfind(lesson + ": moment 3: layer 2", 0), 0u)
      << playable.skipped[1];
  EXPECT_EQ(playable.positions, (std::vector<std::size_t>{0, 3}));
  EXPECT_EQ(playable.momentName(1), "moment 4");
}

}  // namespace
}  // namespace ascope
