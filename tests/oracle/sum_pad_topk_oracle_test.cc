#include <gtest/gtest.h>

#include <stdexcept>

#include "oracle/oracles.h"
#include "test_tensors.h"

namespace infinicts {
namespace {

using testing_helpers::ExpectValues;
using testing_helpers::F32;

void ExpectIndices(const HostTensor &tensor, const Shape &shape, const std::vector<double> &expected) {
  EXPECT_EQ(tensor.dtype(), INFINI_DTYPE_I64);
  ASSERT_EQ(tensor.shape(), shape);
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(tensor.GetAt(i), expected[i]) << "at " << i;
}

// x [2, 3] = 1 2 3 / 10 20 30 throughout.
HostTensor Matrix() { return F32({2, 3}, {1, 2, 3, 10, 20, 30}); }

TEST(SumOracle, ReducesTheListedDimsWithOrWithoutThem) {
  ExpectValues(oracle::Sum(Matrix(), {1}, false), {2}, {6, 60});
  ExpectValues(oracle::Sum(Matrix(), {0}, true), {1, 3}, {11, 22, 33});
  ExpectValues(oracle::Sum(Matrix(), {1, 0}, false), {}, {66});
  // A transposed storage of the same values changes nothing.
  ExpectValues(oracle::Sum(Matrix().WithLayout(TransposedLayout({2, 3})), {0}, false), {3}, {11, 22, 33});
  // [2, 2, 2]: the middle dim summed.
  ExpectValues(oracle::Sum(F32({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}), {1}, false), {2, 2}, {4, 6, 12, 14});
}

TEST(SumOracle, RejectsDimsOutOfRangeOrRepeated) {
  EXPECT_THROW(oracle::Sum(Matrix(), {2}, false), std::invalid_argument);
  EXPECT_THROW(oracle::Sum(Matrix(), {1, 1}, false), std::invalid_argument);
}

TEST(PadOracle, EachModeFillsTheBorderItsWay) {
  const HostTensor row = F32({1, 3}, {1, 2, 3});
  ExpectValues(oracle::Pad(row, {2, 1}, "constant", -5), {1, 6}, {-5, -5, 1, 2, 3, -5});
  ExpectValues(oracle::Pad(row, {2, 1}, "replicate", 0), {1, 6}, {1, 1, 1, 2, 3, 3});
  ExpectValues(oracle::Pad(row, {2, 1}, "reflect", 0), {1, 6}, {3, 2, 1, 2, 3, 2});
  ExpectValues(oracle::Pad(row, {2, 1}, "circular", 0), {1, 6}, {2, 3, 1, 2, 3, 1});
  // The second pair pads dim 0: a row of 0 above.
  ExpectValues(oracle::Pad(Matrix(), {0, 1, 1, 0}, "constant", 0), {3, 4},
               {0, 0, 0, 0, 1, 2, 3, 0, 10, 20, 30, 0});
}

TEST(PadOracle, RejectsReflectionsAsWideAsTheDimAndNegativePads) {
  EXPECT_THROW(oracle::Pad(Matrix(), {3, 0}, "reflect", 0), std::invalid_argument);
  EXPECT_THROW(oracle::Pad(Matrix(), {-1, 0}, "constant", 0), std::invalid_argument);
  EXPECT_THROW(oracle::Pad(Matrix(), {1, 0}, "mirror", 0), std::invalid_argument);
}

TEST(TopKOracle, RanksEachLineAndKeepsPositions) {
  const HostTensor x = F32({2, 4}, {3, 9, 1, 7, 5, 5, 8, 2});
  const oracle::TopKResult largest = oracle::TopK(x, 2, 1, true);
  ExpectValues(largest.values, {2, 2}, {9, 7, 8, 5});
  ExpectIndices(largest.indices, {2, 2}, {1, 3, 2, 0});  // the tie of 5s: the lower position first
  const oracle::TopKResult smallest = oracle::TopK(x, 1, 0, false);
  ExpectValues(smallest.values, {1, 4}, {3, 5, 1, 2});
  ExpectIndices(smallest.indices, {1, 4}, {0, 1, 0, 1});
  EXPECT_THROW(oracle::TopK(x, 5, 1, true), std::invalid_argument);
}

}  // namespace
}  // namespace infinicts
