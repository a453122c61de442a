#include "engine/distributed/job_group.h"

#include <torch/version.h>

// Debian's LibTorch 1.13 ships ProcessGroupGloo; its header needs Gloo's (libgloo-dev) and
// USE_C10D_GLOO, which LibTorch's own build defines for itself but not for its users.
#if __has_include(<gloo/algorithm.h>)
#define USE_C10D_GLOO 1
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#define ATTENTIONSCOPE_HAS_GLOO 1
#endif
// NCCL only where CMake found a CUDA LibTorch with its header (the PyTorch wheel on a GPU server).
#if defined(ATTENTIONSCOPE_WITH_NCCL)
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif
#include <c10/util/Logging.h>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "engine/core/text_lines.h"
#include "engine/distributed/job_fault.h"
#include "engine/distributed/rendezvous_probe.h"

namespace ascope {
namespace {

// LibTorch 2 split the collectives out of ProcessGroup into Backend, which the Gloo and NCCL
// groups now derive from; their collectives keep the same signatures.
#if TORCH_VERSION_MAJOR >= 2
using CollectiveBackend = c10d::Backend;
#else
using CollectiveBackend = c10d::ProcessGroup;
#endif

using Milliseconds = std::chrono::milliseconds;

Milliseconds toMilliseconds(double seconds) {
  return Milliseconds(static_cast<int64_t>(seconds * 1000.0));
}

std::vector<uint8_t> bytesOf(const std::string& text) {
  return std::vector<uint8_t>(text.begin(), text.end());
}

bool isLoopback(const std::string& address) {
  return address == "127.0.0.1" || address == "localhost" || address == "::1";
}

std::string rollCallKey(int rank) {
  return "attentionscope/roll_call/" + std::to_string(rank);
}

std::string worldSizeKey(int rank) {
  return "attentionscope/world_size/" + std::to_string(rank);
}

/// A message for a person when the rendezvous itself failed: `timed_out` when the job's timeout
/// passed (else it failed at once, and no "within N s" is claimed).
std::string rendezvousError(const JobRank& job, const std::string& what, bool timed_out) {
  const std::string where = job.master_addr + ":" + std::to_string(job.master_port);
  const std::string first = firstLine(what);
  if (job.leads() && (first.find("Address already in use") != std::string::npos ||
                      first.find("errno: 98") != std::string::npos)) {
    return "MASTER_PORT " + std::to_string(job.master_port) +
           " is in use on this machine (another job, or another program listening there): set "
           "MASTER_PORT to a free port (" +
           first + ")";
  }
  const std::string within =
      timed_out ? " within " + std::to_string(static_cast<int64_t>(job.timeout_s)) + " s" : "";
  if (!job.leads()) {
    return describeJobRank(job) + ": could not meet rank 0 at " + where + within +
           (timed_out ? "" : ": what answers there is not this job's rendezvous") + " (" + first +
           ")";
  }
  return describeJobRank(job) + ": not every rank joined at " + where + within + " (" + first + ")";
}

/// Every rank of a job must agree on its size: ranks started with different WORLD_SIZEs met, and
/// Gloo then failed with "[enforce fail … 136 vs 68]". Each rank leaves its WORLD_SIZE in the store
/// and compares it with rank 0's (rank 0: with every other rank's, which is also the wait until
/// all have come), so a mismatch is named by the rank that meets it, and no rank waits for a
/// rank that will never come.
Status checkWorldSize(c10d::Store& store, const JobRank& job, Milliseconds timeout) {
  const std::string mine = std::to_string(job.world_size);
  const auto mismatch = [&](int r, const std::string& theirs) {
    return Error{describeJobRank(job) + ": rank " + std::to_string(r) +
                 " was started with WORLD_SIZE " + theirs + ", this rank with " + mine +
                 ": start every rank of a job with the same WORLD_SIZE"};
  };
  const auto sizeOf = [&](int r) {
    store.wait({worldSizeKey(r)}, timeout);
    const std::vector<uint8_t> bytes = store.get(worldSizeKey(r));
    return std::string(bytes.begin(), bytes.end());
  };
  if (!job.leads()) {
    // Rank 0's size read before this rank's is left: rank 0, on reading a mismatch, ends and
    // takes the store with it, and a rank still reading then met a reset connection instead.
    const std::string leaders = sizeOf(0);
    store.set(worldSizeKey(job.rank), bytesOf(mine));
    if (leaders != mine) return mismatch(0, leaders);
    return {};
  }
  store.set(worldSizeKey(job.rank), bytesOf(mine));
  for (int r = 1; r < job.world_size; ++r) {
    const std::string theirs = sizeOf(r);
    if (theirs != mine) return mismatch(r, theirs);
  }
  return {};
}

/// The job's TCPStore: served by rank 0, reached by the others; every rank waits there until all
/// have come. c10d's client waits for the server's answers without a time limit: a MASTER_PORT
/// where another program listens (or a store that hangs) would hold a rank for good. So the store
/// is made on a thread of its own, given the job's timeout and a few seconds more; past that the
/// rank gives up, and the thread, still blocked in c10d, is left to the process's end.
Expected<c10::intrusive_ptr<c10d::Store>> meetAtStore(const JobRank& job, Milliseconds timeout) {
  struct Meeting {
    std::mutex mutex;
    std::condition_variable done;
    bool finished = false;                  // guarded by mutex
    c10::intrusive_ptr<c10d::Store> store;  // guarded by mutex
    std::string error;                      // guarded by mutex
  };
  if (!job.leads()) {
    // A moment's look first: LibTorch 2's client keeps reconnecting to a program that closes its
    // connections until the job's timeout passes (rendezvous_probe.h).
    if (std::optional<std::string> foreign =
            foreignRendezvous(job.master_addr, job.master_port, std::chrono::milliseconds(300))) {
      return Error{rendezvousError(job, *foreign, /*timed_out=*/false)};
    }
  }
  auto meeting = std::make_shared<Meeting>();
  c10d::TCPStoreOptions options;
  options.port = static_cast<std::uint16_t>(job.master_port);
  options.isServer = job.leads();
  options.numWorkers = static_cast<std::size_t>(job.world_size);
  // The wait for every rank is checkWorldSize's: c10d's own counts arrivals only, and a rank
  // started with another WORLD_SIZE waited for a rank that never came.
  options.waitWorkers = false;
  options.timeout = timeout;
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 1)
  // PyTorch 2.4 made the libuv server the default, and a LibTorch built without libuv (Debian's)
  // then refuses every store; the classic server is in every build and serves a few ranks well.
  options.useLibUV = false;
#endif
  std::thread([meeting, job, options, timeout] {
    c10::intrusive_ptr<c10d::Store> store;
    std::string error;
    try {
      store = c10::make_intrusive<c10d::TCPStore>(job.master_addr, options);
      if (Status s = checkWorldSize(*store, job, timeout); !s.ok()) {
        store.reset();
        error = s.error();
      }
    } catch (const std::exception& e) {
      store.reset();
      error = rendezvousError(
          job, e.what(), /*timed_out=*/firstLine(e.what()).find("imeout") != std::string::npos);
    }
    const std::lock_guard<std::mutex> lock(meeting->mutex);
    meeting->store = std::move(store);
    meeting->error = std::move(error);
    meeting->finished = true;
    meeting->done.notify_all();
  }).detach();
  std::unique_lock<std::mutex> lock(meeting->mutex);
  if (!meeting->done.wait_for(lock, timeout + std::chrono::seconds(5),
                              [&] { return meeting->finished; })) {
    return Error{rendezvousError(job,
                                 "no answer from the rendezvous at " + job.master_addr + ":" +
                                     std::to_string(job.master_port) +
                                     " (is another program listening there?)",
                                 /*timed_out=*/true)};
  }
  if (!meeting->error.empty()) return Error{meeting->error};
  return std::move(meeting->store);
}

/// c10d logs every failed bind and connect as a warning of its own ("[W socket.cpp:…] [c10d] The
/// client socket has failed to connect…"), in glog's words, around the one line that says what
/// happened: a rank keeps c10's errors only.
void keepC10ErrorsOnly() {
#if defined(C10_USE_GLOG)
  FLAGS_minloglevel = std::max(FLAGS_minloglevel, 2);  // glog's ERROR
#else
  FLAGS_caffe2_log_level = std::max(FLAGS_caffe2_log_level, 2);
#endif
}

}  // namespace

