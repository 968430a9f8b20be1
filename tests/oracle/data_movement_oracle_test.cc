#include <gtest/gtest.h>

#include <stdexcept>

#include "oracle/oracles.h"
#include "test_tensors.h"

namespace infinicts {
namespace {

using testing_helpers::ExpectValues;
using testing_helpers::F32;

TEST(RearrangeOracle, IdentityOnValuesWhateverTheLayout) {
  const HostTensor src = F32({2, 3}, {1, 2, 3, 4, 5, 6}).WithLayout(OffsetLayout(TransposedLayout({2, 3}), 3));
  ExpectValues(oracle::Rearrange(src), {2, 3}, {1, 2, 3, 4, 5, 6});
}

TEST(EmbeddingOracle, GathersRows) {
  const HostTensor weight = F32({3, 2}, {0, 1, 10, 11, 20, 21});
  for (infiniDtype_t index_dtype : {INFINI_DTYPE_I32, INFINI_DTYPE_I64}) {
    const HostTensor indices = HostTensor::FromValues(index_dtype, {2, 2}, {2, 0, 1, 1});
    ExpectValues(oracle::Embedding(indices, weight), {2, 2, 2}, {20, 21, 0, 1, 10, 11, 10, 11});
  }
  const HostTensor strided_weight = weight.WithLayout(TransposedLayout({3, 2}));
  const HostTensor one = HostTensor::FromValues(INFINI_DTYPE_I64, {1}, {2});
  ExpectValues(oracle::Embedding(one, strided_weight), {1, 2}, {20, 21});
}

TEST(EmbeddingOracle, RejectsIndicesOutsideTheVocabulary) {
  const HostTensor weight = F32({3, 2}, {0, 1, 10, 11, 20, 21});
  EXPECT_THROW(oracle::Embedding(HostTensor::FromValues(INFINI_DTYPE_I32, {1}, {3}), weight), std::invalid_argument);
  EXPECT_THROW(oracle::Embedding(HostTensor::FromValues(INFINI_DTYPE_I32, {1}, {-1}), weight), std::invalid_argument);
}

TEST(TakeOracle, NumbersTheInputInRowMajorOrderWhateverItsStrides) {
  // input [2, 3] = 0 1 2 / 10 11 12; element 4 in row-major order is 11.
  const HostTensor input = F32({2, 3}, {0, 1, 2, 10, 11, 12});
  const HostTensor indices = HostTensor::FromValues(INFINI_DTYPE_I32, {2, 2}, {4, 0, 5, 4});
  ExpectValues(oracle::Take(input, indices), {2, 2}, {11, 0, 12, 11});
  // Stored column-major, the same values in the same logical order: the same answer.
  ExpectValues(oracle::Take(input.WithLayout(TransposedLayout({2, 3})), indices), {2, 2}, {11, 0, 12, 11});
  const HostTensor scalar = HostTensor::FromValues(INFINI_DTYPE_I64, {}, {2});
  ExpectValues(oracle::Take(input, scalar), {}, {2});
}

TEST(TakeOracle, RejectsIndicesOutsideTheInput) {
  const HostTensor input = F32({2, 3}, {0, 1, 2, 10, 11, 12});
  EXPECT_THROW(oracle::Take(input, HostTensor::FromValues(INFINI_DTYPE_I64, {1}, {6})), std::invalid_argument);
  EXPECT_THROW(oracle::Take(input, HostTensor::FromValues(INFINI_DTYPE_I64, {1}, {-1})), std::invalid_argument);
}

TEST(BroadcastToOracle, RepeatsDimsOfOneAndPrependsMissingOnes) {
  // x [2, 1] = 3 / 7 to y [2, 2, 3]: each row of x repeated along the last dim and the new first one.
  const HostTensor x = F32({2, 1}, {3, 7});
  ExpectValues(oracle::BroadcastTo(x, {2, 2, 3}), {2, 2, 3}, {3, 3, 3, 7, 7, 7, 3, 3, 3, 7, 7, 7});
  // x [3] (a transposed storage changes nothing) to y [2, 3].
  const HostTensor row = F32({1, 3}, {1, 2, 4}).WithLayout(TransposedLayout({1, 3}));
  ExpectValues(oracle::BroadcastTo(row, {2, 3}), {2, 3}, {1, 2, 4, 1, 2, 4});
  ExpectValues(oracle::BroadcastTo(F32({}, {5}), {2}), {2}, {5, 5});
}

TEST(BroadcastToOracle, RejectsDimsThatDoNotBroadcast) {
  EXPECT_THROW(oracle::BroadcastTo(F32({2}, {1, 2}), {3}), std::invalid_argument);
  EXPECT_THROW(oracle::BroadcastTo(F32({1, 2}, {1, 2}), {2}), std::invalid_argument);
}

TEST(MulScalarOracle, ScalesEveryElement) {
  ExpectValues(oracle::MulScalar(F32({2, 2}, {1, -2, 0.5, 3}), -1.5), {2, 2}, {-1.5, 3, -0.75, -4.5});
}

TEST(MoeSumOracle, SumsEachTokensExperts) {
  // input [2, 3, 2]: token 0's experts (1 2) (10 20) (100 200), token 1's (−1 0) (3 4) (5 −6).
  const HostTensor input = F32({2, 3, 2}, {1, 2, 10, 20, 100, 200, -1, 0, 3, 4, 5, -6});
  ExpectValues(oracle::MoeSum(input), {2, 2}, {111, 222, 7, -2});
  EXPECT_THROW(oracle::MoeSum(F32({2, 2}, {1, 2, 3, 4})), std::invalid_argument);
}

TEST(SelectLastTokenHiddenOracle, TakesEachRequestsLastTokenAcrossBatchRows) {
  // hidden_states [2, 2, 1]: tokens 0..3 hold 10, 11, 12, 13; requests of 1, 2 and 1 tokens.
  const HostTensor hidden = F32({2, 2, 1}, {10, 11, 12, 13});
  const HostTensor offsets = HostTensor::FromValues(INFINI_DTYPE_I32, {4}, {0, 1, 3, 4});
  ExpectValues(oracle::SelectLastTokenHidden(hidden, offsets), {1, 3, 1}, {10, 12, 13});
}

TEST(SelectLastTokenHiddenOracle, RejectsARequestOutsideTheTokens) {
  const HostTensor hidden = F32({1, 2, 1}, {10, 11});
  EXPECT_THROW(oracle::SelectLastTokenHidden(hidden, HostTensor::FromValues(INFINI_DTYPE_I32, {2}, {0, 3})),
               std::invalid_argument);
  EXPECT_THROW(oracle::SelectLastTokenHidden(hidden, HostTensor::FromValues(INFINI_DTYPE_I32, {3}, {0, 1, 1})),
               std::invalid_argument);
}

}  // namespace
}  // namespace infinicts
