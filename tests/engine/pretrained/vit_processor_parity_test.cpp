// The tiny ViT fixture's own processor (preprocessor_config.json) turns the fixture's 0–255
// images into the pixel_values transformers' ViTImageProcessor made of them.
#include <gtest/gtest.h>

#include <ATen/ATen.h>

#include <cstdint>
#include <vector>

#include "engine/imaging/vit_image_processor.h"
#include "tests/engine/pretrained/hf_fixture_tensors.h"

namespace ascope {
namespace {

TEST(VitProcessorParity, FixtureImagesGiveTheReferencePixelValues) {
  const std::string folder = hf_fixture::folder("tiny_vit");
  Expected<VitImageProcessor> processor =
      VitImageProcessor::read(folder + "/preprocessor_config.json");
  ASSERT_TRUE(processor.ok()) << processor.error();
  const TensorMap ref = hf_fixture::readSafetensors(folder + "/reference.safetensors");
  const at::Tensor images = ref.at("images");          // (B, H, W, 3), 0–255
  const at::Tensor expected = ref.at("pixel_values");  // (B, 3, H, W)
  ASSERT_EQ(images.dim(), 4);
  for (int64_t b = 0; b < images.size(0); ++b) {
    const at::Tensor planar = images[b].permute({2, 0, 1}).contiguous().to(at::kByte);
    const std::vector<std::uint8_t> bytes(planar.data_ptr<std::uint8_t>(),
                                          planar.data_ptr<std::uint8_t>() + planar.numel());
    std::vector<float> got = processor->process(bytes, static_cast<int>(images.size(1)),
                                                static_cast<int>(images.size(2)));
    const at::Tensor ours = at::from_blob(got.data(), expected[b].sizes(), at::kFloat);
    EXPECT_LT((ours - expected[b]).abs().max().item<double>(), 1e-6) << "image " << b;
  }
}

}  // namespace
}  // namespace ascope
