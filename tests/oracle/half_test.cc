// F16 and BF16 conversion: exhaustive round trips, ties to even at every midpoint,
// subnormals, overflow, NaN and Inf, and no double rounding through float.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "tensor/half.h"

namespace infinicts {
namespace {

uint32_t FloatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

float FloatFromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

double DoubleFromBits(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

bool IsF16Nan(uint16_t bits) { return (bits & 0x7C00) == 0x7C00 && (bits & 0x03FF) != 0; }
bool IsBf16Nan(uint16_t bits) { return (bits & 0x7F80) == 0x7F80 && (bits & 0x007F) != 0; }

TEST(F16, EveryPatternRoundTripsThroughDouble) {
  for (uint32_t pattern = 0; pattern <= 0xFFFF; ++pattern) {
    const uint16_t bits = static_cast<uint16_t>(pattern);
    const double value = F16BitsToDouble(bits);
    EXPECT_EQ(std::isnan(value), IsF16Nan(bits)) << std::hex << pattern;
    ASSERT_EQ(DoubleToF16Bits(value), bits) << std::hex << pattern;
  }
}

TEST(F16, EveryPatternRoundTripsThroughFloat) {
  for (uint32_t pattern = 0; pattern <= 0xFFFF; ++pattern) {
    const uint16_t bits = static_cast<uint16_t>(pattern);
    const float value = F16BitsToFloat(bits);
    if (IsF16Nan(bits)) {
      EXPECT_TRUE(std::isnan(value));
      EXPECT_TRUE(IsF16Nan(FloatToF16Bits(value)));
    } else {
      ASSERT_EQ(FloatToF16Bits(value), bits) << std::hex << pattern;
    }
  }
}

TEST(F16, PositiveFiniteValuesIncreaseWithTheirBits) {
  for (uint16_t bits = 0; bits < 0x7BFF; ++bits) {
    ASSERT_LT(F16BitsToDouble(bits), F16BitsToDouble(static_cast<uint16_t>(bits + 1))) << std::hex << bits;
  }
}

TEST(F16, KnownEncodings) {
  EXPECT_EQ(F16BitsToDouble(0x3C00), 1.0);
  EXPECT_EQ(F16BitsToDouble(0xC000), -2.0);
  EXPECT_EQ(F16BitsToDouble(0x7BFF), 65504.0);
  EXPECT_EQ(F16BitsToDouble(0x0400), std::ldexp(1.0, -14));  // smallest normal
  EXPECT_EQ(F16BitsToDouble(0x0001), std::ldexp(1.0, -24));  // smallest subnormal
  EXPECT_EQ(F16BitsToDouble(0x03FF), 1023 * std::ldexp(1.0, -24));
  EXPECT_EQ(F16BitsToDouble(0x7C00), std::numeric_limits<double>::infinity());
  EXPECT_EQ(F16BitsToDouble(0xFC00), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::signbit(F16BitsToDouble(0x8000)));
  EXPECT_EQ(DoubleToF16Bits(-0.0), 0x8000);
  EXPECT_EQ(DoubleToF16Bits(0.1), 0x2E66);  // 0.0999755859375
  EXPECT_EQ(FloatToF16Bits(3.140625f), 0x4248);
}

// Every midpoint between two adjacent finite F16 numbers rounds to the one with an even
// mantissa; a hair below goes down, a hair above goes up — in double and in float.
TEST(F16, EveryMidpointTiesToEven) {
  for (uint16_t low = 0; low < 0x7BFF; ++low) {
    const uint16_t high = static_cast<uint16_t>(low + 1);
    const double midpoint = (F16BitsToDouble(low) + F16BitsToDouble(high)) / 2;  // exact
    const uint16_t even = (low & 1) == 0 ? low : high;
    ASSERT_EQ(DoubleToF16Bits(midpoint), even) << std::hex << low;
    ASSERT_EQ(DoubleToF16Bits(-midpoint), even | 0x8000) << std::hex << low;
    ASSERT_EQ(DoubleToF16Bits(std::nextafter(midpoint, 0.0)), low) << std::hex << low;
    ASSERT_EQ(DoubleToF16Bits(std::nextafter(midpoint, 1e9)), high) << std::hex << low;
    const float midpoint_float = static_cast<float>(midpoint);  // exact: 12 significant bits
    ASSERT_EQ(FloatToF16Bits(midpoint_float), even) << std::hex << low;
    ASSERT_EQ(FloatToF16Bits(std::nextafter(midpoint_float, 0.0f)), low) << std::hex << low;
    ASSERT_EQ(FloatToF16Bits(std::nextafter(midpoint_float, 1e9f)), high) << std::hex << low;
  }
}

TEST(F16, SubnormalsAreKeptAndRounded) {
  const double tiny = std::ldexp(1.0, -24);
  EXPECT_EQ(DoubleToF16Bits(tiny), 0x0001);
  EXPECT_EQ(DoubleToF16Bits(tiny / 2), 0x0000);                   // tie with 0: even
  EXPECT_EQ(DoubleToF16Bits(std::nextafter(tiny / 2, 1.0)), 0x0001);
  EXPECT_EQ(DoubleToF16Bits(3 * tiny / 2), 0x0002);               // tie between 1 and 2
  EXPECT_EQ(DoubleToF16Bits(1023.5 * tiny), 0x0400);              // largest subnormal rounds up to normal
  EXPECT_EQ(DoubleToF16Bits(1e-300), 0x0000);
  EXPECT_EQ(DoubleToF16Bits(-1e-300), 0x8000);
}

TEST(F16, OverflowRoundsToInfinityOnlyPastTheLastMidpoint) {
  EXPECT_EQ(DoubleToF16Bits(65504.0), 0x7BFF);
  EXPECT_EQ(DoubleToF16Bits(65519.99), 0x7BFF);
  EXPECT_EQ(DoubleToF16Bits(65520.0), 0x7C00);  // the tie goes to the even "65536", which is Inf
  EXPECT_EQ(DoubleToF16Bits(1e10), 0x7C00);
  EXPECT_EQ(DoubleToF16Bits(-1e10), 0xFC00);
  EXPECT_EQ(DoubleToF16Bits(std::numeric_limits<double>::infinity()), 0x7C00);
  EXPECT_EQ(FloatToF16Bits(-std::numeric_limits<float>::infinity()), 0xFC00);
}

TEST(F16, NanKeepsSignAndStaysNan) {
  EXPECT_TRUE(IsF16Nan(DoubleToF16Bits(std::nan(""))));
  EXPECT_EQ(DoubleToF16Bits(-std::numeric_limits<double>::quiet_NaN()) & 0x8000, 0x8000);
  // A payload only in the low bits would truncate to Inf's pattern; it must stay NaN.
  EXPECT_EQ(DoubleToF16Bits(DoubleFromBits(0x7FF0000000000001ull)), 0x7E00);
  EXPECT_TRUE(std::isnan(F16BitsToDouble(0x7C01)));
  EXPECT_TRUE(std::isnan(F16BitsToDouble(0xFFFF)));
}

// Converting the double directly, not through float: a value just above a midpoint that
// float would round onto the midpoint must still round up.
TEST(F16, NoDoubleRoundingThroughFloat) {
  const double above_midpoint = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(static_cast<float>(above_midpoint), 1.0f + std::ldexp(1.0f, -11));
  EXPECT_EQ(DoubleToF16Bits(above_midpoint), 0x3C01);
  EXPECT_EQ(FloatToF16Bits(static_cast<float>(above_midpoint)), 0x3C00);
}

#ifdef __FLT16_MANT_DIG__
// The compiler's own float -> _Float16 conversion as an independent check, over float
// patterns spread across the whole range.
TEST(F16, AgreesWithTheCompilersConversion) {
  for (uint64_t pattern = 0; pattern <= 0xFFFFFFFFull; pattern += 4093) {
    const float value = FloatFromBits(static_cast<uint32_t>(pattern));
    if (std::isnan(value)) continue;
    const _Float16 converted = static_cast<_Float16>(value);
    uint16_t expected;
    std::memcpy(&expected, &converted, sizeof expected);
    ASSERT_EQ(FloatToF16Bits(value), expected) << std::hex << pattern;
  }
}
#endif

TEST(Bf16, EveryPatternRoundTrips) {
  for (uint32_t pattern = 0; pattern <= 0xFFFF; ++pattern) {
    const uint16_t bits = static_cast<uint16_t>(pattern);
    const double value = Bf16BitsToDouble(bits);
    EXPECT_EQ(std::isnan(value), IsBf16Nan(bits)) << std::hex << pattern;
    ASSERT_EQ(DoubleToBf16Bits(value), bits) << std::hex << pattern;
    // BF16 is the top half of a float: decoding agrees with float's own decoding.
    const float as_float = FloatFromBits(pattern << 16);
    if (!std::isnan(as_float)) {
      ASSERT_EQ(Bf16BitsToFloat(bits), as_float) << std::hex << pattern;
    }
  }
}

// The classic integer formula for float -> bf16 with ties to even, as an independent check.
uint16_t Bf16ByIntegerRounding(float value) {
  const uint32_t bits = FloatBits(value);
  return static_cast<uint16_t>((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
}

TEST(Bf16, AgreesWithIntegerRoundingOverFloats) {
  for (uint64_t pattern = 0; pattern <= 0xFFFFFFFFull; pattern += 4093) {
    const float value = FloatFromBits(static_cast<uint32_t>(pattern));
    if (std::isnan(value)) continue;
    ASSERT_EQ(FloatToBf16Bits(value), Bf16ByIntegerRounding(value)) << std::hex << pattern;
  }
}

TEST(Bf16, EveryMidpointTiesToEven) {
  for (uint16_t low = 0; low < 0x7F7F; ++low) {
    const uint16_t high = static_cast<uint16_t>(low + 1);
    const double midpoint = (Bf16BitsToDouble(low) + Bf16BitsToDouble(high)) / 2;
    const uint16_t even = (low & 1) == 0 ? low : high;
    ASSERT_EQ(DoubleToBf16Bits(midpoint), even) << std::hex << low;
    ASSERT_EQ(DoubleToBf16Bits(std::nextafter(midpoint, 0.0)), low) << std::hex << low;
    ASSERT_EQ(DoubleToBf16Bits(std::nextafter(midpoint, 1e300)), high) << std::hex << low;
  }
}

TEST(Bf16, KnownValuesSubnormalsInfAndNan) {
  EXPECT_EQ(DoubleToBf16Bits(1.0), 0x3F80);
  EXPECT_EQ(DoubleToBf16Bits(1.0 + std::ldexp(1.0, -8)), 0x3F80);      // tie: even
  EXPECT_EQ(DoubleToBf16Bits(1.0 + 3 * std::ldexp(1.0, -8)), 0x3F82);  // tie: even
  EXPECT_EQ(Bf16BitsToDouble(0x0001), std::ldexp(1.0, -133));
  EXPECT_EQ(DoubleToBf16Bits(std::ldexp(1.0, -134)), 0x0000);
  EXPECT_EQ(DoubleToBf16Bits(1e39), 0x7F80);
  EXPECT_EQ(DoubleToBf16Bits(-std::numeric_limits<double>::infinity()), 0xFF80);
  EXPECT_TRUE(IsBf16Nan(DoubleToBf16Bits(std::nan(""))));
  EXPECT_EQ(RoundToBf16(3.0), 3.0);
  EXPECT_EQ(RoundToF16(0.1), F16BitsToDouble(0x2E66));
}

}  // namespace
}  // namespace infinicts
