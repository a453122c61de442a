#pragma once
// A fixture that runs its tests with two LibTorch intra-op threads (and restores the count), so
// that the engine's parallel paths (split products, the one-pass optimizer) are really taken.
#include <ATen/Parallel.h>
#include <gtest/gtest.h>

namespace ascope {

class TwoIntraOpThreads : public ::testing::Test {
 protected:
  void SetUp() override {
    saved_threads_ = at::get_num_threads();
    at::set_num_threads(2);
  }
  void TearDown() override { at::set_num_threads(saved_threads_); }

 private:
  int saved_threads_ = 1;
};

}  // namespace ascope
