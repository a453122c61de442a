// A sample's input as it is asked again: its image when it carries one, else its text.
#include <gtest/gtest.h>

#include "engine/vocabulary/payloads/sample_input.h"

namespace ascope {
namespace {

TEST(SampleInput, TheImageWhenTheSampleCarriesOneElseTheText) {
  Payloads text_only;
  const SampleInput text = inputOf(text_only, "a fine film");
  EXPECT_EQ(text.image, nullptr);
  EXPECT_EQ(text.text, "a fine film");

  ImagePayload picture;
  picture.image = {2, 1, {1, 2, 3, 4, 5, 6}};
  Payloads with_image;
  with_image.put(makePayload(picture));
  const SampleInput image = inputOf(with_image, "cat");
  ASSERT_NE(image.image, nullptr);
  EXPECT_EQ(image.image->pixels, picture.image.pixels);
  EXPECT_EQ(image.image, &with_image.find<ImagePayload>()->image);  // not a copy
  EXPECT_TRUE(image.text.empty());
}

}  // namespace
}  // namespace ascope
