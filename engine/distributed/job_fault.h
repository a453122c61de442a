#pragma once
// A data-parallel job that cannot go on: a rank is gone (killed, crashed, its machine down), a
// collective timed out, or the rendezvous failed. Thrown by JobGroup's collectives on the trainer
// thread; the TrainingSession catches it, writes what it can (rank 0: the checkpoint of the last
// complete step) and ends the run with the message, which names the rank.
#include <stdexcept>
#include <string>

namespace ascope {

class JobFault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ascope
