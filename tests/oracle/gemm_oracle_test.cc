#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "oracle/oracles.h"
#include "test_tensors.h"

namespace infinicts {
namespace {

using testing_helpers::ExpectValues;
using testing_helpers::F32;

const HostTensor kA = F32({2, 3}, {1, 2, 3, 4, 5, 6});
const HostTensor kB = F32({3, 2}, {7, 8, 9, 10, 11, 12});  // A·B = [[58, 64], [139, 154]]

TEST(GemmOracle, AlphaAndBeta) {
  const HostTensor c = F32({2, 2}, {1, 2, 3, 4});
  ExpectValues(oracle::Gemm(c, kA, kB, 2.0, 0.5), {2, 2}, {116.5, 129, 279.5, 310});
  ExpectValues(oracle::Gemm(c, kA, kB, 1.0, 1.0), {2, 2}, {59, 66, 142, 158});
}

TEST(GemmOracle, BetaZeroIgnoresNanInC) {
  const HostTensor c = F32({2, 2}, {NAN, NAN, INFINITY, NAN});
  ExpectValues(oracle::Gemm(c, kA, kB, 1.0, 0.0), {2, 2}, {58, 64, 139, 154});
}

TEST(GemmOracle, StridedOperandsGiveTheSameProduct) {
  const HostTensor a_transposed = kA.WithLayout(TransposedLayout({2, 3}));
  const HostTensor b_padded = kB.WithLayout(OffsetLayout(PaddedLayout({3, 2}, 3), 4));
  const HostTensor c_transposed = F32({2, 2}, {1, 2, 3, 4}).WithLayout(TransposedLayout({2, 2}));
  ExpectValues(oracle::Gemm(c_transposed, a_transposed, b_padded, 1.0, 1.0), {2, 2}, {59, 66, 142, 158});
}

TEST(GemmOracle, BatchedWithBatchOneBroadcast) {
  const HostTensor a = F32({2, 1, 2}, {1, 2, 3, 4});
  const HostTensor b = F32({1, 2, 1}, {5, 6});  // used by both batches
  const HostTensor c(INFINI_DTYPE_F32, Shape{2, 1, 1});
  ExpectValues(oracle::Gemm(c, a, b, 1.0, 0.0), {2, 1, 1}, {17, 39});
  const HostTensor b2d = F32({2, 1}, {5, 6});  // 2-D counts as batch 1
  ExpectValues(oracle::Gemm(c, a, b2d, 1.0, 0.0), {2, 1, 1}, {17, 39});
  const HostTensor b_batched = F32({2, 2, 1}, {5, 6, 1, 1});
  ExpectValues(oracle::Gemm(c, a, b_batched, 1.0, 0.0), {2, 1, 1}, {17, 7});
}

TEST(GemmOracle, RejectsShapesThatDoNotChain) {
  const HostTensor c(INFINI_DTYPE_F32, Shape{2, 2});
  EXPECT_THROW(oracle::Gemm(c, kA, kA, 1.0, 0.0), std::invalid_argument);
  const HostTensor a3 = F32({3, 2, 3}, std::vector<double>(18, 1.0));
  const HostTensor c2(INFINI_DTYPE_F32, Shape{2, 2, 2});
  EXPECT_THROW(oracle::Gemm(c2, a3, kB, 1.0, 0.0), std::invalid_argument);
}

}  // namespace
}  // namespace infinicts
