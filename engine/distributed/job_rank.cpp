#include "engine/distributed/job_rank.h"

#include <cerrno>
#include <cstdlib>

namespace ascope {
namespace {

std::optional<std::string> variable(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

/// A whole number in [low, high] from the variable `name`, or an error naming both.
Expected<long> wholeNumber(const char* name, const std::string& text, long low, long high) {
  errno = 0;
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || end == nullptr || *end != '\0' || errno != 0 || value < low || value > high) {
    return Error{std::string(name) + "=\"" + text + "\" is not a whole number in [" +
                 std::to_string(low) + ", " + std::to_string(high) + "]"};
  }
  return value;
}

}  // namespace

Expected<std::optional<JobRank>> jobRankFromEnvironment() {
  const std::optional<std::string> rank = variable("RANK");
  const std::optional<std::string> world = variable("WORLD_SIZE");
  if (!rank && !world) return std::optional<JobRank>();
  if (!rank || !world) {
    return Error{std::string(rank ? "WORLD_SIZE" : "RANK") + " is not set but " +
                 (rank ? "RANK" : "WORLD_SIZE") +
                 " is: a rank of a training job needs both (as torchrun sets them)"};
  }
  JobRank job;
  // 4096 ranks is far beyond what a CPU job or a GPU server uses; a typo is far likelier.
  const Expected<long> size = wholeNumber("WORLD_SIZE", *world, 1, 4096);
  if (!size.ok()) return Error{size.error()};
  job.world_size = static_cast<int>(*size);
  const Expected<long> r = wholeNumber("RANK", *rank, 0, job.world_size - 1);
  if (!r.ok()) return Error{r.error() + " (WORLD_SIZE is " + *world + ")"};
  job.rank = static_cast<int>(*r);
  job.local_rank = job.rank;
  if (const std::optional<std::string> local = variable("LOCAL_RANK")) {
    const Expected<long> l = wholeNumber("LOCAL_RANK", *local, 0, job.world_size - 1);
    if (!l.ok()) return Error{l.error()};
    job.local_rank = static_cast<int>(*l);
  }
  if (const std::optional<std::string> address = variable("MASTER_ADDR")) {
    if (address->empty()) return Error{"MASTER_ADDR is empty: give rank 0's host name or address"};
    job.master_addr = *address;
  }
  const Expected<int> port = masterPortFromEnvironment(job.master_port);
  if (!port.ok()) return Error{port.error()};
  job.master_port = *port;
  return std::optional<JobRank>(job);
}

Expected<int> masterPortFromEnvironment(int fallback) {
  const std::optional<std::string> port = variable("MASTER_PORT");
  if (!port) return fallback;
  const Expected<long> p = wholeNumber("MASTER_PORT", *port, 1, 65535);
  if (!p.ok()) return Error{p.error()};
  return static_cast<int>(*p);
}

std::string describeJobRank(const JobRank& job) {
  return "rank " + std::to_string(job.rank) + " of " + std::to_string(job.world_size) +
         " (rendezvous at " + job.master_addr + ":" + std::to_string(job.master_port) + ")";
}

}  // namespace ascope
