#include "engine/datasets/record_tally.h"

#include <gtest/gtest.h>

namespace ascope {
namespace {

TEST(RecordTally, SaysHowManyAndWhereTheFirstWere) {
  RecordTally tally("rows skipped for a missing column");
  std::vector<std::string> warnings;
  tally.appendWarning("a.csv", warnings);
  EXPECT_TRUE(warnings.empty()) << "nothing to say when nothing was skipped";
  for (int line = 2; line <= 8; ++line) tally.add("line " + std::to_string(line));
  tally.appendWarning("a.csv", warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0],
            "a.csv: 7 rows skipped for a missing column (first: line 2, line 3, line 4, line 5, "
            "line 6, …)");
}
}  // namespace
}  // namespace ascope
