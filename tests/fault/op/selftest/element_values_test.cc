// The operator faults' own F16/BF16 conversions: every bit pattern survives a round trip
// through float, and floats between two neighbours round to the nearest, ties to even
// (the F16 faults must round exactly as F16 hardware would, or they would prove nothing).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "op/element_values.h"

namespace infinicts::fault {
namespace {

bool IsHalfNan(uint16_t bits) { return (bits & 0x7c00u) == 0x7c00u && (bits & 0x3ffu) != 0; }
bool IsBf16Nan(uint16_t bits) { return (bits & 0x7f80u) == 0x7f80u && (bits & 0x7fu) != 0; }

TEST(FaultOpElementValues, EveryHalfSurvivesARoundTrip) {
  for (uint32_t bits = 0; bits <= 0xffffu; ++bits) {
    const uint16_t half = static_cast<uint16_t>(bits);
    const uint16_t back = FloatToHalfBits(HalfBitsToFloat(half));
    if (IsHalfNan(half)) {
      EXPECT_TRUE(IsHalfNan(back)) << std::hex << bits;
    } else {
      ASSERT_EQ(back, half) << std::hex << bits;
    }
  }
}

TEST(FaultOpElementValues, HalfRoundsToNearestTiesToEven) {
  // Each positive finite half and the next one up (0x7bff's is Inf): the midpoint goes to
  // the even one, anything off the midpoint to the nearer one.
  for (uint16_t low = 0; low < 0x7c00u; ++low) {
    const uint16_t high = static_cast<uint16_t>(low + 1);
    const float a = HalfBitsToFloat(low);
    const float b = high == 0x7c00u ? 65536.0f : HalfBitsToFloat(high);
    const float middle = (a + b) / 2;  // exact in float
    ASSERT_EQ(FloatToHalfBits(middle), (low & 1u) ? high : low) << std::hex << low;
    ASSERT_EQ(FloatToHalfBits(std::nextafter(middle, 0.0f)), low) << std::hex << low;
    ASSERT_EQ(FloatToHalfBits(std::nextafter(middle, INFINITY)), high) << std::hex << low;
    ASSERT_EQ(FloatToHalfBits(-middle), static_cast<uint16_t>(FloatToHalfBits(middle) | 0x8000u));
  }
  EXPECT_EQ(FloatToHalfBits(1e9f), 0x7c00u);
  EXPECT_EQ(FloatToHalfBits(-INFINITY), 0xfc00u);
  EXPECT_TRUE(IsHalfNan(FloatToHalfBits(NAN)));
  EXPECT_EQ(RoundToHalf(2049.0f), 2048.0f);  // past 2048 F16 steps by 2: a tie to even
  EXPECT_EQ(RoundToHalf(2051.0f), 2052.0f);
}

TEST(FaultOpElementValues, EveryBf16SurvivesARoundTripAndRoundsToNearestEven) {
  for (uint32_t bits = 0; bits <= 0xffffu; ++bits) {
    const uint16_t bf16 = static_cast<uint16_t>(bits);
    const uint16_t back = FloatToBf16Bits(Bf16BitsToFloat(bf16));
    if (IsBf16Nan(bf16)) {
      EXPECT_TRUE(IsBf16Nan(back)) << std::hex << bits;
      continue;
    }
    ASSERT_EQ(back, bf16) << std::hex << bits;
    if ((bits & 0x7fffu) >= 0x7f80u) continue;  // Inf has no next value up
    const float middle = (Bf16BitsToFloat(bf16) + Bf16BitsToFloat(static_cast<uint16_t>(bits + 1))) / 2;
    if (std::isinf(middle)) continue;
    ASSERT_EQ(FloatToBf16Bits(middle), (bits & 1u) ? bits + 1 : bits) << std::hex << bits;
  }
}

TEST(FaultOpElementValues, LinesRunAlongTheAxisThroughAnyStrides) {
  TensorLayout layout;
  layout.dtype = INFINI_DTYPE_F32;
  layout.shape = {2, 3, 4};
  layout.strides = {1, 8, 2};  // no dim contiguous in order
  EXPECT_EQ(LineStarts(layout, 1), (std::vector<ptrdiff_t>{0, 2, 4, 6, 1, 3, 5, 7}));
  EXPECT_EQ(LineStarts(layout, 2), (std::vector<ptrdiff_t>{0, 8, 16, 1, 9, 17}));
  EXPECT_EQ(layout.HighestOffset(), 1 + 16 + 6);
  layout.strides = {12, -4, 1};
  EXPECT_EQ(layout.HighestOffset(), 12 + 3);
}

}  // namespace
}  // namespace infinicts::fault
