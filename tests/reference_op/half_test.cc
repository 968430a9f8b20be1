// The F16/BF16 conversions the library uses: round to nearest even, subnormals, Inf, NaN.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "core/half.h"

namespace {

using namespace infinicts::ref::op;

bool IsF16NaN(uint16_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0; }

TEST(HalfConversion, EveryF16SurvivesARoundTrip) {
  for (uint32_t h = 0; h <= 0xffffu; ++h) {
    const uint16_t bits = static_cast<uint16_t>(h);
    const uint16_t back = FloatToF16(F16ToFloat(bits));
    if (IsF16NaN(bits)) {
      EXPECT_TRUE(IsF16NaN(back)) << std::hex << h;
    } else {
      EXPECT_EQ(back, bits) << std::hex << h;
    }
  }
}

TEST(HalfConversion, F16RoundsToNearestEven) {
  EXPECT_EQ(FloatToF16(1.0f + std::ldexp(1.0f, -11)), 0x3c00);      // tie -> even (down)
  EXPECT_EQ(FloatToF16(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);  // tie -> even (up)
  EXPECT_EQ(FloatToF16(1.0f + 1.5f * std::ldexp(1.0f, -11)), 0x3c01);
  EXPECT_EQ(FloatToF16(65504.0f), 0x7bff);
  EXPECT_EQ(FloatToF16(65519.0f), 0x7bff);
  EXPECT_EQ(FloatToF16(65520.0f), 0x7c00);  // overflows to Inf
  EXPECT_EQ(FloatToF16(-INFINITY), 0xfc00);
  EXPECT_EQ(FloatToF16(-0.0f), 0x8000);
  EXPECT_TRUE(IsF16NaN(FloatToF16(NAN)));
}

TEST(HalfConversion, F16Subnormals) {
  EXPECT_EQ(FloatToF16(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(FloatToF16(std::ldexp(1.0f, -25)), 0x0000);          // tie -> even zero
  EXPECT_EQ(FloatToF16(1.5f * std::ldexp(1.0f, -25)), 0x0001);
  EXPECT_EQ(FloatToF16(3 * std::ldexp(1.0f, -25)), 0x0002);      // tie 1.5 ulp -> even 2
  EXPECT_EQ(FloatToF16(std::ldexp(1.0f, -14) - std::ldexp(1.0f, -26)), 0x0400);  // rounds up to the smallest normal
  EXPECT_FLOAT_EQ(F16ToFloat(0x03ff), 1023 * std::ldexp(1.0f, -24));
  EXPECT_FLOAT_EQ(F16ToFloat(0x8001), -std::ldexp(1.0f, -24));
}

TEST(HalfConversion, Bf16RoundsToNearestEven) {
  EXPECT_EQ(FloatToBf16(1.0f), 0x3f80);
  EXPECT_EQ(FloatToBf16(1.0f + std::ldexp(1.0f, -8)), 0x3f80);      // tie -> even (down)
  EXPECT_EQ(FloatToBf16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3f82);  // tie -> even (up)
  EXPECT_EQ(FloatToBf16(BitsToFloat(0x7f7fffffu)), 0x7f80);          // overflows to Inf
  EXPECT_EQ(FloatToBf16(INFINITY), 0x7f80);
  const uint16_t nan = FloatToBf16(BitsToFloat(0x7f800001u));        // a signalling NaN stays NaN
  EXPECT_EQ(nan & 0x7f80, 0x7f80);
  EXPECT_NE(nan & 0x7f, 0);
  EXPECT_FLOAT_EQ(Bf16ToFloat(0x0001), BitsToFloat(0x00010000u));    // subnormal
}

}  // namespace
