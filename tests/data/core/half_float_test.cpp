// binary16 conversion of attention weights: exact where IEEE 754 says so, round to nearest even,
// and every half survives the trip through float.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "engine/core/half_float.h"

namespace ascope {
namespace {

TEST(HalfFloat, KnownEncodings) {
  EXPECT_EQ(floatToHalf(0.0f), 0x0000);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(0.5f), 0x3800);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);               // the largest half
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00);               // rounds up to infinity
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -14)), 0x0400);  // the smallest normal
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);  // the smallest subnormal
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);  // half of it: ties to even
  EXPECT_EQ(floatToHalf(std::ldexp(1.5f, -25)), 0x0001);  // above half: up
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(floatToHalf(1e-10f), 0x0000);
}

TEST(HalfFloat, RoundsToNearestEven) {
  // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: the even one (1) wins; 1 + 3·2^-11 lies
  // halfway between 1 + 2^-10 and 1 + 2^-9: the even one (1 + 2^-9, mantissa 2) wins.
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3c01);
  // A carry out of the mantissa moves to the next power of two.
  EXPECT_EQ(floatToHalf(2.0f - std::ldexp(1.0f, -12)), 0x4000);
}

TEST(HalfFloat, EveryHalfSurvivesTheTripThroughFloat) {
  for (std::uint32_t h = 0; h <= 0xffff; ++h) {
    const auto half = static_cast<std::uint16_t>(h);
    const float value = halfToFloat(half);
    if ((half & 0x7c00u) == 0x7c00u && (half & 0x03ffu) != 0) {
      EXPECT_TRUE(std::isnan(value)) << h;
      EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(value)))) << h;
      continue;
    }
    EXPECT_EQ(floatToHalf(value), half) << h;
  }
  EXPECT_EQ(halfToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));
}

TEST(HalfFloat, PacksLittleEndian) {
  const std::vector<std::uint8_t> bytes = packHalves({1.0f, -2.0f});
  EXPECT_EQ(bytes, (std::vector<std::uint8_t>{0x00, 0x3c, 0x00, 0xc0}));
  EXPECT_EQ(unpackHalves(bytes), (std::vector<float>{1.0f, -2.0f}));
}

}  // namespace
}  // namespace ascope
