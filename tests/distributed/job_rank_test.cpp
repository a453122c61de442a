// The environment torchrun sets, read by every rank: RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR,
// MASTER_PORT. A process without them is no rank; a malformed one is named with its value.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <optional>
#include <string>

#include "engine/distributed/job_rank.h"

namespace ascope {
namespace {

/// Sets the job's variables for one test and removes them after.
class JobEnvironment {
 public:
  explicit JobEnvironment(const std::map<std::string, std::string>& variables) {
    for (const char* name : kNames) ::unsetenv(name);
    for (const auto& [name, value] : variables) ::setenv(name.c_str(), value.c_str(), 1);
  }
  ~JobEnvironment() {
    for (const char* name : kNames) ::unsetenv(name);
  }

 private:
  static constexpr const char* kNames[] = {"RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR",
                                           "MASTER_PORT"};
};

TEST(JobRank, NoVariablesNoJob) {
  const JobEnvironment none({});
  Expected<std::optional<JobRank>> job = jobRankFromEnvironment();
  ASSERT_TRUE(job.ok()) << job.error();
  EXPECT_FALSE(job->has_value());
}

TEST(JobRank, ReadsWhatTorchrunSets) {
  const JobEnvironment env({{"RANK", "3"},
                            {"WORLD_SIZE", "4"},
                            {"LOCAL_RANK", "1"},
                            {"MASTER_ADDR", "node0.lab"},
                            {"MASTER_PORT", "29611"}});
  Expected<std::optional<JobRank>> job = jobRankFromEnvironment();
  ASSERT_TRUE(job.ok()) << job.error();
  ASSERT_TRUE(job->has_value());
  const JobRank& rank = **job;
  EXPECT_EQ(rank.rank, 3);
  EXPECT_EQ(rank.world_size, 4);
  EXPECT_EQ(rank.local_rank, 1);
  EXPECT_EQ(rank.master_addr, "node0.lab");
  EXPECT_EQ(rank.master_port, 29611);
  EXPECT_FALSE(rank.leads());
  EXPECT_EQ(describeJobRank(rank), "rank 3 of 4 (rendezvous at node0.lab:29611)");
}

TEST(JobRank, DefaultsAsTorchDistributedHasThem) {
  const JobEnvironment env({{"RANK", "0"}, {"WORLD_SIZE", "2"}});
  Expected<std::optional<JobRank>> job = jobRankFromEnvironment();
  ASSERT_TRUE(job.ok()) << job.error();
  EXPECT_TRUE((*job)->leads());
  EXPECT_EQ((*job)->local_rank, 0);
  EXPECT_EQ((*job)->master_addr, "127.0.0.1");
  EXPECT_EQ((*job)->master_port, 29500);
}

TEST(JobRank, MalformedVariablesAreNamedWithTheirValue) {
  const std::map<std::string, std::map<std::string, std::string>> cases = {
      {"RANK=\"2\" is not a whole number in [0, 1]", {{"RANK", "2"}, {"WORLD_SIZE", "2"}}},
      {"WORLD_SIZE=\"two\"", {{"RANK", "0"}, {"WORLD_SIZE", "two"}}},
      {"WORLD_SIZE=\"0\"", {{"RANK", "0"}, {"WORLD_SIZE", "0"}}},
      {"MASTER_PORT=\"70000\"", {{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_PORT", "70000"}}},
      {"LOCAL_RANK=\"-1\"", {{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"LOCAL_RANK", "-1"}}},
      {"WORLD_SIZE is not set but RANK is", {{"RANK", "0"}}},
      {"MASTER_ADDR is empty", {{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", ""}}},
  };
  for (const auto& [message, variables] : cases) {
    const JobEnvironment env(variables);
    Expected<std::optional<JobRank>> job = jobRankFromEnvironment();
    ASSERT_FALSE(job.ok()) << message;
    EXPECT_NE(job.error().find(message), std::string::npos) << job.error();
  }
}

}  // namespace
}  // namespace ascope
