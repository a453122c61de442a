#pragma once
// The processes of a data-parallel job, met through PyTorch's own distributed engine, c10d: rank
// 0 serves a TCPStore at MASTER_ADDR:MASTER_PORT (as torch.distributed's env:// rendezvous does),
// and every rank joins a Gloo process group over it (NCCL instead on CUDA, where the LibTorch
// build has it). c10d's types stay in the .cpp: they differ between LibTorch 1.x and 2.x.
//
// Every collective (allReduceSum, broadcastFromLeader, shareFromLeader) must be called by every
// rank in the same order. None waits longer than JobRank::timeout_s; a rank that is gone makes
// the others' next collective fail at once (its sockets close). Failures throw JobFault, whose
// message names the ranks that are gone (a roll call through the store).
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/distributed/job_rank.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

class JobGroup {
 public:
  /// Meets the other ranks (waits up to job.timeout_s for all of them). Errors for a person: the
  /// port taken ("MASTER_PORT 29500 on this machine is in use…"), rank 0 not reachable, no Gloo
  /// in this build.
  static Expected<std::unique_ptr<JobGroup>> join(const JobRank& job, const c10::Device& device);
  ~JobGroup();
  JobGroup(const JobGroup&) = delete;
  JobGroup& operator=(const JobGroup&) = delete;

  const JobRank& job() const { return job_; }
  /// "gloo" or "nccl"
  const std::string& backend() const { return backend_; }

  /// Sums each tensor over the ranks, in place: all launched at once, then waited for.
  void allReduceSum(std::vector<at::Tensor>& tensors, const std::string& during);
  /// Rank 0's `tensor` into every rank's (same shape and type on every rank).
  void broadcastFromLeader(at::Tensor& tensor, const std::string& during);
  /// Rank 0 publishes `value` under `key`; every rank returns rank 0's value.
  std::string shareFromLeader(const std::string& key, const std::string& value,
                              const std::string& during);

 private:
  struct Connection;
  JobGroup(JobRank job, std::unique_ptr<Connection> connection, std::string backend);
  /// Throws JobFault: what failed, and which ranks answer no roll call.
  [[noreturn]] void fail(const std::string& during, const std::exception& e);
  /// "rank 1 is gone", "rank 0 (which holds the job's rendezvous) is gone", or "" when every
  /// rank answers within a few seconds.
  std::string missingRanks();

  JobRank job_;
  std::unique_ptr<Connection> connection_;
  std::string backend_;
};

/// The first line of a c10d/Gloo error (they carry a C++ backtrace after it).
std::string firstLine(const std::string& text);

}  // namespace ascope
