#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "oracle/oracles.h"
#include "test_tensors.h"

namespace infinicts {
namespace {

using testing_helpers::ExpectValues;
using testing_helpers::F32;

// total = 4, seq = 2: query 0 sits at position 2 and sees keys 0..2; query 1 sees 0..3.
TEST(CausalSoftmaxOracle, MaskOffsetWhenTotalExceedsSeq) {
  const HostTensor x(INFINI_DTYPE_F32, Shape{2, 4});
  ExpectValues(oracle::CausalSoftmax(x), {2, 4}, {1. / 3, 1. / 3, 1. / 3, 0, 0.25, 0.25, 0.25, 0.25});
}

TEST(CausalSoftmaxOracle, SquareIsLowerTriangularAndBatched) {
  const HostTensor x = F32({2, 2, 2}, {0, 7, 0, std::log(3.0), 5, 5, 100, 100});
  ExpectValues(oracle::CausalSoftmax(x), {2, 2, 2}, {1, 0, 0.25, 0.75, 1, 0, 0.5, 0.5}, 1e-7);
}

TEST(CausalSoftmaxOracle, LargeMagnitudesNeedNoCare) {
  const HostTensor x = F32({1, 3}, {1000, 1000, -1000});
  ExpectValues(oracle::CausalSoftmax(x), {1, 3}, {0.5, 0.5, 0});
  EXPECT_THROW(oracle::CausalSoftmax(HostTensor(INFINI_DTYPE_F32, Shape{3, 2})), std::invalid_argument);
}

TEST(SoftmaxOracle, AnyAxis) {
  const HostTensor x = F32({2, 2}, {0, 1, std::log(3.0), 1});
  ExpectValues(oracle::Softmax(x, 0), {2, 2}, {0.25, 0.5, 0.75, 0.5}, 1e-7);
  const double e = std::exp(1.0);
  ExpectValues(oracle::Softmax(x, -1), {2, 2}, {1 / (1 + e), e / (1 + e), 3 / (3 + e), e / (3 + e)}, 1e-7);
  EXPECT_THROW(oracle::Softmax(x, 2), std::invalid_argument);
}

TEST(SoftmaxOracle, MiddleAxisOfAStridedTensor) {
  const HostTensor x = testing_helpers::F64({1, 2, 2}, {0, 5, std::log(3.0), 5}).WithLayout(TransposedLayout({1, 2, 2}));
  ExpectValues(oracle::Softmax(x, 1), {1, 2, 2}, {0.25, 0.5, 0.75, 0.5});
}

TEST(LogSoftmaxOracle, HandComputedAndShiftInvariant) {
  const double log3 = std::log(3.0);
  ExpectValues(oracle::LogSoftmax(F32({1, 2}, {0, log3}), 1), {1, 2}, {std::log(0.25), std::log(0.75)}, 1e-7);
  const HostTensor large = HostTensor::FromValues(INFINI_DTYPE_F64, {2, 1}, {1000, 1000 + log3});
  ExpectValues(oracle::LogSoftmax(large, 0), {2, 1}, {std::log(0.25), std::log(0.75)}, 1e-12);
}

}  // namespace
}  // namespace infinicts