struct JobGroup::Connection {
  c10::intrusive_ptr<c10d::Store> store;  // declared first: destroyed after the group using it
  c10::intrusive_ptr<CollectiveBackend> group;
  Milliseconds timeout{0};
};

JobGroup::JobGroup(JobRank job, std::unique_ptr<Connection> connection, std::string backend)
    : job_(std::move(job)), connection_(std::move(connection)), backend_(std::move(backend)) {}

JobGroup::~JobGroup() = default;

Expected<std::unique_ptr<JobGroup>> JobGroup::join(const JobRank& job, const c10::Device& device) {
  if (job.world_size < 1 || job.rank < 0 || job.rank >= job.world_size) {
    return Error{"rank " + std::to_string(job.rank) + " is not in a job of " +
                 std::to_string(job.world_size)};
  }
  if (!(job.timeout_s > 0)) return Error{"the job's timeout must be positive"};
  // A peer that dies leaves its sockets broken: writing to one must be an error this rank can
  // report and checkpoint around ("rank 1 is gone"), not a SIGPIPE that ends it without a word
  // or a checkpoint (seen when a killed rank's partner wrote first).
  std::signal(SIGPIPE, SIG_IGN);
  keepC10ErrorsOnly();
  auto connection = std::make_unique<Connection>();
  connection->timeout = toMilliseconds(job.timeout_s);
  Expected<c10::intrusive_ptr<c10d::Store>> store = meetAtStore(job, connection->timeout);
  if (!store.ok()) return Error{store.error()};
  connection->store = std::move(*store);
  std::string backend;
  try {
    if (device.is_cuda()) {
#if defined(ATTENTIONSCOPE_WITH_NCCL)
      auto options = c10d::ProcessGroupNCCL::Options::create();
      options->timeout = connection->timeout;
      connection->group = c10::make_intrusive<c10d::ProcessGroupNCCL>(connection->store, job.rank,
                                                                      job.world_size, options);
      backend = "nccl";
#else
      return Error{
          "a data-parallel job on CUDA needs NCCL, which this LibTorch build has not: train on "
          "the CPU (Gloo) or build with the PyTorch wheel's LibTorch"};
#endif
    } else {
#if defined(ATTENTIONSCOPE_HAS_GLOO)
      auto options = c10d::ProcessGroupGloo::Options::create(connection->timeout);
      // Python's torch.distributed picks the interface the same way: GLOO_SOCKET_IFNAME, else the
      // address this machine's name resolves to (loopback for a job on one machine).
      if (const char* interface = std::getenv("GLOO_SOCKET_IFNAME")) {
        options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(interface));
      } else if (isLoopback(job.master_addr)) {
        options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
      } else {
        options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
      }
      // Two workers: a bucket's all-reduce can run while the next one is sent.
      options->threads = 2;
      connection->group = c10::make_intrusive<c10d::ProcessGroupGloo>(connection->store, job.rank,
                                                                      job.world_size, options);
      backend = "gloo";
#else
      return Error{
          "this build has no Gloo (install libgloo-dev and build again): a data-parallel job on "
          "the CPU needs it"};
#endif
    }
  } catch (const std::exception& e) {
    return Error{
        rendezvousError(job, e.what(), firstLine(e.what()).find("imeout") != std::string::npos)};
  }
  return std::unique_ptr<JobGroup>(new JobGroup(job, std::move(connection), backend));
}

