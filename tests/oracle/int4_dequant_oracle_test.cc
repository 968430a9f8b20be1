// The packing of 4-bit values into I32 words (tensor/int4_packing.h) and the int4 dequantisers'
// oracles, on words small enough to read by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "oracle/oracles.h"
#include "tensor/int4_packing.h"
#include "test_tensors.h"

namespace infinicts {
namespace {

using testing_helpers::ExpectValues;

HostTensor Words(const Shape &shape, const std::vector<uint32_t> &words) {
  HostTensor t(INFINI_DTYPE_I32, shape);
  for (size_t i = 0; i < words.size(); ++i) t.SetAt(i, static_cast<double>(static_cast<int32_t>(words[i])));
  return t;
}

// Nibble i holding i: AWQ's values come out as nibbles 0, 4, 1, 5, 2, 6, 3, 7 (the order
// AWQ's own reference unpacks with), sequential ones as 0 … 7.
TEST(Int4Packing, AwqReadsNibblesInItsInterleavedOrder) {
  const HostTensor word = Words({1, 1}, {0x76543210u});
  using Values = std::vector<double>;
  EXPECT_EQ(UnpackInt4(word, 1, 8, NibbleOrder::kAwq).ToDoubles(), (Values{0, 4, 1, 5, 2, 6, 3, 7}));
  EXPECT_EQ(UnpackInt4(word, 1, 8, NibbleOrder::kSequential).ToDoubles(), (Values{0, 1, 2, 3, 4, 5, 6, 7}));
  const HostTensor down = UnpackInt4(word, 0, 8, NibbleOrder::kSequential);
  EXPECT_EQ(down.shape(), (Shape{8, 1}));
  EXPECT_EQ(down.ToDoubles(), (Values{0, 1, 2, 3, 4, 5, 6, 7}));
}

// 15 in nibble 7 sets the word's sign bit: still 15, never −1.
TEST(Int4Packing, TheTopNibbleIsUnsigned) {
  const HostTensor word = Words({1, 1}, {0xF0000000u});
  EXPECT_LT(word.GetAt(0), 0.0);
  EXPECT_EQ(UnpackInt4(word, 1, 8, NibbleOrder::kSequential).GetAt(7), 15.0);
}

TEST(Int4Packing, PackingThenUnpackingGivesTheValuesBackWithShortLastWords) {
  HostTensor values(INFINI_DTYPE_U8, Shape{11, 3});
  for (size_t i = 0; i < values.numel(); ++i) values.SetAt(i, static_cast<double>((i * 7) % 16));
  for (NibbleOrder order : {NibbleOrder::kSequential, NibbleOrder::kAwq}) {
    const HostTensor by_rows = PackInt4(values, 0, order);
    EXPECT_EQ(by_rows.shape(), (Shape{2, 3}));
    EXPECT_EQ(UnpackInt4(by_rows, 0, 11, order).ToDoubles(), values.ToDoubles());
    HostTensor wide(INFINI_DTYPE_U8, Shape{3, 11});
    for (size_t i = 0; i < wide.numel(); ++i) wide.SetAt(i, static_cast<double>((i * 5 + 3) % 16));
    const HostTensor by_columns = PackInt4(wide, 1, order);
    EXPECT_EQ(by_columns.shape(), (Shape{3, 2}));
    EXPECT_EQ(UnpackInt4(by_columns, 1, 11, order).ToDoubles(), wide.ToDoubles());
  }
  EXPECT_THROW(UnpackInt4(Words({1, 1}, {0}), 1, 9, NibbleOrder::kAwq), std::invalid_argument);
}

// K 2 in one group, N 8: (q − z)·s with q row 0 = 0 … 7 and row 1 = 15 (AWQ order), z 1 … 8.
TEST(DequantizeAWQOracle, SubtractsTheZeroAndScalesPerColumn) {
  HostTensor q_values(INFINI_DTYPE_U8, Shape{2, 8}), z_values(INFINI_DTYPE_U8, Shape{1, 8});
  for (size_t n = 0; n < 8; ++n) {
    q_values.SetAt(n, static_cast<double>(n));
    q_values.SetAt(8 + n, 15.0);
    z_values.SetAt(n, static_cast<double>(n + 1));
  }
  const HostTensor scales = testing_helpers::F32({1, 8}, {1, 2, 4, 8, 0.5, 0.25, 1, 1});
  const HostTensor out = oracle::DequantizeAWQ(PackInt4(q_values, 1, NibbleOrder::kAwq), scales,
                                               PackInt4(z_values, 1, NibbleOrder::kAwq));
  ExpectValues(out, {2, 8}, {-1, -2, -4, -8, -0.5, -0.25, -1, -1, 14, 26, 48, 88, 5, 2.25, 8, 7});
}

// K 3 (a short word), N 9 (zeros of two words), rows in groups 1, 0, 1 by g_idx; GPTQ's + 1.
TEST(DequantizeGPTQOracle, TakesEachRowsGroupFromGIdxAndAddsOneToTheZero) {
  HostTensor q_values(INFINI_DTYPE_U8, Shape{3, 9}), z_values(INFINI_DTYPE_U8, Shape{2, 9});
  for (size_t n = 0; n < 9; ++n) {
    q_values.SetAt(n, 10.0);
    q_values.SetAt(9 + n, 0.0);
    q_values.SetAt(18 + n, 15.0);
    z_values.SetAt(n, 2.0);       // group 0
    z_values.SetAt(9 + n, 14.0);  // group 1
  }
  std::vector<double> scale_values(18, 1.0);
  for (size_t n = 0; n < 9; ++n) scale_values[9 + n] = 0.5;
  const HostTensor g_idx = HostTensor::FromValues(INFINI_DTYPE_I32, {3}, {1, 0, 1});
  const HostTensor out = oracle::DequantizeGPTQ(PackInt4(q_values, 0, NibbleOrder::kSequential),
                                                testing_helpers::F32({2, 9}, scale_values),
                                                PackInt4(z_values, 1, NibbleOrder::kSequential), g_idx);
  std::vector<double> expected;
  for (double v : {(10.0 - 15.0) * 0.5, 0.0 - 3.0, (15.0 - 15.0) * 0.5}) expected.insert(expected.end(), 9, v);
  ExpectValues(out, {3, 9}, expected);
}

}  // namespace
}  // namespace infinicts
