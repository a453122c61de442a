// config.json carries TrainingConfig::bucket_by_length; files written before it still load.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/vocabulary/training_config.h"

namespace ascope {
namespace {

TEST(BucketByLengthConfig, RoundTripsThroughConfigJson) {
  TrainingConfig c;
  c.task = "translate";
  c.bucket_by_length = true;
  const nlohmann::json j = c;
  EXPECT_EQ(j.at("bucket_by_length"), true);
  EXPECT_TRUE(j.get<TrainingConfig>().bucket_by_length);
  c.bucket_by_length = false;
  EXPECT_FALSE(nlohmann::json(c).get<TrainingConfig>().bucket_by_length);
}

TEST(BucketByLengthConfig, AConfigWrittenBeforeItLoadsUnbucketed) {
  // A run made before bucketing trained on unbucketed batches; resuming it must too.
  const auto old = nlohmann::json::parse(R"({"task": "translate", "batch_size": 8})");
  const TrainingConfig c = old.get<TrainingConfig>();
  EXPECT_EQ(c.batch_size, 8);
  EXPECT_FALSE(c.bucket_by_length);
}

}  // namespace
}  // namespace ascope