void JobGroup::allReduceSum(std::vector<at::Tensor>& tensors, const std::string& during) {
  try {
    std::vector<std::vector<at::Tensor>> inputs;
    inputs.reserve(tensors.size());
    std::vector<c10::intrusive_ptr<c10d::Work>> works;
    for (at::Tensor& t : tensors) {
      inputs.push_back({t});
      works.push_back(connection_->group->allreduce(inputs.back()));
    }
    for (const auto& work : works) work->wait();
  } catch (const std::exception& e) {
    fail(during, e);
  }
}

void JobGroup::broadcastFromLeader(at::Tensor& tensor, const std::string& during) {
  try {
    std::vector<at::Tensor> inputs{tensor};
    c10d::BroadcastOptions options;
    options.rootRank = 0;
    connection_->group->broadcast(inputs, options)->wait();
  } catch (const std::exception& e) {
    fail(during, e);
  }
}

std::string JobGroup::shareFromLeader(const std::string& key, const std::string& value,
                                      const std::string& during) {
  try {
    const std::string full_key = "attentionscope/" + key;
    if (job_.leads()) {
      connection_->store->set(full_key, bytesOf(value));
      return value;
    }
    const std::vector<uint8_t> bytes = connection_->store->get(full_key);
    return std::string(bytes.begin(), bytes.end());
  } catch (const std::exception& e) {
    fail(during, e);
  }
}

std::string JobGroup::missingRanks() {
  std::vector<int> missing;
  try {
    connection_->store->set(rollCallKey(job_.rank), bytesOf("here"));
    // The others notice the loss at their next collective (at once when a rank's sockets closed);
    // a few seconds let every survivor answer.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
    for (;;) {
      missing.clear();
      for (int r = 0; r < job_.world_size; ++r) {
        if (r != job_.rank && !connection_->store->check({rollCallKey(r)})) missing.push_back(r);
      }
      if (missing.empty() || std::chrono::steady_clock::now() > deadline) break;
      std::this_thread::sleep_for(Milliseconds(100));
    }
  } catch (const std::exception&) {
    // Rank 0 serves the store: when it cannot be reached, rank 0 is what is gone.
    return job_.leads() ? std::string("the job's rendezvous failed")
                        : std::string("rank 0 (which serves the job's rendezvous) is gone");
  }
  if (missing.empty()) return "";
  std::string ranks;
  for (std::size_t i = 0; i < missing.size(); ++i) {
    ranks += (i == 0 ? "" : i + 1 == missing.size() ? " and " : ", ") + std::to_string(missing[i]);
  }
  return (missing.size() == 1 ? "rank " : "ranks ") + ranks +
         (missing.size() == 1 ? " is gone" : " are gone") + " (no answer to a roll call)";
}

void JobGroup::fail(const std::string& during, const std::exception& e) {
  const std::string missing = missingRanks();
  throw JobFault(
      describeJobRank(job_) + ": the job failed during " + during + ": " +
      (missing.empty() ? "every rank answers, so a collective timed out or failed" : missing) +
      " (" + firstLine(e.what()) + ")");
}

}  // namespace ascope
