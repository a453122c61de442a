// What the Run dock, --device and the estimate say about this machine's devices.
#include "engine/device/device_query.h"

#include <gtest/gtest.h>

#include "engine/device/cuda_driver_query.h"

namespace ascope {
namespace {

TEST(DeviceQuery, TheCpuComesFirstWithItsNameMemoryAndLibTorch) {
  const std::vector<TrainingDevice> devices = trainingDevices();
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[0].id, "cpu");
  EXPECT_TRUE(devices[0].usable);
  EXPECT_FALSE(devices[0].name.empty());
  EXPECT_GT(devices[0].memory_bytes, 1ULL << 28);
  EXPECT_NE(devices[0].text.find(" GiB"), std::string::npos) << devices[0].text;
  EXPECT_NE(devices[0].text.find("LibTorch "), std::string::npos) << devices[0].text;
}

TEST(DeviceQuery, TheGpuIsNamedOrWhyThereIsNone) {
  const std::vector<TrainingDevice> devices = trainingDevices();
  ASSERT_EQ(devices.size(), 2u);
  const TrainingDevice& gpu = devices[1];
  EXPECT_EQ(gpu.id, "cuda");
  EXPECT_EQ(gpu.usable, cudaAvailable());
  EXPECT_NE(gpu.text.find(libtorchBuild()), std::string::npos) << gpu.text;
  const DriverGpus driver = queryDriverGpus();
  if (driver.gpus.empty()) {
    // No GPU: the reason, as a command asked for --device cuda says it.
    EXPECT_FALSE(driver.problem.empty());
    EXPECT_NE(gpu.text.find(driver.problem), std::string::npos) << gpu.text;
    EXPECT_EQ(noCudaReason(), "no CUDA GPU is available: " + gpu.text);
  } else {
    EXPECT_EQ(gpu.name, driver.gpus.front().name);
    EXPECT_GT(gpu.memory_bytes, 0u);
  }
}

}  // namespace
}  // namespace ascope
