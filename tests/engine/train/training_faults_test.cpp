// The lines a person reads when a session stops on a fault: each names the step and what to
// change (a smaller batch, a lower learning rate, free space, the command that resumes a job).
#include <gtest/gtest.h>

#include <string>

#include "engine/train/training_faults.h"

namespace ascope {
namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(TrainingFaults, OutOfMemorySuggestsHalfTheBatch) {
  const std::string m = outOfMemoryMessage("the training step", 41, 64);
  EXPECT_TRUE(has(m, "the training step at step 41 with batch_size 64")) << m;
  EXPECT_TRUE(has(m, "(e.g. 32)")) << m;
  EXPECT_TRUE(has(outOfMemoryMessage("validation", 1, 1), "(e.g. 1)"));
}

TEST(TrainingFaults, ANonFiniteLossNamesTheStepAndTheRate) {
  const std::string m = nonFiniteLossMessage(120, 0.0031);
  EXPECT_TRUE(has(m, "loss is not finite at step 120")) << m;
  EXPECT_TRUE(has(m, "(now 0.0031)")) << m;
}

TEST(TrainingFaults, ACheckpointNotWrittenKeepsThePreviousOne) {
  const std::string m =
      checkpointFailureMessage("disk full: /runs/x/checkpoints/last.pt", 500, "last");
  EXPECT_TRUE(has(m, "disk full: /runs/x/checkpoints/last.pt at step 500")) << m;
  EXPECT_TRUE(has(m, "the previous last.pt (if any) is kept")) << m;
}

TEST(TrainingFaults, AJobFaultSaysWhatWasKeptAndHowToGoOn) {
  EXPECT_EQ(jobFaultMessage("rank 1 is gone", "", "/runs/x"),
            "rank 1 is gone; no checkpoint was written yet");
  const std::string m = jobFaultMessage("rank 1 is gone", "rank 0 wrote last.pt at step 7", "/r");
  EXPECT_TRUE(has(m,
                  "; rank 0 wrote last.pt at step 7: continue with attentionscope-cli train "
                  "--resume /r (with any number of ranks)"))
      << m;
}

}  // namespace
}  // namespace ascope
