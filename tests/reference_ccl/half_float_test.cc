// The library's F16/BF16 conversions (ccl/half_float.h), checked exhaustively against
// plain arithmetic: every F16 value decodes exactly, and every F32 value halfway between
// two F16 (or BF16) neighbours rounds to the even one, just above it to the upper one.
#include "ccl/half_float.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace ccl_test {
namespace {

using infinicts::ref::ccl::Bfloat16ToFloat;
using infinicts::ref::ccl::FloatOfBits;
using infinicts::ref::ccl::FloatToBfloat16;
using infinicts::ref::ccl::FloatToHalf;
using infinicts::ref::ccl::HalfToFloat;

double HalfValue(uint32_t bits) {
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  if (exponent == 0x1f && mantissa != 0) return NAN;
  const double magnitude = exponent == 0x1f ? INFINITY
                           : exponent == 0  ? std::ldexp(mantissa, -24)
                                            : std::ldexp(1024 + mantissa, exponent - 25);
  return (bits & 0x8000) ? -magnitude : magnitude;
}

TEST(HalfFloatTest, EveryHalfDecodesExactlyAndEncodesBack) {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const double want = HalfValue(bits);
    const float got = HalfToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got)) << std::hex << bits;
      EXPECT_EQ(FloatToHalf(got) & 0x7e00u, 0x7e00u) << "NaN stays a quiet NaN: " << std::hex << bits;
      continue;
    }
    ASSERT_EQ(static_cast<double>(got), want) << std::hex << bits;
    ASSERT_EQ(std::signbit(got), (bits & 0x8000) != 0) << std::hex << bits;
    ASSERT_EQ(FloatToHalf(got), bits) << std::hex << bits;
  }
}

TEST(HalfFloatTest, HalfwayCasesRoundToEven) {
  // Between each pair of positive finite neighbours (and between 65504 and 65536, the
  // first value past the largest finite one, which becomes Inf).
  for (uint32_t low = 0; low < 0x7c00; ++low) {
    const double high_value = low == 0x7bff ? 65536.0 : HalfValue(low + 1);
    const double middle = (HalfValue(low) + high_value) / 2;  // exact in F32
    const uint32_t even = (low & 1) ? low + 1 : low;
    ASSERT_EQ(FloatToHalf(static_cast<float>(middle)), even) << std::hex << low;
    ASSERT_EQ(FloatToHalf(std::nextafter(static_cast<float>(middle), INFINITY)), low + 1) << std::hex << low;
    ASSERT_EQ(FloatToHalf(std::nextafter(static_cast<float>(middle), 0.0f)), low) << std::hex << low;
    ASSERT_EQ(FloatToHalf(-static_cast<float>(middle)), even | 0x8000u) << std::hex << low;
  }
  EXPECT_EQ(FloatToHalf(INFINITY), 0x7c00u);
  EXPECT_EQ(FloatToHalf(1e10f), 0x7c00u);
  EXPECT_EQ(FloatToHalf(-1e10f), 0xfc00u);
}

TEST(HalfFloatTest, Bfloat16RoundsToNearestEven) {
  for (uint32_t low = 0; low < 0x7f80; low += 7) {
    const float low_value = Bfloat16ToFloat(static_cast<uint16_t>(low));
    const float middle = FloatOfBits((low << 16) | 0x8000u);
    ASSERT_EQ(low_value, FloatOfBits(low << 16));
    const uint32_t even = (low & 1) ? low + 1 : low;
    ASSERT_EQ(FloatToBfloat16(middle), even) << std::hex << low;
    ASSERT_EQ(FloatToBfloat16(std::nextafter(middle, INFINITY)), low + 1) << std::hex << low;
    ASSERT_EQ(FloatToBfloat16(std::nextafter(middle, 0.0f)), low) << std::hex << low;
  }
  EXPECT_EQ(FloatToBfloat16(NAN) & 0x7fc0u, 0x7fc0u);
  EXPECT_EQ(FloatToBfloat16(INFINITY), 0x7f80u);
}

}  // namespace
}  // namespace ccl_test
