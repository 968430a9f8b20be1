// The int4 dequantisers' element logic on the CPU (core/int4_words.h, which the CUDA kernels
// and the CPU kernels' nibble reading share): which nibble of which word holds each value and
// zero point, which scale an element takes, and GPTQ's rows without a group.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/int4_words.h"

namespace reference_cuda_test {
namespace {

namespace op = infinicts::ref::op;

// A word whose value j (in the format's order) is `values[j]`, packed by hand.
int32_t AwqWord(const std::vector<int> &values) {
  const int nibble_of_value[8] = {0, 4, 1, 5, 2, 6, 3, 7};
  uint32_t word = 0;
  for (int j = 0; j < 8; ++j) word |= static_cast<uint32_t>(values[j]) << (4 * nibble_of_value[j]);
  return static_cast<int32_t>(word);
}

TEST(Int4DequantLogic, AwqNibblesFollowTheInterleavedOrder) {
  const int expected[8] = {0, 4, 1, 5, 2, 6, 3, 7};
  for (int j = 0; j < 8; ++j) EXPECT_EQ(op::AwqNibble(j), expected[j]) << "value " << j;
  EXPECT_EQ(op::NibbleAt(static_cast<int32_t>(0xF0000000u), 7), 15);  // unsigned, not −1
}

// K 4 in 2 groups of 2, N 16 (two words a row).
TEST(Int4DequantLogic, AwqElementsTakeTheirGroupsZeroAndScale) {
  const op::Int4Geometry g{4, 16, 2, 2, 2};
  std::vector<int32_t> qweight(8), zeros(4);
  for (int k = 0; k < 4; ++k) {
    qweight[k * 2] = AwqWord({0, 1, 2, 3, 4, 5, 6, 7});
    qweight[k * 2 + 1] = AwqWord({15, 14, 13, 12, 11, 10, 9, 8});
  }
  zeros[0] = zeros[1] = AwqWord({1, 1, 1, 1, 1, 1, 1, 1});  // group 0
  zeros[2] = zeros[3] = AwqWord({8, 8, 8, 8, 8, 8, 8, 8});  // group 1
  for (int64_t k = 0; k < 4; ++k) {
    for (int64_t n = 0; n < 16; ++n) {
      const op::Int4Element e = op::AwqElement(g, qweight.data(), zeros.data(), k, n);
      const int q = n < 8 ? static_cast<int>(n) : static_cast<int>(23 - n);
      EXPECT_EQ(e.difference, q - (k < 2 ? 1 : 8)) << k << ", " << n;
      EXPECT_EQ(e.scale_index, (k / 2) * 16 + n);
    }
  }
}

// K 9 (two word rows, the second short), N 10 (two zero words a group), 3 groups by g_idx.
TEST(Int4DequantLogic, GptqElementsReadRowsDownTheWordAndGroupsFromGIdx) {
  const op::Int4Geometry g{9, 10, 3, 0, 2};
  std::vector<int32_t> qweight(2 * 10), zeros(3 * 2);
  for (int64_t k = 0; k < 9; ++k) {
    for (int64_t n = 0; n < 10; ++n) {
      const uint32_t q = static_cast<uint32_t>((k + n) % 16);
      qweight[(k / 8) * 10 + n] = static_cast<int32_t>(static_cast<uint32_t>(qweight[(k / 8) * 10 + n]) | q << (4 * (k % 8)));
    }
  }
  for (int64_t group = 0; group < 3; ++group) {
    for (int64_t n = 0; n < 10; ++n) {
      const uint32_t z = static_cast<uint32_t>((3 * group + n) % 16);
      int32_t &word = zeros[group * 2 + n / 8];
      word = static_cast<int32_t>(static_cast<uint32_t>(word) | z << (4 * (n % 8)));
    }
  }
  const std::vector<int32_t> g_idx = {2, 0, 1, 1, 0, 2, 2, 0, 1};
  for (int64_t k = 0; k < 9; ++k) {
    for (int64_t n = 0; n < 10; ++n) {
      op::Int4Element e{};
      ASSERT_TRUE(op::GptqElement(g, qweight.data(), zeros.data(), g_idx.data(), k, n, &e));
      const int64_t group = g_idx[k];
      EXPECT_EQ(e.difference, static_cast<int>((k + n) % 16) - (static_cast<int>((3 * group + n) % 16) + 1))
          << k << ", " << n;
      EXPECT_EQ(e.scale_index, group * 10 + n);
    }
  }
  const std::vector<int32_t> outside = {3, -1, 0, 0, 0, 0, 0, 0, 0};
  op::Int4Element e{};
  EXPECT_FALSE(op::GptqElement(g, qweight.data(), zeros.data(), outside.data(), 0, 0, &e));
  EXPECT_FALSE(op::GptqElement(g, qweight.data(), zeros.data(), outside.data(), 1, 0, &e));
}

}  // namespace
}  // namespace reference_cuda_test
