#include <gtest/gtest.h>

#include <stdexcept>

#include "oracle/oracles.h"
#include "test_tensors.h"

namespace infinicts {
namespace {

using oracle::RopePairing;
using testing_helpers::ExpectValues;
using testing_helpers::F32;

HostTensor Positions(infiniDtype_t dtype, const Shape &shape, const std::vector<double> &values) {
  return HostTensor::FromValues(dtype, shape, values);
}

// Table row 0: frequency 0 turns by 90° (sin 1, cos 0), frequency 1 by 180° (sin 0, cos -1).
// Row 1 leaves both alone.
const HostTensor kSin = F32({2, 2}, {1, 0, 0, 0});
const HostTensor kCos = F32({2, 2}, {0, -1, 1, 1});

TEST(RoPEOracle, GptJPairsNeighbours) {
  const HostTensor x = F32({1, 1, 4}, {1, 2, 3, 4});
  const HostTensor pos = Positions(INFINI_DTYPE_I32, {1}, {0});
  // pair (0, 1) turns by 90°: (1, 2) -> (1·0 - 2·1, 1·1 + 2·0) = (-2, 1); pair (2, 3) by 180°.
  ExpectValues(oracle::RoPE(x, pos, kSin, kCos, RopePairing::kGptJ), {1, 1, 4}, {-2, 1, -3, -4});
}

TEST(RoPEOracle, GptNeoxPairsHalves) {
  const HostTensor x = F32({1, 1, 4}, {1, 2, 3, 4});
  const HostTensor pos = Positions(INFINI_DTYPE_I64, {1}, {0});
  // pair (0, 2) turns by 90°: (1, 3) -> (-3, 1); pair (1, 3) by 180°: (2, 4) -> (-2, -4).
  ExpectValues(oracle::RoPE(x, pos, kSin, kCos, RopePairing::kGptNeox), {1, 1, 4}, {-3, -2, 1, -4});
}

// Eight dimensions, every frequency turning by 90°: each pair (p, q) becomes (-x_q, x_p),
// which names the pairs exactly.
TEST(RoPEOracle, PairsOfAWiderHead) {
  const HostTensor x = F32({1, 1, 8}, {1, 2, 3, 4, 5, 6, 7, 8});
  const HostTensor pos = Positions(INFINI_DTYPE_I32, {1}, {0});
  const HostTensor sin = F32({1, 4}, {1, 1, 1, 1});
  const HostTensor cos = F32({1, 4}, {0, 0, 0, 0});
  ExpectValues(oracle::RoPE(x, pos, sin, cos, RopePairing::kGptJ), {1, 1, 8}, {-2, 1, -4, 3, -6, 5, -8, 7});
  ExpectValues(oracle::RoPE(x, pos, sin, cos, RopePairing::kGptNeox), {1, 1, 8}, {-5, -6, -7, -8, 1, 2, 3, 4});
}

TEST(RoPEOracle, PositionsSelectTableRows) {
  // Two tokens, two heads: token 0 at position 1 (identity), token 1 at position 0 (turn).
  const HostTensor x = F32({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}).WithLayout(PaddedLayout({2, 2, 2}, 2));
  const HostTensor pos = Positions(INFINI_DTYPE_I32, {2}, {1, 0});
  const HostTensor sin = F32({2, 1}, {1, 0});
  const HostTensor cos = F32({2, 1}, {0, 1});
  ExpectValues(oracle::RoPE(x, pos, sin, cos, RopePairing::kGptJ), {2, 2, 2}, {1, 2, 3, 4, -6, 5, -8, 7});
}

TEST(RoPEOracle, BatchedWithPerBatchPositions) {
  const HostTensor x = F32({2, 1, 1, 2}, {1, 2, 1, 2});
  const HostTensor pos = Positions(INFINI_DTYPE_I32, {2, 1}, {0, 1});
  const HostTensor sin = F32({2, 1}, {1, 0});
  const HostTensor cos = F32({2, 1}, {0, 1});
  ExpectValues(oracle::RoPE(x, pos, sin, cos, RopePairing::kGptNeox), {2, 1, 1, 2}, {-2, 1, 1, 2});
  const HostTensor shared = Positions(INFINI_DTYPE_I32, {1}, {0});
  ExpectValues(oracle::RoPE(x, shared, sin, cos, RopePairing::kGptNeox), {2, 1, 1, 2}, {-2, 1, -2, 1});
}

TEST(RoPEOracle, RejectsPositionsOutsideTheTable) {
  const HostTensor x = F32({1, 1, 4}, {1, 2, 3, 4});
  EXPECT_THROW(oracle::RoPE(x, Positions(INFINI_DTYPE_I32, {1}, {2}), kSin, kCos, RopePairing::kGptJ),
               std::invalid_argument);
  EXPECT_THROW(oracle::RoPE(x, Positions(INFINI_DTYPE_I32, {2}, {0, 0}), kSin, kCos, RopePairing::kGptJ),
               std::invalid_argument);
}

}  // namespace
}  // namespace infinicts
