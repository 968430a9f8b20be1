#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "oracle/oracles.h"
#include "test_tensors.h"

namespace infinicts {
namespace {

using testing_helpers::ExpectValues;
using testing_helpers::F32;
using testing_helpers::F64;

// ---- Attention -------------------------------------------------------------------------

// The first token (pos 0, one new token) sees only its own key: out is its value, and both
// caches get the token at row 0; the cache's later row keeps its NaN.
TEST(AttentionOracle, TheFirstTokenReturnsItsValueAndFillsRowZero) {
  const HostTensor q = F32({1, 1, 2}, {0.5, -3});
  const HostTensor k = F32({1, 1, 2}, {2, 1}), v = F32({1, 1, 2}, {7, -9});
  const HostTensor k_cache = F32({1, 2, 2}, {0, 0, NAN, NAN}), v_cache = F32({1, 2, 2}, {0, 0, NAN, NAN});
  const oracle::AttentionResult r = oracle::Attention(q, k, v, k_cache, v_cache, 0);
  ExpectValues(r.out, {1, 1, 2}, {7, -9});
  ExpectValues(r.k_cache, {1, 2, 2}, {2, 1, NAN, NAN});
  ExpectValues(r.v_cache, {1, 2, 2}, {7, -9, NAN, NAN});
}

// head_dim 4, so the scores are q·k / 2: a past key scoring 0 and the new key scoring ln 3 get
// weights 1/4 and 3/4, so out = 4/4 + 3·8/4 = 7.
TEST(AttentionOracle, ScalesByTheRootOfHeadDimOverThePastAndTheNewKey) {
  const double ln3 = std::log(3.0);
  const HostTensor q = F64({1, 1, 4}, {2, 0, 0, 0});
  const HostTensor k = F64({1, 1, 4}, {ln3, 0, 0, 0}), v = F64({1, 1, 4}, {8, 8, 8, 8});
  const HostTensor k_cache = F64({1, 2, 4}, {0, 1, 1, 1, -1, -1, -1, -1});
  const HostTensor v_cache = F64({1, 2, 4}, {4, 4, 4, 4, 0, 0, 0, 0});
  const oracle::AttentionResult r = oracle::Attention(q, k, v, k_cache, v_cache, 1);
  ExpectValues(r.out, {1, 1, 4}, {7, 7, 7, 7});
  ExpectValues(r.k_cache, {1, 2, 4}, {0, 1, 1, 1, ln3, 0, 0, 0});
}

// Two new tokens after one past one (pos 1), head_dim 1, keys all 0 (equal scores): token 0
// averages the values of positions 0 and 1, token 1 those of 0, 1 and 2; the row at 3 (junk,
// NaN) is never read.
TEST(AttentionOracle, TokenISeesPosPlusIPlusOneKeys) {
  const HostTensor q = F64({1, 2, 1}, {1, 1});
  const HostTensor k = F64({1, 2, 1}, {0, 0}), v = F64({1, 2, 1}, {6, 12});
  const HostTensor k_cache = F64({1, 4, 1}, {0, 5, 5, NAN}), v_cache = F64({1, 4, 1}, {3, 0, 0, NAN});
  const oracle::AttentionResult r = oracle::Attention(q, k, v, k_cache, v_cache, 1);
  ExpectValues(r.out, {2, 1, 1}, {(3.0 + 6.0) / 2, (3.0 + 6.0 + 12.0) / 3});
  ExpectValues(r.v_cache, {1, 4, 1}, {3, 6, 12, NAN});
}

// Four q heads over two kv heads: heads 0 and 1 read kv head 0, heads 2 and 3 kv head 1
// (h / 2, not h mod 2). One token at pos 0: each head's output is its kv head's value.
TEST(AttentionOracle, QHeadsShareKvHeadsInConsecutiveGroups) {
  const HostTensor q = F64({4, 1, 1}, {1, 2, 3, 4});
  const HostTensor k = F64({2, 1, 1}, {1, 1}), v = F64({2, 1, 1}, {10, 20});
  const HostTensor cache = F64({2, 1, 1}, {0, 0});
  const oracle::AttentionResult r = oracle::Attention(q, k, v, cache, cache, 0);
  ExpectValues(r.out, {1, 4, 1}, {10, 10, 20, 20});
}

TEST(AttentionOracle, RejectsCachesTooShortAndUnevenGroups) {
  const HostTensor q = F64({2, 2, 1}, {1, 1, 1, 1}), kv = F64({1, 2, 1}, {1, 1});
  const HostTensor three_rows = F64({1, 3, 1}, {0, 0, 0});
  EXPECT_NO_THROW(oracle::Attention(q, kv, kv, three_rows, three_rows, 1));
  EXPECT_THROW(oracle::Attention(q, kv, kv, three_rows, three_rows, 2), std::invalid_argument);
  const HostTensor q3 = F64({3, 2, 1}, {1, 1, 1, 1, 1, 1}), kv2 = F64({2, 2, 1}, {1, 1, 1, 1});
  const HostTensor cache2 = F64({2, 3, 1}, {0, 0, 0, 0, 0, 0});
  EXPECT_THROW(oracle::Attention(q3, kv2, kv2, cache2, cache2, 0), std::invalid_argument);
}

// ---- MRoPE -----------------------------------------------------------------------------

// Table rows: position 0 the identity, 1 a quarter turn, 2 a half turn, for every frequency.
HostTensor Cos(size_t half) {
  std::vector<double> values;
  for (double c : {1.0, 0.0, -1.0}) values.insert(values.end(), half, c);
  return F64({3, half}, values);
}
HostTensor Sin(size_t half) {
  std::vector<double> values;
  for (double s : {0.0, 1.0, 0.0}) values.insert(values.end(), half, s);
  return F64({3, half}, values);
}

// Rows t = 0, h = 1, w = 2 for the one token.
const HostTensor kThwPositions = HostTensor::FromValues(INFINI_DTYPE_I64, {3, 1}, {0, 1, 2});

// Sections (1, 1, 2) of half 4: frequency 0 takes t (identity), 1 takes h (a quarter turn:
// (x1, x5) -> (-x5, x1)), 2 and 3 take w (a half turn). Pairs (i, i + 4).
TEST(MRoPEOracle, ContiguousSectionsTakeTHThenWPositions) {
  const HostTensor x = F64({1, 8}, {1, 1, 1, 1, 2, 2, 2, 2});
  ExpectValues(oracle::MRoPE(x, Cos(4), Sin(4), kThwPositions, 8, 8, 1, 1, 2, false), {1, 8},
               {1, -2, -1, -1, 2, 1, -2, -2});
}

// Interleaved, the same sections: frequency 1 (mod 3 = 1, < 3) takes h, 2 (mod 3 = 2, < 6) w,
// and 0 and 3 take t.
TEST(MRoPEOracle, InterleavedSectionsCycleTHW) {
  const HostTensor x = F64({1, 8}, {1, 1, 1, 1, 2, 2, 2, 2});
  ExpectValues(oracle::MRoPE(x, Cos(4), Sin(4), kThwPositions, 8, 8, 1, 1, 2, true), {1, 8},
               {1, -2, -1, 1, 2, 1, -2, 2});
}

// rotary_dim 6 of a head of 8: pairs (i, i + 3) for i < 3; elements 6 and 7 pass through.
// Two heads per token, each rotated the same way.
TEST(MRoPEOracle, RotatesTheRotaryPartOfEveryHeadAndPassesTheRest) {
  const HostTensor x = F64({1, 16}, {1, 1, 1, 1, 1, 1, 5, 7, 1, 1, 1, 1, 1, 1, -5, -7});
  ExpectValues(oracle::MRoPE(x, Cos(3), Sin(3), kThwPositions, 8, 6, 1, 1, 1, false), {1, 16},
               {1, -1, -1, 1, 1, -1, 5, 7, 1, -1, -1, 1, 1, -1, -5, -7});
}

// 1-D positions (text): one position for all three rows; token 0 at position 1 (a quarter
// turn everywhere), token 1 at position 0 (the identity).
TEST(MRoPEOracle, OnePositionRowServesEverySection) {
  const HostTensor x = F64({2, 6}, {1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6});
  const HostTensor positions = HostTensor::FromValues(INFINI_DTYPE_I32, {2}, {1, 0});
  ExpectValues(oracle::MRoPE(x, Cos(3), Sin(3), positions, 6, 6, 1, 1, 1, false), {2, 6},
               {-4, -5, -6, 1, 2, 3, 1, 2, 3, 4, 5, 6});
}

TEST(MRoPEOracle, RejectsBadSectionsAndPositionsOutsideTheTable) {
  const HostTensor x = F64({1, 8}, {1, 1, 1, 1, 2, 2, 2, 2});
  EXPECT_THROW(oracle::MRoPE(x, Cos(4), Sin(4), kThwPositions, 8, 8, 1, 1, 1, false), std::invalid_argument);
  EXPECT_THROW(oracle::MRoPE(x, Cos(4), Sin(4), kThwPositions, 8, 7, 1, 1, 1, false), std::invalid_argument);
  const HostTensor far = HostTensor::FromValues(INFINI_DTYPE_I64, {3, 1}, {0, 1, 3});
  EXPECT_THROW(oracle::MRoPE(x, Cos(4), Sin(4), far, 8, 8, 1, 1, 2, false), std::invalid_argument);
}

}  // namespace
}  // namespace infinicts
