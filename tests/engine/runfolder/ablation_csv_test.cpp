// ablation.csv read back (an opened run shows its last ablation): what the writer wrote comes
// back, and a damaged file names its line.
#include <gtest/gtest.h>

#include <fstream>

#include "engine/runfolder/ablation/ablation_csv.h"
#include "tests/engine/removed_at_exit.h"

namespace ascope {
namespace {

AblationRow row(const std::string& group, int layer, int head, const char* ablation, double loss,
                double accuracy, std::optional<double> bleu = std::nullopt) {
  AblationRow r;
  r.group = group;
  r.layer = layer;
  r.head = head;
  r.ablation = ablation;
  r.samples = 512;
  r.loss = loss;
  r.accuracy = accuracy;
  if (bleu) r.figures.set("bleu", *bleu);
  return r;
}

std::string writeTempText(const std::string& name, const std::string& text) {
  const std::string path = testing::freshTempPath(name);
  std::ofstream(path) << text;
  return path;
}

TEST(AblationCsv, WhatIsWrittenReadsBack) {
  AblationTable table;
  table.baseline = row("", -1, -1, kAblationNone, 0.5, 0.8125, 40.5);
  table.rows = {row("encoder self", 0, 1, kAblationDropHead, 0.625, 0.75, 38.25),
                row("cross, all", 1, 0, kAblationKeepOnlyHead, 0.9, 0.5, 20.0),
                row("cross, all", 1, -1, kAblationDropLayer, 1.5, 0.25, 3.5)};
  const std::string path = testing::freshTempPath("ablation_csv_round_trip");
  ASSERT_TRUE(writeAblationCsv(path, table).ok());
  Expected<AblationTable> back = readAblationCsv(path);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->baseline.ablation, kAblationNone);
  EXPECT_DOUBLE_EQ(back->baseline.accuracy, 0.8125);
  ASSERT_EQ(back->rows.size(), 3u);
  EXPECT_EQ(back->rows[1].group, "cross, all");  // quoted in the file
  EXPECT_EQ(back->rows[1].ablation, kAblationKeepOnlyHead);
  EXPECT_EQ(back->rows[2].head, -1);
  EXPECT_DOUBLE_EQ(back->rows[0].loss, 0.625);
  EXPECT_EQ(back->figureKeys(), std::vector<std::string>{"bleu"});
  EXPECT_DOUBLE_EQ(back->rows[0].figures.get("bleu").value_or(-1), 38.25);
  EXPECT_DOUBLE_EQ(back->deltaFigure(back->rows[0], "bleu").value_or(0), 38.25 - 40.5);
  EXPECT_EQ(back->rows[0].samples, 512);
  EXPECT_DOUBLE_EQ(back->deltaAccuracy(back->rows[2]), 0.25 - 0.8125);
}

TEST(AblationCsv, FilesMadeBeforeFiguresWereDeclaredStillRead) {
  // Every ablation.csv written before: BLEU's two columns whatever the task, empty for a
  // classifier.
  const std::string path = writeTempText(
      "ablation_old",
      "group,layer,head,ablation,samples,loss,delta_loss,accuracy,delta_accuracy,bleu,delta_bleu\n"
      ",-1,-1,none,64,0.5,0,0.8,0,,\n"
      "encoder,0,1,drop head,64,0.6,0.1,0.7,-0.1,,\n");
  Expected<AblationTable> old = readAblationCsv(path);
  ASSERT_TRUE(old.ok()) << old.error();
  EXPECT_TRUE(old->baseline.figures.empty());
  ASSERT_EQ(old->rows.size(), 1u);
  EXPECT_DOUBLE_EQ(old->rows[0].accuracy, 0.7);
}

TEST(AblationCsv, AFigureOfAnyNameTravelsWithItsDelta) {
  AblationTable table;
  table.baseline = row("", -1, -1, kAblationNone, 0.5, 0.8);
  table.baseline.figures.set("edit_distance", 1.25);
  table.rows = {row("encoder", 0, 0, kAblationDropHead, 0.6, 0.7)};
  table.rows[0].figures.set("edit_distance", 2.0);
  const std::string text = ablationCsv(table);
  EXPECT_EQ(text.substr(0, text.find('\n')),
            std::string(kAblationCsvHeader) + ",edit_distance,delta_edit_distance");
  EXPECT_NE(text.find(",2.0000,0.7500\n"), std::string::npos) << text;
  const std::string mismatched = writeTempText(
      "ablation_mismatched", std::string(kAblationCsvHeader) + ",edit_distance,delta_bleu\n");
  Expected<AblationTable> bad = readAblationCsv(mismatched);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), mismatched + ": line 1: columns 10 and 11 are not a figure and its delta");
}

TEST(AblationCsv, DamagedFilesNameTheLine) {
  const std::string header = std::string(kAblationCsvHeader) + ",bleu,delta_bleu\n";
  const std::string baseline = ",-1,-1,none,512,0.5,0,0.8,0,,\n";
  Expected<AblationTable> no_header =
      readAblationCsv(writeTempText("ablation_no_header", baseline));
  ASSERT_FALSE(no_header.ok());
  EXPECT_NE(no_header.error().find("not an ablation.csv"), std::string::npos);

  const std::string bad_number = writeTempText(
      "ablation_bad_number", header + baseline + "encoder,0,x,drop head,512,0.6,0.1,0.7,-0.1,,\n");
  Expected<AblationTable> bad = readAblationCsv(bad_number);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(),
            bad_number + ":3: layer, head, samples, loss or accuracy is not a number in range");

  const std::string unknown =
      writeTempText("ablation_unknown",
                    header + baseline + "encoder,0,1,drop everything,512,0.6,0.1,0.7,-0.1,,\n");
  Expected<AblationTable> kind = readAblationCsv(unknown);
  ASSERT_FALSE(kind.ok());
  EXPECT_NE(kind.error().find(":3: ablation \"drop everything\" is not one of"), std::string::npos);

  const std::string headless = writeTempText(
      "ablation_no_baseline", header + "encoder,0,1,drop head,512,0.6,0.1,0.7,-0.1,,\n");
  Expected<AblationTable> none = readAblationCsv(headless);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error(), headless + ": no baseline row (ablation \"none\")");

  Expected<AblationTable> missing = readAblationCsv(headless + ".nowhere");
  EXPECT_FALSE(missing.ok());
}

}  // namespace
}  // namespace ascope
